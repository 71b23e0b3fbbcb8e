/**
 * trpc-to-openapi coerces the strings of a REST call (path and query parameters are strings) by setting
 * `coerce` on the zod schemas of the procedure's input, in place, on every call (its `coerceSchema`:
 * `_def.coerce = true` on each number, boolean, bigint and date member, nested objects and array
 * elements included). Those schema instances are the procedure's own, which tRPC and GraphQL parse with
 * too, and often shared with other procedures: after one REST call, a long-running server took "12" for
 * 12 everywhere (issue 38: a string dictionary id was accepted over tRPC and on the direct REST path).
 *
 * So, before the adapter serves anything, every schema that `coerceSchema` would reach gets `coerce` as
 * an accessor: true inside a call that trpc-to-openapi serves (`withRestCoercion`, an
 * AsyncLocalStorage), the schema's own value (z.coerce.*) everywhere else; trpc-to-openapi's write is
 * ignored. REST keeps its coercion; nothing leaks out of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const restCall = new AsyncLocalStorage<true>();

/** Runs a call served by trpc-to-openapi: its schemas coerce strings while it runs. */
export const withRestCoercion = <T>(call: () => T): T => restCall.run(true, call);

/**
 * Runs `call` without that coercion, inside a REST call too: for parses of stored values, which are
 * not strings from a URL. A coercing z.boolean() takes a missing value for false (Boolean(undefined)).
 */
export const withoutRestCoercion = <T>(call: () => T): T => restCall.exit(call);

interface SchemaDef {
  type?: string;
  coerce?: boolean;
  element?: Schema;
  innerType?: Schema;
  getter?: () => Schema;
  in?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
}
interface Schema {
  _zod?: { def?: SchemaDef };
}

const defOf = (schema: Schema | undefined): SchemaDef | undefined => schema?._zod?.def;

/** trpc-to-openapi's unwrapZodType (utils/zod): the schema under arrays, optionals, defaults, lazies. */
function unwrap(schema: Schema | undefined, unwrapPipe: boolean): Schema | undefined {
  const def = defOf(schema);
  switch (def?.type) {
    case 'array':
      return unwrap(def.element, unwrapPipe);
    case 'nullable':
    case 'optional':
    case 'default':
    case 'prefault':
      return unwrap(def.innerType, unwrapPipe);
    case 'lazy':
      return unwrap(def.getter?.(), unwrapPipe);
    case 'pipe':
      if (!unwrapPipe) return schema;
      return unwrap(defOf(def.out)?.type === 'transform' ? def.in : def.out, unwrapPipe);
    default:
      // An enum is read as a string there: nothing to coerce.
      return schema;
  }
}

const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

/** `coerce` of one schema as the accessor described above (once). */
function contain(def: SchemaDef): void {
  const descriptor = Object.getOwnPropertyDescriptor(def, 'coerce');
  if (descriptor?.get) return;
  const own = def.coerce === true;
  Object.defineProperty(def, 'coerce', {
    configurable: true,
    enumerable: true,
    get: () => own || restCall.getStore() === true,
    set: () => {},
  });
}

/** trpc-to-openapi's coerceSchema walk, containing instead of setting. */
function containShape(object: Schema, seen: Set<Schema>): void {
  if (seen.has(object)) return;
  seen.add(object);
  for (const member of Object.values(defOf(object)?.shape ?? {})) {
    const unwrapped = unwrap(member, false);
    const def = defOf(unwrapped);
    if (!def) continue;
    if (COERCIBLE.has(def.type ?? '')) contain(def);
    else if (def.type === 'object') containShape(unwrapped!, seen);
  }
}

/** Contains the coercion of every input of these procedures (those trpc-to-openapi serves). */
export function containRestCoercion(procedures: readonly { _def: { inputs?: unknown[] } }[]): void {
  const seen = new Set<Schema>();
  for (const procedure of procedures) {
    for (const input of procedure._def.inputs ?? []) {
      const top = unwrap(input as Schema, true);
      if (defOf(top)?.type === 'object') containShape(top!, seen);
    }
  }
}
