/**
 * Term decoration (docs/decoration.md): which terms of the caller's dictionaries a text uses. Three
 * round trips whatever the text's length: the caller's access (as term search loads it), the folded
 * and stemmed keys of the text's words with the longest term's size, and one indexed lookup of every
 * span's keys with the matched concepts' other terms.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { withRawJson } from '../../shared/raw-json.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionaryIds } from '../dictionary/dictionary-access.js';
import type { TermSearchInput } from '../search/search.schema.js';
import type { SearchPlan } from '../search/search-plan.js';
import { loadSearchContext, planSearch } from '../search/search-request.js';
import { checkLanguageCodes, languageKey } from '../stemming/language-codes.js';
import { foldedTextsSql, stemGroupsSql } from '../stemming/stem-keys.js';
import { visibleTermsWithStates } from '../workflow/workflow-effects.js';
import { lookUpTerms } from './candidate-lookup.js';
import { DEFAULT_KINDS, type DecorationInput, type DecorationResponse } from './decoration.schema.js';
import type { KeyInputs, KeyRow } from './decoration-phases.js';
import { decorationPool } from './decoration-pool.js';
import type { AsyncSession, Found, SessionRequest } from './decoration-session.js';

/** Per call (docs/decoration.md): more is 413. */
export const MAX_SEGMENTS = 100;
export const MAX_BYTES = 64 * 1024;

export function checkLimits(texts: readonly string[]) {
  if (texts.length > MAX_SEGMENTS) {
    throw new AppError('PAYLOAD_TOO_LARGE', `At most ${MAX_SEGMENTS} segments per call`);
  }
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (bytes > MAX_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', `At most ${MAX_BYTES} bytes of segment text per call`);
}

/** Every dictionary of the caller's client it may read. */
async function readableDictionaries(scope: Scope): Promise<number[]> {
  const dictionaries = await scope.em.find(
    Dictionary,
    { client: scope.actor.clientId },
    { filters: { tenant: false } },
  );
  const readable = await readableDictionaryIds(scope, dictionaries);
  return dictionaries.map((d) => d.id).filter((id) => readable.has(id));
}

/**
 * The plan of a term search over every readable section of the dictionaries: who may read what. With
 * `skipUnreadable` (no dictionaries named), one without a readable section is left out, not 404.
 */
async function accessPlan(
  scope: Scope,
  dictionaryIds: number[],
  language: string,
  skipUnreadable: boolean,
): Promise<{ dictionaryIds: number[]; plan: SearchPlan | null }> {
  const input: TermSearchInput = { dictionaryIds, langCode: language, sectionOids: [], name: '' };
  const context = await loadSearchContext(scope, input, { skipUnreadable });
  const readableIds = context.searchAccess.dictionaryIds;
  const sectionOids = context.searchAccess.readable
    .filter((section) => readableIds.includes(section.dictionaryId))
    .flatMap((section) => (section.oid ? [section.oid] : []));
  if (!sectionOids.length) return { dictionaryIds: readableIds, plan: null };
  return { dictionaryIds: readableIds, plan: await planSearch(scope, context, { ...input, sectionOids }) };
}

/**
 * One statement: the folded pieces and stemmed words of all segments; for each word, the most words of
 * a term starting with its stem (terms_stem_first_index); and the longest term's words and characters
 * (for scripts without spaces, whose words do not bound a term).
 */
export async function textKeyRow(
  em: EntityManager,
  plan: SearchPlan,
  { pieces, words, firstChars }: KeyInputs,
): Promise<KeyRow> {
  const groups = stemGroupsSql(plan.dictionaryIds, plan.languageCode, words, true);
  const folded = foldedTextsSql(pieces);
  const [row] = await boundRows<KeyRow>(em, {
    text: `with stems as (${groups.text})
      select ${folded.text} as folded,
             (select json_agg(json_build_array(s.d, s.keys)) from stems s) as stems,
             (select json_agg(json_build_array(s.d, s.lemmas)) from stems s) as lemmas,
             (select coalesce(json_object_agg(x.f, x.w), '{}'::json) from (
                select t.stem_first as f, max(t.stem_words) as w from terms t
                 where t.dictionary_id = any(?::int[]) and t.language_code = ? and not t.deleted
                   and t.stem_first in (select split_part(k, ' ', 1) from stems, unnest(stems.keys) k)
                 group by t.stem_first) x) as starts,
             (select json_build_object('words', coalesce(max(a.w), 0), 'chars', coalesce(max(b.ch), 0))
                from unnest(?::int[]) d
                cross join lateral (select stem_words as w from terms where dictionary_id = d and language_code = ?
                                       and not deleted and stem_words is not null order by stem_words desc limit 1) a
                cross join lateral (select char_length(name_folded) as ch from terms where dictionary_id = d
                                       and language_code = ? and not deleted order by char_length(name_folded) desc limit 1) b) as bounds,
             (select coalesce(array_agg(c), '{}') from unnest(?::text[]) c
               where exists (select 1 from terms t where t.dictionary_id = any(?::int[]) and t.language_code = ?
                                and not t.deleted and t.name_folded >= public.polyterm_fold(c) collate "C"
                                and t.name_folded < (public.polyterm_fold(c) || chr(1114111)) collate "C")) as firsts,
             (select coalesce(array_agg(s.dictionary_id), '{}') from stemming_settings s
               where s.dictionary_id = any(?::int[]) and s.language_code = lower(?) and s.acronym_case = 'fold') as "acronymFolds"`,
    params: [
      ...groups.params,
      ...folded.params,
      plan.dictionaryIds,
      plan.languageCode,
      plan.dictionaryIds,
      plan.languageCode,
      plan.languageCode,
      firstChars,
      plan.dictionaryIds,
      plan.languageCode,
      plan.dictionaryIds,
      plan.languageCode,
    ],
  });
  return row!;
}

export type LookupRequest = SessionRequest & {
  dictionaryIds?: number[];
  targetLangs: string[];
};

/**
 * Finds the visible terms the segments may use: the database's part of a lookup, whose CPU-bound
 * phases run in the session, a worker's (decoration-pool.ts; term check's too).
 */
export async function findTerms(scope: Scope, request: LookupRequest, session: AsyncSession): Promise<Found> {
  const sourceLang = request.sourceLang;
  const named = request.dictionaryIds !== undefined;
  const requestedIds = [...new Set(request.dictionaryIds ?? (await readableDictionaries(scope)))];
  const hasWords = await session.hasWords();
  if (!requestedIds.length) return { sourceLang, dictionaryIds: requestedIds, rows: [] };
  const { dictionaryIds, plan } = await accessPlan(scope, requestedIds, sourceLang, !named);
  await checkLanguageCodes(scope, 'targetLangs', request.targetLangs, dictionaryIds);
  const none: Found = { sourceLang, dictionaryIds, rows: [] };
  if (!plan || !hasWords) return none;
  const row = await textKeyRow(scope.em, plan, await session.keyInputs(plan.languageCode));
  const { keys } = await session.spans(row);
  if (!keys) return none;
  const languages = [
    ...new Set([sourceLang, plan.languageCode, ...request.targetLangs.map((l) => l.toLowerCase())]),
  ];
  const found = await lookUpTerms(scope.em, plan, keys, languages);
  // Workflows: hidden and (but for reviewers) unpublished terms are neither matched nor offered.
  const rows = (await visibleTermsWithStates(scope, found)).map(({ term, state }) =>
    state ? { ...term, workflowCategory: state.category } : term,
  );
  return { sourceLang, dictionaryIds, rows };
}

/**
 * An answer a worker serialised: the REST adapter sends its bytes as they are (see raw-json.ts); the
 * segments are parsed only when read as objects (GraphQL, tRPC).
 */
function answerOf(found: Found, json: Uint8Array): DecorationResponse {
  let segments: DecorationResponse['segments'] | undefined;
  const answer = {
    sourceLang: found.sourceLang,
    dictionaryIds: found.dictionaryIds,
    get segments() {
      segments ??= (JSON.parse(new TextDecoder().decode(json)) as DecorationResponse).segments;
      return segments;
    },
  };
  return withRawJson(answer, json);
}

/** POST /term-decoration: matching and the answer's JSON in a worker thread. */
export async function decorate(scope: Scope, input: DecorationInput): Promise<DecorationResponse> {
  const output = input.output ?? 'matches';
  const overlap = input.overlap ?? 'longest';
  // Codes as the dictionaries hold them (en → eng); findTerms refuses unknown ones.
  const targetLangs = [...new Set((input.targetLangs ?? []).map(languageKey))];
  const segments = input.segments.map((segment, index) => ({
    id: segment.id ?? String(index),
    text: segment.text,
    format: segment.format ?? 'text',
  }));
  for (const segment of segments) {
    if (output !== 'matches' && segment.format !== 'text' && segment.format !== output) {
      throw new AppError('BAD_REQUEST', `output ${output} cannot decorate a segment in ${segment.format}`);
    }
  }
  checkLimits(segments.map((s) => s.text));
  const request = {
    sourceLang: languageKey(input.sourceLang),
    dictionaryIds: input.dictionaryIds,
    targetLangs,
    segments,
    kinds: input.kinds ?? DEFAULT_KINDS,
    minScore: input.minScore ?? 0,
    overlap,
  };
  const session = await decorationPool().session(request);
  try {
    const found = await findTerms(scope, request, session);
    const json = await session.answerJson(found, { output, overlap, targetLangs });
    return answerOf(found, json);
  } finally {
    session.close();
  }
}
