/**
 * Words of a text with their UTF-16 offsets, by Intl.Segmenter (Node's full ICU): dictionary-based
 * segmentation for Chinese, Japanese and Thai, UAX #29 elsewhere. Decoration and the analyze endpoint
 * both cut texts here, so the tokens they stem are the same.
 */

export interface TextToken {
  /** The word as it stands in the text. */
  surface: string;
  /** UTF-16 offsets in the text: text.slice(start, end) === surface. */
  start: number;
  end: number;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** ISO 639-2 codes of the languages whose segmentation differs from the root locale's. */
const SEGMENTER_LOCALES: Record<string, string> = { jpn: 'ja', zho: 'zh', chi: 'zh', tha: 'th' };

function segmenterFor(language: string): Intl.Segmenter {
  const locale = SEGMENTER_LOCALES[language.toLowerCase()] ?? 'und';
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

/** The word-like segments of `text` (letters, digits, ideographs), in order. */
export function wordTokens(text: string, language: string): TextToken[] {
  const tokens: TextToken[] = [];
  for (const segment of segmenterFor(language).segment(text)) {
    if (!segment.isWordLike) continue;
    tokens.push({
      surface: segment.segment,
      start: segment.index,
      end: segment.index + segment.segment.length,
    });
  }
  return tokens;
}
