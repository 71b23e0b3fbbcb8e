/**
 * The quality of term decoration, measured: the evaluation set (eval-set.json, sentences with their
 * expected matches annotated) in English, German, French, Japanese and Icelandic is decorated with the
 * defaults (every match kind, longest-leftmost), and precision and recall per language are printed and
 * held to a floor. The floors are what the set measured when written (docs/decoration.md): a drop is
 * a regression; a rise means the floor can go up.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../../helpers/datasets.js';
import { importTbx } from '../../search/dataset-loader.js';
import { decorate, type Termbase, termbase } from '../decoration-helpers.js';

interface EvalLanguage {
  terms?: string[];
  source?: string;
  sentences: string[];
}
const evalSet = JSON.parse(readFileSync(new URL('./eval-set.json', import.meta.url), 'utf8')) as {
  languages: Record<string, EvalLanguage>;
};

/** Floors per language: [precision, recall]. */
const FLOORS: Record<string, [number, number]> = {
  eng: [0.95, 0.95],
  deu: [0.95, 0.95],
  fra: [0.95, 0.9],
  jpn: [0.95, 0.95],
  isl: [0.6, 0.7],
  'isl+fuzzy': [0.5, 0.85],
};

interface Expected {
  start: number;
  end: number;
  term: string;
}

/** A sentence without its annotation, and the matches it expects ([surface] or [surface|term]). */
function parseSentence(annotated: string): { text: string; expected: Expected[] } {
  const expected: Expected[] = [];
  let text = '';
  for (const part of annotated.split(/(\[[^\]]+\])/)) {
    if (!part.startsWith('[')) {
      text += part;
      continue;
    }
    const [surface, term] = part.slice(1, -1).split('|') as [string, string | undefined];
    expected.push({ start: text.length, end: text.length + surface.length, term: term ?? surface });
    text += surface;
  }
  return { text, expected };
}

const keyOf = (m: Expected) => `${m.start}:${m.end}:${m.term.toLowerCase()}`;

describe('term decoration evaluation set', () => {
  let server: Server;
  let base: Termbase;
  let icelandicDictionaryId: number;

  beforeAll(async () => {
    server = await startServer();
    base = await termbase(server, ['eng', 'deu', 'fra', 'jpn']);
    for (const [lang, language] of Object.entries(evalSet.languages)) {
      for (const name of language.terms ?? []) {
        const response = await base.admin.post('/concepts', {
          dictionaryId: base.dictionary.id,
          sectionOid: base.sectionOid,
          terms: [{ name, languageCode: lang }],
        });
        if (response.status !== 201) throw new Error(`${name}: ${response.status} ${response.text}`);
      }
    }
    const tbx = readFileSync(`${ICELANDIC_TERM_BANK_DIR}hugbunadur.tbx`);
    const summary = await importTbx(server.base, base.tenantAdmin.token ?? '', tbx, 'hugbunadur');
    icelandicDictionaryId = summary.dictionaryId;
  }, 300_000);
  afterAll(() => server?.close());

  it('holds precision and recall per language', async () => {
    const report: Record<string, { precision: number; recall: number; expected: number; found: number }> = {};
    const misses: string[] = [];
    // Every language with the defaults, and Icelandic (no stemmer) with fuzzy matches too.
    const runs = [
      ...Object.entries(evalSet.languages).map(([lang, language]) => ({
        label: lang,
        lang,
        language,
        kinds: undefined,
      })),
      {
        label: 'isl+fuzzy',
        lang: 'isl',
        language: evalSet.languages.isl!,
        kinds: ['exact', 'case-folded', 'accent-folded', 'stemmed', 'fuzzy'],
      },
    ];
    for (const { label, lang, language, kinds } of runs) {
      const sentences = language.sentences.map(parseSentence);
      const answer = await decorate(base.admin, {
        sourceLang: lang,
        dictionaryIds: [language.source ? icelandicDictionaryId : base.dictionary.id],
        segments: sentences.map((s) => ({ text: s.text })),
        ...(kinds ? { kinds } : {}),
      });
      let correct = 0;
      let found = 0;
      let expectedCount = 0;
      answer.segments.forEach((segment, index) => {
        const sentence = sentences[index]!;
        const expected = new Set(sentence.expected.map(keyOf));
        const got = new Set(segment.matches.map((m) => keyOf({ start: m.start, end: m.end, term: m.term })));
        expectedCount += expected.size;
        found += got.size;
        for (const key of got) {
          if (expected.has(key)) correct++;
          else misses.push(`${label} extra ${key} in "${sentence.text}"`);
        }
        for (const key of expected)
          if (!got.has(key)) misses.push(`${label} missed ${key} in "${sentence.text}"`);
      });
      report[label] = {
        precision: found ? correct / found : 1,
        recall: expectedCount ? correct / expectedCount : 1,
        expected: expectedCount,
        found,
      };
    }
    console.log('term decoration evaluation (precision, recall):');
    for (const [lang, r] of Object.entries(report)) {
      console.log(
        `  ${lang}: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (${r.found} found, ${r.expected} expected)`,
      );
    }
    for (const miss of misses) console.log(`  ${miss}`);
    for (const [lang, [precision, recall]] of Object.entries(FLOORS)) {
      expect(report[lang]!.precision, `${lang} precision`).toBeGreaterThanOrEqual(precision);
      expect(report[lang]!.recall, `${lang} recall`).toBeGreaterThanOrEqual(recall);
    }
  });
});
