/** Where a query matches a text, ignoring case and accents as the normalized search does (Ü finds u). */
export function foldWithMap(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    // Compatibility forms too (ﬁ is f i), and ß as ss, as the search folds it.
    const part = text[index]!.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('ß', 'ss');
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
