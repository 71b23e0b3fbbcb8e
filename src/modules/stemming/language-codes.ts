/**
 * One rule for every language code a request names (docs/clients.md, "Language codes"; issue 37): an
 * ISO 639 code in two or three letters, any case, bibliographic or terminological form (en, ENG, ger,
 * deu), read as the three-letter 639-2/T code the dictionaries hold (eng, deu); or the code of a custom
 * language of the dictionaries concerned; anything else ("xx", "english") is 400, never silently nothing.
 * Term search applies it in its own statement (search-request.ts); the other calls use readLanguageCodes.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { isoLanguage, normalLanguageCode } from '../language/iso-codes.js';

/** Whose custom languages count: those of the dictionaries named, or of every dictionary of a client. */
export type LanguageHolders = { dictionaryIds: readonly number[] } | { clientId: number };

/** The key a code is compared by: ISO codes as their 639-2/T code, custom ones as given; lowercase. */
export const languageKey = (code: string): string => normalLanguageCode(code).toLowerCase();

/** Live custom languages among `codes` (by lowercase code), with the code as their dictionary spells it. */
async function customLanguages(
  scope: Scope,
  codes: readonly string[],
  holders: LanguageHolders,
): Promise<Map<string, string>> {
  const lowered = codes.map((code) => code.trim().toLowerCase());
  const rows =
    'clientId' in holders
      ? await boundRows<{ code: string }>(scope.em, {
          text: `select l.code from languages l join dictionaries d on d.id = l.dictionary_id
                  where d.client_id = ? and not d.deleted and l.custom and not l.deleted
                    and lower(l.code) = any(?::text[])`,
          params: [holders.clientId, lowered],
        })
      : holders.dictionaryIds.length
        ? await boundRows<{ code: string }>(scope.em, {
            text: `select code from languages
                    where dictionary_id = any(?::int[]) and custom and not deleted and lower(code) = any(?::text[])`,
            params: [holders.dictionaryIds, lowered],
          })
        : [];
  return new Map(rows.map((row) => [row.code.toLowerCase(), row.code]));
}

/**
 * The codes as the dictionaries hold them (en → eng, GER → deu, a custom code as its language spells
 * it), in order; the first code that is neither ISO 639 nor a custom language of the holders is 400,
 * named with `what`.
 */
export async function readLanguageCodes(
  scope: Scope,
  what: string,
  codes: readonly string[],
  holders: LanguageHolders,
): Promise<string[]> {
  const unknown = codes.filter((code) => !isoLanguage(code));
  const custom = unknown.length ? await customLanguages(scope, unknown, holders) : new Map<string, string>();
  const bad = unknown.find((code) => !custom.has(code.trim().toLowerCase()));
  if (bad !== undefined) {
    const whose = 'clientId' in holders ? "the client's dictionaries" : 'the dictionaries';
    throw new AppError(
      'BAD_REQUEST',
      `${what}: "${bad}" is neither an ISO 639 language code nor a custom language of ${whose}`,
    );
  }
  return codes.map((code) => isoLanguage(code)?.code3 ?? custom.get(code.trim().toLowerCase())!);
}

/** The rule's check alone, for calls that compare codes by languageKey themselves. */
export async function checkLanguageCodes(
  scope: Scope,
  what: string,
  codes: readonly string[],
  dictionaryIds: readonly number[],
): Promise<void> {
  await readLanguageCodes(scope, what, codes, { dictionaryIds });
}
