/**
 * Term decoration (docs/decoration.md): which terms of the caller's dictionaries a text uses. Three
 * round trips whatever the text's length: the caller's access (as term search loads it), the folded
 * and stemmed keys of the text's words with the longest term's size, and one indexed lookup of every
 * span's keys with the matched concepts' other terms.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionaryIds } from '../dictionary/dictionary-access.js';
import type { TermSearchInput } from '../search/search.schema.js';
import type { SearchPlan } from '../search/search-plan.js';
import { loadSearchContext, planSearch } from '../search/search-request.js';
import { checkLanguageCodes } from '../stemming/language-codes.js';
import { foldedTextsSql, StemKeys, stemGroupsSql } from '../stemming/stem-keys.js';
import { isCharacterLanguage, type TextToken, wordTokens } from '../stemming/text-tokens.js';
import { visibleTermsWithStates } from '../workflow/workflow-effects.js';
import { lookUpTerms, type TermRow } from './candidate-lookup.js';
import { inTurns } from './cpu-turns.js';
import { decoratedSegment } from './decorated-output.js';
import {
  DEFAULT_KINDS,
  type DecorationInput,
  type DecorationResponse,
  type Match,
  type MatchKind,
} from './decoration.schema.js';
import {
  normalizedText,
  originalRange,
  type SegmentFormat,
  type SegmentText,
  segmentText,
} from './inline-markup.js';
import {
  type Candidate,
  chooseSpans,
  entryOf,
  FUZZY_EXTRA,
  FUZZY_MIN_LENGTH,
  foldedCandidate,
  fuzzyCandidate,
  groupBySpan,
  type SpanMatch,
  stemmedCandidate,
  termsByConcept,
} from './match-building.js';
import { piecesOf, type Span, spanStemKey, spansOf } from './text-spans.js';

/** Words starting spans per slice of matching (see cpu-turns.ts). */
const WORDS_PER_SLICE = 200;

/** Per call (docs/decoration.md): more is 413. */
export const MAX_SEGMENTS = 100;
export const MAX_BYTES = 64 * 1024;

interface PreparedSegment {
  id: string;
  format: SegmentFormat;
  text: SegmentText;
  tokens: TextToken[];
}

/** What a lookup of segments answers before it is shaped for an endpoint. */
export interface SegmentMatches {
  segment: PreparedSegment;
  /** Chosen spans, each with its candidates (best first). */
  spans: SpanMatch[];
}

export interface Lookup {
  sourceLang: string;
  dictionaryIds: number[];
  segments: SegmentMatches[];
  byConcept: Map<number, TermRow[]>;
}

function checkLimits(texts: readonly string[]) {
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

interface KeyRow {
  folded: string[];
  stems: [number | null, string[]][] | null;
  /** The most words of a term whose stem key starts with the word, by first word. */
  starts: Record<string, number>;
  bounds: { words: number; chars: number } | null;
  /** Of the first characters of the words (languages without spaces), those some term's folded name starts with. */
  firsts: string[];
  /** Dictionaries whose acronyms match any case (stemming settings' acronymCase 'fold'). */
  acronymFolds: number[];
}

/**
 * One statement: the folded pieces and stemmed words of all segments; for each word, the most words of
 * a term starting with its stem (terms_stem_first_index); and the longest term's words and characters
 * (for scripts without spaces, whose words do not bound a term).
 */
async function textKeys(scope: Scope, plan: SearchPlan, segments: readonly PreparedSegment[]) {
  const characters = isCharacterLanguage(plan.languageCode);
  const firstChars = characters
    ? [
        ...new Set(
          segments.flatMap((s) => s.tokens.map((t) => String.fromCodePoint(t.surface.codePointAt(0)!))),
        ),
      ]
    : [];
  const pieces = [...new Set(segments.flatMap((s) => piecesOf(s.text.text, s.tokens)))];
  const words = [...new Set(segments.flatMap((s) => s.tokens.map((t) => t.surface)))];
  const groups = stemGroupsSql(plan.dictionaryIds, plan.languageCode, words);
  const folded = foldedTextsSql(pieces);
  const [row] = await boundRows<KeyRow>(scope.em, {
    text: `with stems as (${groups.text})
      select ${folded.text} as folded,
             (select json_agg(json_build_array(s.d, s.keys)) from stems s) as stems,
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
  const firsts = new Set(row!.firsts);
  const foldedOf = new Map(pieces.map((piece, index) => [piece, row!.folded[index] ?? piece]));
  const wordIndex = new Map(words.map((word, index) => [word, index]));
  const stems = new StemKeys(row!.stems);
  const maxWords = row!.bounds?.words ?? 0;
  /** The most words a span starting with this word may have (the longest term starting with it). */
  const wordsFrom = (word: string): number => {
    // Without spaces, a term may start at any character (経済 in 経済学) some term starts with.
    if (characters) return firsts.has(String.fromCodePoint(word.codePointAt(0)!)) ? maxWords : 0;
    if (NO_SPACES.test(word)) return maxWords;
    const index = wordIndex.get(word)!;
    let most = 0;
    for (const set of stems.all()) most = Math.max(most, row!.starts[(set[index] ?? '').split(' ')[0]!] ?? 0);
    return most;
  };
  return {
    fold: (piece: string) => foldedOf.get(piece) ?? piece,
    stems,
    wordIndex,
    wordsFrom,
    maxWords,
    maxChars: row!.bounds?.chars ?? 0,
    acronymFolds: new Set(row!.acronymFolds),
  };
}

/** Scripts written without spaces: their words do not bound a term, its characters do. */
const NO_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Finds the terms of the caller's dictionaries in the segments (the work of both endpoints). */
export async function lookUpSegments(
  scope: Scope,
  request: {
    sourceLang: string;
    dictionaryIds?: number[];
    targetLangs: string[];
    segments: { id: string; text: string; format: SegmentFormat }[];
    kinds: readonly MatchKind[];
    minScore: number;
    overlap: 'longest' | 'all';
  },
): Promise<Lookup> {
  checkLimits(request.segments.map((s) => s.text));
  const sourceLang = request.sourceLang.toLowerCase();
  const named = request.dictionaryIds !== undefined;
  const requestedIds = [...new Set(request.dictionaryIds ?? (await readableDictionaries(scope)))];
  const segments = await inTurns(async (pace) => {
    const prepared: PreparedSegment[] = [];
    for (const segment of request.segments) {
      const text = normalizedText(segmentText(segment.text, segment.format));
      prepared.push({
        id: segment.id,
        format: segment.format,
        text,
        tokens: wordTokens(text.text, sourceLang),
      });
      await pace();
    }
    return prepared;
  });
  const emptyOver = (dictionaryIds: number[]): Lookup => ({
    sourceLang,
    dictionaryIds,
    segments: segments.map((segment) => ({ segment, spans: [] })),
    byConcept: new Map(),
  });
  if (!requestedIds.length) return emptyOver(requestedIds);
  const { dictionaryIds, plan } = await accessPlan(scope, requestedIds, sourceLang, !named);
  await checkLanguageCodes(scope, 'targetLangs', request.targetLangs, dictionaryIds);
  const empty = emptyOver(dictionaryIds);

  if (!plan || segments.every((s) => !s.tokens.length)) return empty;

  const kinds = new Set(request.kinds);
  const keys = await textKeys(scope, plan, segments);

  if (keys.maxWords === 0) return empty;
  // Folding may lengthen a text (ß -> ss, æ -> ae): spans get room beyond the longest folded name.
  const maxLength = 2 * keys.maxChars + 16;
  const stemSets = keys.stems.all();
  // Fuzzy matches need every word's one-word span, whatever terms start with it.
  const wordsFrom = kinds.has('fuzzy') ? (word: string) => Math.max(1, keys.wordsFrom(word)) : keys.wordsFrom;
  const folded = new Set<string>();
  const stemmed = new Set<string>();
  const perSegment = await inTurns(async (pace) => {
    const all: { segment: PreparedSegment; spans: Span[]; stemKeys: string[][] }[] = [];
    for (const segment of segments) {
      const { text } = segment.text;
      const wordStems = stemSets.map((set) =>
        segment.tokens.map((t) => set[keys.wordIndex.get(t.surface)!] ?? ''),
      );
      const spans: Span[] = [];
      const stemKeys: string[][] = [];
      for (let from = 0; from < segment.tokens.length; from += WORDS_PER_SLICE) {
        const range = { from, to: from + WORDS_PER_SLICE };
        for (const span of spansOf(text, segment.tokens, keys.fold, wordsFrom, maxLength, range)) {
          const spanKeys = stemSets.map((_, index) =>
            span.attached ? '' : spanStemKey(text, segment.tokens, wordStems[index]!, span),
          );
          spans.push(span);
          stemKeys.push(spanKeys);
          folded.add(span.folded);
          for (const key of spanKeys) if (key) stemmed.add(key);
        }
        await pace();
      }
      all.push({ segment, spans, stemKeys });
    }
    return all;
  });
  const fuzzyWords = kinds.has('fuzzy') ? fuzzyWordsOf(perSegment.flatMap((s) => s.spans)) : [];
  // A word's shorter forms are plain keys; its longer forms, prefixes.
  for (const word of fuzzyWords) for (const shorter of shorterForms(word)) folded.add(shorter);
  const prefixes = fuzzyWords.map((word) => ({ word, maxLength: [...word].length + FUZZY_EXTRA }));
  const languages = [
    ...new Set([sourceLang, plan.languageCode, ...request.targetLangs.map((l) => l.toLowerCase())]),
  ];
  const found = await lookUpTerms(
    scope.em,
    plan,
    { folded: [...folded], stems: [...stemmed], prefixes },
    languages,
  );
  // Workflows: hidden and (but for reviewers) unpublished terms are neither matched nor offered.
  const rows = (await visibleTermsWithStates(scope, found)).map(({ term, state }) =>
    state ? { ...term, workflowCategory: state.category } : term,
  );
  const hits = rows
    .filter((row) => row.hit)
    .map((row) => (keys.acronymFolds.has(row.dictionaryId) ? { ...row, acronymFolds: true } : row));
  const byFolded = groupRows(hits, (row) => row.folded);
  const byStem = groupRows(hits, (row) => row.stemKey ?? '');
  // Fuzzy candidates of a word: names that are one of its shorter forms, or start with it.
  const byStart = groupRows(
    hits.filter((row) => !row.folded.includes(' ')),
    (row) => [...row.folded].slice(0, FUZZY_MIN_LENGTH).join(''),
  );

  return {
    sourceLang,
    dictionaryIds,
    byConcept: termsByConcept(rows),
    segments: await inTurns(async (pace) => {
      const matched: SegmentMatches[] = [];
      for (const { segment, spans, stemKeys } of perSegment) {
        matched.push(matchSegment(segment, spans, stemKeys));
        await pace();
      }
      return matched;
    }),
  };

  function matchSegment(segment: PreparedSegment, spans: Span[], stemKeys: string[][]): SegmentMatches {
    const candidates: Candidate[] = [];
    spans.forEach((span, index) => {
      for (const term of byFolded.get(span.folded) ?? []) {
        const candidate = foldedCandidate(span, term);
        if (candidate) candidates.push(candidate);
      }
      stemSets.forEach((set, setIndex) => {
        const key = stemKeys[index]![setIndex];
        if (!key) return;
        for (const term of byStem.get(key) ?? []) {
          // The key was made under this term's dictionary's settings, and no folded match says more.
          if (keys.stems.of(term.dictionaryId) !== set || term.folded === span.folded) continue;
          const candidate = stemmedCandidate(span, term);
          if (candidate) candidates.push(candidate);
        }
      });
    });
    if (kinds.has('fuzzy')) {
      for (const span of spans) {
        if (span.firstToken !== span.lastToken || span.attached) continue;
        const start = [...span.folded].slice(0, FUZZY_MIN_LENGTH).join('');
        for (const term of byStart.get(start) ?? []) {
          const candidate = fuzzyCandidate(span, term);
          if (candidate) candidates.push(candidate);
        }
      }
    }
    const wanted = candidates.filter((c) => kinds.has(c.kind) && c.score >= request.minScore);
    return { segment, spans: chooseSpans(groupBySpan(wanted), request.overlap) };
  }
}

/** The folded one-word spans long enough for fuzzy matches. */
function fuzzyWordsOf(spans: readonly Span[]): string[] {
  const words = new Set<string>();
  for (const span of spans) {
    if (span.firstToken === span.lastToken && !span.attached && !span.folded.includes(' ')) {
      if ([...span.folded].length >= FUZZY_MIN_LENGTH) words.add(span.folded);
    }
  }
  return [...words];
}

/** A word without its last 1 to FUZZY_EXTRA letters, no shorter than FUZZY_MIN_LENGTH. */
function shorterForms(word: string): string[] {
  const chars = [...word];
  const forms: string[] = [];
  for (let cut = 1; cut <= FUZZY_EXTRA && chars.length - cut >= FUZZY_MIN_LENGTH; cut++) {
    forms.push(chars.slice(0, chars.length - cut).join(''));
  }
  return forms;
}

function groupRows(rows: readonly TermRow[], keyOf: (row: TermRow) => string): Map<string, TermRow[]> {
  const groups = new Map<string, TermRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (!key) continue;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  return groups;
}

/** A chosen span as an answer's match: offsets in the original, the best concept, the homonyms. */
export function matchOf(
  lookup: Lookup,
  segment: PreparedSegment,
  spanMatch: SpanMatch,
  targetLangs: readonly string[],
): Match {
  const { span } = spanMatch;
  const range = originalRange(segment.text, span.start, span.end);
  const [first, ...others] = spanMatch.candidates.map((c) =>
    entryOf(c, lookup.byConcept, lookup.sourceLang, targetLangs),
  );
  return {
    ...first!,
    start: range.start,
    end: range.end,
    text: segment.text.text.slice(span.start, span.end),
    homonyms: others,
  };
}

/** POST /term-decoration. */
export async function decorate(scope: Scope, input: DecorationInput): Promise<DecorationResponse> {
  const output = input.output ?? 'matches';
  const targetLangs = [...new Set((input.targetLangs ?? []).map((l) => l.toLowerCase()))];
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
  const lookup = await lookUpSegments(scope, {
    sourceLang: input.sourceLang,
    dictionaryIds: input.dictionaryIds,
    targetLangs,
    segments,
    kinds: input.kinds ?? DEFAULT_KINDS,
    minScore: input.minScore ?? 0,
    overlap: input.overlap ?? 'longest',
  });
  const answered = await inTurns(async (pace) => {
    const shaped: DecorationResponse['segments'] = [];
    for (const { segment, spans } of lookup.segments) {
      const matches = spans.map((spanMatch) => matchOf(lookup, segment, spanMatch, targetLangs));
      if (output === 'matches') shaped.push({ id: segment.id, matches });
      else {
        // Overlapping matches cannot all be marked: the decorated segment gets the longest-leftmost ones.
        const marked = input.overlap === 'all' ? chooseSpans(spans, 'longest') : spans;
        const markedMatches = marked.map((spanMatch) => matchOf(lookup, segment, spanMatch, targetLangs));
        shaped.push({
          id: segment.id,
          matches,
          decorated: decoratedSegment(segment.text, segment.format, markedMatches, output),
        });
      }
      await pace();
    }
    return shaped;
  });
  return { sourceLang: lookup.sourceLang, dictionaryIds: lookup.dictionaryIds, segments: answered };
}
