/**
 * Both engines answer term decoration alike: the Icelandic Term Bank's software localization collection
 * is imported into a PostgreSQL-engine server and an Elasticsearch-engine one, and texts made of its
 * English and Icelandic vocabulary (seeded, so every run sends the same) get the same matches from both.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Server } from '../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import { newTenant } from '../helpers/structure.js';
import { importTbx } from '../search/dataset-loader.js';
import { startEngineServer } from '../search/search-helpers.js';
import { decorate } from './decoration-helpers.js';

const tbx = readFileSync(`${ICELANDIC_TERM_BANK_DIR}hugbunadur.tbx`, 'utf8');

/** The collection's terms of a language (a plain scan: the file is regular). */
function termsOf(tag: string): string[] {
  const terms: string[] = [];
  for (const langSet of tbx.matchAll(new RegExp(`<langSet xml:lang="${tag}">([\\s\\S]*?)</langSet>`, 'g'))) {
    for (const term of langSet[1]!.matchAll(/<term\b[^>]*>([^<]+)<\/term>/g)) terms.push(term[1]!);
  }
  return terms;
}

/** A seeded generator (mulberry32). */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function texts(tag: string, count: number): string[] {
  const terms = termsOf(tag);
  const words = [...new Set(terms.flatMap((term) => term.split(/\s+/)))];
  const next = seeded(27);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, () =>
    Array.from({ length: 12 }, () => (next() < 0.3 ? pick(terms) : pick(words)))
      .map((piece) => (next() < 0.2 ? `${piece}s` : piece))
      .join(next() < 0.5 ? ' ' : ', '),
  );
}

describe('term decoration on both engines', () => {
  const servers: { server: Server; admin: Api; dictionaryId: number }[] = [];

  beforeAll(async () => {
    for (const engine of ['postgresql', 'elasticsearch'] as const) {
      const server = await startEngineServer(engine);
      const { admin } = await newTenant(server.t, server.sysadmin);
      const summary = await importTbx(server.base, admin.token ?? '', tbx, `hugbunadur ${engine}`);
      servers.push({ server, admin: server.api(admin), dictionaryId: summary.dictionaryId });
    }
  }, 300_000);
  afterAll(async () => {
    for (const { server } of servers) await server.close();
  });

  it.each([
    ['eng', 'en'],
    ['isl', 'is'],
  ])('answers the same matches in %s', async (lang, tag) => {
    const segments = texts(tag, 40).map((text) => ({ text }));
    const answers = [];
    for (const { admin, dictionaryId } of servers) {
      const answer = await decorate(admin, {
        sourceLang: lang,
        dictionaryIds: [dictionaryId],
        segments,
        kinds: ['exact', 'case-folded', 'accent-folded', 'stemmed', 'fuzzy'],
        overlap: 'all',
      });
      answers.push(
        answer.segments.map((segment) =>
          segment.matches.map((m) => `${m.start}-${m.end} ${m.term} ${m.kind} ${m.homonyms.length}`).sort(),
        ),
      );
    }
    const [onPostgres, onElasticsearch] = answers as [string[][], string[][]];
    expect(onPostgres.flat().length).toBeGreaterThan(100);
    expect(onElasticsearch).toEqual(onPostgres);
  });
});
