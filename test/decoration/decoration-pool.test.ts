/**
 * The decoration worker pool (issue 38): a session's phases run in a real worker thread, errors come
 * back as the AppError they were, and work beyond the pool's bound is refused with 503 and Retry-After.
 * Term check's two texts are two sessions in one worker and one room; its answer is built there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TermRow } from '../../src/modules/decoration/candidate-lookup.js';
import type { KeyInputs, KeyRow } from '../../src/modules/decoration/decoration-phases.js';
import { DecorationPool } from '../../src/modules/decoration/decoration-pool.js';
import type { SessionRequest } from '../../src/modules/decoration/decoration-session.js';
import { AppError } from '../../src/shared/errors.js';

const request = (text: string, format: 'text' | 'xliff' = 'text', sourceLang = 'eng'): SessionRequest => ({
  sourceLang,
  segments: [{ id: '0', text, format }],
  kinds: ['exact'],
  minScore: 0,
  overlap: 'longest',
});

describe('decoration worker pool', () => {
  const pool = new DecorationPool({ workers: 1, activePerWorker: 1, queueLength: 1 });
  afterAll(() => pool.close());

  it('reads the segments in a worker thread', async () => {
    const session = await pool.session(request('fuel pump'));
    try {
      expect(await session.hasWords()).toBe(true);
      expect(await session.keyInputs('eng')).toEqual({
        pieces: ['fuel', ' ', 'pump'],
        words: ['fuel', 'pump'],
        firstChars: [],
      });
    } finally {
      session.close();
    }
  });

  it("answers a segment's bad markup with the AppError the worker threw", async () => {
    const session = await pool.session(request('<mrk id=1>x</mrk>', 'xliff'));
    try {
      const error = await session.hasWords().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('BAD_REQUEST');
    } finally {
      session.close();
    }
  });

  it('queues one session beyond the active one and refuses the next with 503 and Retry-After', async () => {
    const first = await pool.session(request('one'));
    const queued = pool.session(request('two'));
    const refused = await pool.session(request('three')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('SERVICE_UNAVAILABLE');
    expect((refused as AppError).retryAfterSeconds).toBe(1);
    first.close();
    const second = await queued;
    expect(await second.keyInputs('eng')).toMatchObject({ words: ['two'] });
    second.close();
  });

  it("counts a term check's companion session in its first session's room", async () => {
    const source = await pool.session(request('one'));
    const target = source.companion(request('eins', 'text', 'deu'));
    expect(await target.keyInputs('deu')).toMatchObject({ words: ['eins'] });
    // The one room is taken by the source and its companion: the next waits, the one after is refused.
    const queued = pool.session(request('two'));
    const refused = await pool.session(request('three')).catch((e: unknown) => e);
    expect((refused as AppError).code).toBe('SERVICE_UNAVAILABLE');
    source.close();
    const second = await queued;
    expect(await second.keyInputs('eng')).toMatchObject({ words: ['two'] });
    second.close();
  });

  it("builds term check's answer in the worker from both texts' sessions", async () => {
    const row = (
      id: number,
      conceptId: number,
      name: string,
      langCode: string,
      usage: string[],
    ): TermRow => ({
      hit: true,
      id,
      conceptId,
      dictionaryId: 1,
      name,
      folded: name.toLowerCase(),
      stemKey: null,
      langCode,
      usage,
    });
    // The keys statement's answer as the database gives it: pieces folded, words' stems, the longest term.
    const keyRow = ({ pieces, words }: KeyInputs): KeyRow => ({
      folded: pieces.map((piece) => piece.toLowerCase()),
      stems: [[null, words.map((word) => word.toLowerCase())]],
      lemmas: [[null, null]],
      starts: Object.fromEntries(words.map((word) => [word.toLowerCase(), 1])),
      bounds: { words: 1, chars: 20 },
      firsts: [],
      acronymFolds: [],
    });
    const pump = row(1, 10, 'pump', 'eng', ['preferredTerm-admn-sts']);
    const pumpe = row(2, 10, 'Pumpe', 'deu', ['preferredTerm-admn-sts']);
    const benzin = row(3, 10, 'Benzinpumpe', 'deu', ['forbidden']);
    const source = await pool.session(request('the pump'));
    const target = source.companion(request('die Benzinpumpe', 'text', 'deu'));
    try {
      expect((await source.spans(keyRow(await source.keyInputs('eng')))).keys?.folded).toContain('pump');
      expect((await target.spans(keyRow(await target.keyInputs('deu')))).keys?.folded).toContain(
        'benzinpumpe',
      );
      const found = (rows: TermRow[], sourceLang: string) => ({ sourceLang, dictionaryIds: [1], rows });
      const json = await source.checkJson(
        found([pump, pumpe, { ...benzin, hit: false }], 'eng'),
        target,
        found([benzin, pumpe, { ...pump, hit: false }], 'deu'),
        'deu',
      );
      const answer = JSON.parse(new TextDecoder().decode(json));
      expect(answer.avoided.map((a: { segment: string; term: string }) => [a.segment, a.term])).toEqual([
        ['target', 'Benzinpumpe'],
      ]);
      expect(answer.missingTranslations.map((m: { term: string }) => m.term)).toEqual(['pump']);
      expect(answer.noEquivalent).toEqual([]);
    } finally {
      source.close();
    }
  });
});
