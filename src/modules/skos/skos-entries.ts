/**
 * The reverse mapping of a SKOS import (docs/exchange.md): each skos:Concept becomes an entry as the
 * TBX import plans it (tbx-import-plan.ts), so fields, languages, domains, merging and the bulk writes
 * are the TBX import's own. prefLabel -> preferred term, altLabel -> admitted, hiddenLabel -> forbidden
 * (or deprecated), each with its administrativeStatus; documentation properties -> fields; collections
 * -> domains; dct:created/modified -> the times. The hierarchy is written after all concepts.
 */
import type { TbxEntry, TbxLanguageSection, TbxValue } from '../tbx/tbx-model.js';
import type { SkosConceptIn } from './skos-reader.js';
import { NOTE_CATEGORIES, STATUS_VALUES } from './skos-vocabulary.js';

/** Concept ids (oids) hold at most this many characters; a longer IRI is kept in the `iri` field. */
export const MAX_OID_LENGTH = 64;
export const IRI_FIELD = 'iri';

export interface EntryOptions {
  hidden: 'FORBIDDEN' | 'DEPRECATED';
}

const parseDate = (value: string | null): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The entry of one concept, and the warnings it gives rise to. */
export function entryOf(
  concept: SkosConceptIn,
  options: EntryOptions,
  warn: (message: string) => void,
): TbxEntry {
  const values: TbxValue[] = [];
  if (concept.iri.length > MAX_OID_LENGTH) {
    values.push({ category: IRI_FIELD, element: 'admin', value: concept.iri });
  }
  for (const notation of concept.notations)
    values.push({ category: 'notation', element: 'admin', value: notation });
  for (const name of concept.collections)
    values.push({ category: 'subjectField', element: 'descrip', value: name });
  const sections = new Map<string, TbxLanguageSection>();
  const section = (lang: string) => {
    const key = lang.toLowerCase();
    let found = sections.get(key);
    if (!found) {
      found = { lang, values: [], terms: [] };
      sections.set(key, found);
    }
    return found;
  };
  let untagged = 0;
  for (const label of concept.labels) {
    if (!label.lang) {
      untagged++;
      continue;
    }
    const status =
      label.kind === 'prefLabel'
        ? STATUS_VALUES.preferred
        : label.kind === 'altLabel'
          ? STATUS_VALUES.admitted
          : options.hidden === 'DEPRECATED'
            ? STATUS_VALUES.deprecated
            : STATUS_VALUES.forbidden;
    section(label.lang).terms.push({
      id: null,
      term: label.value,
      values: [{ category: 'administrativeStatus', element: 'termNote', value: status }],
      transactions: [],
      line: 0,
    });
  }
  if (untagged) warn(`${concept.iri}: ${untagged} label(s) without a language tag are skipped`);
  for (const [, { lang, terms }] of sections) {
    // SKOS readers show a concept in a language only with a prefLabel: an altLabel-only language
    // gets its first altLabel promoted.
    if (terms.some((t) => t.values[0]?.value === STATUS_VALUES.preferred)) continue;
    const first = terms.find((t) => t.values[0]?.value === STATUS_VALUES.admitted);
    if (first) {
      first.values = [
        { category: 'administrativeStatus', element: 'termNote', value: STATUS_VALUES.preferred },
      ];
      warn(
        `${concept.iri}: no skos:prefLabel in "${lang}"; the altLabel "${first.term}" is made the preferred term`,
      );
    }
  }
  for (const note of concept.notes) {
    const categories = NOTE_CATEGORIES[note.property]!;
    if (note.lang && sections.has(note.lang.toLowerCase())) {
      section(note.lang).values.push({ category: categories.tagged, element: 'descrip', value: note.value });
    } else {
      // Untagged, or of a language without labels: the concept's (the language is said in the value).
      const value = note.lang ? `[${note.lang}] ${note.value}` : note.value;
      values.push({ category: categories.untagged, element: 'descrip', value });
    }
  }
  const created = parseDate(concept.created);
  const modified = parseDate(concept.modified);
  return {
    id: concept.iri.length <= MAX_OID_LENGTH ? concept.iri : null,
    values,
    transactions: [
      ...(created ? [{ kind: 'created' as const, date: created, responsibility: null }] : []),
      ...(modified ? [{ kind: 'changed' as const, date: modified, responsibility: null }] : []),
    ],
    languages: [...sections.values()],
    line: 0,
  };
}
