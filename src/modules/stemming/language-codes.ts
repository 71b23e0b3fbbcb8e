/**
 * One rule for the language codes of the stemming and decoration endpoints: an ISO 639 code (639-2 B or
 * T, or 639-1) or the code of a custom language of the dictionaries named; anything else ("xx") is 400,
 * never silently nothing.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { isoLanguage } from '../language/iso-codes.js';

export async function checkLanguageCodes(
  scope: Scope,
  what: string,
  codes: readonly string[],
  dictionaryIds: readonly number[],
): Promise<void> {
  const unknown = codes.filter((code) => !isoLanguage(code));
  if (!unknown.length) return;
  const custom = dictionaryIds.length
    ? await boundRows<{ code: string }>(scope.em, {
        text: `select lower(code) as code from languages
                where dictionary_id = any(?::int[]) and custom and not deleted and lower(code) = any(?::text[])`,
        params: [dictionaryIds, unknown.map((code) => code.toLowerCase())],
      })
    : [];
  const known = new Set(custom.map((row) => row.code));
  const bad = unknown.find((code) => !known.has(code.toLowerCase()));
  if (bad !== undefined) {
    throw new AppError(
      'BAD_REQUEST',
      `${what}: "${bad}" is neither an ISO 639 language code nor a custom language of the dictionaries`,
    );
  }
}
