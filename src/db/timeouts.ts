import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../config.js';

/**
 * Bounds on waiting for PostgreSQL, so that a database that hangs (stopped, frozen storage, a network
 * that drops packets) costs a request seconds, not the whole outage (docs/reliability.md).
 */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, and for a new connection to open. */
  acquireMs: number;
  /** The answer to one statement, for work that did not choose its own bound; 0: none. */
  statementMs: number;
}

export function databaseTimeouts(
  config: Pick<Config, 'DATABASE_ACQUIRE_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS'>,
): DatabaseTimeouts {
  return { acquireMs: config.DATABASE_ACQUIRE_TIMEOUT_MS, statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS };
}

const workBound = new AsyncLocalStorage<number>();

/**
 * Runs `work`, and everything it starts, with its own bound per statement (0: none): job tasks and
 * migrations run statements far longer than a request's.
 */
export function withStatementTimeout<T>(ms: number, work: () => T): T {
  return workBound.run(ms, work);
}

/** The code of StatementTimeoutError, for isDatabaseUnavailable. */
export const STATEMENT_TIMEOUT = 'STATEMENT_TIMEOUT';

/**
 * PostgreSQL's "transaction resolution unknown": a COMMIT (or a write outside a transaction) was sent and
 * its answer never came, so it may have committed or not.
 */
export const COMMIT_UNKNOWN = '08007';

/** A statement left unanswered past its bound; its connection was closed, not returned to the pool. */
export class StatementTimeoutError extends Error {
  readonly code: string;
  constructor(ms: number, commitUnknown: boolean) {
    super(
      commitUnknown
        ? `The database did not confirm a commit within ${ms} ms; it may or may not have committed`
        : `The database did not answer a statement within ${ms} ms`,
    );
    this.code = commitUnknown ? COMMIT_UNKNOWN : STATEMENT_TIMEOUT;
  }
}

/** The parts of a pg Client this module uses (pg's own types make every overload optional). */
interface PgClient {
  __knex__disposed?: unknown;
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  end(): Promise<void>;
  connection: { on(event: 'readyForQuery', listener: (message: { status: string }) => void): void };
}

type Callback = (error: Error | null, result?: unknown) => void;

/** Statements that write nothing when they run outside a transaction block. */
const NOTHING_TO_COMMIT = /^\s*(select|show|set|begin|start\s+transaction|rollback|values)\b/i;
const COMMIT = /^\s*(commit|end)\b/i;

/**
 * Bounds every statement of a new pooled connection (knex's `pool.afterCreate`). A statement that outlives
 * its bound fails with StatementTimeoutError and its connection is closed at once. pg's own
 * `query_timeout` is no use here: it leaves the connection waiting for the hung statement and knex lends
 * it out again (brianc/node-postgres#3399). Closing is what makes a timed-out request safe: a transaction
 * whose COMMIT was never sent rolls back when PostgreSQL resumes and finds the socket gone, so the 503
 * answered meanwhile stays true. Only a COMMIT (or a write outside a transaction) already sent cannot be
 * called back: such failures carry COMMIT_UNKNOWN instead.
 */
export function boundStatements(client: PgClient, defaultMs: number): void {
  // The transaction status of the last ReadyForQuery: I idle, T in a transaction, E in a failed one.
  let status = 'I';
  client.connection.on('readyForQuery', (message) => {
    status = message.status;
  });
  const query = client.query.bind(client);
  const bounded = (config: unknown, values: unknown, text: string, done: Callback) => {
    const mayCommit = status === 'T' ? COMMIT.test(text) : status === 'I' && !NOTHING_TO_COMMIT.test(text);
    const ms = workBound.getStore() ?? defaultMs;
    let settled = false;
    const timer =
      ms > 0
        ? setTimeout(() => {
            settled = true;
            const error = new StatementTimeoutError(ms, mayCommit);
            // knex's pool validates a connection by this mark before lending it again; its own 'end'
            // listener sets it too, but only once the socket has closed, after the connection came back.
            client.__knex__disposed = error;
            done(error);
            // With a statement under way, end() destroys the socket rather than waiting for the server.
            client.end().catch(() => {});
          }, ms)
        : undefined;
    query(config, values, (error: Error | null, result?: unknown) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      if (error && mayCommit && !isServerAnswer(error)) {
        // The connection broke before the server answered the commit.
        (error as { code?: string }).code = COMMIT_UNKNOWN;
      }
      done(error, result);
    });
  };
  // knex calls query({text, values}, callback); shared/sql.ts's prepared reads await query({name, text,
  // values}). Streams (a Submittable) pass unbounded: nothing here reads through one.
  client.query = (config: unknown, values?: unknown, callback?: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function';
    if (typeof text !== 'string' || submittable) return query(config, values, callback);
    if (typeof values === 'function') return bounded(config, undefined, text, values as Callback);
    if (typeof callback === 'function') return bounded(config, values, text, callback as Callback);
    return new Promise((resolve, reject) =>
      bounded(config, values, text, (error, result) => (error ? reject(error) : resolve(result))),
    );
  };
}

/** pg's DatabaseError: the server answered, with a SQLSTATE, so nothing was committed. */
function isServerAnswer(error: Error): boolean {
  return 'severity' in error && typeof (error as { code?: unknown }).code === 'string';
}
