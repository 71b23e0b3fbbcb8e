/**
 * A dictionary as a spreadsheet, one concept a row (docs/exchange.md, Spreadsheets), from the entries the
 * TBX export reads: CSV (UTF-8 with a byte order mark, which Excel needs to read UTF-8; csv-stringify
 * quotes cells) or XLSX (exceljs's streaming writer). Columns: ID, the concept's fields, Domain, then per
 * language its terms (synonyms joined by "; "), its terms' fields (the n-th part for the n-th term) and
 * the language's own fields; or, asked for, each synonym in a column of its own with its fields after it,
 * under the same headers. The headers are those the import's preview proposes the same mapping from.
 */
import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { exportedValue } from '../tbx/field-names.js';
import type { TbxEntry, TbxValue } from '../tbx/tbx-model.js';

export const SYNONYM_SEPARATOR = '; ';
/** Several values of one field of one concept or language. */
const VALUE_SEPARATOR = '\n';

export interface SheetLayout {
  /** Language tags in the dictionary's order (en, is, de-AT). */
  languages: string[];
  conceptCategories: string[];
  termCategories: string[];
  languageCategories: string[];
  /**
   * Synonyms in repeated columns: per language tag, the most terms a concept has, each term a column of
   * its own (with its fields after it) under the same header. Absent: synonyms joined in one cell.
   */
  termColumns?: Record<string, number>;
}

interface Column {
  header: string;
  cell: (entry: TbxEntry) => string;
}

const headerOf = (category: string) => exportedValue(category, '').name;
const languageName = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });

function languageHeader(tag: string): string {
  try {
    return languageName.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

const joined = (values: TbxValue[], category: string, separator: string) =>
  values
    .filter((value) => value.category === category)
    .map((value) => value.value)
    .join(separator);

/** The columns of a layout, each reading its cell from an entry. */
function columnsOf(layout: SheetLayout): Column[] {
  const sectionOf = (entry: TbxEntry, tag: string) =>
    entry.languages.filter((section) => sectionTag(section.lang, layout.languages) === tag);
  const columns: Column[] = [{ header: 'ID', cell: (entry) => entry.id ?? '' }];
  for (const category of layout.conceptCategories) {
    columns.push({
      header: headerOf(category),
      cell: (entry) => joined(entry.values, category, VALUE_SEPARATOR),
    });
  }
  columns.push({
    header: 'Domain',
    cell: (entry) => joined(entry.values, 'subjectField', SYNONYM_SEPARATOR),
  });
  for (const tag of layout.languages) {
    const name = languageHeader(tag);
    const terms = (entry: TbxEntry) => sectionOf(entry, tag).flatMap((section) => section.terms);
    const repeated = layout.termColumns?.[tag];
    for (let index = 0; repeated !== undefined && index < Math.max(repeated, 1); index++) {
      const term = (entry: TbxEntry) => terms(entry)[index];
      columns.push({ header: name, cell: (entry) => term(entry)?.term ?? '' });
      for (const category of layout.termCategories) {
        columns.push({
          header: `${name}: ${headerOf(category)}`,
          cell: (entry) => joined(term(entry)?.values ?? [], category, ', '),
        });
      }
    }
    if (repeated === undefined) {
      joinedTermColumns(columns, name, terms, layout.termCategories);
    }
    for (const category of layout.languageCategories) {
      columns.push({
        header: `${name} (language): ${headerOf(category)}`,
        cell: (entry) =>
          sectionOf(entry, tag)
            .map((section) => joined(section.values, category, VALUE_SEPARATOR))
            .filter(Boolean)
            .join(VALUE_SEPARATOR),
      });
    }
  }
  return columns;
}

/** A language's terms joined in one column, their fields likewise (the n-th part for the n-th term). */
function joinedTermColumns(
  columns: Column[],
  name: string,
  terms: (entry: TbxEntry) => TbxEntry['languages'][number]['terms'],
  termCategories: string[],
) {
  columns.push({
    header: name,
    cell: (entry) =>
      terms(entry)
        .map((term) => term.term)
        .join(SYNONYM_SEPARATOR),
  });
  for (const category of termCategories) {
    columns.push({
      header: `${name}: ${headerOf(category)}`,
      cell: (entry) => {
        const parts = terms(entry).map((term) => joined(term.values, category, ', '));
        return parts.some(Boolean) ? parts.join(SYNONYM_SEPARATOR) : '';
      },
    });
  }
}

/** The layout's language a section belongs to: its own tag, else its language without region or script. */
function sectionTag(lang: string, languages: string[]): string {
  const exact = languages.find((tag) => tag.toLowerCase() === lang.toLowerCase());
  if (exact) return exact;
  const base = lang.split(/[-_]/)[0]!.toLowerCase();
  return languages.find((tag) => tag.toLowerCase() === base) ?? lang;
}

/**
 * Counts what a row cannot hold (the export job's report): cross-references (relations are not
 * columns) and language values of fields without a language column.
 */
function reportLosses(entry: TbxEntry, layout: SheetLayout, report: Map<string, number>) {
  const add = (key: string, count: number) => {
    if (count > 0) report.set(key, (report.get(key) ?? 0) + count);
  };
  add(
    'not written: cross-references (relations)',
    entry.values.filter((v) => v.category === 'crossReference').length,
  );
  for (const section of entry.languages) {
    for (const value of section.values) {
      if (!layout.languageCategories.includes(value.category)) {
        add(`not written: language values of ${value.category} (no language column)`, 1);
      }
    }
  }
}

async function* reported(
  entries: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  layout: SheetLayout,
  report: Map<string, number>,
): AsyncGenerator<TbxEntry> {
  for await (const entry of entries) {
    reportLosses(entry, layout, report);
    yield entry;
  }
}

/** Streams CSV text, a batch of rows per chunk. */
export async function* writeCsv(
  layout: SheetLayout,
  source: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  report: Map<string, number> = new Map(),
): AsyncGenerator<string> {
  const columns = columnsOf(layout);
  const entries = reported(source, layout, report);
  yield `\uFEFF${stringify([columns.map((column) => column.header)], { record_delimiter: 'windows' })}`;
  let pending = '';
  for await (const entry of entries) {
    pending += stringify([columns.map((column) => column.cell(entry))], { record_delimiter: 'windows' });
    if (pending.length >= 256 * 1024) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

/** Streams an XLSX workbook of one sheet as it is zipped. */
export async function* writeXlsx(
  layout: SheetLayout,
  source: AsyncIterable<TbxEntry> | Iterable<TbxEntry>,
  sheetName: string,
  report: Map<string, number> = new Map(),
): AsyncGenerator<Uint8Array> {
  const columns = columnsOf(layout);
  const entries = reported(source, layout, report);
  const output = new PassThrough();
  // Loaded on first use: exceljs adds tens of MB to the server's memory.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: false,
    useSharedStrings: false,
  });
  // Excel refuses sheet names over 31 characters or with []:*?/\ in them.
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Dictionary');
  const writing = (async () => {
    sheet.addRow(columns.map((column) => column.header)).commit();
    for await (const entry of entries) sheet.addRow(columns.map((column) => column.cell(entry))).commit();
    sheet.commit();
    await workbook.commit();
  })();
  writing.catch((error) => output.destroy(error));
  for await (const chunk of output) yield chunk as Uint8Array;
  await writing;
}
