import type { FastifyBaseLogger } from 'fastify';
import type { MikroORM } from './orm.js';
import { STATEMENT_TIMEOUT, withStatementTimeout } from './timeouts.js';

/** How long /ready waits for the database: load balancers and orchestrators often probe with 2 s. */
export const READY_BUDGET_MS = 1500;

export type DatabaseReadiness = { database: 'ok' } | { database: 'unreachable' | 'timeout'; reason: string };

/**
 * Whether the database answers `select 1` within the budget, whatever the pool does meanwhile (a new
 * connection to a hung server waits for the acquire timeout). The reason names no host or address.
 */
export async function checkDatabase(
  orm: MikroORM,
  log: FastifyBaseLogger,
  budgetMs = READY_BUDGET_MS,
): Promise<DatabaseReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  const probe = withStatementTimeout(budgetMs, () => orm.em.getConnection().execute('select 1')).then(
    () => 'ok' as const,
    (error: unknown) => error,
  );
  try {
    const outcome = await Promise.race([probe, late]);
    if (outcome === 'ok') return { database: 'ok' };
    const readiness = notReady(outcome, budgetMs);
    log.warn(
      { err: outcome === 'late' ? undefined : outcome, ...readiness },
      'readiness: database unavailable',
    );
    return readiness;
  } finally {
    clearTimeout(timer);
  }
}

function notReady(outcome: unknown, budgetMs: number): Exclude<DatabaseReadiness, { database: 'ok' }> {
  const code = (outcome as { code?: unknown } | null)?.code;
  if (outcome === 'late' || code === STATEMENT_TIMEOUT) {
    return { database: 'timeout', reason: `PostgreSQL did not answer within ${budgetMs} ms` };
  }
  const detail = typeof code === 'string' ? ` (${code})` : '';
  return { database: 'unreachable', reason: `PostgreSQL refused, dropped or failed the connection${detail}` };
}
