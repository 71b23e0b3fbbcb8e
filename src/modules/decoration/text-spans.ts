/**
 * The spans of a text that could be terms, with the keys they are looked up by. A span runs from the
 * start of one word to the end of a later one (or over punctuation attached to its ends: "C++",
 * ".NET"), and its keys are built the way terms' stored keys are:
 * - folded: the folded words and what lies between them (spaces as one space), as `name_folded`;
 * - stem: the words' stem keys joined by a space, or by nothing where no space or punctuation separates
 *   them (Japanese, Chinese, Thai words), as `stem_key` is made from the name.
 * A span has at most as many words as the longest term starting with its first word's stem (any term
 * it matches starts with that stem), so nothing a term could match is left out. A span never crosses
 * strong punctuation (a sentence's end, ; or :): "clean. Water" is not "clean water"; but the period of an
 * abbreviation or an initial ("U.S. Army", "J. Smith") ends no sentence.
 */
import type { TextToken } from '../stemming/text-tokens.js';
import { OBJECT_REPLACEMENT } from './inline-markup.js';

export interface Span {
  /** UTF-16 range in the segment's text. */
  start: number;
  end: number;
  /** The span's text, runs of white space as one space: compared with names for exact and case matches. */
  surface: string;
  folded: string;
  /** Index of the first and last word: the stem key comes from their stems. */
  firstToken: number;
  lastToken: number;
  /** Punctuation attached at the ends belongs to the span (such spans match folded names only). */
  attached: boolean;
}

const WHITE = /\s+/gu;
/** Punctuation ending a sentence or clause: no span crosses it. */
const STRONG_PUNCTUATION = /[.!?;:\u2026\u3002\uff01\uff1f\uff1b\uff1a\u061f\u06d4\u0964]/u;
/** A word that is one letter or letters joined by periods: an initial or abbreviation ("J", "U.S", "e.g"). */
const ABBREVIATION = /^\p{L}(?:\.\p{L})*$/u;
const PERIOD_ONLY = /^\.\s*$/u;

/** Whether a gap ends a span: strong punctuation, unless it is the period after an abbreviation. */
const endsSpan = (gap: string, before: string) =>
  STRONG_PUNCTUATION.test(gap) && !(PERIOD_ONLY.test(gap) && ABBREVIATION.test(before));
/** At most this many characters of punctuation attached to a span's ends ("C++", "C#", ".NET"). */
const MAX_ATTACHED = 3;
const LEADING_NON_SPACE = /^[^\s]+/u;
const TRAILING_NON_SPACE = /[^\s]+$/u;

export const normalizeSpaces = (text: string) => text.replace(WHITE, ' ');

/** The pieces of a text whose folded form the spans need (words, gaps, attached punctuation). */
export function piecesOf(text: string, tokens: readonly TextToken[]): string[] {
  const pieces = new Set<string>();
  tokens.forEach((token, index) => {
    pieces.add(token.surface);
    const gap = gapAfter(text, tokens, index);
    if (gap) pieces.add(normalizeSpaces(gap));
    for (const lead of suffixesOf(leadOf(text, tokens, index))) pieces.add(lead);
    for (const trail of prefixesOf(trailOf(text, tokens, index))) pieces.add(trail);
  });
  return [...pieces];
}

const gapAfter = (text: string, tokens: readonly TextToken[], index: number) =>
  index + 1 < tokens.length ? text.slice(tokens[index]!.end, tokens[index + 1]!.start) : '';

/** Punctuation directly before a word (".NET"). */
function leadOf(text: string, tokens: readonly TextToken[], index: number): string {
  const before = text.slice(index > 0 ? tokens[index - 1]!.end : 0, tokens[index]!.start);
  return TRAILING_NON_SPACE.exec(before)?.[0] ?? '';
}

/** Punctuation directly after a word ("C++"). */
function trailOf(text: string, tokens: readonly TextToken[], index: number): string {
  const after = text.slice(
    tokens[index]!.end,
    index + 1 < tokens.length ? tokens[index + 1]!.start : text.length,
  );
  return LEADING_NON_SPACE.exec(after)?.[0] ?? '';
}

/**
 * Every span of up to `maxWordsFrom(its first word)` words (and `maxLength` UTF-16 units, which bounds
 * runs of words with nothing between them), with its keys; `fold` answers the folded form of a piece.
 */
export function spansOf(
  text: string,
  tokens: readonly TextToken[],
  fold: (piece: string) => string,
  maxWordsFrom: (word: string) => number,
  maxLength: number,
  /** The first words of the spans wanted (a range, so that long texts are matched in slices). */
  firstWords: { from: number; to: number } = { from: 0, to: tokens.length },
): Span[] {
  const spans: Span[] = [];
  for (let first = firstWords.from; first < Math.min(firstWords.to, tokens.length); first++) {
    const maxWords = maxWordsFrom(tokens[first]!.surface);
    if (maxWords < 1) continue;
    let words = 1;
    let folded = fold(tokens[first]!.surface);
    const lead = leadOf(text, tokens, first);
    for (let last = first; last < tokens.length; last++) {
      if (last > first) {
        const gap = gapAfter(text, tokens, last - 1);
        // A placeholder (an inline tag standing for content) ends every span.
        if (gap.includes(OBJECT_REPLACEMENT) || endsSpan(gap, tokens[last - 1]!.surface)) break;
        if (gap) words++;
        folded += (gap ? fold(normalizeSpaces(gap)) : '') + fold(tokens[last]!.surface);
      }
      const start = tokens[first]!.start;
      const end = tokens[last]!.end;
      if (words > maxWords || end - start > maxLength) break;
      const base = { firstToken: first, lastToken: last };
      spans.push({
        ...base,
        start,
        end,
        surface: normalizeSpaces(text.slice(start, end)),
        folded,
        attached: false,
      });
      // Every part of the attached punctuation next to the word: "C++" in "C++," or "(C#)".
      const befores = ['', ...suffixesOf(lead)];
      const afters = ['', ...prefixesOf(trailOf(text, tokens, last))];
      for (const [before, after] of befores.flatMap((b) => afters.map((a) => [b, a] as const))) {
        if (!before && !after) continue;
        const from = start - before.length;
        const to = end + after.length;
        spans.push({
          ...base,
          start: from,
          end: to,
          surface: normalizeSpaces(text.slice(from, to)),
          folded: (before ? fold(before) : '') + folded + (after ? fold(after) : ''),
          attached: true,
        });
      }
    }
  }
  return spans;
}

/** "++," as "+", "++", "++," (up to MAX_ATTACHED characters). */
function prefixesOf(punctuation: string): string[] {
  const chars = [...punctuation].slice(0, MAX_ATTACHED);
  return chars.map((_, index) => chars.slice(0, index + 1).join(''));
}

/** "(." as ".", "(." (up to MAX_ATTACHED characters). */
function suffixesOf(punctuation: string): string[] {
  const chars = [...punctuation].slice(-MAX_ATTACHED);
  return chars.map((_, index) => chars.slice(chars.length - index - 1).join(''));
}

/** The stem key of a span from its words' stem keys (see the module comment). */
export function spanStemKey(
  text: string,
  tokens: readonly TextToken[],
  stems: readonly string[],
  span: Span,
): string {
  let key = stems[span.firstToken] ?? '';
  for (let index = span.firstToken + 1; index <= span.lastToken; index++) {
    const stem = stems[index] ?? '';
    if (!stem) continue;
    key += key && gapAfter(text, tokens, index - 1) ? ` ${stem}` : stem;
  }
  return key;
}
