/**
 * The SKOS vocabulary both directions share (docs/exchange.md, "SKOS mapping"): namespaces, the note
 * properties and the dictionary fields they stand for, and the usage status values labels become.
 */

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const SKOSXL = 'http://www.w3.org/2008/05/skos-xl#';
export const DCT = 'http://purl.org/dc/terms/';
export const DC = 'http://purl.org/dc/elements/1.1/';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Prefixes of the files we write. */
export const PREFIXES: Readonly<Record<string, string>> = { rdf: RDF, skos: SKOS, dct: DCT, xsd: XSD };

export const RDF_TYPE = `${RDF}type`;

/** A literal with its BCP 47 language tag (null: none). */
export interface SkosLiteral {
  value: string;
  lang: string | null;
  /** A datatype IRI (dates); absent: a plain or language-tagged string. */
  datatype?: string;
}

/** One triple's object: a resource by IRI, or a literal. */
export type SkosObject = { iri: string } | SkosLiteral;

/** One subject with its types and its statements, as every writer receives it. */
export interface SkosNode {
  subject: string;
  types: readonly string[];
  statements: readonly (readonly [predicate: string, object: SkosObject])[];
}

export const LABELS = ['prefLabel', 'altLabel', 'hiddenLabel'] as const;
export type LabelKind = (typeof LABELS)[number];

/**
 * SKOS documentation properties -> the TBX data category (or GENERIC field name) their values are kept
 * in. `scopeNote` with a language goes to the term-level usage note (the concept's language fields);
 * a literal without a language stays at the concept, in a field named after the property.
 */
export const NOTE_CATEGORIES: Readonly<Record<string, { tagged: string; untagged: string }>> = {
  definition: { tagged: 'definition', untagged: 'definition' },
  scopeNote: { tagged: 'usageNote', untagged: 'scopeNote' },
  example: { tagged: 'example', untagged: 'example' },
  note: { tagged: 'note', untagged: 'note' },
  editorialNote: { tagged: 'editorialNote', untagged: 'editorialNote' },
  historyNote: { tagged: 'historyNote', untagged: 'historyNote' },
  changeNote: { tagged: 'changeNote', untagged: 'changeNote' },
};

/** The SKOS property a field's values are exported as (by data category, else by a GENERIC field's name). */
export function noteProperty(field: { dataCategory: string; name: string }): string | null {
  switch (field.dataCategory) {
    case 'DEFINITION':
      return 'definition';
    case 'EXAMPLE':
      return 'example';
    case 'USAGE_NOTE':
      return 'scopeNote';
    case 'EXPLANATION':
      return 'note';
    case 'GENERIC': {
      const name = field.name.trim().toLowerCase();
      // skos:notation is read into a GENERIC field of that name (skos-entries.ts) and written back.
      if (name === 'notation') return 'notation';
      return Object.keys(NOTE_CATEGORIES).find((property) => property.toLowerCase() === name) ?? null;
    }
    default:
      return null;
  }
}

/** Usage status values an import gives the terms of each label kind (administrativeStatus). */
export const STATUS_VALUES = {
  preferred: 'preferredTerm-admn-sts',
  admitted: 'admittedTerm-admn-sts',
  deprecated: 'deprecatedTerm-admn-sts',
  forbidden: 'forbiddenTerm-admn-sts',
} as const;

/** An absolute IRI as a concept's oid may hold one (an imported concept keeps its IRI there). */
export const isAbsoluteIri = (value: string): boolean =>
  /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]+$/i.test(value) && !/^(concept|term)-\d+$/.test(value);
