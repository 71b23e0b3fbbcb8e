/**
 * A segment with its matches marked: HTML spans, or XLIFF 2 `<mrk type="term">`. The segment's own
 * markup is kept as it is and never broken: a match that crosses an element boundary becomes, in XLIFF,
 * the standalone pair `<sm type="term"/>…<em/>` the standard has for that case, and in HTML one span per
 * piece of text. Plain text segments are escaped, so no text becomes markup.
 */
import type { Match } from './decoration.schema.js';
import type { SegmentFormat, SegmentText, Tag } from './inline-markup.js';

export type DecoratedFormat = 'html' | 'xliff';

const escapeText = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

interface Insertion {
  at: number;
  /** Ends go before starts at one offset, so that adjacent marks do not nest. */
  order: 0 | 1;
  markup: string;
}

/** Tags inside [start, end) open and close each other: the range can be wrapped as a whole. */
function balanced(tags: readonly Tag[], start: number, end: number): boolean {
  const open: string[] = [];
  for (const tag of tags) {
    if (tag.start < start || tag.end > end) continue;
    if (tag.kind === 'open') open.push(tag.name);
    else if (tag.kind === 'close' && open.pop() !== tag.name) return false;
  }
  return open.length === 0;
}

/** The stretches of [start, end) between tags. */
function textPieces(tags: readonly Tag[], start: number, end: number): [number, number][] {
  const pieces: [number, number][] = [];
  let from = start;
  for (const tag of tags) {
    if (tag.start < start || tag.end > end) continue;
    if (tag.start > from) pieces.push([from, tag.start]);
    from = tag.end;
  }
  if (end > from) pieces.push([from, end]);
  return pieces;
}

function htmlAttributes(match: Match, index: number): string {
  return [
    `class="polyterm-term polyterm-${match.status}"`,
    `data-match="${index}"`,
    `data-concept-id="${match.conceptId}"`,
    `data-term-id="${match.termId}"`,
    `data-status="${match.status}"`,
    `data-kind="${match.kind}"`,
    ...(match.preferred.length
      ? [`title="${escapeAttribute(match.preferred.map((p) => p.name).join('; '))}"`]
      : []),
  ].join(' ');
}

function xliffAttributes(match: Match): string {
  return `type="term" ref="polyterm:term:${match.termId}" value="${escapeAttribute(match.status)}"`;
}

/** The segment with non-overlapping `matches` (offsets in the original) marked in `output`. */
export function decoratedSegment(
  segment: SegmentText,
  format: SegmentFormat,
  matches: readonly Match[],
  output: DecoratedFormat,
): string {
  const insertions: Insertion[] = [];
  matches.forEach((match, index) => {
    const id = `polyterm-${index + 1}`;
    const whole = balanced(segment.tags, match.start, match.end);
    if (output === 'xliff') {
      if (whole) {
        insertions.push({ at: match.start, order: 1, markup: `<mrk id="${id}" ${xliffAttributes(match)}>` });
        insertions.push({ at: match.end, order: 0, markup: '</mrk>' });
      } else {
        insertions.push({ at: match.start, order: 1, markup: `<sm id="${id}" ${xliffAttributes(match)}/>` });
        insertions.push({ at: match.end, order: 0, markup: `<em startRef="${id}"/>` });
      }
      return;
    }
    const pieces = whole
      ? [[match.start, match.end] as [number, number]]
      : textPieces(segment.tags, match.start, match.end);
    for (const [start, end] of pieces) {
      insertions.push({ at: start, order: 1, markup: `<span ${htmlAttributes(match, index + 1)}>` });
      insertions.push({ at: end, order: 0, markup: '</span>' });
    }
  });
  insertions.sort((a, b) => a.at - b.at || a.order - b.order);
  const keep = format === 'text' ? escapeText : (text: string) => text;
  let result = '';
  let from = 0;
  for (const insertion of insertions) {
    result += keep(segment.original.slice(from, insertion.at)) + insertion.markup;
    from = insertion.at;
  }
  return result + keep(segment.original.slice(from));
}
