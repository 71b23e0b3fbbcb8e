/** Near matches of a fuzzy search (issue 28): the closest words of the text to the query, or none. */
import { describe, expect, it } from 'vitest';
import { editDistance, fuzzyRange } from '../../web/src/components/highlight-ranges.js';

describe('fuzzyRange', () => {
  it('counts edits', () => {
    expect(editDistance('valve', 'valbe')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('marks the word fewest edits away, ignoring case and accents', () => {
    expect(fuzzyRange('safety valve', 'valbe')).toEqual([7, 12]);
    expect(fuzzyRange('Übersetzung', 'ubersezung')).toEqual([0, 11]);
    // As many words as the query has.
    expect(fuzzyRange('the valve seat ring', 'valve seet')).toEqual([4, 14]);
  });

  it('takes a word start for a prefix, and marks nothing when every word is too far', () => {
    expect(fuzzyRange('valveseat', 'valbe')).toEqual([0, 9]);
    expect(fuzzyRange('pump', 'valve')).toBeNull();
    expect(fuzzyRange('pump', '  ')).toBeNull();
  });
});
