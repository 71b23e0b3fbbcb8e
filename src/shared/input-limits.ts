/**
 * Limits every surface applies to what callers send, before any procedure, zod schema or GraphQL
 * executor walks it: nesting that would overflow a recursive walker (a 500), NUL characters that
 * PostgreSQL refuses in text (once answered as "database unavailable", so clients retried forever), and
 * lone halves of surrogate pairs, which no UTF-8 can encode (jsonb refused them with a 500).
 */
import { z } from 'zod';
import { AppError } from './errors.js';

/** Deeper than any document of the contract (a few levels); deep enough for generous GraphQL variables. */
export const MAX_JSON_DEPTH = 64;
/** Users files and dictionary definitions nest a handful of elements; TBX a dozen. */
export const MAX_XML_DEPTH = 100;
/** GraphQL documents: a large hand-written query has a few thousand tokens. */
export const MAX_GRAPHQL_TOKENS = 10_000;
/** Filter texts (names, logins, search texts): longer ones only make the database scan for nothing. */
export const MAX_FILTER_LENGTH = 1_000;

/** A list filter's text, the same limit on all three surfaces (GraphQL arguments carry no URL limit). */
export const filterText = () => z.string().max(MAX_FILTER_LENGTH);

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without parsing it, stopping as
 * soon as `limit` is passed (so a hostile body costs one pass at most).
 */
export function jsonNestingExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

export const tooDeeplyNested = (what: string, limit: number) =>
  new AppError('BAD_REQUEST', `${what} is nested more than ${limit} levels deep`);

/** Why a text cannot be stored, or null: a NUL character, or half of a surrogate pair without its other half. */
function unstorable(text: string): string | null {
  if (text.includes('\0')) return 'a NUL character (U+0000)';
  const lone = LONE_SURROGATE.exec(text);
  return lone
    ? `half of a surrogate pair (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) alone`
    : null;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnstorableText {
  /** Where: member names and indexes joined by dots, `(value)` for the value itself. */
  path: string;
  reason: string;
}

/**
 * The first string (value or member name) that text cannot hold, or null. Input deeper than
 * MAX_JSON_DEPTH is refused here as well, so no caller's value can overflow the walk.
 */
export function findUnstorableText(value: unknown, path = '', depth = 0): UnstorableText | null {
  if (typeof value === 'string') {
    const reason = unstorable(value);
    return reason ? { path: path || '(value)', reason } : null;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (depth >= MAX_JSON_DEPTH) throw tooDeeplyNested('The input', MAX_JSON_DEPTH);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  // Only plain data: parsed bodies, not streams or uploads that happen to be objects.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return null;
  for (const [key, member] of Object.entries(value)) {
    const memberPath = path ? `${path}.${key}` : key;
    const reason = unstorable(key);
    if (reason) return { path: memberPath, reason };
    const found = findUnstorableText(member, memberPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const unstorableTextError = (where: string, reason: string) =>
  new AppError('BAD_REQUEST', `${where} contains ${reason}, which text cannot hold`);

/** Throws the 400 of the first text found in the given parts of a request (named by key) that cannot be stored. */
export function assertStorableText(parts: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(parts)) {
    const found = findUnstorableText(value);
    if (found !== null) {
      throw unstorableTextError(found.path === '(value)' ? name : `${name} ${found.path}`, found.reason);
    }
  }
}
