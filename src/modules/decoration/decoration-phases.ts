/**
 * The CPU-bound phases of a decoration, between its database round trips (issue 38: no request may
 * stall the server). Pure functions of plain data, so they run in a worker thread (decoration.worker.ts)
 * as well as in the caller's thread, with the same answers: reading the segments, the spans of the text
 * and their keys, the matches, and the answer's segments.
 */
import { StemKeys } from '../stemming/stem-keys.js';
import { isStopWord } from '../stemming/stop-words.js';
import { isCharacterLanguage, type TextToken, wordTokens } from '../stemming/text-tokens.js';
import type { TermRow } from './candidate-lookup.js';
import { decoratedSegment } from './decorated-output.js';
import type { DecorationResponse, Match, MatchKind } from './decoration.schema.js';
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

export interface PreparedSegment {
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

export interface KeyRow {
  folded: string[];
  stems: [number | null, string[]][] | null;
  /** The words' lemma keys (polyterm_lemma_keys) by the same groups; null keys where no lexicon stems. */
  lemmas: [number | null, string[] | null][] | null;
  /** The most words of a term whose stem key starts with the word, by first word. */
  starts: Record<string, number>;
  bounds: { words: number; chars: number } | null;
  /** Of the first characters of the words (languages without spaces), those some term's folded name starts with. */
  firsts: string[];
  /** Dictionaries whose acronyms match any case (stemming settings' acronymCase 'fold'). */
  acronymFolds: number[];
}

/** What the text's keys statement needs of the segments. */
export interface KeyInputs {
  pieces: string[];
  words: string[];
  firstChars: string[];
}

/** The segments' text without markup, and its words. */
export function prepareSegments(
  segments: readonly { id: string; text: string; format: SegmentFormat }[],
  sourceLang: string,
): PreparedSegment[] {
  return segments.map((segment) => {
    const text = normalizedText(segmentText(segment.text, segment.format));
    return { id: segment.id, format: segment.format, text, tokens: wordTokens(text.text, sourceLang) };
  });
}

export function keyInputsOf(segments: readonly PreparedSegment[], language: string): KeyInputs {
  const firstChars = isCharacterLanguage(language)
    ? [
        ...new Set(
          segments.flatMap((s) => s.tokens.map((t) => String.fromCodePoint(t.surface.codePointAt(0)!))),
        ),
      ]
    : [];
  return {
    pieces: [...new Set(segments.flatMap((s) => piecesOf(s.text.text, s.tokens)))],
    words: [...new Set(segments.flatMap((s) => s.tokens.map((t) => t.surface)))],
    firstChars,
  };
}

/** Scripts written without spaces: their words do not bound a term, its characters do. */
const NO_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export type TextKeys = ReturnType<typeof textKeysOf>;

/** The keys statement's answer as lookups: folded pieces, stems, and how many words a span may have. */
export function textKeysOf(row: KeyRow, inputs: KeyInputs, language: string) {
  const characters = isCharacterLanguage(language);
  const firsts = new Set(row.firsts);
  const foldedOf = new Map(inputs.pieces.map((piece, index) => [piece, row.folded[index] ?? piece]));
  const wordIndex = new Map(inputs.words.map((word, index) => [word, index]));
  const stems = new StemKeys(row.stems);
  const lemmaGroups = new Map(row.lemmas ?? []);
  const maxWords = row.bounds?.words ?? 0;
  /** The most words a span starting with this word may have (the longest term starting with it). */
  const wordsFrom = (word: string): number => {
    // Without spaces, a term may start at any character (経済 in 経済学) some term starts with.
    if (characters) return firsts.has(String.fromCodePoint(word.codePointAt(0)!)) ? maxWords : 0;
    if (NO_SPACES.test(word)) return maxWords;
    const index = wordIndex.get(word)!;
    let most = 0;
    for (const set of stems.all()) most = Math.max(most, row.starts[(set[index] ?? '').split(' ')[0]!] ?? 0);
    return most;
  };
  return {
    fold: (piece: string) => foldedOf.get(piece) ?? piece,
    stems,
    /** The words' lemma keys under a dictionary's settings (as `stems.of`); null where no lexicon stems. */
    lemmas: (dictionaryId: number): string[] | null =>
      (lemmaGroups.has(dictionaryId) ? lemmaGroups.get(dictionaryId) : lemmaGroups.get(null)) ?? null,
    wordIndex,
    wordsFrom,
    maxWords,
    maxChars: row.bounds?.chars ?? 0,
    acronymFolds: new Set(row.acronymFolds),
    /** A function word of the language (stop-words.ts): alone, it matches no term. */
    stopWord: (word: string) => isStopWord(language, word),
  };
}

export interface SegmentSpans {
  segment: PreparedSegment;
  spans: Span[];
  stemKeys: string[][];
}

/** The keys the candidate lookup needs (terms.name_folded, terms.stem_key, fuzzy prefixes). */
export interface CandidateKeys {
  folded: string[];
  stems: string[];
  prefixes: { word: string; maxLength: number }[];
}

/** Every span of the text that may be a term, with its stem keys, and the keys to look up. */
export function spansOfSegments(
  segments: readonly PreparedSegment[],
  keys: TextKeys,
  fuzzy: boolean,
): { perSegment: SegmentSpans[]; keys: CandidateKeys } {
  // Folding may lengthen a text (ß -> ss, æ -> ae): spans get room beyond the longest folded name.
  const maxLength = 2 * keys.maxChars + 16;
  const stemSets = keys.stems.all();
  // Fuzzy matches need every word's one-word span, whatever terms start with it.
  const wordsFrom = fuzzy ? (word: string) => Math.max(1, keys.wordsFrom(word)) : keys.wordsFrom;
  const folded = new Set<string>();
  const stemmed = new Set<string>();
  const perSegment = segments.map((segment) => {
    const { text } = segment.text;
    const wordStems = stemSets.map((set) =>
      segment.tokens.map((t) => set[keys.wordIndex.get(t.surface)!] ?? ''),
    );
    const spans: Span[] = [];
    const stemKeys: string[][] = [];
    const range = { from: 0, to: segment.tokens.length };
    for (const span of spansOf(text, segment.tokens, keys.fold, wordsFrom, maxLength, range)) {
      if (span.firstToken === span.lastToken && keys.stopWord(segment.tokens[span.firstToken]!.surface))
        continue;
      const spanKeys = stemSets.map((_, index) =>
        span.attached ? '' : spanStemKey(text, segment.tokens, wordStems[index]!, span),
      );
      spans.push(span);
      stemKeys.push(spanKeys);
      folded.add(span.folded);
      for (const key of spanKeys) if (key) stemmed.add(key);
    }
    return { segment, spans, stemKeys };
  });
  const fuzzyWords = fuzzy ? fuzzyWordsOf(perSegment.flatMap((s) => s.spans)) : [];
  // A word's shorter forms are plain keys; its longer forms, prefixes.
  for (const word of fuzzyWords) for (const shorter of shorterForms(word)) folded.add(shorter);
  const prefixes = fuzzyWords.map((word) => ({ word, maxLength: [...word].length + FUZZY_EXTRA }));
  return { perSegment, keys: { folded: [...folded], stems: [...stemmed], prefixes } };
}

export interface MatchOptions {
  kinds: readonly MatchKind[];
  minScore: number;
  overlap: 'longest' | 'all';
}

/** The chosen spans of every segment, from the visible terms found (`rows`). */
export function matchSegments(
  perSegment: readonly SegmentSpans[],
  rows: readonly TermRow[],
  keys: TextKeys,
  options: MatchOptions,
): SegmentMatches[] {
  const kinds = new Set(options.kinds);
  const stemSets = keys.stems.all();
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
  return perSegment.map(({ segment, spans, stemKeys }) => {
    const candidates: Candidate[] = [];
    const spanLemma = spanLemmaKeys(segment, keys);
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
          const candidate = stemmedCandidate(span, term, spanLemma(span, term.dictionaryId));
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
    const wanted = candidates.filter((c) => kinds.has(c.kind) && c.score >= options.minScore);
    return { segment, spans: chooseSpans(groupBySpan(wanted), options.overlap) };
  });
}

/**
 * A segment's spans' lemma keys under a dictionary's settings (the words' lemma keys joined as stem keys
 * are), null where no lexicon stems the language; each set of word lemmas mapped to the tokens once.
 */
function spanLemmaKeys(segment: PreparedSegment, keys: TextKeys) {
  const byTokens = new Map<string[], string[]>();
  return (span: Span, dictionaryId: number): string | null => {
    const lemmas = keys.lemmas(dictionaryId);
    if (!lemmas) return null;
    let tokenLemmas = byTokens.get(lemmas);
    if (!tokenLemmas) {
      tokenLemmas = segment.tokens.map((t) => lemmas[keys.wordIndex.get(t.surface)!] ?? '');
      byTokens.set(lemmas, tokenLemmas);
    }
    return spanStemKey(segment.text.text, segment.tokens, tokenLemmas, span);
  };
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

export interface ShapeOptions {
  output: 'matches' | 'html' | 'xliff';
  overlap: 'longest' | 'all';
  targetLangs: readonly string[];
}

/** The answer's segments: matches, and the decorated text when an output format is asked for. */
export function answerSegments(lookup: Lookup, options: ShapeOptions): DecorationResponse['segments'] {
  const { output, targetLangs } = options;
  return lookup.segments.map(({ segment, spans }) => {
    const matches = spans.map((spanMatch) => matchOf(lookup, segment, spanMatch, targetLangs));
    if (output === 'matches') return { id: segment.id, matches };
    // Overlapping matches cannot all be marked: the decorated segment gets the longest-leftmost ones.
    const marked = options.overlap === 'all' ? chooseSpans(spans, 'longest') : spans;
    const markedMatches = marked.map((spanMatch) => matchOf(lookup, segment, spanMatch, targetLangs));
    return {
      id: segment.id,
      matches,
      decorated: decoratedSegment(segment.text, segment.format, markedMatches, output),
    };
  });
}

export { termsByConcept };
