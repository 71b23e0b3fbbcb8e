/**
 * The text with the parts that match `query` marked, ignoring case and accents as the normalized search
 * does (Ü finds u). Rendered as React text nodes only: a value is never parsed as HTML.
 */
export function foldWithMap(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const part = text[index]!.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < part.length; k++) origin.push(index);
    folded += part;
  }
  return { folded, origin };
}

export function matchRanges(text: string, query: string): [number, number][] {
  const needle = foldWithMap(query.trim()).folded;
  if (!needle) return [];
  const { folded, origin } = foldWithMap(text);
  const ranges: [number, number][] = [];
  let from = folded.indexOf(needle);
  while (from !== -1) {
    const start = origin[from]!;
    const end = origin[from + needle.length - 1]! + 1;
    ranges.push([start, end]);
    from = folded.indexOf(needle, from + needle.length);
  }
  return ranges;
}

export function Highlight({ text, query }: { text: string; query: string }) {
  const ranges = matchRanges(text, query);
  if (ranges.length === 0) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
