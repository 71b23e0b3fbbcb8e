/**
 * The decoration worker pool (issue 38): a session's phases run in a real worker thread, errors come
 * back as the AppError they were, and work beyond the pool's bound is refused with 503 and Retry-After.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DecorationPool } from '../../src/modules/decoration/decoration-pool.js';
import type { SessionRequest } from '../../src/modules/decoration/decoration-session.js';
import { AppError } from '../../src/shared/errors.js';

const request = (text: string, format: 'text' | 'xliff' = 'text'): SessionRequest => ({
  sourceLang: 'eng',
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
});
