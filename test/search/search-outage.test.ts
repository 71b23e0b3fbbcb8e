/**
 * Elasticsearch going away (docs/reliability.md): writes keep succeeding within the bounded after-write
 * wait, search answers from PostgreSQL, /ready says search is degraded with the waiting changes, the
 * outbox keeps them, and once Elasticsearch is back the background probe applies them with no manual
 * step and search returns to it: no write is lost.
 *
 * The suite starts an Elasticsearch of its own on a fixed port so that it can stop and start it, and a
 * database of its own: the outbox is one table per database, and another suite's Elasticsearch-engine
 * server (on another index) would otherwise take our rows.
 *
 * Two outages:
 * - hung (SIGSTOP of the server's process group, SIGCONT after): nothing answers, connections are
 *   accepted, the data stays. Searches and the loop's HEAD request give up after 1.5 s.
 * - stopped and started again on the same port: connections are refused, and the new server has no
 *   data (startElasticsearch always starts on a fresh data folder). The runtime creates the index again
 *   and rebuilds it from PostgreSQL, and the outbox adds the changes made during the outage.
 *
 * test/search/search-fallback.test.ts covers the same cases through a proxy, without a server of its own.
 */
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningElasticsearch, startElasticsearch } from '../../scripts/elasticsearch.js';
import {
  type Answer,
  type Api,
  type ConceptBody,
  conceptBody,
  conceptWorld,
  createConcept,
  putConcept,
  type Server,
  startServer,
  termInput,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import type { InvocationResultBody, JobBody } from '../helpers/structure.js';
import {
  eventually,
  names,
  outboxRows,
  readiness,
  timed,
  untilSearchServed,
  word,
} from './search-helpers.js';

/** What a write may take while Elasticsearch is away: the 1.5 s after-write wait (config.ts) and more. */
const WRITE_LIMIT_MS = 3000;
/** How long the background probe (1, 2, 4... s) may take to catch up once Elasticsearch is back. */
const CATCH_UP_MS = 30_000;

let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let port: number;
let elasticsearch: RunningElasticsearch;
let server: Server;
let paused = false;

/** A free loopback port, kept for the restarts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: chosen } = probe.address() as AddressInfo;
      probe.close(() => resolve(chosen));
    });
  });

/** SIGSTOP / SIGCONT to the whole process group (launcher and server JVM). */
function pause() {
  process.kill(-elasticsearch.pid, 'SIGSTOP');
  paused = true;
}
function resume() {
  if (!paused) return;
  process.kill(-elasticsearch.pid, 'SIGCONT');
  paused = false;
}

beforeAll(async () => {
  database = await isolatedDatabase();
  port = await freePort();
  elasticsearch = await startElasticsearch({ port });
  server = await startServer({
    DATABASE_URL: database.url,
    ELASTICSEARCH_URL: elasticsearch.url,
    ELASTICSEARCH_INDEX: `${inject('elasticsearchIndexPrefix')}_outage_${randomBytes(4).toString('hex')}`,
  });
  await untilSearchServed(server);
}, 240_000);

afterAll(async () => {
  resume();
  await server?.close();
  await elasticsearch?.stop();
  await database?.drop();
}, 120_000);

/** A write during the outage: answered with `status`, within the limit. */
async function write<T>(call: () => Promise<Answer<T>>, status: number): Promise<{ body: T; ms: number }> {
  const { value, ms } = await timed(call);
  expect(value.status, value.text).toBe(status);
  expect(ms).toBeLessThan(WRITE_LIMIT_MS);
  return { body: value.body, ms };
}

const degraded = (reason: string) => ({
  engine: 'elasticsearch',
  status: 'degraded',
  servedBy: 'postgresql',
  reason,
  since: expect.any(String),
});
const healthy = { engine: 'elasticsearch', status: 'ok', servedBy: 'elasticsearch', pendingChanges: 0 };

const ready = () => readiness(server);

/** Every English name of the world's dictionary, in list order. */
const everything = (w: World) =>
  names(w.admin, { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], pageSize: 100 });

/** POST /dictionaries/reindex/{id}, following the job when it answers 202. */
async function reindex(caller: Api, dictionaryId: number) {
  const response = await caller.post<InvocationResultBody>(`/dictionaries/reindex/${dictionaryId}`);
  if (response.status === 202) {
    for (;;) {
      const job = await caller.get<JobBody>(`/jobs/${response.body.jobTaskId}`);
      if (job.body.status !== 'RUNNING') return job.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Three concepts made while Elasticsearch is up, and searchable at once. */
async function before(w: World) {
  const [kept, renamedLater, deletedLater] = [word(), word(), word()];
  const concepts: ConceptBody[] = [];
  for (const name of [kept, renamedLater, deletedLater]) {
    concepts.push(await createConcept(w.admin, w, { terms: [{ name, languageCode: 'eng' }] }));
  }
  expect(await everything(w)).toEqual([kept, renamedLater, deletedLater].sort());
  expect(await outboxRows(server)).toBe(0);
  const [keptConcept, renamedConcept, deletedConcept] = concepts as [ConceptBody, ConceptBody, ConceptBody];
  return { kept, keptConcept, renamedConcept, deletedConcept };
}

/** Create, rename and delete while Elasticsearch is away: each answers 2xx within the limit. */
async function duringOutage(w: World, renamedConcept: ConceptBody, deletedConcept: ConceptBody) {
  const [created, renamed] = [word(), word()];
  const timings = [
    (
      await write(
        () => w.admin.post('/concepts', conceptBody(w, { terms: [{ name: created, languageCode: 'eng' }] })),
        201,
      )
    ).ms,
    (
      await write(
        () =>
          putConcept(w.admin, renamedConcept, {
            terms: [{ ...termInput(renamedConcept.terms[0]!), name: renamed }],
          }),
        200,
      )
    ).ms,
    (await write(() => w.admin.delete(`/concepts/${deletedConcept.id}`), 204)).ms,
  ];
  return { created, renamed, timings };
}

describe('Elasticsearch hangs (SIGSTOP), keeping its data', () => {
  it('writes answer within the bounded wait, search answers from PostgreSQL, /ready says degraded, and the probe applies every change afterwards', async () => {
    const w = await conceptWorld(server);
    const { kept, renamedConcept, deletedConcept } = await before(w);

    pause();
    let outage: Awaited<ReturnType<typeof duringOutage>>;
    let readiness: Awaited<ReturnType<typeof ready>>;
    let listed: { value: string[]; ms: number };
    try {
      outage = await duringOutage(w, renamedConcept, deletedConcept);
      expect(await outboxRows(server)).toBeGreaterThan(0);
      listed = await timed(() => everything(w));
      readiness = await ready();
    } finally {
      resume();
    }
    // The writer sees its changes: PostgreSQL answers.
    expect(listed.value).toEqual([kept, outage.created, outage.renamed].sort());
    expect(listed.ms).toBeLessThan(WRITE_LIMIT_MS);
    expect(readiness.status).toBe(200);
    expect(readiness.ms).toBeLessThan(1000);
    expect(readiness.body.search).toMatchObject(degraded('not answering'));
    expect(readiness.body.search!.pendingChanges).toBeGreaterThan(0);

    // No manual step: the probe catches up, and search returns to Elasticsearch only once the outbox is
    // applied and refreshed, with the data from before the outage still there.
    expect(
      await eventually(async () => (await ready()).body.search?.servedBy === 'elasticsearch', CATCH_UP_MS),
    ).toBe(true);
    expect(await outboxRows(server)).toBe(0);
    expect(await everything(w)).toEqual([kept, outage.created, outage.renamed].sort());
    const after = await ready();
    expect(after.status).toBe(200);
    expect(after.body.search).toEqual(healthy);
  }, 180_000);

  // /ready reports the runtime's state and never asks Elasticsearch: a hung cluster does not hold it.
  it('/ready answers within 1 s while Elasticsearch hangs', async () => {
    pause();
    try {
      const response = await fetch(`${server.base}/ready`, { signal: AbortSignal.timeout(1000) });
      expect(response.status).toBe(200);
    } finally {
      resume();
    }
  }, 30_000);
});

/*
 * Two steps of one outage, in order: the second starts Elasticsearch again after the first stopped it.
 */
describe('Elasticsearch stops, and starts again without its data', () => {
  let w: World;
  let kept: string;
  let outage: Awaited<ReturnType<typeof duringOutage>>;

  it('while it is down: writes answer, search answers from PostgreSQL, /ready says degraded, the outbox keeps every change', async () => {
    w = await conceptWorld(server);
    const made = await before(w);
    kept = made.kept;

    await elasticsearch.stop();
    outage = await duringOutage(w, made.renamedConcept, made.deletedConcept);
    const pending = await outboxRows(server);
    expect(pending).toBeGreaterThan(0);
    expect(await everything(w)).toEqual([kept, outage.created, outage.renamed].sort());
    const readiness = await ready();
    expect(readiness.status).toBe(200);
    expect(readiness.body.search).toEqual({ ...degraded('unreachable'), pendingChanges: pending });
    expect(readiness.ms).toBeLessThan(1000);
    // The background loop keeps failing, and keeps the rows.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await outboxRows(server)).toBe(pending);
  }, 120_000);

  // A cluster that comes back empty: the runtime finds its index gone, creates it with the mapping (never
  // a guessed one: writes require the alias) and rebuilds every dictionary from PostgreSQL by itself.
  it('after a restart without data, the index is rebuilt and the outage changes applied without a manual step', async () => {
    elasticsearch = await startElasticsearch({ port });
    const all = [kept, outage.created, outage.renamed].sort();
    // Right after the restart (no index yet, then an index being rebuilt): PostgreSQL answers.
    expect(await everything(w)).toEqual(all);
    expect(await eventually(async () => (await outboxRows(server)) === 0, CATCH_UP_MS)).toBe(true);
    expect(
      await eventually(async () => (await ready()).body.search?.servedBy === 'elasticsearch', CATCH_UP_MS),
    ).toBe(true);
    expect(await everything(w)).toEqual(all);
    // An explicit reindex leaves the same list.

    expect(await reindex(w.admin, w.dictionary.id)).toMatchObject({ result: true });
    expect(await everything(w)).toEqual([kept, outage.created, outage.renamed].sort());
    expect(await outboxRows(server)).toBe(0);
    expect((await ready()).body.search).toEqual(healthy);
  }, 240_000);
});
