import type { Concept, Dictionary } from '../data';
import { i18next } from '../i18n';

/** Names of the dictionary's fields and languages, for showing oids and codes to people. */
export function namesOf(dictionary: Dictionary | undefined) {
  const fields = new Map<string, string>();
  for (const field of [...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])]) {
    if (field.oid) fields.set(field.oid, field.name);
  }
  const languages = new Map((dictionary?.languages ?? []).map((l) => [l.code, l]));
  return {
    field: (oid: string) => fields.get(oid) ?? oid,
    language: (code: string) => languages.get(code)?.name ?? code,
    /** The BCP 47 tag for a lang attribute: the ISO 639-1 code where there is one (deu: de). */
    tag: (code: string) => languages.get(code)?.code2 ?? undefined,
  };
}

/** The relation attributes by number, in English; `relationName` gives them in the interface language. */
export const RELATION_ATTRIBUTES = [
  'broader (generic)',
  'narrower (generic)',
  'whole (partitive)',
  'part (partitive)',
  'before',
  'concurrent',
  'after',
  'above',
  'below',
  'right of',
  'left of',
  'related',
];

/** A relation attribute's name in the interface language (the `concept` catalogue's `relation.<n>`). */
export function relationName(attribute: number): string {
  return i18next.t(`concept:relation.${attribute}`, { defaultValue: RELATION_ATTRIBUTES[attribute] ?? '' });
}

/** A short label of a concept: its first term in one of the given languages, else its first term. */
export function conceptLabel(concept: Concept, languages: string[]): string {
  const terms = concept.terms ?? [];
  const term = languages.map((code) => terms.find((t) => t.languageCode === code)).find(Boolean) ?? terms[0];
  return term?.name ?? i18next.t('concept:conceptN', { id: concept.cid ?? concept.id });
}

/**
 * The server's validation message ("terms[1]: name is required; fieldMap: …") split into the parts
 * each form field shows beside itself; what names no field stays general.
 */
export interface FieldProblems {
  general: string[];
  terms: Map<number, string[]>;
  fields: Map<string, string[]>;
}

export function problemsOf(message: string, fieldNames: Map<string, string>): FieldProblems {
  const result: FieldProblems = { general: [], terms: new Map(), fields: new Map() };
  for (const part of message.split('; ')) {
    const term = /^terms\[(\d+)\][^:]*: (.*)$/.exec(part);
    if (term) {
      const index = Number(term[1]);
      result.terms.set(index, [...(result.terms.get(index) ?? []), term[2]!]);
      continue;
    }
    const field = [...fieldNames].find(
      ([, name]) => part.includes(`Field "${name}"`) || part.includes(`"${name}"`),
    );
    if (field) result.fields.set(field[0], [...(result.fields.get(field[0]) ?? []), part]);
    else result.general.push(part);
  }
  return result;
}
