// Over 500 lines by design: the fuzzer's generator in one place (schema walking, values, mutations, plans); next cut: one file each.
/**
 * A deterministic fuzzer over an OpenAPI 3.1 document: for each operation, a valid-looking request built
 * from its parameter and body schemas (values from hints, enums, formats and examples), and mutations of
 * it, each parameter or body member in turn (wrong type, empty, huge, extreme numbers, hostile strings,
 * nesting...), plus whole-request ones (content types, bodies, tokens). Everything random comes from one
 * seeded generator per operation, so a seed and an operation give the same requests on every run.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  example?: Json;
  examples?: Json[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}

export type BodyKind = 'json' | 'multipart';

export interface Operation {
  /** `METHOD /path`, as failures name it. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  parameters: Parameter[];
  body?: { kind: BodyKind; schema: Schema; required: boolean; form: boolean };
  secured: boolean;
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  security?: unknown[];
  responses?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

// ---------------------------------------------------------------- random

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }
}

/** FNV-1a of the text mixed with the seed: one independent generator per operation. */
export function seedFor(seed: number, text: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

// ---------------------------------------------------------------- the document

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document, with `$ref`s resolved. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (schema: Schema | undefined, seen = new Set<string>()): Schema => {
    if (!schema) return {};
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return {};
      const name = schema.$ref.replace('#/components/schemas/', '');
      return resolve(document.components?.schemas?.[name], new Set([...seen, schema.$ref]));
    }
    const out: Schema = { ...schema };
    if (schema.properties) {
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([key, value]) => [key, resolve(value, seen)]),
      );
    }
    if (schema.items) out.items = resolve(schema.items, seen);
    if (typeof schema.additionalProperties === 'object') {
      out.additionalProperties = resolve(schema.additionalProperties, seen);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (schema[key]) out[key] = schema[key]!.map((branch) => resolve(branch, seen));
    }
    return out;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({
          name: p.name,
          in: p.in as 'path' | 'query',
          required: p.required ?? p.in === 'path',
          schema: resolve(p.schema),
        }));
      let body: Operation['body'];
      const content = op.requestBody?.content;
      if (content) {
        const multipart = content['multipart/form-data'];
        const json = content['application/json'];
        body = {
          kind: multipart ? 'multipart' : 'json',
          schema: resolve((multipart ?? json ?? Object.values(content)[0])?.schema),
          required: op.requestBody?.required ?? false,
          form: 'application/x-www-form-urlencoded' in content,
        };
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters,
        body,
        secured: (op.security?.length ?? 0) > 0,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------- schema helpers

const isNullSchema = (schema: Schema) => schema.type === 'null';

/** The branches a value may take, null left out. */
function branchesOf(schema: Schema): Schema[] {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.filter((branch) => !isNullSchema(branch)).flatMap(branchesOf);
  if (schema.allOf) return [Object.assign({}, ...schema.allOf.map((part) => branchesOf(part)[0] ?? part))];
  return [schema];
}

/** The schema's main (first non-null) shape. */
export const mainBranch = (schema: Schema): Schema => branchesOf(schema)[0] ?? schema;

export function isNullable(schema: Schema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  if (schema.type === 'null') return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some(isNullable);
}

/** The JSON type of the schema's main shape ('any' when it says nothing). */
export function typeOf(schema: Schema): string {
  const main = mainBranch(schema);
  if (Array.isArray(main.type)) return main.type.find((type) => type !== 'null') ?? 'any';
  if (main.type) return main.type;
  if (main.properties || main.additionalProperties) return 'object';
  if (main.items) return 'array';
  if (main.enum?.length) return typeof main.enum[0];
  return 'any';
}

const jsonTypeOf = (value: Json): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const accepts = (schema: Schema, value: Json): boolean => {
  const type = typeOf(schema);
  const actual = jsonTypeOf(value);
  return type === 'any' || type === actual || (type === 'number' && actual === 'integer');
};

/**
 * The value as the schema would take it (a read object sent back as an update): members the schema does
 * not declare are dropped, at every level; undefined when the value does not fit at all.
 */
export function conform(value: Json | undefined, schema: Schema): Json | undefined {
  if (value === undefined) return undefined;
  if (value === null) return isNullable(schema) ? null : undefined;
  const branch = branchesOf(schema).find((candidate) => accepts(candidate, value));
  if (!branch) return undefined;
  if (Array.isArray(value)) {
    const items = branch.items ?? {};
    return value.map((item) => conform(item, items)).filter((item): item is Json => item !== undefined);
  }
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, member] of Object.entries(value)) {
      const memberSchema =
        branch.properties?.[key] ??
        (typeof branch.additionalProperties === 'object' ? branch.additionalProperties : undefined);
      if (!memberSchema) continue;
      const conformed = conform(member, memberSchema);
      if (conformed !== undefined) out[key] = conformed;
    }
    return out;
  }
  return value;
}

// ---------------------------------------------------------------- valid values

/** What the caller knows about the world: values for names (ids of objects it made, codes...). */
export interface Hints {
  /** A value for a parameter or member of this name (at this JSON path), or undefined. */
  value(name: string, schema: Schema, path: readonly (string | number)[]): Json | undefined;
  /** A key of a map member (a field oid for fieldMap...), or undefined. */
  key(name: string, path: readonly (string | number)[]): string | undefined;
}

export interface GenerationContext {
  rng: Random;
  hints: Hints;
  /** A fresh name part, unique in the run (names must not clash with earlier creations). */
  unique(): string;
}

/** Normalised for matching: `dictionary-id`, `dictionary_id` and `dictionaryId` are one name. */
export const normalName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Candidates tried against a pattern the hints did not answer. */
const PATTERN_CANDIDATES = [
  'eng',
  'en',
  '1',
  'new',
  '2030-01-31',
  'fuzz',
  'a',
  '00000000-0000-4000-8000-000000000000',
];

function validString(schema: Schema, ctx: GenerationContext): string {
  let value: string;
  switch (schema.format) {
    case 'email':
      value = `fuzz${ctx.unique()}@example.org`;
      break;
    case 'date':
      value = '2030-01-31';
      break;
    case 'date-time':
      value = '2030-01-31T12:00:00.000Z';
      break;
    case 'uuid':
      value = '00000000-0000-4000-8000-000000000000';
      break;
    case 'uri':
    case 'url':
      value = 'https://example.org/fuzz';
      break;
    default:
      value = `fuzz${ctx.unique()}`;
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    if (!pattern.test(value))
      value = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate)) ?? value;
  }
  if (schema.minLength && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    value = value.slice(0, schema.maxLength);
  }
  return value;
}

function validNumber(schema: Schema): number {
  const min =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Infinity);
  const max = schema.maximum ?? Infinity;
  return Math.min(Math.max(1, min), max);
}

/** Makes a hinted value fit the schema's type (an id where a string is wanted, one id where a list is). */
function fitHint(schema: Schema, value: Json): Json {
  const type = typeOf(schema);
  if (type === 'array' && !Array.isArray(value)) return [fitHint(mainBranch(schema).items ?? {}, value)];
  if (type !== 'array' && Array.isArray(value)) return value.length ? fitHint(schema, value[0]!) : value;
  if (type === 'string' && typeof value === 'number') return String(value);
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^-?\d+$/.test(value)) {
    return Number(value);
  }
  return value;
}

/** A value the schema accepts, preferring what the hints know, then examples, defaults and enums. */
export function validValue(
  schema: Schema,
  name: string,
  path: readonly (string | number)[],
  ctx: GenerationContext,
  depth = 0,
): Json {
  const hinted = ctx.hints.value(name, schema, path);
  if (hinted !== undefined) return fitHint(schema, hinted);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0]!;
  const main = mainBranch(schema);
  if (main.const !== undefined) return main.const;
  if (main.enum?.length) {
    return main.default !== undefined && main.enum.includes(main.default) ? main.default : main.enum[0]!;
  }
  switch (typeOf(main)) {
    case 'string':
      return validString(main, ctx);
    case 'integer':
    case 'number':
      return validNumber(main);
    case 'boolean':
      return typeof main.default === 'boolean' ? main.default : false;
    case 'null':
      return null;
    case 'array': {
      if (depth > 6) return [];
      const count = Math.max(1, main.minItems ?? 0);
      return Array.from({ length: count }, (_, index) =>
        validValue(main.items ?? {}, name, [...path, index], ctx, depth + 1),
      );
    }
    case 'object': {
      const out: Record<string, Json> = {};
      if (depth > 6) return out;
      const required = new Set(main.required ?? []);
      for (const [key, member] of Object.entries(main.properties ?? {})) {
        // Every member at the top, about half of the optional ones deeper down: requests stay varied.
        if (!required.has(key) && depth > 0 && !ctx.rng.chance(0.5)) continue;
        // A member that declares nothing ("ignored", "set by the server") is left to the mutations, and
        // so is the id of a nested object (an existing one: a new object is what the request makes).
        if (!required.has(key) && (Object.keys(member).length === 0 || (key === 'id' && depth > 0))) continue;
        out[key] = validValue(member, key, [...path, key], ctx, depth + 1);
      }
      if (typeof main.additionalProperties === 'object' && !main.properties) {
        const key = ctx.hints.key(name, path) ?? 'fuzz';
        out[key] = validValue(main.additionalProperties, key, [...path, key], ctx, depth + 1);
      }
      return out;
    }
    default:
      return 'fuzz';
  }
}

// ---------------------------------------------------------------- mutations

/** Text already encoded for a URL (invalid percent escapes, encoded slashes). */
export class UrlText {
  constructor(readonly text: string) {}
}

export type MutatedValue = Json | UrlText | typeof MISSING;
export const MISSING = Symbol('missing');

export interface Mutation {
  name: string;
  /** For a location of this schema and current value; undefined when the mutation makes no sense there. */
  make(schema: Schema, current: Json | undefined, rng: Random): MutatedValue | undefined;
  /** Only where the value travels in the URL, or only in a JSON body. */
  only?: 'url' | 'json';
}

const HUGE = 100_000;
const hugeText = (seed = 'x') => seed.repeat(Math.ceil(HUGE / seed.length)).slice(0, HUGE);
const nested = (depth: number): Json => {
  let value: Json = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};

export const HOSTILE_TEXT = {
  rtl: '\u202Eevil\u202C \u0645\u0631\u062D\u0628\u0627 \u05E9\u05DC\u05D5\u05DD',
  emoji:
    '\u{1F600}\u{1F44D}\u{1F3FD} \u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466} \u{1F3F3}\uFE0F\u200D\u{1F308}',
  combining: `Z${'\u0351\u0308\u0301\u0327\u0336'.repeat(60)}`,
  loneSurrogates: 'a\uD800b\uDFFFc\uDBFF',
  zeroWidth: '\u200B\uFEFF\u2060x\u00AD',
  nul: 'a\u0000b',
};

const SQL_LIKE = [
  '%',
  '_',
  "'",
  '\\',
  '%_\\%',
  "' OR '1'='1",
  "x'; select pg_sleep(5); --",
  'a\\',
  '\\%',
  '[a-z]*(?:',
];
const TRAVERSAL = [
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd',
  'file:///etc/passwd',
  '.',
];
const NAN_ISH = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-0',
  '0x1F',
  ' 12 ',
  '1,5',
  '\uFF11\uFF12',
  '12abc',
  '',
];

const isNumeric = (schema: Schema) => ['integer', 'number'].includes(typeOf(schema));

/** Mutations of one value; each says where it applies. */
export const VALUE_MUTATIONS: Mutation[] = [
  {
    name: 'wrong type',
    make: (schema) => {
      switch (typeOf(schema)) {
        case 'string':
          return { not: 'a string' };
        case 'integer':
        case 'number':
          return 'abc';
        case 'boolean':
          return 'maybe';
        case 'array':
          return 'not-a-list';
        case 'object':
          return 'not-an-object';
        default:
          return true;
      }
    },
  },
  {
    name: 'empty',
    make: (schema) => {
      const type = typeOf(schema);
      if (type === 'array') return [];
      if (type === 'object') return {};
      return '';
    },
  },
  {
    name: 'huge 100 kB',
    make: (schema, current) => {
      const type = typeOf(schema);
      if (type === 'array') {
        const item = Array.isArray(current) && current.length ? current[0]! : 1;
        const size = Math.max(1, JSON.stringify(item).length);
        return Array.from({ length: Math.ceil(HUGE / size) }, () => item);
      }
      if (type === 'object')
        return Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'.repeat(14)]));
      if (isNumeric(schema)) return '9'.repeat(HUGE);
      return hugeText(typeof current === 'string' && current ? current : 'x');
    },
  },
  { name: 'number 2^31', make: () => 2 ** 31 },
  { name: 'number 2^53', make: () => 2 ** 53 },
  { name: 'number 2^63', make: () => 2 ** 63 },
  { name: 'number -1', make: () => -1 },
  { name: 'number 0', make: () => 0 },
  { name: 'number 1e308', make: () => 1e308 },
  { name: 'number 1.5', make: () => 1.5 },
  { name: 'NaN-ish text', make: (_schema, _current, rng) => rng.pick(NAN_ISH) },
  { name: 'RTL text', make: () => HOSTILE_TEXT.rtl },
  { name: 'emoji', make: () => HOSTILE_TEXT.emoji },
  { name: 'combining marks', make: () => HOSTILE_TEXT.combining },
  { name: 'lone surrogates', make: () => HOSTILE_TEXT.loneSurrogates, only: 'json' },
  { name: 'lone surrogate bytes', make: () => new UrlText('a%ED%A0%80b'), only: 'url' },
  { name: 'invalid percent escape', make: () => new UrlText('%E0%A4%A%ZZ'), only: 'url' },
  { name: 'encoded slash', make: () => new UrlText('a%2F..%2F..%2Fb'), only: 'url' },
  { name: 'zero-width text', make: () => HOSTILE_TEXT.zeroWidth },
  { name: 'NUL character', make: () => HOSTILE_TEXT.nul },
  { name: 'SQL/LIKE metacharacters', make: (_schema, _current, rng) => rng.pick(SQL_LIKE) },
  { name: 'path traversal', make: (_schema, _current, rng) => rng.pick(TRAVERSAL) },
  { name: 'null', make: () => null },
  {
    name: 'array for a value',
    make: (schema, current) => (typeOf(schema) === 'array' ? undefined : [current ?? 'x', current ?? 'y']),
  },
  {
    name: 'object for a value',
    make: (schema, current) => (typeOf(schema) === 'object' ? [current ?? {}] : { value: current ?? 'x' }),
  },
  {
    name: 'value not in the enum',
    make: (schema, current) => {
      const main = mainBranch(schema);
      if (!main.enum?.length) return undefined;
      return typeof current === 'string' && current !== current.toLowerCase()
        ? current.toLowerCase()
        : 'NOT_IN_ENUM';
    },
  },
  {
    name: 'bad format',
    make: (schema, _current, rng) => {
      const main = mainBranch(schema);
      if (!main.format && !main.pattern) return undefined;
      return rng.pick([
        'not-valid',
        '2030-02-30',
        '9999-99-99T99:99:99Z',
        '@',
        '00000000-0000-0000-0000-00000000000g',
      ]);
    },
  },
  {
    name: 'out of range',
    make: (schema, current) => {
      const main = mainBranch(schema);
      if (main.maximum !== undefined && main.maximum < 2 ** 53 - 1) return main.maximum + 1;
      if (main.minimum !== undefined && main.minimum > -(2 ** 53 - 1)) return main.minimum - 1;
      if (main.maxLength !== undefined) return 'y'.repeat(main.maxLength + 1);
      if (main.minLength) return '';
      if (main.maxItems !== undefined && Array.isArray(current)) {
        return Array.from({ length: main.maxItems + 1 }, () => current[0] ?? 1);
      }
      return undefined;
    },
  },
  { name: 'nested 63 deep', make: () => nested(60), only: 'json' },
  { name: 'nested 200 deep', make: () => nested(200), only: 'json' },
  {
    name: 'prototype keys',
    make: (schema) =>
      typeOf(schema) === 'object'
        ? JSON.parse(
            '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"toString":1}',
          )
        : '__proto__',
  },
  { name: 'missing', make: () => MISSING },
];

/** Mutations at the limits of each type, tried first. */
const BOUNDARY_MUTATIONS: Record<string, string[]> = {
  integer: ['number 2^31', 'number 2^53', 'number 0', 'number -1', 'number 1e308'],
  number: ['number 2^31', 'number 1e308', 'NaN-ish text'],
  string: ['huge 100 kB', 'lone surrogates', 'SQL/LIKE metacharacters', 'prototype keys', 'empty'],
  array: ['huge 100 kB', 'empty', 'nested 200 deep'],
  object: ['prototype keys', 'array for a value', 'huge 100 kB'],
  boolean: ['wrong type', 'null'],
};

/** A JSON path into a body: member names and array indexes. */
export type JsonPath = (string | number)[];

export function getAt(value: Json | undefined, path: JsonPath): Json | undefined {
  let node: Json | undefined = value;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, Json>)[step as string];
  }
  return node;
}

/** A copy of `value` with the member at `path` set (MISSING: removed). */
export function setAt(
  value: Json | undefined,
  path: JsonPath,
  replacement: Json | typeof MISSING,
): Json | undefined {
  if (path.length === 0) return replacement === MISSING ? undefined : replacement;
  const [step, ...rest] = path;
  const container: Json =
    value !== null && typeof value === 'object' ? value : typeof step === 'number' ? [] : {};
  const copy: Json = Array.isArray(container) ? [...container] : { ...container };
  const next = setAt((copy as Record<string, Json>)[step as string], rest, replacement);
  if (next === undefined) {
    if (Array.isArray(copy)) copy.splice(step as number, 1);
    else delete (copy as Record<string, Json>)[step as string];
  } else {
    (copy as Record<string, Json>)[step as string] = next;
  }
  return copy;
}

/** The members of a body worth mutating: every top-level property, and the leaves below them. */
export function bodyLocations(
  value: Json | undefined,
  schema: Schema,
  path: JsonPath = [],
  out: Array<{ path: JsonPath; schema: Schema }> = [],
): Array<{ path: JsonPath; schema: Schema }> {
  const main = mainBranch(schema);
  const type = typeOf(main);
  if (path.length > 0) out.push({ path, schema });
  if (path.length > 8) return out;
  if (type === 'object') {
    const properties = main.properties ?? {};
    const current = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
    const keys = new Set([...Object.keys(properties), ...Object.keys(current)]);
    for (const key of keys) {
      const member =
        properties[key] ?? (typeof main.additionalProperties === 'object' ? main.additionalProperties : {});
      // Declared members the valid value left out are still mutated, but only at the top level.
      if (!(key in current) && path.length > 0) continue;
      bodyLocations(current[key], member, [...path, key], out);
    }
  } else if (type === 'array' && Array.isArray(value) && value.length > 0) {
    bodyLocations(value[0], main.items ?? {}, [...path, 0], out);
  }
  return out;
}

/** A URL-safe form of any text, lone surrogates included (encodeURIComponent throws on those). */
export function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** A value as it travels in a path or query: text, or several values for a repeated parameter. */
export function urlValues(value: MutatedValue): string[] | undefined {
  if (value === MISSING) return undefined;
  if (value instanceof UrlText) return [value.text];
  if (Array.isArray(value))
    return value.map((item) =>
      typeof item === 'string' ? encodeSegment(item) : encodeSegment(JSON.stringify(item)),
    );
  if (value !== null && typeof value === 'object') return [encodeSegment(JSON.stringify(value))];
  return [encodeSegment(String(value))];
}

// ---------------------------------------------------------------- multipart

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: string | Buffer;
}

/** A multipart/form-data payload of the parts, and its content type. */
export function multipart(parts: MultipartPart[], boundary = '----polyterm-fuzz-0123456789') {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `content-type: ${part.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** File contents a hostile uploader sends, as [name, bytes]. */
export function hostileFiles(valid: Buffer, rng: Random): Array<[string, Buffer]> {
  const garbage = Buffer.from(Array.from({ length: 4096 }, () => rng.int(256)));
  return [
    ['empty file', Buffer.alloc(0)],
    ['random bytes', garbage],
    ['100 kB of random bytes', Buffer.concat(Array.from({ length: 25 }, () => garbage))],
    ['truncated file', valid.subarray(0, Math.floor(valid.length / 2))],
    ['file with a NUL byte', Buffer.concat([valid.subarray(0, 40), Buffer.from([0]), valid.subarray(40)])],
    [
      'external entity (XXE)',
      Buffer.from(
        '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r>&x;</r>\n',
      ),
    ],
    [
      'entity expansion',
      Buffer.from(
        `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "${'a'.repeat(100)}">${Array.from(
          { length: 8 },
          (_, i) =>
            `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`,
        ).join('')}]>\n<r>&i;</r>\n`,
      ),
    ],
    [
      'not UTF-8',
      Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<r>'),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
        Buffer.from('</r>'),
      ]),
    ],
    [
      'UTF-16 with BOM',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(valid.toString('utf8').slice(0, 2000), 'utf16le'),
      ]),
    ],
    ['JSON instead of XML', Buffer.from('{"users":[{"username":"x"}]}')],
    ['XML of another kind', Buffer.from('<?xml version="1.0"?>\n<html><body>hello</body></html>\n')],
    [
      'XML nested 5000 deep',
      Buffer.from(`<?xml version="1.0"?>\n${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`),
    ],
  ];
}

// ---------------------------------------------------------------- requests

/** An operation's request before encoding: values of its parameters, its body, its upload. */
export interface BaseRequest {
  path: Record<string, MutatedValue>;
  query: Record<string, MutatedValue>;
  /** The JSON body, or the text members of a multipart form. */
  body?: Json;
  file?: { content: Buffer; filename: string; contentType: string };
}

/** A request as sent: `token` says which X-Auth-Token it carries (the caller holds the real one). */
export interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  token: { kind: 'caller' } | { kind: 'none' } | { kind: 'literal'; value: string };
}

export interface Variant {
  label: string;
  build(base: BaseRequest): Wire;
}

const CALLER = { kind: 'caller' } as const;

const cloneBase = (base: BaseRequest): BaseRequest => ({
  ...base,
  path: { ...base.path },
  query: { ...base.query },
});

function urlOf(op: Operation, base: BaseRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const values = urlValues(base.path[name] ?? MISSING);
    return values ? values.join(',') : '';
  });
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(base.query)) {
    for (const text of urlValues(value) ?? []) pairs.push(`${encodeSegment(name)}=${text}`);
  }
  return `/api/v4${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

const formText = (value: Json): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The multipart members of a base request: its text members, then its file. */
function partsOf(base: BaseRequest): MultipartPart[] {
  const parts: MultipartPart[] = [];
  if (base.body && typeof base.body === 'object' && !Array.isArray(base.body)) {
    for (const [name, value] of Object.entries(base.body)) parts.push({ name, content: formText(value) });
  }
  if (base.file) {
    parts.push({
      name: 'file',
      filename: base.file.filename,
      contentType: base.file.contentType,
      content: base.file.content,
    });
  }
  return parts;
}

/** The request as the operation's documented encoding sends it. */
export function encode(op: Operation, base: BaseRequest): Wire {
  const wire: Wire = { method: op.method, url: urlOf(op, base), headers: {}, token: CALLER };
  if (op.body?.kind === 'multipart') {
    const { payload, contentType } = multipart(partsOf(base));
    wire.payload = payload;
    wire.headers['content-type'] = contentType;
  } else if (base.body !== undefined) {
    wire.payload = JSON.stringify(base.body);
    wire.headers['content-type'] = 'application/json';
  }
  return wire;
}

/** A valid-looking request from the operation's schemas and the hints. */
export function validBase(op: Operation, ctx: GenerationContext): BaseRequest {
  const base: BaseRequest = { path: {}, query: {} };
  for (const parameter of op.parameters) {
    const known = ctx.hints.value(parameter.name, parameter.schema, [parameter.in]) !== undefined;
    // Optional query parameters the hints know about are set; others about half the time.
    if (parameter.in === 'query' && !parameter.required && !known && !ctx.rng.chance(0.5)) continue;
    const value = validValue(parameter.schema, parameter.name, [parameter.in], ctx);
    (parameter.in === 'path' ? base.path : base.query)[parameter.name] = value;
  }
  if (op.body) {
    const body = validValue(op.body.schema, 'body', [], ctx);
    if (op.body.kind === 'multipart' && body && typeof body === 'object' && !Array.isArray(body)) {
      delete (body as Record<string, Json>).file;
    }
    base.body = body;
  }
  return base;
}

interface Location {
  label: string;
  schema: Schema;
  where: 'path' | 'query' | 'json' | 'form';
  current: Json | undefined;
  set(base: BaseRequest, value: MutatedValue): BaseRequest;
}

function locationsOf(op: Operation, base: BaseRequest, rng: Random): Location[] {
  const locations: Location[] = [];
  for (const parameter of op.parameters) {
    const bag = parameter.in;
    locations.push({
      label: `${bag} ${parameter.name}`,
      schema: parameter.schema,
      where: bag,
      current: base[bag][parameter.name] as Json | undefined,
      set: (b, value) => {
        const copy = cloneBase(b);
        if (value === MISSING) delete copy[bag][parameter.name];
        else copy[bag][parameter.name] = value;
        return copy;
      },
    });
  }
  if (op.body) {
    const where = op.body.kind === 'multipart' ? 'form' : 'json';
    const members = bodyLocations(base.body, op.body.schema).filter(
      (location) => !(where === 'form' && location.path[0] === 'file'),
    );
    // Top-level members first (shuffled), then deeper ones: breadth before depth.
    const byDepth = new Map<number, typeof members>();
    for (const member of members) {
      byDepth.set(member.path.length, [...(byDepth.get(member.path.length) ?? []), member]);
    }
    for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
      for (const member of rng.shuffle(byDepth.get(depth)!)) {
        locations.push({
          label: `body ${member.path.join('.')}`,
          schema: member.schema,
          where,
          current: getAt(base.body, member.path),
          set: (b, value) => {
            const copy = cloneBase(b);
            copy.body = setAt(b.body, member.path, value instanceof UrlText ? value.text : value);
            return copy;
          },
        });
      }
    }
  }
  return locations;
}

/** Whole-request variants of an operation with a JSON body (or none). */
function requestVariants(op: Operation, base: BaseRequest, rng: Random): Variant[] {
  const variants: Variant[] = [];
  const raw = (label: string, change: (wire: Wire, base: BaseRequest) => void): Variant => ({
    label,
    build: (b) => {
      const wire = encode(op, b);
      change(wire, b);
      return wire;
    },
  });
  const withPayload = (payload: string | Buffer | undefined, contentType?: string) => (wire: Wire) => {
    wire.payload = payload;
    if (contentType) wire.headers['content-type'] = contentType;
    else delete wire.headers['content-type'];
  };
  variants.push(
    raw('no token', (wire) => {
      wire.token = { kind: 'none' };
    }),
  );
  variants.push(
    raw('unknown token', (wire) => {
      wire.token = {
        kind: 'literal',
        value: Array.from({ length: 64 }, () => rng.int(16).toString(16)).join(''),
      };
    }),
  );
  variants.push(
    raw('token of 100 kB', (wire) => {
      wire.token = { kind: 'literal', value: hugeText('t') };
    }),
  );
  const queryNames = Object.keys(base.query);
  if (queryNames.length > 0) {
    variants.push({
      label: 'every query parameter repeated',
      build: (b) => {
        const copy = cloneBase(b);
        for (const name of queryNames) {
          const value = b.query[name];
          if (value !== undefined && value !== MISSING && !(value instanceof UrlText)) {
            copy.query[name] = [
              value as Json,
              Array.isArray(value)
                ? value
                : ((typeof value === 'number' ? value + 1 : `${formText(value as Json)}x`) as Json),
            ];
          }
        }
        return encode(op, copy);
      },
    });
  }
  variants.push(
    raw('unknown query parameters', (wire) => {
      wire.url += `${wire.url.includes('?') ? '&' : '?'}fuzz=1&__proto__=x&constructor=y&toString=z&a[b]=c`;
    }),
  );
  if (op.body?.kind === 'json') {
    const flat = base.body && typeof base.body === 'object' && !Array.isArray(base.body) ? base.body : {};
    variants.push(
      raw('no body', withPayload(undefined)),
      raw('empty JSON body', withPayload('', 'application/json')),
      raw('invalid JSON', withPayload('{"a": [1, 2,', 'application/json')),
      raw('JSON array body', (wire, b) => withPayload(JSON.stringify([b.body]), 'application/json')(wire)),
      raw('JSON null body', withPayload('null', 'application/json')),
      raw('JSON text body', withPayload('"text"', 'application/json')),
      raw('JSON number body', withPayload('1e308', 'application/json')),
      raw('text/plain body', (wire) => {
        wire.headers['content-type'] = 'text/plain';
      }),
      raw('XML content type', (wire) => {
        wire.headers['content-type'] = 'application/xml';
      }),
      raw('JSON with a latin-1 charset', (wire) => {
        wire.headers['content-type'] = 'application/json; charset=latin1';
      }),
      raw(
        'form body',
        withPayload(
          new URLSearchParams(Object.entries(flat).map(([key, value]) => [key, formText(value)])).toString(),
          'application/x-www-form-urlencoded',
        ),
      ),
      raw('unknown members', (wire, b) => {
        const members = b.body && typeof b.body === 'object' && !Array.isArray(b.body) ? b.body : {};
        withPayload(JSON.stringify({ ...members, fuzzUnknown: 1, $where: 'x' }), 'application/json')(wire);
      }),
      raw('body nested 1000 deep', withPayload(JSON.stringify({ a: nested(1000) }), 'application/json')),
      raw('body of 1 MB', withPayload(JSON.stringify({ fuzz: hugeText().repeat(10) }), 'application/json')),
    );
    for (const name of mainBranch(op.body.schema).required ?? []) {
      variants.push({
        label: `body ${name}: missing (required)`,
        build: (b) => encode(op, { ...b, body: setAt(b.body, [name], MISSING) }),
      });
    }
  } else if (!op.body && op.method !== 'GET') {
    variants.push(raw('unexpected JSON body', withPayload('{"fuzz":[1,{"a":null}]}', 'application/json')));
  } else if (op.method === 'GET') {
    variants.push(raw('GET with a JSON body', withPayload('{"fuzz":1}', 'application/json')));
  }
  return variants;
}

/** Whole-request variants of an upload. */
function uploadVariants(op: Operation, base: BaseRequest, rng: Random): Variant[] {
  const variants = requestVariants({ ...op, body: undefined }, base, rng).filter(
    (variant) => !variant.label.includes('JSON body'),
  );
  const withParts = (
    label: string,
    parts: (b: BaseRequest) => MultipartPart[],
    boundary?: string,
  ): Variant => ({
    label,
    build: (b) => {
      const wire = encode(op, b);
      const { payload, contentType } = multipart(parts(b), boundary);
      wire.payload = payload;
      wire.headers['content-type'] = contentType;
      return wire;
    },
  });
  const fileOf = (b: BaseRequest) => partsOf(b).find((part) => part.name === 'file')!;
  const others = (b: BaseRequest) => partsOf(b).filter((part) => part.name !== 'file');
  const valid = base.file?.content ?? Buffer.alloc(0);
  for (const [label, content] of hostileFiles(valid, rng)) {
    variants.push(withParts(`file: ${label}`, (b) => [...others(b), { ...fileOf(b), content }]));
  }
  variants.push(
    withParts('no file member', others),
    withParts('file under another name', (b) => [...others(b), { ...fileOf(b), name: 'upload' }]),
    withParts('two files', (b) => [...others(b), fileOf(b), fileOf(b)]),
    withParts('file sent as a text member', (b) => [
      ...others(b),
      { name: 'file', content: valid.subarray(0, 2000) },
    ]),
    withParts('file name with path traversal', (b) => [
      ...others(b),
      { ...fileOf(b), filename: '../../../../etc/passwd' },
    ]),
    withParts('file name of 10 kB with quotes', (b) => [
      ...others(b),
      { ...fileOf(b), filename: `a"b\\${'n'.repeat(10_000)}` },
    ]),
    withParts('a member given twice', (b) => [
      ...others(b),
      ...others(b),
      { name: 'fileName', content: 'x' },
      { name: 'fileName', content: 'y' },
      fileOf(b),
    ]),
    withParts('unknown members', (b) => [
      ...others(b),
      { name: '__proto__', content: 'x' },
      { name: 'constructor', content: 'y' },
      fileOf(b),
    ]),
    withParts('30 members', (b) => [
      ...Array.from({ length: 30 }, (_, i) => ({ name: `m${i}`, content: 'v' })),
      fileOf(b),
    ]),
    {
      label: 'multipart without a boundary',
      build: (b) => ({ ...encode(op, b), headers: { 'content-type': 'multipart/form-data' } }),
    },
    {
      label: 'multipart cut off',
      build: (b) => {
        const wire = encode(op, b);
        wire.payload = (wire.payload as Buffer).subarray(0, Math.floor((wire.payload as Buffer).length / 2));
        return wire;
      },
    },
    {
      label: 'other boundary in the body',
      build: (b) => {
        const wire = encode(op, b);
        wire.payload = multipart(partsOf(b), '----another-boundary').payload;
        return wire;
      },
    },
    {
      label: 'JSON body instead of multipart',
      build: (b) => ({
        ...encode(op, b),
        payload: JSON.stringify(b.body ?? {}),
        headers: { 'content-type': 'application/json' },
      }),
    },
    {
      label: 'no body',
      build: (b) => ({ ...encode(op, b), payload: undefined, headers: {} }),
    },
    {
      label: 'text/plain body',
      build: (b) => ({ ...encode(op, b), payload: valid, headers: { 'content-type': 'text/plain' } }),
    },
  );
  return variants;
}

/**
 * The requests of one operation: the valid one, the whole-request variants, then value mutations taken
 * round-robin over its parameters and body members (each location's mutations in a shuffled order)
 * until `budget` requests; at least one mutation per location however small the budget.
 */
export function planOperation(op: Operation, base: BaseRequest, rng: Random, budget: number): Variant[] {
  const variants: Variant[] = [{ label: 'valid', build: (b) => encode(op, b) }];
  variants.push(
    ...(op.body?.kind === 'multipart' ? uploadVariants(op, base, rng) : requestVariants(op, base, rng)),
  );
  const locations = locationsOf(op, base, rng);
  const queues = locations.map((location) => {
    const applicable: Array<{ name: string; value: MutatedValue }> = [];
    // The limits of the location's type first (each location gets one of them however small the
    // budget), then everything else.
    const boundaries = BOUNDARY_MUTATIONS[typeOf(location.schema)] ?? [];
    const order = [
      ...rng.shuffle(VALUE_MUTATIONS.filter((mutation) => boundaries.includes(mutation.name))),
      ...rng.shuffle(VALUE_MUTATIONS.filter((mutation) => !boundaries.includes(mutation.name))),
    ];
    for (const mutation of order) {
      const urlBound = location.where === 'path' || location.where === 'query' || location.where === 'form';
      if (mutation.only === 'url' && !urlBound) continue;
      if (mutation.only === 'json' && urlBound) continue;
      const value = mutation.make(location.schema, location.current, rng);
      if (value !== undefined) applicable.push({ name: mutation.name, value });
    }
    return { location, applicable };
  });
  const limit = Math.max(budget, variants.length + locations.length);
  for (let round = 0; variants.length < limit; round++) {
    let added = false;
    for (const { location, applicable } of queues) {
      const mutation = applicable[round];
      if (!mutation || variants.length >= limit) continue;
      added = true;
      variants.push({
        label: `${location.label}: ${mutation.name}`,
        build: (b) => encode(op, location.set(b, mutation.value)),
      });
    }
    if (!added) break;
  }
  return variants;
}
