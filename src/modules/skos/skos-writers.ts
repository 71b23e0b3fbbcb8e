/**
 * The three serialisations of a SKOS export, each a stream of text produced node by node, so a
 * dictionary of any size is written with one batch in memory: Turtle by N3.js's writer, RDF/XML and
 * JSON-LD by small writers of our own for the fixed shape we emit (no RDF/JS package serialises RDF/XML,
 * and a JSON-LD library would hold the whole graph to compact it).
 */
import { PREFIXES, RDF, type SkosLiteral, type SkosNode, type SkosObject } from './skos-vocabulary.js';

export const SkosFormats = ['turtle', 'rdfxml', 'jsonld'] as const;
export type SkosFormat = (typeof SkosFormats)[number];

export const SKOS_MEDIA_TYPES: Record<SkosFormat, { type: string; extension: string }> = {
  turtle: { type: 'text/turtle', extension: 'ttl' },
  rdfxml: { type: 'application/rdf+xml', extension: 'rdf' },
  jsonld: { type: 'application/ld+json', extension: 'jsonld' },
};

const isIri = (object: SkosObject): object is { iri: string } => 'iri' in object;

/** Writes the nodes in the format asked for. */
export function writeSkos(format: SkosFormat, nodes: AsyncIterable<SkosNode>): AsyncGenerator<string> {
  if (format === 'rdfxml') return writeRdfXml(nodes);
  if (format === 'jsonld') return writeJsonLd(nodes);
  return writeTurtle(nodes);
}

// ---------------------------------------------------------------- Turtle

async function* writeTurtle(nodes: AsyncIterable<SkosNode>): AsyncGenerator<string> {
  let buffer: string[] = [];
  const sink = {
    write: (chunk: string, _encoding?: string, done?: () => void) => {
      buffer.push(chunk);
      done?.();
    },
    end: (done?: () => void) => done?.(),
  };
  // N3.js writes to anything with write/end: each node's text is taken as soon as it is written.
  // Loaded on first use, as the readers' RDF libraries: less memory for a server that never writes Turtle.
  const { DataFactory, Writer } = await import('n3');
  const writer = new Writer(sink as unknown as NodeJS.WritableStream, {
    prefixes: { ...PREFIXES },
    end: false,
  });
  const { namedNode, literal, quad } = DataFactory;
  const term = (object: SkosObject) =>
    isIri(object)
      ? namedNode(object.iri)
      : literal(object.value, object.lang ?? (object.datatype ? namedNode(object.datatype) : undefined));
  for await (const node of nodes) {
    const subject = namedNode(node.subject);
    for (const type of node.types) writer.addQuad(quad(subject, namedNode(`${RDF}type`), namedNode(type)));
    for (const [predicate, object] of node.statements) {
      writer.addQuad(quad(subject, namedNode(predicate), term(object)));
    }
    if (buffer.length) {
      yield buffer.join('');
      buffer = [];
    }
  }
  await new Promise<void>((resolve, reject) => writer.end((error) => (error ? reject(error) : resolve())));
  if (buffer.length) yield buffer.join('');
}

// ---------------------------------------------------------------- RDF/XML

/** Characters XML 1.0 cannot carry at all (control characters but tab, CR, LF; lone surrogates; FFFE/FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are the point here
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or attribute content, escaped (CR kept as a reference so a parser does not fold it). */
export const xmlEscape = (text: string): string =>
  text
    .replace(NOT_XML, '\uFFFD')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');

/** A predicate IRI as a qualified element name under one of our prefixes, else under a numbered one. */
function qname(iri: string, extra: Map<string, string>): { name: string; declare: string } {
  for (const [prefix, namespace] of Object.entries(PREFIXES)) {
    const local = iri.slice(namespace.length);
    if (iri.startsWith(namespace) && /^[A-Za-z_][\w.-]*$/.test(local))
      return { name: `${prefix}:${local}`, declare: '' };
  }
  // Outside our prefixes (not emitted today): split at the last # or / and declare the namespace locally.
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1;
  const namespace = iri.slice(0, cut);
  const prefix = extra.get(namespace) ?? `ns${extra.size + 1}`;
  extra.set(namespace, prefix);
  return { name: `${prefix}:${iri.slice(cut)}`, declare: ` xmlns:${prefix}="${xmlEscape(namespace)}"` };
}

function rdfXmlNode(node: SkosNode): string {
  const extra = new Map<string, string>();
  const [first, ...more] = node.types;
  const head = first ? qname(first, extra) : { name: 'rdf:Description', declare: '' };
  const lines = [`  <${head.name}${head.declare} rdf:about="${xmlEscape(node.subject)}">`];
  for (const type of more) lines.push(`    <rdf:type rdf:resource="${xmlEscape(type)}"/>`);
  for (const [predicate, object] of node.statements) {
    const { name, declare } = qname(predicate, extra);
    if (isIri(object)) {
      lines.push(`    <${name}${declare} rdf:resource="${xmlEscape(object.iri)}"/>`);
    } else {
      const literal = object as SkosLiteral;
      const attributes = literal.lang
        ? ` xml:lang="${xmlEscape(literal.lang)}"`
        : literal.datatype
          ? ` rdf:datatype="${xmlEscape(literal.datatype)}"`
          : '';
      lines.push(`    <${name}${declare}${attributes}>${xmlEscape(literal.value)}</${name}>`);
    }
  }
  lines.push(`  </${head.name}>`);
  return `${lines.join('\n')}\n`;
}

async function* writeRdfXml(nodes: AsyncIterable<SkosNode>): AsyncGenerator<string> {
  const namespaces = Object.entries(PREFIXES)
    .map(([prefix, iri]) => `\n    xmlns:${prefix}="${xmlEscape(iri)}"`)
    .join('');
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF${namespaces}>\n`;
  for await (const node of nodes) yield rdfXmlNode(node);
  yield '</rdf:RDF>\n';
}

// ---------------------------------------------------------------- JSON-LD

/** Property keys are compact IRIs under the context's prefixes, values always arrays (expanded form). */
function jsonLdNode(node: SkosNode): Record<string, unknown> {
  const compact = (iri: string) => {
    for (const [prefix, namespace] of Object.entries(PREFIXES)) {
      if (iri.startsWith(namespace) && iri.length > namespace.length)
        return `${prefix}:${iri.slice(namespace.length)}`;
    }
    return iri;
  };
  const out: Record<string, unknown[]> = {};
  for (const [predicate, object] of node.statements) {
    const key = compact(predicate);
    const value = isIri(object)
      ? { '@id': object.iri }
      : object.lang
        ? { '@value': object.value, '@language': object.lang }
        : object.datatype
          ? { '@value': object.value, '@type': compact(object.datatype) }
          : { '@value': object.value };
    const list = out[key] ?? [];
    list.push(value);
    out[key] = list;
  }
  return { '@id': node.subject, ...(node.types.length ? { '@type': node.types.map(compact) } : {}), ...out };
}

async function* writeJsonLd(nodes: AsyncIterable<SkosNode>): AsyncGenerator<string> {
  yield `{\n  "@context": ${JSON.stringify(PREFIXES)},\n  "@graph": [`;
  let first = true;
  for await (const node of nodes) {
    yield `${first ? '\n' : ',\n'}    ${JSON.stringify(jsonLdNode(node))}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}
