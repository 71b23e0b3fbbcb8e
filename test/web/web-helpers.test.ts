/** The pure helpers of the web application: match highlighting and TermListEntry styles. */
import { describe, expect, it } from 'vitest';
import { entryStyle } from '../../web/src/components/entry-style.js';
import { matchRanges } from '../../web/src/components/highlight-ranges.js';

describe('matchRanges', () => {
  it('finds every match, ignoring case and accents, in the positions of the original text', () => {
    expect(matchRanges('Übersetzung und übersetzen', 'uberSETZ')).toEqual([
      [0, 8],
      [16, 24],
    ]);
    expect(matchRanges('café crème', 'e cre')).toEqual([[3, 8]]);
  });

  it('maps a letter that folds to two back to one letter (ß is ss, ﬁ is f i)', () => {
    expect(matchRanges('ﬁle', 'fi')).toEqual([[0, 1]]);
    expect(matchRanges('Straße', 'strasse')).toEqual([[0, 6]]);
    expect(matchRanges('Straße', 'stras')).toEqual([[0, 5]]);
  });

  it('marks nothing for an empty or unmatched query', () => {
    expect(matchRanges('term', '  ')).toEqual([]);
    expect(matchRanges('term', 'x')).toEqual([]);
  });
});

describe('entryStyle', () => {
  it('keeps presentational properties and drops anything that could load or inject', () => {
    expect(entryStyle('color: red; font-weight:bold; background-color: #ff0')).toEqual({
      color: 'red',
      fontWeight: 'bold',
      backgroundColor: '#ff0',
    });
    expect(entryStyle('background: url(https://evil.example/x.png); position: fixed; color: "x"')).toEqual(
      {},
    );
    expect(entryStyle('')).toEqual({});
  });
});
