/**
 * A TBX file loaded onto both search engines, with the rates printed: imported into PostgreSQL through a
 * PostgreSQL-engine server, then the outbox drained and the index rebuilt by an Elasticsearch-engine one.
 */
import type pg from 'pg';
import { countDocuments, hasDeleteByQuery, indexStats } from './elasticsearch-admin.js';
import { sleep } from './interrupt.js';
import { type Headers, importTbx, pendingChanges, runJob } from './polyterm-api.js';
import { mb, seconds } from './report.js';
import { type BenchServer, rssLine, startServer } from './servers.js';

/** How long the outbox may stay without progress before the bench gives up. */
// BENCH_STALL_SECONDS: a busy shared machine may need longer for one outbox batch. workflow-search
const STALL_MS = Number(process.env.BENCH_STALL_SECONDS ?? 120) * 1000;

/** Imports the file through a PostgreSQL-engine server (no outbox drain in the import); the dictionary. */
export async function loadIntoPostgresql(
  server: BenchServer,
  headers: Headers,
  file: string,
  terms: number,
): Promise<number> {
  const started = Date.now();
  const dictionaryId = await importTbx(server, headers, file);
  const importMs = Date.now() - started;
  console.log(
    `load (TBX import into PostgreSQL): ${seconds(importMs)}, ${Math.round(terms / (importMs / 1000))} terms/s; ${rssLine(server)}`,
  );
  return dictionaryId;
}

export interface Loaded {
  /** The dictionary's terms. */
  termCount: number;
  /** Outbox rows the import left for Elasticsearch. */
  outbox: number;
}

export async function loadedCounts(db: pg.Client, dictionaryId: number): Promise<Loaded> {
  const { rows } = await db.query<{ count: number; outbox: number }>(
    `select (select count(*)::int from terms where dictionary_id = $1 and not deleted) as count,
            (select count(*)::int from search_outbox) as outbox`,
    [dictionaryId],
  );
  const [{ count, outbox }] = rows as [{ count: number; outbox: number }];
  return { termCount: count, outbox };
}

/**
 * Starts an Elasticsearch-engine server on the loaded database and waits until it has drained the
 * outbox the import left and every term is searchable (outbox -> Elasticsearch bulk rate).
 */
export async function startElasticsearchEngine(
  env: Record<string, string>,
  esUrl: string,
  index: string,
  { termCount, outbox }: Loaded,
): Promise<BenchServer> {
  const started = Date.now();
  const server = await startServer('elasticsearch-engine', {
    ...env,
    ELASTICSEARCH_URL: esUrl,
    ELASTICSEARCH_INDEX: index,
  });
  const listening = Date.now() - started;
  let least = Number.POSITIVE_INFINITY;
  let progressed = Date.now();
  for (;;) {
    const pending = await pendingChanges(server);
    if (pending === 0) break;
    if (pending !== null && pending < least) {
      least = pending;
      progressed = Date.now();
    }
    if (server.process.exitCode !== null) throw new Error('the Elasticsearch-engine server exited');
    if (Date.now() - progressed > STALL_MS) {
      throw new Error(`the outbox did not shrink for ${seconds(STALL_MS)} (${least} rows left)`);
    }
    await sleep(250);
  }
  const emptied = Date.now() - started;
  // Searchable means refreshed; and a server that finds no index may rebuild it besides the outbox.
  for (
    let documents = await countDocuments(esUrl, index), at = Date.now();
    documents < termCount;
    documents = await countDocuments(esUrl, index)
  ) {
    if (Date.now() - at > STALL_MS) throw new Error(`only ${documents} of ${termCount} terms were indexed`);
    await sleep(500);
  }
  const drainMs = Date.now() - started;
  console.log(
    `outbox -> Elasticsearch (${outbox} outbox rows, ${termCount} documents): ${seconds(drainMs)} from server spawn (listening after ${seconds(listening)}, outbox empty after ${seconds(emptied)}), ${Math.round(termCount / ((drainMs - listening) / 1000))} docs/s after listening`,
  );
  return server;
}

/** Rebuilds the index from PostgreSQL (POST /dictionaries/reindex/{id}: PostgreSQL -> Elasticsearch bulk rate). */
export async function reindexDictionary(
  server: BenchServer,
  headers: Headers,
  esUrl: string,
  index: string,
  dictionaryId: number,
  termCount: number,
) {
  const started = Date.now();
  const deleteByQuery = await hasDeleteByQuery(esUrl, index);
  let reindexNote = '';
  try {
    await runJob<boolean>(
      server,
      headers,
      await fetch(`${server.url}/api/v4/dictionaries/reindex/${dictionaryId}`, { method: 'POST', headers }),
    );
  } catch (error) {
    if (deleteByQuery) throw error;
    reindexNote =
      ' (bulk phase only: the job then FAILED, this Elasticsearch has no _delete_by_query for the stale-document clean-up)';
  }
  const reindexMs = Date.now() - started;
  console.log(
    `reindex (POST /dictionaries/reindex, PostgreSQL -> Elasticsearch bulk): ${seconds(reindexMs)}, ${Math.round(termCount / (reindexMs / 1000))} docs/s${reindexNote}; ${await countDocuments(esUrl, index)} documents`,
  );
}

/** The index's documents and size, before it is merged. */
export async function printLoadedIndex(esUrl: string, index: string) {
  const stats = await indexStats(esUrl, index);
  console.log(
    `index ${index}: ${stats.documents} documents (+${stats.deleted} deleted awaiting merge), ${mb(stats.bytes)} on disk, ${(stats.bytes / stats.documents).toFixed(0)} bytes/doc`,
  );
}
