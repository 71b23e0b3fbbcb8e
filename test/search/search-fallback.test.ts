/**
 * Elasticsearch unavailable (docs/reliability.md, "Elasticsearch down" and "Elasticsearch hanging"):
 * search answers from PostgreSQL with the same results, /ready says search is degraded and which engine
 * serves, writes answer within the bounded wait, and once Elasticsearch is back the outbox delivers
 * the changes made meanwhile and search returns to it.
 *
 * The server reaches the tests' shared Elasticsearch through a proxy of this suite
 * (elasticsearch-proxy.ts), which refuses connections or holds requests unanswered: the shared server
 * itself is never stopped or frozen. The index is the suite's own, and so is the database (the outbox
 * is one table per database).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import {
  conceptBody,
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { type ElasticsearchProxy, startElasticsearchProxy } from './elasticsearch-proxy.js';
import { eventually, names, readiness, timed, untilSearchServed, word } from './search-helpers.js';

/** The bounds this suite's server runs with (the defaults). */
const WRITE_WAIT_MS = 1500;
const SEARCH_TIMEOUT_MS = 1500;
/** A write while Elasticsearch is away: the bounded wait at most, with room for a busy machine. */
const WRITE_LIMIT_MS = WRITE_WAIT_MS + 1500;
/** A search while Elasticsearch is away: its timeout, then PostgreSQL. */
const SEARCH_LIMIT_MS = SEARCH_TIMEOUT_MS + 2500;
/** Back on Elasticsearch: the probe's first retries come within seconds. */
const RECOVERY_MS = 20_000;

const upstream = inject('elasticsearchUrl');
const index = `${inject('elasticsearchIndexPrefix')}_fallback_${randomBytes(4).toString('hex')}`;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let proxy: ElasticsearchProxy;
let server: Server;
/** The server's warnings about Elasticsearch being unavailable. */
let outageWarnings: unknown[][] = [];

beforeAll(async () => {
  database = await isolatedDatabase();
  proxy = await startElasticsearchProxy(upstream);
  server = await startServer({
    DATABASE_URL: database.url,
    ELASTICSEARCH_URL: proxy.url,
    ELASTICSEARCH_INDEX: index,
  });
  await untilSearchServed(server);
  const log = server.t.app.log;
  const warn = log.warn.bind(log);
  vi.spyOn(log, 'warn').mockImplementation((...args: unknown[]) => {
    if (args.some((arg) => typeof arg === 'string' && arg.includes('Elasticsearch unavailable'))) {
      outageWarnings.push(args);
    }
    (warn as (...rest: unknown[]) => void)(...args);
  });
}, 120_000);

afterAll(async () => {
  await proxy?.heal();
  await server?.close();
  await proxy?.close();
  await database?.drop();
  await fetch(`${upstream}/${index}-v1`, { method: 'DELETE' }).catch(() => {});
});

const ready = () => readiness(server).then(({ status, body, ms }) => ({ status, search: body.search, ms }));

const onElasticsearch = { engine: 'elasticsearch', status: 'ok', servedBy: 'elasticsearch' };
const onFallback = { engine: 'elasticsearch', status: 'degraded', servedBy: 'postgresql' };

/** Every English name of the world's dictionary, in list order. */
const everything = (w: World) =>
  names(w.admin, { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], pageSize: 100 });

/** The dictionary's names as the index itself holds them (asked of Elasticsearch directly). */
async function indexedNames(w: World): Promise<string[]> {
  await fetch(`${upstream}/${index}/_refresh`, { method: 'POST' });
  const response = await fetch(`${upstream}/${index}/_search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: { term: { dictionaryId: w.dictionary.id } }, size: 1000 }),
  });
  const body = (await response.json()) as { hits?: { hits: { _source: { name: string } }[] } };
  return (body.hits?.hits ?? []).map((hit) => hit._source.name).sort();
}

/** A world with three concepts, searchable on Elasticsearch. */
async function worldWithTerms(): Promise<{ w: World; listed: string[] }> {
  const w = await conceptWorld(server);
  for (const name of [word(), word(), word()]) {
    await createConcept(w.admin, w, { terms: [{ name, languageCode: 'eng' }] });
  }
  const listed = await everything(w);
  expect(listed).toHaveLength(3);
  expect(await indexedNames(w)).toEqual(listed);
  return { w, listed };
}

/** Creates a concept with one English term; answers its name and how long the write took. */
async function writeTerm(w: World): Promise<{ name: string; ms: number }> {
  const name = word();
  const { value: response, ms } = await timed(() =>
    w.admin.post('/concepts', conceptBody(w, { terms: [{ name, languageCode: 'eng' }] })),
  );
  expect(response.status, response.text).toBe(201);
  return { name, ms };
}

/** Back on Elasticsearch with nothing pending, and the index holds `expected`. */
async function recovered(w: World, expected: string[]) {
  const started = performance.now();
  expect(
    await eventually(async () => {
      const { search } = await ready();
      return search.servedBy === 'elasticsearch' && search.pendingChanges === 0;
    }, RECOVERY_MS),
  ).toBe(true);
  console.info(`back on Elasticsearch ${Math.round(performance.now() - started)} ms after it was`);
  expect((await ready()).search).toEqual({ ...onElasticsearch, pendingChanges: 0 });
  expect(await indexedNames(w)).toEqual([...expected].sort());
  expect(await everything(w)).toEqual([...expected].sort());
}

const round = (values: number[]) => values.map((value) => Math.round(value));

describe('Elasticsearch refuses connections', () => {
  it('search answers 200 from PostgreSQL with the same results, /ready says degraded, and search returns to Elasticsearch', async () => {
    const { w, listed } = await worldWithTerms();
    expect((await ready()).search).toEqual({ ...onElasticsearch, pendingChanges: 0 });
    outageWarnings = [];

    await proxy.refuse();
    const searches: number[] = [];
    let written: { name: string; ms: number };
    try {
      for (let i = 0; i < 3; i++) {
        const { value, ms } = await timed(() => everything(w));
        expect(value).toEqual(listed);
        searches.push(ms);
      }
      const readiness = await ready();
      expect(readiness.status).toBe(200);
      expect(readiness.search).toEqual({
        ...onFallback,
        reason: 'unreachable',
        since: expect.any(String),
        pendingChanges: 0,
      });

      // A rebuild has nothing to fall back on: 503 with Retry-After, not 500.
      const reindex = await w.admin.post(`/dictionaries/reindex/${w.dictionary.id}`);
      expect(reindex.status, reindex.text).toBe(503);
      expect(reindex.headers['retry-after']).toBe('1');

      // A write answers at once, and PostgreSQL shows it to the writer's next search.
      written = await writeTerm(w);
      expect(written.ms).toBeLessThan(WRITE_LIMIT_MS);
      expect(await everything(w)).toEqual([...listed, written.name].sort());
      expect((await ready()).search).toMatchObject({ ...onFallback, pendingChanges: 1 });
    } finally {
      await proxy.heal();
    }
    console.info(`refused: searches ${round(searches).join(', ')} ms; write ${Math.round(written.ms)} ms`);
    for (const ms of searches) expect(ms).toBeLessThan(SEARCH_LIMIT_MS);
    // One warning for the whole outage, not one per search or write.
    expect(outageWarnings).toHaveLength(1);

    await recovered(w, [...listed, written.name]);
  }, 90_000);
});

describe('Elasticsearch hangs (accepts requests, never answers)', () => {
  it('ten writes each answer within the bounded wait, search answers from PostgreSQL, and the outbox delivers them afterwards', async () => {
    const { w, listed } = await worldWithTerms();

    proxy.decide = () => 'hang';
    const writes: { name: string; ms: number }[] = [];
    let searchMs: number;
    let readiness: Awaited<ReturnType<typeof ready>>;
    try {
      for (let i = 0; i < 10; i++) writes.push(await writeTerm(w));
      const { value, ms } = await timed(() => everything(w));
      searchMs = ms;
      expect(value).toEqual([...listed, ...writes.map((write) => write.name)].sort());
      readiness = await ready();
    } finally {
      await proxy.heal();
    }
    const total = writes.reduce((sum, write) => sum + write.ms, 0);
    console.info(
      `hanging: writes ${round(writes.map((write) => write.ms)).join(', ')} ms (total ${Math.round(total)}); search ${Math.round(searchMs)} ms; /ready ${Math.round(readiness.ms)} ms`,
    );
    for (const write of writes) expect(write.ms).toBeLessThan(WRITE_LIMIT_MS);
    // Only the write that found Elasticsearch hanging waits; the others know it is away.
    expect(total).toBeLessThan(WRITE_WAIT_MS + 10 * 1000);
    expect(searchMs).toBeLessThan(SEARCH_LIMIT_MS);
    expect(readiness.status).toBe(200);
    expect(readiness.ms).toBeLessThan(1000);
    expect(readiness.search).toMatchObject({ ...onFallback, reason: 'not answering', pendingChanges: 10 });

    await recovered(w, [...listed, ...writes.map((write) => write.name)]);
  }, 120_000);

  it('a search that finds Elasticsearch hanging answers from PostgreSQL after its timeout', async () => {
    const { w, listed } = await worldWithTerms();
    proxy.decide = () => 'hang';
    let search: { value: string[]; ms: number };
    try {
      search = await timed(() => everything(w));
    } finally {
      await proxy.heal();
    }
    console.info(`hanging: first search ${Math.round(search.ms)} ms`);
    expect(search.value).toEqual(listed);
    expect(search.ms).toBeLessThan(SEARCH_LIMIT_MS);
    await recovered(w, listed);
  }, 90_000);
});

describe('the index deleted or closed behind the server', () => {
  it('search answers from PostgreSQL, not 500, while the index is created again and rebuilt', async () => {
    const { w, listed } = await worldWithTerms();
    outageWarnings = [];
    const deleted = await fetch(`${upstream}/${index}-v1`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    // At once (index missing), and while it is rebuilt (index there, but not complete yet).
    for (let i = 0; i < 5; i++) {
      expect(await everything(w)).toEqual(listed);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(outageWarnings).toHaveLength(1);
    expect(outageWarnings[0]![0]).toMatchObject({ reason: 'index missing' });
    await recovered(w, listed);
  }, 90_000);

  it('a closed index answers via PostgreSQL too, and search returns once it is open again', async () => {
    const { w, listed } = await worldWithTerms();
    const closed = await fetch(`${upstream}/${index}-v1/_close`, { method: 'POST' });
    expect(closed.status).toBe(200);
    try {
      expect(await everything(w)).toEqual(listed);
      expect((await ready()).search).toMatchObject({ ...onFallback, reason: 'unavailable' });
    } finally {
      await fetch(`${upstream}/${index}-v1/_open`, { method: 'POST' });
    }
    await recovered(w, listed);
  }, 90_000);
});
