import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** How often pending counts are written; statistics reads and logouts flush at once as well. */
export const API_REQUEST_FLUSH_MS = 5_000;
/** Sessions per UPDATE statement: two bind parameters each, well below PostgreSQL's 65535. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * Counts the requests of API-login sessions in memory and adds them to `sessions.api_requests` in
 * batches: one `UPDATE ... FROM (VALUES ...)` per flush, never a write per request. One counter per
 * server; a count not yet flushed is lost only if the process dies without closing.
 */
export class ApiRequestCounter {
  private pending = new Map<number, number>();
  /** Requests already counted: one HTTP request may run several procedures (GraphQL fields, uploads). */
  private readonly counted = new WeakSet<object>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Counts one request of a session, once per HTTP request object. */
  count(request: object, sessionId: number): void {
    if (this.counted.has(request)) return;
    this.counted.add(request);
    this.pending.set(sessionId, (this.pending.get(sessionId) ?? 0) + 1);
  }

  /** Requests counted but not yet written, per session id (for tests and diagnostics). */
  pendingCounts(): ReadonlyMap<number, number> {
    return this.pending;
  }

  /** Writes every pending count now; counts of a failed write are kept for the next flush. */
  flush(): Promise<void> {
    if (this.pending.size === 0) return this.inFlight;
    const batch = [...this.pending];
    this.pending = new Map();
    const write = this.write(batch).catch((error: unknown) => {
      for (const [id, requests] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + requests);
      this.log.warn({ err: error, sessions: batch.length }, 'writing API request counts failed; will retry');
    });
    this.inFlight = this.inFlight.then(() => write);
    return this.inFlight;
  }

  private async write(batch: [number, number][]): Promise<void> {
    const connection = this.orm.em.getConnection();
    for (let start = 0; start < batch.length; start += ROWS_PER_STATEMENT) {
      const rows = batch.slice(start, start + ROWS_PER_STATEMENT);
      await connection.execute(
        `update sessions s set api_requests = s.api_requests + v.requests
         from (values ${rows.map(() => '(cast(? as int), cast(? as int))').join(', ')}) as v(id, requests)
         where s.id = v.id`,
        rows.flat(),
      );
    }
  }

  /** Flushes every `intervalMs` until closed; the timer never keeps the process alive. */
  start(intervalMs = API_REQUEST_FLUSH_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left (server shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRequests: ApiRequestCounter;
  }
}

/** Writes the server's pending API request counts now (tests; statistics reads do it themselves). */
export const flushApiRequests = (app: FastifyInstance): Promise<void> => app.apiRequests.flush();
