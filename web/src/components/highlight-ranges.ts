/**
 * Letters the server's folding (PostgreSQL's unaccent rules, then lower case: polyterm_fold) turns into
 * others that Unicode decomposition leaves alone: ð is d and þ is th there, so "ordabok" finds
 * "Orðabók" and the mark must cover it. The Latin letters of Latin-1 and Latin Extended-A (those of
 * European languages); test/search/highlight-folding.test.ts compares them with the database's.
 */
const SERVER_FOLDS: Record<string, string> = {
  æ: 'ae',
  ð: 'd',
  ø: 'o',
  þ: 'th',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ĸ: 'q',
  ŀ: 'l',
  ł: 'l',
  ŉ: "'n",
  ŋ: 'n',
  œ: 'oe',
  ŧ: 't',
  ß: 'ss',
};

const SERVER_FOLDED = new RegExp(`[${Object.keys(SERVER_FOLDS).join('')}]`, 'gu');
const serverFolded = (text: string) => text.replace(SERVER_FOLDED, (letter) => SERVER_FOLDS[letter]!);

/** One character folded as the server folds it (case, accents, compatibility forms like ﬁ). */
export function foldCharacter(character: string): string {
  // Before decomposition too: NFKD would make ŀ "l·" and ŉ "ʼn", which the server does not.
  return serverFolded(serverFolded(character.toLowerCase()).normalize('NFKD').replace(/\p{M}/gu, ''));
}

/** Where a query matches a text, ignoring case and accents as the normalized search does (Ü finds u). */
export function foldWithMap(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const part = foldCharacter(text[index]!);
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

/** Edits (insert, delete, replace) between two strings: Levenshtein's distance, two rows of memory. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Where a fuzzy match most likely is, for a term the server found a few edits away from the query
 * (issue 28): the run of as many words as the query has that is fewest edits from it (a word's start
 * may stand for a prefix search), or nothing when even that is further than the query is long.
 */
export function fuzzyRange(text: string, query: string): [number, number] | null {
  const needle = foldWithMap(query.trim()).folded;
  if (!needle) return null;
  const words = [...text.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  const count = Math.max(1, needle.split(/\s+/).length);
  let best: { range: [number, number]; distance: number } | null = null;
  for (let first = 0; first + count <= words.length; first++) {
    const start = words[first]!.start;
    const end = words[first + count - 1]!.end;
    const span = foldWithMap(text.slice(start, end)).folded;
    // A prefix search matches the start of a word: compare with the start as long as the query, too.
    const distance = Math.min(
      editDistance(span, needle),
      span.length > needle.length
        ? editDistance(span.slice(0, needle.length), needle)
        : Number.POSITIVE_INFINITY,
    );
    if (!best || distance < best.distance) best = { range: [start, end], distance };
  }
  if (!best || best.distance >= needle.length) return null;
  return best.range;
}
