/**
 * Whether Elasticsearch can serve term search right now (docs/reliability.md). While it cannot (refused
 * connections, timeouts, a missing or red index, an index being rebuilt), PostgreSQL answers: both
 * engines give the same results, so search stays correct, only slower at scale. Writes then stop
 * waiting for the index, and a probe with backoff finds out when Elasticsearch is back.
 */
import { errors, type TransportRequestOptions } from '@elastic/elasticsearch';
import type { FastifyBaseLogger } from 'fastify';
import type { SearchEngine, SearchPlan, SearchWindow } from './search-plan.js';

/** The first probe after an outage begins, and the longest wait between probes. */
const FIRST_PROBE_MS = 1000;
const MAX_PROBE_MS = 10_000;

/** Why Elasticsearch does not serve; shown by /ready, which is open, so never an address or a message. */
export type OutageReason =
  | 'unreachable'
  | 'not answering'
  | 'index missing'
  | 'index rebuilding'
  | 'unavailable';

export interface Outage {
  reason: OutageReason;
  since: Date;
}

/**
 * Options of a request someone waits for (a search, the loop's sign of life, a probe): an answer within
 * `timeoutMs`, or an outage. A timeout is not retried (the client's default); a connection error is,
 * at once, on a new connection: a keep-alive connection closed by the other side (a proxy's idle
 * timeout) is no outage, and a refused one fails again within a millisecond.
 */
export const quickRequest = (timeoutMs: number): TransportRequestOptions => ({
  requestTimeout: timeoutMs,
  maxRetries: 1,
  retryBackoff: () => 0,
});

const errorType = (error: InstanceType<typeof errors.ResponseError>): string | undefined =>
  (error.body as { error?: { type?: string } } | undefined)?.error?.type;

/**
 * Why the error says Elasticsearch cannot serve now, or null when it is a fault of the request (a bad
 * query is a bug: PostgreSQL answering it would hide it).
 */
export function outageReasonOf(error: unknown): OutageReason | null {
  if (error instanceof errors.TimeoutError) return 'not answering';
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return 'unreachable';
  }
  if (error instanceof errors.ResponseError) {
    const type = errorType(error);
    if (type === 'index_not_found_exception') return 'index missing';
    const status = error.statusCode ?? 0;
    // 408/429: overloaded; 5xx: no shard available, cluster red or blocked, a node restarting; a
    // closed index (400) cannot answer either.
    if (
      status === 408 ||
      status === 429 ||
      status >= 500 ||
      type === 'cluster_block_exception' ||
      type === 'index_closed_exception'
    ) {
      return 'unavailable';
    }
  }
  return null;
}

/** Serving state of the Elasticsearch engine: one outage at a time, logged once, probed with backoff. */
export class SearchAvailability {
  private current: Outage | null = null;
  private probeAt = 0;
  private probeGap = FIRST_PROBE_MS;

  constructor(private readonly log: FastifyBaseLogger) {}

  get outage(): Outage | null {
    return this.current;
  }

  get servedBy(): 'elasticsearch' | 'postgresql' {
    return this.current ? 'postgresql' : 'elasticsearch';
  }

  /**
   * Search leaves Elasticsearch; the first call of an outage logs a warning with the error that began
   * it (`quiet`: none, for an index built at a first start, which is no fault). Later calls only
   * update the reason /ready shows.
   */
  down(reason: OutageReason, error?: unknown, options: { quiet?: boolean } = {}): void {
    if (this.current) {
      this.current.reason = reason;
      return;
    }
    this.current = { reason, since: new Date() };
    this.probeGap = FIRST_PROBE_MS;
    this.probeAt = Date.now() + FIRST_PROBE_MS;
    if (options.quiet) return;
    this.log.warn(
      { err: error, reason },
      'Elasticsearch unavailable: term search answers from PostgreSQL, changes wait in the outbox',
    );
  }

  /** True when the outage is due for its next probe. */
  probeDue(): boolean {
    return this.current !== null && Date.now() >= this.probeAt;
  }

  /** The probe failed: wait twice as long (at most MAX_PROBE_MS) before the next one. */
  probeFailed(error: unknown): void {
    this.probeGap = Math.min(this.probeGap * 2, MAX_PROBE_MS);
    this.probeAt = Date.now() + this.probeGap;
    this.log.debug({ err: error, nextProbeMs: this.probeGap }, 'Elasticsearch still unavailable');
  }

  /** Not ready yet for a reason of our own (a rebuild under way): look again soon, without backoff. */
  probeSoon(): void {
    this.probeAt = Date.now() + FIRST_PROBE_MS;
  }

  up(): void {
    if (!this.current) return;
    const downMs = Date.now() - this.current.since.getTime();
    this.current = null;
    this.log.info({ downMs }, 'Elasticsearch available again: term search answers from it');
  }
}

/**
 * The Elasticsearch engine with PostgreSQL behind it: a search Elasticsearch cannot answer (or any
 * search during an outage) is answered by PostgreSQL, with the same results.
 */
export class FailoverSearch implements SearchEngine {
  readonly name = 'elasticsearch' as const;

  constructor(
    private readonly primary: SearchEngine,
    private readonly fallback: SearchEngine,
    private readonly availability: SearchAvailability,
  ) {}

  async find(plan: SearchPlan, window: SearchWindow, withTotal: boolean) {
    return this.run(
      () => this.primary.find(plan, window, withTotal),
      () => this.fallback.find(plan, window, withTotal),
    );
  }

  /** Any read of the index with the same failover (term decoration looks candidates up through it). */
  async run<T>(primary: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (!this.availability.outage) {
      try {
        return await primary();
      } catch (error) {
        const reason = outageReasonOf(error);
        if (!reason) throw error;
        this.availability.down(reason, error);
      }
    }
    return fallback();
  }
}
