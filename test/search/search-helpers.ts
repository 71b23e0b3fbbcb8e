/**
 * Both search engines over one database: the contract suites run the same expectations against a
 * PostgreSQL-engine server and an Elasticsearch-engine server (the real one the global setup started).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { type Api, type Server, startServer } from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';

export type EngineName = 'postgresql' | 'elasticsearch';
export const ENGINES: EngineName[] = ['postgresql', 'elasticsearch'];

/** Server settings selecting an engine; each Elasticsearch server gets an index of its own. */
export function engineSettings(engine: EngineName): Record<string, string> {
  if (engine === 'postgresql') return {};
  return {
    ELASTICSEARCH_URL: inject('elasticsearchUrl'),
    ELASTICSEARCH_INDEX: `${inject('elasticsearchIndexPrefix')}_${randomBytes(4).toString('hex')}`,
    // These suites test Elasticsearch's answers: on a busy machine a slow one is waited for, not
    // answered by PostgreSQL in its place (search-fallback.test.ts tests that).
    ELASTICSEARCH_SEARCH_TIMEOUT_MS: '10000',
    // Likewise a writer waits for its change to be searchable (read-your-writes) however busy the
    // machine; the bounded wait of an outage is search-fallback.test.ts's.
    ELASTICSEARCH_WRITE_WAIT_MS: '20000',
  };
}

export interface TermListEntry {
  id: number;
  name: string;
  dictionaryId: number;
  termId: number;
  conceptId: number;
  conceptOid: string | null;
  langCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  filterId: number | null;
  style: string;
  disabled: boolean;
  hidden: boolean;
}

export interface SearchResponse {
  total: number;
  pageSize: number;
  searchAfter: string | null;
  searchBefore: string | null;
  results: TermListEntry[];
  message: string | null;
}

/**
 * A server on the engine. An Elasticsearch server gets a database of its own: its drainer takes every
 * outbox row of its database, so two Elasticsearch servers with different indexes must not share one.
 */
export async function startEngineServer(
  engine: EngineName,
  ormOverrides: Parameters<typeof startServer>[1] = {},
  overrides: Record<string, string> = {},
): Promise<Server> {
  if (engine === 'postgresql') return startServer(overrides, ormOverrides);
  const database = await isolatedDatabase();
  const server = await startServer(
    { ...engineSettings(engine), DATABASE_URL: database.url, ...overrides },
    ormOverrides,
  );
  await untilSearchServed(server);
  return {
    ...server,
    close: async () => {
      await server.close();
      await database.drop();
    },
  };
}

/** A made-up word of letters only (prefix searches stay within one test). */
export const word = (): string =>
  `w${randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!)}`;

/** A call and how long it took. */
export async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

/** Polls `check` until it holds or the time is up; answers whether it held. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}

/** Rows waiting in the server's outbox (the whole table: suites that count them own their database). */
export async function outboxRows(server: Server): Promise<number> {
  const [row] = await server.t.orm.em
    .fork()
    .execute<{ n: number }[]>('select count(*)::int as n from search_outbox');
  return row!.n;
}

/** The search part of GET /ready (docs/reliability.md). */
export interface SearchReadiness {
  /** The configured engine. */
  engine: string;
  status: 'ok' | 'degraded';
  /** The engine answering now: PostgreSQL while Elasticsearch is unavailable. */
  servedBy: string;
  reason?: string;
  since?: string;
  pendingChanges: number;
}

/** GET /ready: its status, its body and how long it took. */
export async function readiness(
  server: Server,
): Promise<{ status: number; body: { status: string; search: SearchReadiness }; ms: number }> {
  const { value: response, ms } = await timed(() => fetch(`${server.base}/ready`));
  return { status: response.status, body: await response.json(), ms };
}

/**
 * Waits until the server's configured engine serves search. An Elasticsearch server starting on a
 * database with terms and a new index serves from PostgreSQL until the index is rebuilt.
 */
export async function untilSearchServed(server: Server, timeoutMs = 60_000): Promise<void> {
  const served = async () => {
    const { search } = (await readiness(server)).body;
    return search.servedBy === search.engine;
  };
  if (!(await eventually(served, timeoutMs))) throw new Error('search not served by its engine in time');
}

/** POST /terms/search expecting 200. */
export async function search(caller: Api, body: Record<string, unknown>): Promise<SearchResponse> {
  const response = await caller.post<SearchResponse>('/terms/search', body);
  if (response.status !== 200) throw new Error(`search failed: ${response.status} ${response.text}`);
  return response.body;
}

/** The names a search finds, in order. */
export async function names(caller: Api, body: Record<string, unknown>): Promise<string[]> {
  return (await search(caller, body)).results.map((entry) => entry.name);
}

/** Every page of a search, following searchAfter. */
export async function allPages(caller: Api, body: Record<string, unknown>): Promise<SearchResponse[]> {
  const pages: SearchResponse[] = [];
  let cursor: string | null = null;
  do {
    const page = await search(caller, { ...body, ...(cursor ? { searchAfter: cursor } : {}) });
    pages.push(page);
    cursor = page.searchAfter;
  } while (cursor && pages.length < 10_000);
  return pages;
}

/** The order both engines promise: folded name, then name, by code point; then id. */
export function byListOrder(a: { folded: string; name: string; id: number }, b: typeof a): number {
  // UTF-8 byte order is code point order (JavaScript's < compares UTF-16 units, which differs).
  const codePoints = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));
  return codePoints(a.folded, b.folded) || codePoints(a.name, b.name) || a.id - b.id;
}
