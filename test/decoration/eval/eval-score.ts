/**
 * Scoring of the evaluation set (eval-set.json): its annotation, and precision, recall and F1 of a
 * decoration answer against it. A match counts once per (span, term) for itself and each homonym, so an
 * over-eager homonym costs precision as an extra match does.
 */
import { readFileSync } from 'node:fs';
import type { DecorationBody } from '../decoration-helpers.js';

export interface EvalLanguage {
  terms?: string[];
  /** A dataset the terms come from instead (the Icelandic Term Bank). */
  source?: string;
  sentences: string[];
}

export const evalSet = JSON.parse(readFileSync(new URL('./eval-set.json', import.meta.url), 'utf8')) as {
  languages: Record<string, EvalLanguage>;
};

export interface Expected {
  start: number;
  end: number;
  term: string;
}

/** A sentence without its annotation, and the matches it expects ([surface], [surface|term|term2]). */
export function parseSentence(annotated: string): { text: string; expected: Expected[] } {
  const expected: Expected[] = [];
  let text = '';
  for (const part of annotated.split(/(\[[^\]]+\])/)) {
    if (!part.startsWith('[')) {
      text += part;
      continue;
    }
    const [surface, ...terms] = part.slice(1, -1).split('|') as [string, ...string[]];
    for (const term of terms.length ? terms : [surface]) {
      expected.push({ start: text.length, end: text.length + surface.length, term });
    }
    text += surface;
  }
  return { text, expected };
}

const keyOf = (m: Expected) => `${m.start}:${m.end}:${m.term.toLowerCase()}`;

export interface Score {
  precision: number;
  recall: number;
  f1: number;
  expected: number;
  found: number;
  /** Every match, in order, by term name (the engines' databases number terms apart): to compare engines. */
  answers: string[];
  misses: string[];
}

export function score(label: string, texts: readonly string[], answer: DecorationBody): Score {
  let correct = 0;
  let found = 0;
  let expectedCount = 0;
  const misses: string[] = [];
  const answers: string[] = [];
  answer.segments.forEach((segment, index) => {
    const sentence = parseSentence(texts[index]!);
    const expected = new Set(sentence.expected.map(keyOf));
    const got = new Set(
      segment.matches.flatMap((m) =>
        [m.term, ...m.homonyms.map((h) => h.term)].map((term) => keyOf({ start: m.start, end: m.end, term })),
      ),
    );
    for (const m of segment.matches) answers.push(`${index} ${m.start}-${m.end} ${m.term} ${m.kind}`);
    expectedCount += expected.size;
    found += got.size;
    for (const key of got) {
      if (expected.has(key)) correct++;
      else misses.push(`${label} extra ${key} in "${sentence.text}"`);
    }
    for (const key of expected)
      if (!got.has(key)) misses.push(`${label} missed ${key} in "${sentence.text}"`);
  });
  const precision = found ? correct / found : 1;
  const recall = expectedCount ? correct / expectedCount : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, expected: expectedCount, found, answers, misses };
}
