/**
 * Words of a text with their UTF-16 offsets, by Intl.Segmenter (Node's full ICU): dictionary-based
 * segmentation for Chinese, Japanese and Thai, UAX #29 elsewhere. Decoration and the analyze endpoint
 * both cut texts here, so the tokens they stem are the same. On top of UAX #29:
 * - spaces inside a word are cut out (U+202F, the narrow no-break space of French before ; ! ?, is an
 *   ExtendNumLet to UAX #29 and would join "énergie" to what follows);
 * - elided articles and pronouns (French l' d' j' qu'..., Italian and Catalan alike, with ' or ’) are
 *   left out of the word they precede, as Lucene's ElisionFilter does ("l’école" is the word "école");
 *   polyterm_stem_keys drops them from term names the same way (one list: elisions.ts);
 * - English possessives ('s, ’s) are left out ("the committee’s" is the word "committee");
 * - in Japanese and Chinese, words of Han and kana are cut into characters, so that a term can be found
 *   inside a longer word (経済 in 経済学); which characters start a span is the dictionary's to say.
 */
import { APOSTROPHES, ELISIONS } from './elisions.js';

export interface TextToken {
  /** The word as it stands in the text. */
  surface: string;
  /** UTF-16 offsets in the text: text.slice(start, end) === surface. */
  start: number;
  end: number;
}

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * ISO 639-2 codes of the languages whose segmentation differs from the root locale's. Maps, not object
 * literals: a language code comes from the caller, and "__proto__" must find nothing.
 */
const SEGMENTER_LOCALES = new Map([
  ['jpn', 'ja'],
  ['zho', 'zh'],
  ['chi', 'zh'],
  ['tha', 'th'],
]);

function segmenterFor(language: string): Intl.Segmenter {
  const locale = SEGMENTER_LOCALES.get(language.toLowerCase()) ?? 'und';
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

/** Elided words by language code (ISO 639-1 and 639-2), from the one list shared with polyterm_stem_keys. */
const ELISION_BY_LANGUAGE = new Map<string, readonly string[]>(
  ELISIONS.flatMap(({ codes, words }) => codes.map((code) => [code, words] as const)),
);
const elisionPatterns = new Map<string, RegExp>();

/** The elided prefix of a word ("l'", "qu’") in this language, as a pattern; null where there is none. */
export function elisionPattern(language: string): RegExp | null {
  const code = language.toLowerCase();
  const words = ELISION_BY_LANGUAGE.get(code);
  if (!words) return null;
  let pattern = elisionPatterns.get(code);
  if (!pattern) {
    pattern = new RegExp(`^(?:${words.join('|')})[${APOSTROPHES}]`, 'iu');
    elisionPatterns.set(code, pattern);
  }
  return pattern;
}

const ENGLISH = new Set(['en', 'eng']);
const POSSESSIVE = /['\u2019]s$/iu;
/** Languages whose Han and kana words are cut into characters. */
const CHARACTER_LANGUAGES = new Set(['ja', 'jpn', 'zh', 'zho', 'chi']);
const HAN_OR_KANA = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+$/u;
const INNER_SPACE = /\p{Zs}+/gu;

/** Languages written without spaces between words, whose characters (not words) bound a term. */
export const isCharacterLanguage = (language: string) => CHARACTER_LANGUAGES.has(language.toLowerCase());

function push(tokens: TextToken[], surface: string, start: number) {
  if (surface) tokens.push({ surface, start, end: start + surface.length });
}

/** The word-like segments of `text` (letters, digits, ideographs), in order. */
export function wordTokens(text: string, language: string): TextToken[] {
  const tokens: TextToken[] = [];
  const elision = elisionPattern(language);
  const possessive = ENGLISH.has(language.toLowerCase());
  const characters = isCharacterLanguage(language);
  for (const segment of segmenterFor(language).segment(text)) {
    if (!segment.isWordLike) continue;
    // Spaces inside a segment (U+202F) cut it.
    let offset = segment.index;
    for (const piece of segment.segment.split(INNER_SPACE)) {
      const start = text.indexOf(piece, offset);
      offset = start + piece.length;
      let word = piece;
      let from = start;
      const elided = elision?.exec(word);
      if (elided && elided[0].length < word.length) {
        from += elided[0].length;
        word = word.slice(elided[0].length);
      }
      if (possessive && POSSESSIVE.test(word) && word.length > 2) word = word.slice(0, -2);
      if (characters && HAN_OR_KANA.test(word)) {
        let at = from;
        for (const char of word) {
          push(tokens, char, at);
          at += char.length;
        }
      } else push(tokens, word, from);
    }
  }
  return tokens;
}
