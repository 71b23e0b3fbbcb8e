/**
 * Wakes the live readers (SSE, subscriptions) of a process when their client's events commit. The
 * commit's notification (event-wakeups.ts) wakes the client's waiters at once; a slow poll of
 * `event_sequences` (EVENTS_POLL_MS, primary-key look-ups of the clients being watched, only while some
 * stream waits) and an immediate one when the listener reconnects catch what a lost notification would
 * have left waiting.
 *
 * A notification that arrives between a stream's read of the counter and its wait is not lost: the
 * stream takes the client's generation before it reads, and a wait whose generation has moved on
 * returns at once.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';
import { EVENTS_CHANNEL, listenForClients } from './event-wakeups.js';

/** Without a listener (a hub nobody started), the old quick poll. */
const UNLISTENED_POLL_MS = 200;

interface Waiter {
  clientId: number;
  beyond: number;
  wake: (moved: boolean) => void;
}

interface HubLog {
  warn(object: unknown, message?: string): void;
}

export class EventHub {
  private readonly waiters = new Set<Waiter>();
  private readonly generations = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly fork: () => EntityManager,
    private pollMs: number,
  ) {}

  /** Wakes on the commits' notifications from now on; the poll becomes the fallback. */
  async listen(orm: MikroORM, log: HubLog, fallbackMs: number): Promise<void> {
    this.pollMs = fallbackMs;
    this.unlisten = await listenForClients(
      orm,
      log,
      EVENTS_CHANNEL,
      (clientId) => this.notified(clientId),
      // Notifications may have been missed: look at the counters now.
      () => void this.poll(),
    );
  }

  async close(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** The client's notification count: take it before reading the counter, pass it to `wait`. */
  generation(clientId: number): number {
    return this.generations.get(clientId) ?? 0;
  }

  /**
   * Resolves true once the client's counter is beyond `beyond` (or a notification came for it after
   * `generation`), false after `timeoutMs` or when the signal aborts.
   */
  wait(
    clientId: number,
    beyond: number,
    timeoutMs: number,
    signal?: AbortSignal,
    generation?: number,
  ): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    if (generation !== undefined && generation !== this.generation(clientId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        clientId,
        beyond,
        wake: (moved) => {
          clearTimeout(timeout);
          signal?.removeEventListener('abort', onAbort);
          this.waiters.delete(waiter);
          resolve(moved);
        },
      };
      const onAbort = () => waiter.wake(false);
      const timeout = setTimeout(() => waiter.wake(false), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.schedule();
    });
  }

  private notified(clientId: number) {
    this.generations.set(clientId, this.generation(clientId) + 1);
    for (const waiter of [...this.waiters]) if (waiter.clientId === clientId) waiter.wake(true);
  }

  private schedule() {
    if (this.timer || this.waiters.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll().finally(() => this.schedule());
    }, this.pollMs);
    this.timer.unref();
  }

  private async poll() {
    if (this.polling || this.waiters.size === 0) return;
    this.polling = true;
    try {
      const clients = [...new Set([...this.waiters].map((waiter) => waiter.clientId))];
      const rows = await boundRows<{ client_id: number; last_sequence: string }>(this.fork(), {
        text: 'select client_id, last_sequence from event_sequences where client_id = any(?::int[])',
        params: [`{${clients.join(',')}}`],
      });
      const last = new Map(rows.map((row) => [row.client_id, Number(row.last_sequence)]));
      for (const waiter of [...this.waiters]) {
        if ((last.get(waiter.clientId) ?? 0) > waiter.beyond) waiter.wake(true);
      }
    } catch {
      // The database is away: the waiters time out and read again (their reads report the outage).
    } finally {
      this.polling = false;
    }
  }
}

const hubs = new WeakMap<object, EventHub>();

/** The process's hub for the database of `em`. */
export function eventHubOf(em: EntityManager): EventHub {
  let hub = hubs.get(em.config);
  if (!hub) {
    const root = em.fork();
    hub = new EventHub(() => root.fork(), UNLISTENED_POLL_MS);
    hubs.set(em.config, hub);
  }
  return hub;
}

/** Starts the ORM's hub listening (the app, at start); returns it, to close with the app. */
export async function startEventHub(orm: MikroORM, log: HubLog, fallbackMs: number): Promise<EventHub> {
  const hub = eventHubOf(orm.em);
  await hub.listen(orm, log, fallbackMs);
  return hub;
}
