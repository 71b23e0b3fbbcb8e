/**
 * The suffixes Elasticsearch documents carry for substring search (elasticsearch-index.ts): by code
 * point, cut to SUFFIX_LENGTH, each once.
 */
import { describe, expect, it } from 'vitest';
import { SUFFIX_LENGTH, suffixesOf } from '../../src/modules/search/elasticsearch-index.js';

describe('suffixesOf', () => {
  it('lists every suffix, longest first', () => {
    expect(suffixesOf('seið')).toEqual(['seið', 'eið', 'ið', 'ð']);
    expect(suffixesOf('a b')).toEqual(['a b', ' b', 'b']);
    expect(suffixesOf('')).toEqual([]);
  });

  it('counts characters outside the Basic Multilingual Plane as one, never splitting them', () => {
    expect(suffixesOf('😀x𝔘')).toEqual(['😀x𝔘', 'x𝔘', '𝔘']);
    const long = '🙂'.repeat(SUFFIX_LENGTH + 6);
    // Cut to SUFFIX_LENGTH code points, so the first seven are the same text, kept once.
    expect(suffixesOf(long)).toEqual(
      Array.from({ length: SUFFIX_LENGTH }, (_, i) => '🙂'.repeat(SUFFIX_LENGTH - i)),
    );
  });

  it('cuts suffixes to SUFFIX_LENGTH characters and keeps each once', () => {
    const text = `${'x'.repeat(SUFFIX_LENGTH + 5)}y`;
    const suffixes = suffixesOf(text);
    expect(suffixes[0]).toBe('x'.repeat(SUFFIX_LENGTH));
    expect(suffixes.every((suffix) => [...suffix].length <= SUFFIX_LENGTH)).toBe(true);
    expect(new Set(suffixes).size).toBe(suffixes.length);
    // Every substring of up to SUFFIX_LENGTH characters is a prefix of one of them.
    expect(suffixes.some((suffix) => suffix.startsWith('xxy'))).toBe(true);
    expect(suffixes).toContain('y');
    expect(suffixes).toHaveLength(SUFFIX_LENGTH + 1);
  });
});
