/**
 * Reads a SKOS file (Turtle or N-Triples by N3.js, RDF/XML by rdfxml-streaming-parser, JSON-LD by
 * jsonld) into the vocabulary it describes: concepts with their labels (SKOS-XL labels first, then the
 * core ones), documentation, hierarchy and collections. Triples come in any order, so the whole graph's
 * SKOS statements are gathered before a concept is complete; the file size limit bounds what is held.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type jsonld from 'jsonld';
import { DC, DCT, type LabelKind, RDF_TYPE, RDFS, SKOS, SKOSXL } from './skos-vocabulary.js';
import type { SkosFormat } from './skos-writers.js';

/** The file is no RDF (or not in the format given): 400 with the parser's message. */
export class SkosFormatError extends Error {}

interface Term {
  termType: string;
  value: string;
  language?: string;
}
interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

export interface SkosLabel {
  kind: LabelKind;
  value: string;
  lang: string | null;
}

export interface SkosConceptIn {
  iri: string;
  labels: SkosLabel[];
  notes: { property: string; value: string; lang: string | null }[];
  broader: Set<string>;
  narrower: Set<string>;
  related: Set<string>;
  notations: string[];
  created: string | null;
  modified: string | null;
  /** The names of the collections it is a member of. */
  collections: string[];
}

export interface SkosVocabulary {
  title: string | null;
  concepts: SkosConceptIn[];
}

const NOTE_PROPERTIES = new Set([
  'definition',
  'scopeNote',
  'example',
  'note',
  'editorialNote',
  'historyNote',
  'changeNote',
]);
const TITLES = [`${DCT}title`, `${DC}title`, `${RDFS}label`, `${SKOS}prefLabel`];

interface Subject {
  types: Set<string>;
  literals: { predicate: string; value: string; lang: string | null }[];
  links: { predicate: string; iri: string }[];
}

/** The format of a file: by its name's extension, else by its first characters. */
export async function detectFormat(path: string, fileName: string | null): Promise<SkosFormat> {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
  if (extension && ['ttl', 'turtle', 'nt', 'n3'].includes(extension)) return 'turtle';
  if (extension && ['rdf', 'xml', 'owl'].includes(extension)) return 'rdfxml';
  if (extension && ['jsonld', 'json'].includes(extension)) return 'jsonld';
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    const head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (head.startsWith('<?xml') || /^<(rdf:)?RDF\b/.test(head)) return 'rdfxml';
    if (head.startsWith('{') || head.startsWith('[')) return 'jsonld';
    return 'turtle';
  } finally {
    await handle.close();
  }
}

const key = (term: Term) => (term.termType === 'BlankNode' ? `_:${term.value}` : term.value);

async function* quadsOf(path: string, format: SkosFormat): AsyncGenerator<Quad> {
  if (format === 'jsonld') {
    let document: unknown;
    try {
      document = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new SkosFormatError(`Not JSON: ${(error as Error).message}`);
    }
    let quads: Quad[];
    try {
      const { default: JsonLd } = await import('jsonld');
      quads = (await JsonLd.toRDF(document as jsonld.JsonLdDocument, {
        // Contexts are never fetched: an import must not make the server call out.
        documentLoader: async (url: string) => {
          throw new SkosFormatError(
            `The remote JSON-LD context ${url} is not fetched; put the context in the file`,
          );
        },
      })) as unknown as Quad[];
    } catch (error) {
      if (error instanceof SkosFormatError) throw error;
      const cause = (error as { details?: { cause?: unknown } }).details?.cause;
      if (cause instanceof SkosFormatError) throw cause;
      throw new SkosFormatError(`Not valid JSON-LD: ${(error as Error).message}`);
    }
    yield* quads;
    return;
  }
  // The RDF parsers are loaded on first use: with jsonld they add tens of MB to the server's memory.
  const parser =
    format === 'rdfxml'
      ? new (await import('rdfxml-streaming-parser')).RdfXmlParser({ baseIRI: 'urn:polyterm:upload' })
      : new (await import('n3')).StreamParser({ baseIRI: 'urn:polyterm:upload' });
  const input = createReadStream(path);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser as unknown as NodeJS.WritableStream);
  try {
    for await (const quad of parser as AsyncIterable<Quad>) yield quad;
  } catch (error) {
    throw new SkosFormatError(
      `Not valid ${format === 'rdfxml' ? 'RDF/XML' : 'Turtle'}: ${(error as Error).message}`,
    );
  }
}

/** Reads the file whole; a file that does not parse, or holds no skos:Concept, throws SkosFormatError. */
export async function readSkos(path: string, format: SkosFormat): Promise<SkosVocabulary> {
  const subjects = new Map<string, Subject>();
  const subject = (id: string) => {
    let found = subjects.get(id);
    if (!found) {
      found = { types: new Set(), literals: [], links: [] };
      subjects.set(id, found);
    }
    return found;
  };
  for await (const quad of quadsOf(path, format)) {
    const predicate = quad.predicate.value;
    const id = key(quad.subject);
    if (predicate === RDF_TYPE) {
      subject(id).types.add(quad.object.value);
    } else if (quad.object.termType === 'Literal') {
      subject(id).literals.push({ predicate, value: quad.object.value, lang: quad.object.language || null });
    } else {
      subject(id).links.push({ predicate, iri: key(quad.object) });
    }
  }
  return vocabularyOf(subjects);
}

function vocabularyOf(subjects: Map<string, Subject>): SkosVocabulary {
  const isA = (type: string) => [...subjects].filter(([, s]) => s.types.has(type));
  const scheme = isA(`${SKOS}ConceptScheme`)[0]?.[1];
  const title = scheme ? titleOf(scheme) : null;
  const collectionsOf = new Map<string, string[]>();
  for (const [iri, collection] of [...isA(`${SKOS}Collection`), ...isA(`${SKOS}OrderedCollection`)]) {
    const name = (titleOf(collection) ?? iri.replace(/^.*[/#:]/, '')).slice(0, 255);
    for (const link of collection.links) {
      if (link.predicate !== `${SKOS}member`) continue;
      const names = collectionsOf.get(link.iri) ?? [];
      if (!names.includes(name)) names.push(name);
      collectionsOf.set(link.iri, names);
    }
  }
  const concepts = isA(`${SKOS}Concept`).map(([iri, data]) =>
    conceptOf(iri, data, subjects, collectionsOf.get(iri) ?? []),
  );
  if (concepts.length === 0) throw new SkosFormatError('No skos:Concept in the file');
  return { title, concepts };
}

/** The name of a scheme or collection: English or untagged first, then any. */
function titleOf(data: Subject): string | null {
  for (const predicate of TITLES) {
    const values = data.literals.filter((l) => l.predicate === predicate);
    const best =
      values.find((l) => l.lang === null) ?? values.find((l) => l.lang?.startsWith('en')) ?? values[0];
    if (best?.value.trim()) return best.value.replace(/\s+/g, ' ').trim();
  }
  return null;
}

function conceptOf(
  iri: string,
  data: Subject,
  subjects: Map<string, Subject>,
  collections: string[],
): SkosConceptIn {
  const labels: SkosLabel[] = [];
  const seen = new Set<string>();
  const add = (kind: LabelKind, value: string, lang: string | null) => {
    const text = value.trim();
    // Labels of a language are disjoint (SKOS): the first kind a text comes with is kept.
    const id = `${lang?.toLowerCase()}\u0000${text}`;
    if (text === '' || seen.has(id)) return;
    seen.add(id);
    labels.push({ kind, value: text, lang });
  };
  for (const kind of ['prefLabel', 'altLabel', 'hiddenLabel'] as const) {
    // SKOS-XL first: a skosxl:Label's literal form, then the core labels (which repeat them when both).
    for (const link of data.links) {
      if (link.predicate !== `${SKOSXL}${kind}`) continue;
      for (const form of subjects.get(link.iri)?.literals ?? []) {
        if (form.predicate === `${SKOSXL}literalForm`) add(kind, form.value, form.lang);
      }
    }
    for (const literal of data.literals) {
      if (literal.predicate === `${SKOS}${kind}`) add(kind, literal.value, literal.lang);
    }
  }
  const concept: SkosConceptIn = {
    iri,
    labels,
    notes: [],
    broader: new Set(),
    narrower: new Set(),
    related: new Set(),
    notations: [],
    created: null,
    modified: null,
    collections,
  };
  for (const literal of data.literals) {
    const local = literal.predicate.startsWith(SKOS) ? literal.predicate.slice(SKOS.length) : null;
    if (local && NOTE_PROPERTIES.has(local) && literal.value.trim()) {
      concept.notes.push({ property: local, value: literal.value, lang: literal.lang });
    } else if (local === 'notation') {
      concept.notations.push(literal.value);
    } else if (literal.predicate === `${DCT}created`) {
      concept.created ??= literal.value;
    } else if (literal.predicate === `${DCT}modified`) {
      concept.modified ??= literal.value;
    }
  }
  for (const link of data.links) {
    const local = link.predicate.startsWith(SKOS) ? link.predicate.slice(SKOS.length) : '';
    if (local === 'broader') concept.broader.add(link.iri);
    else if (local === 'narrower') concept.narrower.add(link.iri);
    else if (local === 'related') concept.related.add(link.iri);
  }
  return concept;
}
