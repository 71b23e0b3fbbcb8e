/**
 * No decoration request stalls the server (issue 38): while ten maximal requests (100 segments, 64 KB
 * of text dense with terms, translations, decorated as HTML; 5 MB answers) run at once, the server's
 * thread never holds the event loop for long, and GET /ready keeps answering. The same while ten
 * maximal term checks run (64 KB of source and 64 KB of target text each, whose words start terms
 * everywhere; thousands of missing translations in each answer).
 *
 * Why two bounds, neither of them "/ready p99 < 100 ms": on the shared 2-core machine at load 8-12
 * (CI runners are no better) every runnable thread waits for a core for tens of milliseconds at a
 * time, so wall-clock latency measures the neighbours as much as the server; with matching in worker
 * threads, /ready's p99 measured 150-260 ms there while its p50 stayed under 11 ms. What the server
 * controls is how long its own thread runs without returning to the event loop. That is measured in
 * CPU time of the server's thread (process.threadCpuUsage, which does not advance while the thread
 * waits for a core) between two turns of a 1 ms timer: the longest synchronous stretch, garbage
 * collection included. It must stay under 50 ms at the 99th percentile and 100 ms at most, whatever
 * the load (the server runs in this process; the test's own client work counts against it too).
 * /ready's p99 must stay under 500 ms: loose for load, but the matcher on the server's thread (5 ms
 * turns) measured 400-900 ms at load 5, so it fails the old design.
 */
import { availableParallelism, loadavg } from 'node:os';
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

/** One text of the same words, as long as a term check allows (64 KB). */
const maximalText = () =>
  maximalSegments()
    .map((segment) => segment.text)
    .join(' ')
    .slice(0, 64 * 1024);

/** CPU milliseconds of this thread (the server's) so far. */
function threadCpuMs(): number {
  const { user, system } = (
    process as unknown as { threadCpuUsage(): { user: number; system: number } }
  ).threadCpuUsage();
  return (user + system) / 1000;
}

/** CPU time of this thread between two turns of a 1 ms timer, for each turn, until stopped. */
function watchTurns(): () => number[] {
  const turns: number[] = [];
  let last = threadCpuMs();
  const timer = setInterval(() => {
    const now = threadCpuMs();
    turns.push(now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    return turns;
  };
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

  // The answers are read, not parsed: this process is the server's too, and parsing megabytes here
  // would hold the event loop the test measures.
  const post = async (path: string, body: string) => {
    const response = await fetch(`${server.base}/api/v4/${path}`, {
      method: 'POST',
      headers: { 'x-auth-token': base.tenantAdmin.token ?? '', 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };
  const decorationBody = () =>
    JSON.stringify({
      sourceLang: 'eng',
      dictionaryIds: [base.dictionary.id],
      targetLangs: ['deu'],
      segments: maximalSegments(),
      output: 'html',
    });
  // 64 KB on each side. The target uses none of the source's translations: every source match is
  // listed as missing, with its expected terms (the largest answer a check of these texts gives).
  const checkBody = () =>
    JSON.stringify({
      sourceLang: 'eng',
      targetLang: 'deu',
      dictionaryIds: [base.dictionary.id],
      source: maximalText(),
      target: maximalText(),
    });
  const decorate = () => post('term-decoration', decorationBody());
  const check = () => post('term-check', checkBody());

  /**
   * Runs `work` while watching the server's thread and polling /ready every 10 ms; asserts the bounds
   * (see the top of this file) and prints the figures.
   */
  async function holdsTheEventLoop(label: string, work: () => Promise<unknown>) {
    const stopWatching = watchTurns();
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
    try {
      await work();
    } finally {
      running = false;
      await poll;
    }
    const turns = stopWatching();
    const p99 = quantile(readyTimes, 0.99);
    const turnP99 = quantile(turns, 0.99);
    const turnMax = Math.max(...turns);
    console.log(
      `/ready during ${label}: ${readyTimes.length} calls, p50 ${quantile(readyTimes, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...readyTimes).toFixed(1)} ms; server thread CPU per turn p99 ${turnP99.toFixed(1)} ms, max ${turnMax.toFixed(1)} ms over ${turns.length} turns; load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
    );
    expect(readyTimes.length).toBeGreaterThan(10);
    expect(turns.length).toBeGreaterThan(100);
    expect(turnP99).toBeLessThan(50);
    expect(turnMax).toBeLessThan(100);
    expect(p99).toBeLessThan(500);
  }

  it("holds the server's thread under 50 ms p99 while ten maximal decorations run", async () => {
    expect(Buffer.byteLength(decorationBody())).toBeGreaterThan(64_000);
    // Warm-up (plans and connections), and what a maximal request finds.
    const first = JSON.parse((await decorate()).toString()) as { segments: { matches: unknown[] }[] };
    expect(first.segments[0]!.matches.length).toBeGreaterThan(50);
    await holdsTheEventLoop('ten maximal decorations', () =>
      Promise.all(Array.from({ length: 10 }, decorate)),
    );
  }, 120_000);

  it("holds the server's thread under 50 ms p99 while ten maximal term checks run", async () => {
    expect(Buffer.byteLength(checkBody())).toBeGreaterThan(128_000);
    const first = JSON.parse((await check()).toString()) as { missingTranslations: unknown[] };
    expect(first.missingTranslations.length).toBeGreaterThan(2_000);
    await holdsTheEventLoop('ten maximal term checks', () => Promise.all(Array.from({ length: 10 }, check)));
  }, 180_000);
});
