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
