import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../data';
import { type DraftLanguageFields, languageKey } from './concept-draft';
import { namesOf } from './concept-text';
import { FieldInputs } from './FieldValues';

const none = new Map<string, string[]>();

/** "English", or "English (GB, Latn)" for a tag with a region or script. */
export function languageLabel(
  names: ReturnType<typeof namesOf>,
  row: { languageCode: string; regionCode: string | null; scriptCode: string | null },
) {
  const variant = [row.regionCode, row.scriptCode].filter(Boolean).join(', ');
  return `${names.language(row.languageCode)}${variant ? ` (${variant})` : ''}`;
}

/**
 * Language values (docs/concepts.md, Language fields): per language of the dictionary (and per tag with a
 * region or script that holds values) the term fields as they hold for the language as a whole, edited
 * with the same field controls as the concept's. A language gets a row of the draft once it is edited.
 */
export function LanguageFieldsEditor(props: {
  dictionary: Dictionary;
  rows: DraftLanguageFields[];
  /** Draft row index to field oid to the server's messages. */
  problems?: Map<number, Map<string, string[]>>;
  onChange: (rows: DraftLanguageFields[]) => void;
}) {
  const { t } = useTranslation('concept');
  const { dictionary, rows, problems, onChange } = props;
  const fields = dictionary.termFields ?? [];
  if (fields.length === 0) return null;
  const names = namesOf(dictionary);
  const languages = (dictionary.languages ?? []).filter((l) => !l.deleted);
  const blank = (code: string): DraftLanguageFields => ({
    key: code,
    languageCode: code,
    regionCode: null,
    scriptCode: null,
    fieldMap: {},
  });
  // Each language's plain tag first, then its tags with a region or script, in the draft's order.
  const shown = languages.flatMap((language) => {
    const own = rows.filter((row) => row.languageCode === language.code);
    const plain = own.find((row) => row.regionCode === null && row.scriptCode === null);
    return [plain ?? blank(language.code), ...own.filter((row) => row !== plain)];
  });
  const set = (row: DraftLanguageFields, fieldMap: Record<string, string[]>) => {
    const key = languageKey(row);
    const known = rows.some((r) => languageKey(r) === key);
    onChange(
      known
        ? rows.map((r) => (languageKey(r) === key ? { ...r, fieldMap } : r))
        : [...rows, { ...row, fieldMap }],
    );
  };
  return (
    <section aria-labelledby="language-values-title" className="stack">
      <h2 id="language-values-title">{t('languageFields.title')}</h2>
      <p className="hint">{t('languageFields.hint')}</p>
      {shown.map((row) => {
        const label = languageLabel(names, row);
        const index = rows.findIndex((r) => languageKey(r) === languageKey(row));
        return (
          <fieldset key={languageKey(row)} className="card" lang={names.tag(row.languageCode)}>
            <legend>{label}</legend>
            <FieldInputs
              fields={fields}
              values={row.fieldMap}
              problems={(index >= 0 ? problems?.get(index) : undefined) ?? none}
              owner={label}
              onChange={(fieldMap) => set(row, fieldMap)}
            />
          </fieldset>
        );
      })}
    </section>
  );
}
