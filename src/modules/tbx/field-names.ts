/**
 * Field names as people and tools write them <-> TBX data categories, shared by the formats that name
 * fields freely: MultiTerm XML (a termbase definition names its descriptive fields, often in the author's
 * language: `Definition`, `Définition`, `Quelle`) and spreadsheet headers (docs/exchange.md). The names
 * below are the ones MultiTerm's own templates and the usual localisations use; any other name is kept as
 * a field of that name, so nothing is dropped and an export writes it back under the same name.
 */
import { normalizeStatus } from './tbx-dialects.js';

const CATEGORY_BY_NAME = new Map<string, string>(
  (
    [
      ['definition', ['definition', 'définition', 'definición', 'definizione', 'definição', 'skilgreining']],
      [
        'note',
        ['note', 'notes', 'remarque', 'notiz', 'anmerkung', 'nota', 'comment', 'kommentar', 'athugasemd'],
      ],
      ['source', ['source', 'quelle', 'fuente', 'fonte', 'heimild', 'definition source']],
      ['context', ['context', 'kontext', 'contexte', 'contexto', 'example', 'beispiel', 'dæmi']],
      [
        'subjectField',
        ['subject', 'subject field', 'domain', 'domaine', 'sachgebiet', 'fachgebiet', 'dominio', 'svið'],
      ],
      ['partOfSpeech', ['part of speech', 'pos', 'wortart', 'catégorie grammaticale', 'orðflokkur']],
      ['grammaticalGender', ['gender', 'genus', 'genre', 'género', 'kyn']],
      ['termType', ['term type', 'termtyp', 'type de terme', 'tipo de término']],
      ['administrativeStatus', ['status', 'usage status', 'usage', 'term status', 'verwendung']],
      ['originalId', ['originalid']],
    ] as const
  ).flatMap(([category, names]) => names.map((name) => [name, category] as const)),
);

/** The name an export writes for a category (the English of MultiTerm's templates). */
const NAME_BY_CATEGORY = new Map<string, string>([
  ['definition', 'Definition'],
  ['note', 'Note'],
  ['source', 'Source'],
  ['context', 'Context'],
  ['subjectField', 'Subject'],
  ['partOfSpeech', 'Part of speech'],
  ['grammaticalGender', 'Gender'],
  ['termType', 'Term type'],
  ['administrativeStatus', 'Status'],
  ['crossReference', 'Cross-reference'],
  ['externalCrossReference', 'Link'],
]);

/** The usual status words (MultiTerm's, spreadsheets') -> TBX administrative status. */
const STATUS_WORDS = new Map<string, string>([
  ['preferred', 'preferredTerm-admn-sts'],
  ['preferred term', 'preferredTerm-admn-sts'],
  ['approved', 'preferredTerm-admn-sts'],
  ['admitted', 'admittedTerm-admn-sts'],
  ['admitted term', 'admittedTerm-admn-sts'],
  ['permitted', 'admittedTerm-admn-sts'],
  ['allowed', 'admittedTerm-admn-sts'],
  ['deprecated', 'deprecatedTerm-admn-sts'],
  ['deprecated term', 'deprecatedTerm-admn-sts'],
  ['not recommended', 'deprecatedTerm-admn-sts'],
  ['superseded', 'supersededTerm-admn-sts'],
  ['obsolete', 'supersededTerm-admn-sts'],
]);

/** The TBX-style export's status values -> the words written for them. */
const WORD_BY_STATUS = new Map<string, string>([
  ['preferredTerm-admn-sts', 'preferred'],
  ['admittedTerm-admn-sts', 'admitted'],
  ['deprecatedTerm-admn-sts', 'deprecated'],
  ['supersededTerm-admn-sts', 'superseded'],
]);

/** The TBX category a field name stands for, or the name itself (a field of that name). */
export const categoryOfName = (fieldName: string): string =>
  CATEGORY_BY_NAME.get(fieldName.trim().toLowerCase()) ?? fieldName.trim();

/**
 * The category and value a named field's value is imported as: by the name, or as `target` (a mapping's
 * choice). A status field whose value is no status word stays a field of its own name (a termbase's
 * "Status" may well mean something else).
 */
export function importedValue(
  fieldName: string,
  text: string,
  target?: string,
): { category: string; value: string } {
  const name = fieldName.trim();
  const category = target ?? CATEGORY_BY_NAME.get(name.toLowerCase());
  if (category === 'administrativeStatus') {
    const status = STATUS_WORDS.get(text.trim().toLowerCase()) ?? normalizeStatus(text.trim());
    return status.endsWith('-admn-sts') ? { category, value: status } : { category: name, value: text };
  }
  return { category: category ?? name, value: text };
}

/** The field name and value an export writes for a TBX category's value. */
export function exportedValue(category: string, value: string): { name: string; value: string } {
  if (category === 'administrativeStatus') {
    return { name: 'Status', value: WORD_BY_STATUS.get(value) ?? value };
  }
  return { name: NAME_BY_CATEGORY.get(category) ?? category, value };
}
