import type { Concept, Dictionary, TermEntry } from '../data';
import { i18next } from '../i18n';
import type { Option } from './controls';

/**
 * The result table's columns beyond the working languages (issue 28), kept per user in the search
 * settings' `resultColumns`: dictionary, section, language variant (region, script), concept, and any
 * concept or term field (`field:<oid>`). Values are shown as text.
 */
const BUILT_IN_COLUMNS = ['dictionary', 'section', 'variant', 'concept'] as const;

/**
 * Every column a user may choose: the built-in ones, then the fields of the dictionaries (each oid once).
 * Named in the interface language from the `search` catalogue, which the calling screen has loaded.
 */
export function columnOptions(dictionaries: Dictionary[]): Option[] {
  const fields = new Map<string, { name: string; level: 'term' | 'concept'; dictionary: string }>();
  for (const dictionary of dictionaries) {
    const level = (list: typeof dictionary.termFields, kind: 'term' | 'concept') => {
      for (const field of list ?? []) {
        if (field.oid && !fields.has(field.oid))
          fields.set(field.oid, { name: field.name ?? '', level: kind, dictionary: dictionary.name ?? '' });
      }
    };
    level(dictionary.termFields, 'term');
    level(dictionary.conceptFields, 'concept');
  }
  // Fields of the same name and level in several dictionaries are told apart by their dictionary.
  const labels = [...fields.values()].map((field) => `${field.level}:${field.name}`);
  const shared = new Set(labels.filter((label, index) => labels.indexOf(label) !== index));
  return [
    ...BUILT_IN_COLUMNS.map((value) => ({ value, label: i18next.t(`search:columns.${value}`) })),
    ...[...fields].map(([oid, field]) => ({
      value: `field:${oid}`,
      label: shared.has(`${field.level}:${field.name}`)
        ? i18next.t(`search:columns.${field.level}FieldIn`, {
            field: field.name,
            dictionary: field.dictionary,
          })
        : i18next.t(`search:columns.${field.level}Field`, { field: field.name }),
    })),
  ];
}

/** A column's heading. */
export function columnLabel(column: string, options: Option[]): string {
  return options.find((option) => option.value === column)?.label ?? column;
}

/** Concept fields are only in the FULL format; the SHORT one keeps the terms and the section. */
export const needsFullConcepts = (columns: string[]) => columns.some((column) => column.startsWith('field:'));

/** The text of one cell: the matched term's field first, then the concept's. */
export function cellText(
  column: string,
  row: TermEntry,
  concept: Concept | undefined,
  dictionaries: Dictionary[],
): string {
  const dictionary = dictionaries.find((d) => d.id === row.dictionaryId);
  if (column === 'dictionary') return dictionary?.name ?? String(row.dictionaryId);
  if (column === 'section') {
    const oid = concept?.sectionOid;
    return (dictionary?.sections ?? []).find((section) => section.oid === oid)?.name ?? '';
  }
  if (column === 'variant') return [row.regionCode, row.scriptCode].filter(Boolean).join(', ');
  if (column === 'concept') return String(row.conceptId);
  if (column.startsWith('field:')) {
    const oid = column.slice('field:'.length);
    const term = concept?.terms?.find((t) => t.id === row.id);
    const values = term?.fieldMap?.[oid] ?? concept?.fieldMap?.[oid] ?? [];
    return values.join('; ');
  }
  return '';
}
