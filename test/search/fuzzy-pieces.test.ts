/**
 * The PostgreSQL engine narrows fuzzy search to names holding one of the target's pieces unchanged
 * (postgres-search.ts). That is only exact if every name within the edit distance holds one: checked
 * here on random edits of random texts, astral characters included.
 */
import { describe, expect, it } from 'vitest';
import { fuzzyPieces } from '../../src/modules/search/postgres-search.js';

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [...'abcdeéþ𝔸漢 -'];

describe('fuzzy pieces', () => {
  it('cuts the target into distance + 1 pieces covering it, or none when a piece would be under 4', () => {
    expect(fuzzyPieces('abcdefgh', 1)).toEqual(['abcd', 'efgh']);
    expect(fuzzyPieces('abcdefghi', 1)).toEqual(['abcd', 'efghi']);
    expect(fuzzyPieces('abcdefghijkl', 2)).toEqual(['abcd', 'efgh', 'ijkl']);
    expect(fuzzyPieces('abcdefghi', 2)).toBeNull();
    expect(fuzzyPieces('abcdefg', 1)).toBeNull();
    expect(fuzzyPieces('𝔸𝔸𝔸𝔸漢漢漢漢', 1)).toEqual(['𝔸𝔸𝔸𝔸', '漢漢漢漢']);
  });

  it('every text within the distance holds one piece unchanged', () => {
    const next = random(7);
    const pick = () => ALPHABET[Math.floor(next() * ALPHABET.length)]!;
    let checked = 0;
    for (let round = 0; round < 5000; round++) {
      const distance = 1 + Math.floor(next() * 2);
      const length = 4 * (distance + 1) + Math.floor(next() * 20);
      const target = Array.from({ length }, pick);
      const pieces = fuzzyPieces(target.join(''), distance);
      expect(pieces).not.toBeNull();
      expect(pieces!.join('')).toBe(target.join(''));
      const edited = [...target];
      for (let edit = 0; edit < distance; edit++) {
        const at = Math.floor(next() * (edited.length + 1));
        const kind = Math.floor(next() * 3);
        if (kind === 0) edited.splice(at, 0, pick());
        else if (kind === 1 && at < edited.length) edited.splice(at, 1);
        else if (at < edited.length) edited[at] = pick();
      }
      const name = edited.join('');
      expect(pieces!.some((piece) => name.includes(piece))).toBe(true);
      checked++;
    }
    expect(checked).toBe(5000);
  });
});
