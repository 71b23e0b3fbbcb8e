import type { Concept } from '../data';

/** A reference link as the editor holds it: what the server takes (RefLinkInput), nothing more. */
export interface DraftLink {
  sourceFieldOid: string;
  type: 'CONCEPT' | 'TERM' | 'URL';
  text: string;
  position: number;
  url: string | null;
  conceptId: number | null;
  termId: number | null;
  languageCode: string | null;
  dynamicText: string | null;
}

export interface DraftTerm {
  key: string;
  id?: number;
  name: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
  refLinks: DraftLink[];
}

/** A relation from (or to) the concept; `sourceConceptId` null: from this concept. */
export interface DraftRelation {
  key: string;
  id?: number;
  sourceConceptId: number | null;
  targetConceptId: number;
  type: number;
  attribute: number;
  text: string | null;
}

/** A concept's values in one language tag as a whole (docs/concepts.md, Language fields). */
export interface DraftLanguageFields {
  key: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
}

export interface Draft {
  sectionOid: string;
  fieldMap: Record<string, string[]>;
  domainList: string[];
  relations: DraftRelation[];
  refLinks: DraftLink[];
  terms: DraftTerm[];
  languageFields: DraftLanguageFields[];
}

let keys = 0;
export const newKey = () => `new-${++keys}`;

type LinkDto = NonNullable<Concept['refLinks']>[number];
export const linkOf = (link: LinkDto): DraftLink => ({
  sourceFieldOid: link.sourceFieldOid,
  type: link.type,
  text: link.text,
  position: link.position,
  url: link.url,
  conceptId: link.conceptId,
  termId: link.termId,
  languageCode: link.languageCode,
  dynamicText: link.dynamicText,
});

export function emptyDraft(sectionOid: string, languageCode: string): Draft {
  return {
    sectionOid,
    fieldMap: {},
    domainList: [],
    relations: [],
    refLinks: [],
    terms: [newTerm(languageCode)],
    languageFields: [],
  };
}

export function newTerm(languageCode: string): DraftTerm {
  return {
    key: newKey(),
    name: '',
    languageCode,
    regionCode: null,
    scriptCode: null,
    fieldMap: {},
    refLinks: [],
  };
}

export function draftOf(concept: Concept): Draft {
  return {
    sectionOid: concept.sectionOid ?? '',
    fieldMap: { ...(concept.fieldMap ?? {}) },
    domainList: [...(concept.domainList ?? [])],
    relations: (concept.conceptRelations ?? []).map((r) => ({
      key: `relation-${r.id}`,
      id: r.id,
      sourceConceptId: r.sourceConceptId,
      targetConceptId: r.targetConceptId,
      type: r.type,
      attribute: r.attribute,
      text: r.text,
    })),
    refLinks: (concept.refLinks ?? []).map(linkOf),
    terms: (concept.terms ?? []).map((t) => ({
      key: `term-${t.id}`,
      id: t.id,
      name: t.name,
      languageCode: t.languageCode,
      regionCode: t.regionCode,
      scriptCode: t.scriptCode,
      fieldMap: { ...t.fieldMap },
      refLinks: t.refLinks.map(linkOf),
    })),
    languageFields: (concept.languageFields ?? []).map((row) => ({
      key: languageKey(row),
      languageCode: row.languageCode,
      regionCode: row.regionCode,
      scriptCode: row.scriptCode,
      fieldMap: { ...row.fieldMap },
    })),
  };
}

/** The key of a language tag's values: `eng`, `eng-GB`, `srp-Latn`. */
export const languageKey = (row: {
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
}) => [row.languageCode, row.scriptCode, row.regionCode].filter(Boolean).join('-');

/** What the server takes: no editor keys, fields without empty values. */
export function bodyOf(draft: Draft) {
  const clean = (map: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(map).map(([oid, values]) => [oid, values.filter((v) => v.trim() !== '')]),
    );
  return {
    sectionOid: draft.sectionOid,
    fieldMap: clean(draft.fieldMap),
    domainList: draft.domainList,
    refLinks: draft.refLinks,
    conceptRelations: draft.relations.map(({ key: _key, sourceConceptId, ...relation }) => ({
      ...relation,
      ...(sourceConceptId === null ? {} : { sourceConceptId }),
    })),
    terms: draft.terms.map(({ key: _key, ...term }) => ({ ...term, fieldMap: clean(term.fieldMap) })),
    // Every tag the editor holds, cleared fields as [] (a patch then removes them).
    languageFields: draft.languageFields.map(({ key: _key, ...row }) => ({
      ...row,
      fieldMap: clean(row.fieldMap),
    })),
  };
}

/** Relation types by attribute (the spec's numbers): GENERIC 0-1, PARTITIVE 2-3, TEMPORAL 4-6, SPATIAL 7-10, ASSOCIATIVE 11. */
export function typeOfAttribute(attribute: number): number {
  if (attribute <= 1) return 0;
  if (attribute <= 3) return 1;
  if (attribute <= 6) return 2;
  if (attribute <= 10) return 3;
  return 4;
}

/** Where `text` first stands in `value` as the server stores it (line breaks as CR LF), or -1. */
export function positionIn(value: string, text: string): number {
  return value.replace(/\r\n|\r|\n/g, '\r\n').indexOf(text.replace(/\r\n|\r|\n/g, '\r\n'));
}
