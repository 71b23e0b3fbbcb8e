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
  const raw = em
    .getConnection()
    .getKnex()
    .raw(query.text, query.params as never[]);
  const transaction = em.getTransactionContext();
  if (transaction) raw.transacting(transaction);
  if (options.prepared) raw.options({ name: statementName(query) });
  // Logged like MikroORM's own statements (debug 'query'), without the parameters (a token's hash).
  const logger = em.config.getLogger();
  const started = Date.now();
  try {
    const { rows } = (await raw) as { rows: T[] };
    logger.logQuery({ query: query.text, took: Date.now() - started, results: rows.length, level: 'info' });
    return rows;
  } catch (error) {
    logger.logQuery({ query: query.text, took: Date.now() - started, level: 'error' });
    throw error;
  }
}

/** A prepared statement's name, the same for the same text on every connection. */
const statementName = (query: Sql) =>
  `pt_${createHash('sha1').update(query.text).digest('base64url').slice(0, 24)}`;
