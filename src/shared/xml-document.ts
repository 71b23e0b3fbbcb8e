/**
 * The XML files the server exchanges (users, dictionary definitions): built and parsed with
 * fast-xml-parser, attributes as `@_name` members, and checked with a zod schema. DTDs are refused
 * outright, so no entity is ever expanded or fetched (no XXE, no billion laughs).
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { z } from 'zod';
import { AppError } from './errors.js';
import { MAX_XML_DEPTH } from './input-limits.js';

/** An XML document as fast-xml-parser builds it: attributes are members named `@_name`. */
export function buildXml(root: Record<string, unknown>): string {
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
  });
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root }) as string;
}

export interface XmlParseOptions<S extends z.ZodType> {
  schema: S;
  /** Elements that are always lists, even when they occur once. */
  listElements: ReadonlySet<string>;
  /** What the file is, for messages: `users file`, `dictionary definition`. */
  label: string;
}

/** Parses and validates a whole document; any problem is a 400 naming the line or the element. */
export function parseXml<S extends z.ZodType>(xml: string, options: XmlParseOptions<S>): z.output<S> {
  if (/<!DOCTYPE/i.test(xml)) {
    throw new AppError('BAD_REQUEST', 'The file must not contain a DOCTYPE (no DTDs or entities are read)');
  }
  assertXmlDepth(xml);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new AppError('BAD_REQUEST', `Malformed XML at line ${valid.err.line}: ${valid.err.msg}`);
  }
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    isArray: (name) => options.listElements.has(name),
  }).parse(xml) as unknown;
  const result = options.schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path
      .map((part) => (typeof part === 'number' ? `[${part + 1}]` : String(part).replace(/^@_/, '@')))
      .join('/');
    throw new AppError('BAD_REQUEST', `Invalid ${options.label} at ${where || 'root'}: ${issue.message}`);
  }
  return result.data;
}

/**
 * fast-xml-parser and the zod check that follows recurse into the document: 20,000 nested elements
 * overflowed the stack (a 500). A streaming pass counts the depth first and names the line.
 */
function assertXmlDepth(xml: string): void {
  const parser = new SaxesParser({ position: true });
  let depth = 0;
  let tooDeepAt = 0;
  parser.on('opentag', () => {
    if (++depth > MAX_XML_DEPTH && tooDeepAt === 0) tooDeepAt = parser.line;
  });
  parser.on('closetag', () => {
    depth--;
  });
  // Well-formedness is reported by the validator below, with its own message.
  parser.on('error', () => {});
  const chunk = 64 * 1024;
  for (let start = 0; start < xml.length && tooDeepAt === 0; start += chunk) {
    parser.write(xml.slice(start, start + chunk));
  }
  if (tooDeepAt > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Elements are nested more than ${MAX_XML_DEPTH} levels deep at line ${tooDeepAt}`,
    );
  }
}

export const xmlText = z.string().trim();

/** `<roles><role>..</role></roles>`; an empty `<roles/>` parses as '' and means no items. */
export const xmlListOf = <K extends string, T extends z.ZodType>(item: K, schema: T) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? {} : value),
    z.object({ [item]: z.array(schema).default([]) } as { [P in K]: z.ZodDefault<z.ZodArray<T>> }),
  );

export const xmlBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');
export const xmlInteger = z.coerce.number().int();

/** Optional attributes: written only when they hold a value. */
export const xmlAttributes = (attributes: Record<string, string | number | boolean | null | undefined>) =>
  Object.fromEntries(
    Object.entries(attributes)
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([name, value]) => [`@_${name}`, String(value)]),
  );
