/**
 * One LISTEN connection per process, shared by every module that reacts to PostgreSQL notifications
 * (cache invalidation, event wake-ups). A notification sent with `notify()` inside a transaction is
 * delivered at its commit, to every server on the database, and never for a rollback.
 *
 * Notifications sent while the connection is down are lost: `onReset` handlers run when it drops and
 * again once it is back (with every channel listened to again), so a cache drops what it holds and a
 * waiter reads the table once. `connected` says whether notifications can be trusted right now.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { boundRows } from '../shared/sql.js';

export type NotificationHandler = (payload: string) => void;

interface ListenerLog {
  warn(object: unknown, message?: string): void;
}

/** Channel names are identifiers we choose; anything else is a programming error. */
const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly resetHandlers = new Set<() => void>();
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log?: ListenerLog,
  ) {}

  /** True while notifications arrive: a cache may serve only then. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Calls `handler` with each notification's payload on `channel`; returns the unsubscribe. */
  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel ${channel}`);
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    if (first && this.client) await this.client.query(`LISTEN ${channel}`).catch(() => undefined);
    else if (!this.client) await this.connect();
    return async () => {
      const current = this.handlers.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(channel);
      await this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /** Runs when notifications may have been missed: on a drop and again after reconnecting. */
  onReset(handler: () => void): () => void {
    this.resetHandlers.add(handler);
    return () => this.resetHandlers.delete(handler);
  }

  /** Resolves once connected (or after a failed attempt, which schedules the next). */
  connect(): Promise<void> {
    if (this.closed || this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      application_name: 'polyterm-listener',
    });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          this.log?.warn({ err: error, channel: message.channel }, 'notification handler failed');
        }
      }
    });
    // 'error' without a listener would crash the process; both end the connection.
    client.on('error', () => this.dropped(client));
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      this.log?.warn({ err: error }, 'notification listener could not connect; retrying');
      await client.end().catch(() => undefined);
      this.scheduleRetry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
    this.reset();
  }

  private dropped(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.log?.warn({}, 'notification listener lost its connection; reconnecting');
    this.reset();
    this.scheduleRetry();
  }

  private scheduleRetry() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private reset() {
    for (const handler of this.resetHandlers) {
      try {
        handler();
      } catch (error) {
        this.log?.warn({ err: error }, 'notification reset handler failed');
      }
    }
  }
}

const listeners = new WeakMap<MikroORM, PgListener>();

/** The process's listener on this ORM's database (made on first use; the app closes it). */
export function pgListenerFor(orm: MikroORM, log?: ListenerLog): PgListener {
  let listener = listeners.get(orm);
  if (!listener) {
    listener = new PgListener(orm.config.get('clientUrl') as string, log);
    listeners.set(orm, listener);
  }
  return listener;
}

/** Closes the ORM's listener, if one was made. */
export async function closePgListener(orm: MikroORM): Promise<void> {
  const listener = listeners.get(orm);
  listeners.delete(orm);
  await listener?.close();
}

/**
 * Sends `payload` on `channel` in `em`'s transaction (use the transaction's manager): delivered at
 * commit, and not at all on rollback. Payloads stay well under PostgreSQL's 8,000-byte limit.
 */
export async function notify(em: EntityManager, channel: string, payload: string): Promise<void> {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel ${channel}`);
  await boundRows(em, { text: 'select pg_notify(?, ?)', params: [channel, payload] });
}
