/**
 * The web app's match marks fold text as the server's search does (issue 36: "ordabok" found
 * "Orðabók" but marked nothing). Each letter is compared with the database's own polyterm_fold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldWithMap, matchRanges } from '../../web/src/components/highlight-ranges.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let test: TestApp;

beforeAll(async () => {
  test = await buildTestApp();
});

afterAll(() => test.close());

// Latin-1 and Latin Extended-A (the letters of European languages), both cases, and ligatures.
const letters = [
  ...Array.from({ length: 0x180 - 0xc0 }, (_, index) => String.fromCodePoint(0xc0 + index)),
  'ﬁ',
  'ﬂ',
].filter((letter) => /\p{L}/u.test(letter));

describe('match marks fold as the server does', () => {
  it('folds every Latin letter to what polyterm_fold answers', async () => {
    const rows = await test.orm.em
      .fork()
      .getConnection()
      .execute<{ letter: string; folded: string }[]>(
        'select letter, public.polyterm_fold(letter) as folded from unnest(string_to_array(?, chr(1))) letter',
        [letters.join('\u0001')],
      );
    expect(rows).toHaveLength(letters.length);
    expect(Object.fromEntries(letters.map((letter) => [letter, foldWithMap(letter).folded]))).toEqual(
      Object.fromEntries(rows.map((row) => [row.letter, row.folded])),
    );
  });

  it('marks the letters a folded query matched', () => {
    expect(matchRanges('Orðabók þýðinga', 'ordabok')).toEqual([[0, 7]]);
    expect(matchRanges('Orðabók þýðinga', 'thyd')).toEqual([[8, 11]]);
    expect(matchRanges('Œuvre, Ærø', 'aero')).toEqual([[7, 10]]);
  });
});
