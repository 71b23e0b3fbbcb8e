import type { Concept, Dictionary, TermEntry } from '../data';
import type { Option } from './controls';

/**
 * The result table's columns beyond the working languages (issue 28), kept per user in the search
 * settings' `resultColumns`: dictionary, section, language variant (region, script), concept, and any
 * concept or term field (`field:<oid>`). Values are shown as text.
 */
export const BUILT_IN_COLUMNS: Option[] = [
  { value: 'dictionary', label: 'Dictionary' },
  { value: 'section', label: 'Section' },
  { value: 'variant', label: 'Region and script' },
  { value: 'concept', label: 'Concept number' },
];

/** Every column a user may choose: the built-in ones, then the fields of the dictionaries (each oid once). */
export function columnOptions(dictionaries: Dictionary[]): Option[] {
  const fields = new Map<string, { label: string; dictionary: string }>();
  for (const dictionary of dictionaries) {
    const level = (list: typeof dictionary.termFields, kind: string) => {
      for (const field of list ?? []) {
        if (field.oid && !fields.has(field.oid))
          fields.set(field.oid, { label: `${field.name} (${kind}`, dictionary: dictionary.name ?? '' });
      }
    };
    level(dictionary.termFields, 'term');
    level(dictionary.conceptFields, 'concept');
  }
  // Fields of the same name in several dictionaries are told apart by their dictionary.
  const labels = [...fields.values()].map((field) => field.label);
  const shared = new Set(labels.filter((label, index) => labels.indexOf(label) !== index));
  return [
    ...BUILT_IN_COLUMNS,
    ...[...fields].map(([oid, field]) => ({
      value: `field:${oid}`,
      label: shared.has(field.label) ? `${field.label}, ${field.dictionary})` : `${field.label})`,
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
