/**
 * No decoration request stalls the server (issue 38): while ten maximal requests (100 segments, 64 KB
 * of text dense with terms, translations, decorated as HTML) run at once, GET /ready keeps
 * answering within 100 ms at the 99th percentile.
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { startEngineServer } from '../search/search-helpers.js';
import { concept, type Termbase, termbase } from './decoration-helpers.js';

const WORDS = ['fuel', 'pump', 'heat', 'oil', 'filter', 'spark', 'plug', 'brake', 'pad', 'water', 'tank'];

/** 100 segments of words that start terms everywhere, 64 KB in all. */
function maximalSegments(): { text: string }[] {
  const segments: { text: string }[] = [];
  for (let s = 0; s < 100; s++) {
    const words: string[] = [];
    let length = 0;
    for (let w = 0; length < 650; w++) {
      const word = WORDS[(s * 7 + w * 3) % WORDS.length]!;
      words.push(w % 9 === 8 ? `${word}s,` : word);
      length += word.length + 1;
    }
    segments.push({ text: words.join(' ').slice(0, 655) });
  }
  return segments;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describe('decoration and the event loop', () => {
  let server: Server;
  let base: Termbase;

  beforeAll(async () => {
    server = await startEngineServer('postgresql');
    base = await termbase(server, ['eng', 'deu']);
    // Terms of one to four of the words, so every word starts spans of up to four words.
    for (let i = 0; i < WORDS.length; i++) {
      for (let size = 1; size <= 4; size++) {
        const name = Array.from({ length: size }, (_, k) => WORDS[(i + k) % WORDS.length]).join(' ');
        await concept(base, [
          { name, lang: 'eng' },
          { name: `${name} de`, lang: 'deu' },
        ]);
      }
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('keeps /ready under 100 ms p99 while ten maximal decorations run', async () => {
    const body = JSON.stringify({
      sourceLang: 'eng',
      dictionaryIds: [base.dictionary.id],
      targetLangs: ['deu'],
      segments: maximalSegments(),
      output: 'html',
    });
    expect(Buffer.byteLength(body)).toBeGreaterThan(64_000);
    // The answers are read, not parsed: this process is the server's too, and parsing megabytes here
    // would hold the event loop the test measures.
    const decorate = async () => {
      const response = await fetch(`${server.base}/api/v4/term-decoration`, {
        method: 'POST',
        headers: { 'x-auth-token': base.tenantAdmin.token ?? '', 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    // Warm-up (plans and connections), and what a maximal request finds.
    const first = JSON.parse((await decorate()).toString()) as { segments: { matches: unknown[] }[] };
    expect(first.segments[0]!.matches.length).toBeGreaterThan(50);
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    let running = true;
    const readyTimes: number[] = [];
    const poll = (async () => {
      while (running) {
        const at = performance.now();
        const response = await fetch(`${server.base}/ready`);
        await response.arrayBuffer();
        readyTimes.push(performance.now() - at);
        expect(response.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await Promise.all(Array.from({ length: 10 }, decorate));
    running = false;
    await poll;
    lag.disable();
    const p99 = quantile(readyTimes, 0.99);
    const load = loadavg()[0]!;
    console.log(
      `/ready during ten maximal decorations: ${readyTimes.length} calls, p50 ${quantile(readyTimes, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...readyTimes).toFixed(1)} ms; event loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms; load ${load.toFixed(1)} on ${availableParallelism()} cores`,
    );
    expect(readyTimes.length).toBeGreaterThan(10);
    // The bound is the server's, on a machine it has to itself: with many times more runnable
    // processes than cores (shared CI runners), wall time says more about the neighbours than the server.
    if (load <= 2 * availableParallelism()) expect(p99).toBeLessThan(100);
  }, 120_000);
});
