/**
 * Wakes the live readers (SSE, subscriptions) of a process when their client's counter moves. One
 * poll of `event_sequences` (primary-key look-ups of the clients being watched) every POLL_MS serves
 * every open stream of the process, and runs only while some stream waits: no connection of its own,
 * no notification that could be lost.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';

const POLL_MS = 200;

interface Waiter {
  clientId: number;
  beyond: number;
  wake: (moved: boolean) => void;
}

class EventHub {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(private readonly fork: () => EntityManager) {}

  /**
   * Resolves true once the client's counter is beyond `beyond`, false after `timeoutMs` or when the
   * signal aborts.
   */
  wait(clientId: number, beyond: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
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

  private schedule() {
    if (this.timer || this.waiters.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll().finally(() => this.schedule());
    }, POLL_MS);
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
    hub = new EventHub(() => root.fork());
    hubs.set(em.config, hub);
  }
  return hub;
}
