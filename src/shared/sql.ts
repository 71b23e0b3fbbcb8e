import { createHash } from 'node:crypto';
import { TransactionContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A piece of SQL with its `?` parameters, in order. */
export interface Sql {
  text: string;
  params: unknown[];
}

/**
 * A row query as one json value (an array of its rows as objects), so that several independent reads
 * can share one statement and one round trip: `select (jsonRows(a)) as a, (jsonRows(b)) as b`.
 */
export const jsonRows = (query: Sql): Sql => ({
  text: `(select coalesce(json_agg(x), '[]'::json) from (${query.text}) x)`,
  params: query.params,
});

/** Named scalar subqueries as one select: one round trip for reads that do not depend on each other. */
export function selectEach(columns: Record<string, Sql>): Sql {
  const entries = Object.entries(columns);
  return {
    text: `select ${entries.map(([name, sql]) => `${sql.text} as "${name}"`).join(', ')}`,
    params: entries.flatMap(([, sql]) => sql.params),
  };
}

/**
 * The manager of the transaction the caller runs in, else `em`. Reads made for a request (access
 * checks, say) take the request's manager, which stays outside the transaction a use case opens on a
 * fork of it; run there, they would need a second pooled connection while the transaction holds one,
 * and concurrent writers would exhaust the pool and wait on each other for good.
 */
export function ambientManager(em: EntityManager): EntityManager {
  return (TransactionContext.getEntityManager(em.name) as EntityManager | undefined) ?? em;
}

/**
 * Runs SQL with bound parameters in the manager's transaction, if any: `?` placeholders, and an array
 * is ONE parameter (write `= any(?::int[])`, not `in (?)`). em.execute inlines parameters
 * into the statement text: for large values (a TBX batch's JSON documents, megabytes) that costs more
 * than the statement, and every run is parsed and planned anew.
 *
 * `prepared` names the statement after its text, so that each pooled connection parses it once and
 * PostgreSQL can settle on a generic plan: for the reads that nearly every request makes (the session,
 * a search's context), where planning costs more than running.
 */
export async function boundRows<T extends object>(
  em: EntityManager,
  query: Sql,
  options: { prepared?: boolean } = {},
): Promise<T[]> {
  const knex = em.getConnection().getKnex();
  const transaction = em.getTransactionContext();
  // Logged like MikroORM's own statements (debug 'query'), without the parameters (a token's hash).
  const logger = em.config.getLogger();
  const started = Date.now();
  try {
    let rows: T[];
    if (options.prepared && !transaction) {
      rows = await preparedRows<T>(knex.client as PooledClient, query);
    } else {
      const raw = knex.raw(query.text, query.params as never[]);
      if (transaction) raw.transacting(transaction);
      if (options.prepared) raw.options({ name: preparedText(query.text).name });
      rows = ((await raw) as { rows: T[] }).rows;
    }
    logger.logQuery({ query: query.text, took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  } catch (error) {
    logger.logQuery({ query: query.text, took: Date.now() - started, level: 'error' });
    throw error;
  }
}

/** The part of knex's client that lends out its pooled pg connections. */
interface PooledClient {
  acquireConnection(): Promise<{ query(config: object): Promise<{ rows: unknown[] }> }>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * A prepared read outside any transaction goes straight to a pooled pg connection: knex's query
 * compilation, binding rewrite and events cost about as much as the statement (the session lookup runs
 * on every request). Same pool, same statement and parameters as knex would send.
 */
async function preparedRows<T>(client: PooledClient, query: Sql): Promise<T[]> {
  const { name, text } = preparedText(query.text);
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ name, text, values: query.params })).rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Prepared statements by source text: name and `$n` text, computed once per text. */
const preparedTexts = new Map<string, { name: string; text: string }>();
const PREPARED_TEXTS_MAX = 1000;

/**
 * The statement name (the same for the same text on every connection) and the text with `$n`
 * placeholders, as knex's PostgreSQL client writes them (an escaped `\?` stays a literal question mark).
 */
function preparedText(source: string): { name: string; text: string } {
  let prepared = preparedTexts.get(source);
  if (!prepared) {
    if (/(^|[^\\])\?\?/.test(source)) throw new Error('boundRows: `??` identifiers are not supported');
    let position = 0;
    prepared = {
      name: `pt_${createHash('sha1').update(source).digest('base64url').slice(0, 24)}`,
      text: source.replace(/(\\*)\?/g, (_match, escapes: string) =>
        escapes.length % 2 ? '?' : `$${++position}`,
      ),
    };
    // Texts come from our code, not from callers; the bound only guards against a caller building one.
    if (preparedTexts.size >= PREPARED_TEXTS_MAX) preparedTexts.clear();
    preparedTexts.set(source, prepared);
  }
  return prepared;
}
