/**
 * How event readers wake up (docs/events.md, "Waking up"): the commit trigger sends a notification on
 * EVENTS_CHANNEL with the client id, the process's one LISTEN connection (src/db/pg-listener.ts) hands
 * it to the streams' hub, the webhook dispatcher and the NATS publisher, and each falls back to a slow
 * poll (EVENTS_POLL_MS) and to an immediate look when the listener reconnects, so a lost notification
 * delays an event but never strands it.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { pgListenerFor } from '../../db/pg-listener.js';

/** Sent by the commit trigger (migration 20270107120000), payload the client id. */
export const EVENTS_CHANNEL = 'polyterm_events';
/** Sent when a webhook subscription is created, changed or deleted, payload the client id. */
export const WEBHOOKS_CHANNEL = 'polyterm_webhooks';

interface WakeLog {
  warn(object: unknown, message?: string): void;
}

/**
 * Calls `onClient` with the client id of each notification on `channel`, and `onReset` when
 * notifications may have been missed (the listener's connection dropped or came back). Returns the
 * unsubscribe.
 */
export async function listenForClients(
  orm: MikroORM,
  log: WakeLog,
  channel: string,
  onClient: (clientId: number) => void,
  onReset: () => void,
): Promise<() => Promise<void>> {
  const listener = pgListenerFor(orm, log);
  const offReset = listener.onReset(onReset);
  const unlisten = await listener.listen(channel, (payload) => {
    const clientId = Number(payload);
    if (Number.isInteger(clientId) && clientId > 0) onClient(clientId);
  });
  return async () => {
    offReset();
    await unlisten();
  };
}

/**
 * Runs `round` when woken, and again after the delay it returns (capped at `fallbackMs`, the fallback
 * poll; Infinity: only the fallback). A wake during a round runs one more round right after it, so a
 * notification that arrives while the round reads is never lost.
 */
export class WakeLoop {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private pending = false;
  private closed = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly round: () => Promise<number>,
    private readonly fallbackMs: number,
  ) {}

  wake(): void {
    if (this.closed) return;
    if (this.busy) {
      this.pending = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.busy = true;
    this.running = this.run();
  }

  private async run(): Promise<void> {
    let next = Number.POSITIVE_INFINITY;
    try {
      do {
        this.pending = false;
        // A round reports its own failures; one that throws still leaves the fallback scheduled.
        next = await this.round().catch(() => this.fallbackMs);
      } while (this.pending && !this.closed);
    } finally {
      this.busy = false;
    }
    if (this.closed) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.wake();
      },
      Math.max(0, Math.min(next, this.fallbackMs)),
    );
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }
}
