/**
 * The spreadsheet import's mapping step (issue 39, docs/exchange.md "Spreadsheets"): the file goes to the
 * preview call, which answers how it was read (CSV: encoding and separator; XLSX: the sheet), its first
 * rows and a proposed role per column; the person corrects the proposal before the import sends it.
 * Changing how the file is read previews it again and takes the new proposal (the columns may change).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';

const ROLES = ['ignore', 'id', 'term', 'termField', 'languageField', 'conceptField', 'domain'] as const;
type Role = (typeof ROLES)[number];
const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'];
const DELIMITERS = [
  { value: ',', key: 'comma' },
  { value: ';', key: 'semicolon' },
  { value: '\t', key: 'tab' },
  { value: '|', key: 'bar' },
];
/** The members each role takes (sheet-mapping.ts): the others are left out of what is sent. */
const MEMBERS: Record<Role, { language?: true; field?: true; separator?: true }> = {
  ignore: {},
  id: {},
  term: { language: true, separator: true },
  termField: { language: true, field: true, separator: true },
  languageField: { language: true, field: true },
  conceptField: { field: true, separator: true },
  domain: { separator: true },
};

/** A column as edited: every member kept while the role changes, so going back restores it. */
export interface EditedColumn {
  role: Role;
  language?: string;
  field?: string;
  separator?: string;
}
export interface SheetMapping {
  sheet?: string;
  headerRow: boolean;
  delimiter?: string;
  encoding?: string;
  columns: EditedColumn[];
}
interface Preview {
  kind: 'CSV' | 'XLSX';
  sheets: string[];
  sheet: string | null;
  encoding: string | null;
  delimiter: string | null;
  rows: string[][];
  mapping: SheetMapping;
}

/** A .csv/.tsv/.txt/.xlsx file (by its name or type) goes through the mapping step. */
export function isSpreadsheet(file: File | null): file is File {
  if (!file) return false;
  return (
    /\.(csv|tsv|txt|xlsx)$/i.test(file.name) ||
    /^text\/(csv|tab-separated-values|plain)$|spreadsheetml\.sheet$/.test(file.type)
  );
}

/**
 * The mapping as the import takes it: each column with its role's members only, empty ones left out,
 * and languages as the target dictionary's codes (the select shows them so).
 */
export function mappingToSend(mapping: SheetMapping, languages?: { code: string }[]): unknown {
  return {
    ...mapping,
    columns: mapping.columns.map((column) => {
      const sent: Record<string, string> = { role: column.role };
      for (const member of ['language', 'field', 'separator'] as const) {
        const value = member === 'language' ? ownLanguage(column.language, languages) : column[member];
        if (MEMBERS[column.role][member] && value) sent[member] = value;
      }
      return sent;
    }),
  };
}

/** The English name of a language tag or code, to match a proposed `en` to a dictionary's `eng`. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The proposed language as one of the dictionary's codes, where one is the same language. */
function ownLanguage(
  code: string | undefined,
  languages: { code: string }[] | undefined,
): string | undefined {
  if (!code || !languages || languages.some((l) => l.code === code)) return code;
  const name = languageName(code);
  return languages.find((l) => languageName(l.code) === name)?.code ?? code;
}

export function SpreadsheetMapping(props: {
  file: File;
  /** The target dictionary's languages (a select); none for a new dictionary (a text input). */
  languages?: { code: string; name: string }[];
  onChange: (mapping: SheetMapping | null) => void;
}) {
  const { file, languages, onChange } = props;
  const { t } = useTranslation('tbx');
  const [reading, setReading] = useState<{ sheet?: string; delimiter?: string; encoding?: string }>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mapping, setMapping] = useState<SheetMapping | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setError(null);
    const body = new FormData();
    body.set('file', file);
    for (const [name, value] of Object.entries(reading)) if (value) body.set(name, value);
    rest('/dictionaries/import-spreadsheet/preview', { method: 'POST', body })
      .then((response) => response.json() as Promise<Preview>)
      .then((answer) => {
        if (!current) return;
        setPreview(answer);
        setMapping(answer.mapping);
      })
      .catch((caught) => {
        if (!current) return;
        setPreview(null);
        setMapping(null);
        setError(problemOf(caught).message);
      });
    return () => {
      current = false;
    };
  }, [file, reading]);

  useEffect(() => onChange(mapping), [mapping, onChange]);

  if (error) return <ErrorMessage text={error} />;
  if (!preview || !mapping) return <p role="status">{t('sheet.reading')}</p>;

  const width = Math.max(mapping.columns.length, ...preview.rows.map((row) => row.length));
  const columns = Array.from(
    { length: width },
    (_, index) => mapping.columns[index] ?? { role: 'ignore' as Role },
  );
  const header = mapping.headerRow ? (preview.rows[0] ?? []) : [];
  const shown = mapping.headerRow ? preview.rows.slice(1) : preview.rows;
  const setColumn = (index: number, change: Partial<EditedColumn>) =>
    setMapping({
      ...mapping,
      columns: columns.map((column, at) => (at === index ? { ...column, ...change } : column)),
    });
  const columnName = (index: number) =>
    header[index]
      ? t('sheet.columnNamed', { n: index + 1, name: header[index] })
      : t('sheet.column', { n: index + 1 });

  return (
    <fieldset className="stack" aria-describedby="sheet-detected">
      <legend>{t('sheet.title')}</legend>
      <p id="sheet-detected" role="status">
        {preview.kind === 'CSV'
          ? t('sheet.detectedCsv', {
              encoding: preview.encoding?.toUpperCase(),
              delimiter: t(
                `sheet.delimiters.${DELIMITERS.find((d) => d.value === preview.delimiter)?.key ?? 'comma'}`,
              ),
            })
          : t('sheet.detectedXlsx', { sheet: preview.sheet })}
      </p>
      {preview.kind === 'CSV' ? (
        <div className="actions">
          <Choice
            label={t('sheet.encoding')}
            value={preview.encoding ?? ''}
            options={ENCODINGS.map((value) => ({ value, label: value.toUpperCase() }))}
            onChange={(encoding) => setReading({ ...reading, encoding })}
          />
          <Choice
            label={t('sheet.delimiter')}
            value={preview.delimiter ?? ''}
            options={DELIMITERS.map((d) => ({ value: d.value, label: t(`sheet.delimiters.${d.key}`) }))}
            onChange={(delimiter) => setReading({ ...reading, delimiter })}
          />
        </div>
      ) : (
        <Choice
          label={t('sheet.sheet')}
          value={preview.sheet ?? ''}
          options={preview.sheets.map((sheet) => ({ value: sheet, label: sheet }))}
          onChange={(sheet) => setReading({ sheet })}
        />
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={mapping.headerRow}
          onChange={(event) => setMapping({ ...mapping, headerRow: event.target.checked })}
        />
        {t('sheet.headerRow')}
      </label>
      <div className="table-scroll">
        <table className="results">
          <caption>{t('sheet.rows')}</caption>
          <thead>
            <tr>
              {columns.map((_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are known by their place
                <th key={index} scope="col">
                  {columnName(index)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, at) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are known by their place
              <tr key={at}>
                {columns.map((_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are known by their place
                  <td key={index}>{row[index] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {columns.map((column, index) => (
        <ColumnRole
          // biome-ignore lint/suspicious/noArrayIndexKey: columns are known by their place
          key={index}
          name={columnName(index)}
          column={column}
          languages={languages}
          onChange={(change) => setColumn(index, change)}
        />
      ))}
    </fieldset>
  );
}

/** One column's role and the members the role takes. */
function ColumnRole(props: {
  name: string;
  column: EditedColumn;
  languages?: { code: string; name: string }[];
  onChange: (change: Partial<EditedColumn>) => void;
}) {
  const { column, languages, onChange } = props;
  const { t } = useTranslation('tbx');
  const members = MEMBERS[column.role];
  const language = ownLanguage(column.language, languages);
  const languageChoices = [
    ...(languages ?? []).map((l) => ({ value: l.code, label: l.name })),
    // A proposed language the dictionary lacks stays visible (the import would refuse or add it).
    ...(language && languages && !languages.some((l) => l.code === language)
      ? [{ value: language, label: language }]
      : []),
  ];
  return (
    <fieldset className="actions">
      <legend>{props.name}</legend>
      <Choice
        label={t('sheet.role')}
        value={column.role}
        options={ROLES.map((role) => ({ value: role, label: t(`sheet.roles.${role}`) }))}
        onChange={(role) => onChange({ role: role as Role, language })}
      />
      {members.language &&
        (languages ? (
          <Choice
            label={t('sheet.language')}
            value={language ?? ''}
            options={languageChoices}
            empty={language ? undefined : ''}
            onChange={(code) => onChange({ language: code })}
          />
        ) : (
          <label>
            {t('sheet.language')}
            <input
              value={column.language ?? ''}
              onChange={(event) => onChange({ language: event.target.value })}
              required
              minLength={2}
              maxLength={32}
              size={8}
            />
          </label>
        ))}
      {members.field && (
        <label>
          {t('sheet.field')}
          <input
            value={column.field ?? ''}
            onChange={(event) => onChange({ field: event.target.value })}
            required
            maxLength={255}
          />
        </label>
      )}
      {members.separator && (
        <label>
          {t('sheet.separator')}
          <input
            value={column.separator ?? ''}
            onChange={(event) => onChange({ separator: event.target.value })}
            maxLength={8}
            size={4}
          />
        </label>
      )}
    </fieldset>
  );
}
