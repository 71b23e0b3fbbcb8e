/**
 * The text of a segment given as plain text, HTML or XLIFF 2 inline content, with the way back to the
 * original: matching runs on the text, offsets are answered in the original, and decoration inserts its
 * markup into the original without touching the segment's own tags. Segments are inline fragments
 * (text, entities, tags), not documents: a scanner of that small grammar is all they need.
 */
import { AppError } from '../../shared/errors.js';

export type SegmentFormat = 'text' | 'html' | 'xliff';

export interface Tag {
  /** UTF-16 range of the tag in the original. */
  start: number;
  end: number;
  kind: 'open' | 'close' | 'empty';
  name: string;
}

export interface SegmentText {
  original: string;
  /** The text: entities decoded, tags left out (a standalone tag such as <ph/> or <br> becomes U+FFFC). */
  text: string;
  /** For each UTF-16 unit of text (and one past its end): its offset in the original. */
  starts: number[];
  /** For each UTF-16 unit of text: the end of what it came from in the original (an entity is longer). */
  ends: number[];
  tags: Tag[];
}

/** Elements of HTML that have no end tag. */
const HTML_VOID = new Set([
  'area',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** HTML elements whose content is not text (scripts, style sheets). */
const RAW_TEXT = new Set(['script', 'style']);
/** An attribute value without quotes (`a=b`), which XML does not allow. */
const UNQUOTED_VALUE = /=\s*[^\s"']/;
const QUOTED = /"[^"]*"|'[^']*'/g;
/** XLIFF 2 inline elements standing for content (a placeholder), not wrapping it. */
const XLIFF_STANDALONE = new Set(['ph', 'x', 'bx', 'ex', 'sc', 'ec', 'sm', 'em', 'cp']);
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};
/** Stands in the text for a standalone tag: not a word, not a space, so no term matches across it. */
export const OBJECT_REPLACEMENT = '\ufffc';

const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*(\/?)>/y;
const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/y;

function bad(format: SegmentFormat, message: string): AppError {
  return new AppError(
    'BAD_REQUEST',
    `segments: not valid ${format === 'xliff' ? 'XLIFF' : 'HTML'} inline content: ${message}`,
  );
}

function decodeEntity(body: string): string | null {
  if (body.startsWith('#x') || body.startsWith('#')) {
    const code = body.startsWith('#x')
      ? Number.parseInt(body.slice(2), 16)
      : Number.parseInt(body.slice(1), 10);
    if (!Number.isFinite(code) || code < 1 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      return null;
    return String.fromCodePoint(code);
  }
  return NAMED_ENTITIES[body] ?? null;
}

/** The text of a segment and its map back to the original; 400 for markup that is not well formed. */
export function segmentText(original: string, format: SegmentFormat): SegmentText {
  const starts: number[] = [];
  const ends: number[] = [];
  const tags: Tag[] = [];
  let text = '';
  const push = (piece: string, from: number, to: number) => {
    for (let k = 0; k < piece.length; k++) {
      starts.push(from);
      ends.push(to);
    }
    text += piece;
  };
  if (format === 'text') {
    for (let i = 0; i <= original.length; i++) starts.push(i);
    for (let i = 0; i < original.length; i++) ends.push(i + 1);
    return { original, text: original, starts, ends, tags };
  }
  const open: string[] = [];
  let i = 0;
  while (i < original.length) {
    const char = original[i]!;
    if (char === '<') {
      if (original.startsWith('<!--', i)) {
        const close = original.indexOf('-->', i + 4);
        if (close < 0) throw bad(format, 'a comment is not closed');
        tags.push({ start: i, end: close + 3, kind: 'empty', name: '!--' });
        i = close + 3;
        continue;
      }
      TAG.lastIndex = i;
      const match = TAG.exec(original);
      if (!match) {
        if (format === 'xliff') throw bad(format, `"<" at ${i} starts no tag`);
        push(char, i, i + 1);
        i++;
        continue;
      }
      const name = match[2]!.toLowerCase();
      const end = i + match[0].length;
      // XML wants every attribute value quoted (HTML does not).
      if (format === 'xliff' && UNQUOTED_VALUE.test(match[3]!.replace(QUOTED, '""'))) {
        throw bad(format, `an attribute of <${match[2]}> at ${i} has no quoted value`);
      }
      const kind = match[1]
        ? 'close'
        : match[4] || (format === 'html' && HTML_VOID.has(name))
          ? 'empty'
          : 'open';
      tags.push({ start: i, end, kind, name });
      if (kind === 'open') open.push(name);
      else if (kind === 'close') {
        if (open[open.length - 1] !== name) {
          if (format === 'xliff') throw bad(format, `</${match[2]}> closes no open element`);
        } else open.pop();
      } else if (format === 'html' ? HTML_VOID.has(name) && name !== 'wbr' : XLIFF_STANDALONE.has(name)) {
        push(OBJECT_REPLACEMENT, i, end);
      }
      i = end;
      // The content of <script> and <style> is code, not text: nothing in it is decorated.
      if (format === 'html' && kind === 'open' && RAW_TEXT.has(name)) {
        const close = original.toLowerCase().indexOf(`</${name}`, end);
        const to = close < 0 ? original.length : close;
        if (to > end) push(OBJECT_REPLACEMENT, end, to);
        i = to;
      }
      continue;
    }
    if (char === '&') {
      ENTITY.lastIndex = i;
      const match = ENTITY.exec(original);
      const decoded = match ? decodeEntity(match[1]!) : null;
      if (match && decoded !== null) {
        push(decoded, i, i + match[0].length);
        i += match[0].length;
        continue;
      }
      if (format === 'xliff') throw bad(format, `"&" at ${i} starts no entity`);
    }
    push(char, i, i + 1);
    i++;
  }
  if (format === 'xliff' && open.length) throw bad(format, `<${open[open.length - 1]}> is not closed`);
  starts.push(original.length);
  return { original, text, starts, ends, tags };
}

/** The original range of text[start, end). */
export function originalRange(
  segment: SegmentText,
  start: number,
  end: number,
): { start: number; end: number } {
  return {
    start: segment.starts[start]!,
    end: end > start ? segment.ends[end - 1]! : segment.starts[start]!,
  };
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * The text under Unicode NFKC (half-width katakana ｺﾝﾋﾟｭｰﾀ as コンピュータ, H₂O as H2O, decomposed
 * accents composed), each unit of it mapped to the original range of the grapheme it came from, so
 * matching runs on the normalized text and offsets still come back in the original.
 */
export function normalizedText(segment: SegmentText): SegmentText {
  if (segment.text.normalize('NFKC') === segment.text) return segment;
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  for (const { segment: grapheme, index } of graphemes.segment(segment.text)) {
    const normal = grapheme.normalize('NFKC');
    for (let k = 0; k < normal.length; k++) {
      starts.push(segment.starts[index]!);
      ends.push(segment.ends[index + grapheme.length - 1]!);
    }
    text += normal;
  }
  starts.push(segment.starts[segment.text.length]!);
  return { ...segment, text, starts, ends };
}
