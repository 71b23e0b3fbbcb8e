/**
 * Delivers the event log to webhook subscriptions (docs/events.md, "Webhooks"), on every server.
 *
 * Each subscription has a cursor in its client's event sequence and a lease. A server claims due
 * subscriptions with FOR UPDATE SKIP LOCKED and a lease expiry, delivers their events one at a time in
 * sequence order, and moves the cursor after each success, its updates fenced by the lease (a server
 * whose lease ran out and was taken over stops). So servers side by side deliver each event once per
 * subscriber, a server that crashes mid-delivery leaves a lease that expires and another takes the
 * subscription over from its cursor (the event may come twice then: at least once, webhook-id dedupes),
 * and order per subscription, hence per concept, holds. A failed event blocks those after it until it
 * succeeds: retries back off exponentially with jitter; failing for WEBHOOKS_RETRY_WINDOW_MS disables
 * the subscription and mails its owner.
 */

import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import { readEvents } from '../event-log.js';
import { EVENTS_CHANNEL, listenForClients, WakeLoop, WEBHOOKS_CHANNEL } from '../event-wakeups.js';
import { type AddressGuard, addressGuard } from './webhook-address-guard.js';
import { attemptOnce, visibleToOwner } from './webhook-delivery.js';
import { matchedTypes } from './webhook-event-types.js';
import { sendDisabledMail } from './webhook-mail.js';
import { type Agents, keepAliveAgents } from './webhook-sender.js';
import { sql } from './webhook-sql.js';
import {
  type DeliveryRecord,
  recordDeliveries,
  SUBSCRIPTION_COLUMNS,
  type SubscriptionRow,
} from './webhook-store.js';

const BATCH = 200;
/** Deliveries between writes of the log and the cursor. */
const FLUSH = 50;
/** How long the delivery log keeps an attempt. */
export const LOG_DAYS = 30;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Subscriptions one server works on at once. */
const PARALLEL = 8;

/** The wait before retry `attempt` (1-based): base·2^(attempt-1), capped, with "equal jitter" (half fixed, half random). */
export function backoffMs(config: Config, attempt: number, random = Math.random()): number {
  const delay = Math.min(
    config.WEBHOOKS_RETRY_MAX_MS,
    config.WEBHOOKS_RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 30),
  );
  return Math.round(delay / 2 + (random * delay) / 2);
}

/** A subscription with events it may take, as the claim and the next wake-up see it. */
const PENDING = `s.active and exists (select 1 from events e where e.client_id = s.client_id and e.sequence > s.cursor
    and (cardinality(s.event_types) = 0
         or e.type like any(array(select replace(p, '*', '%') from unnest(s.event_types) p)))
    and (cardinality(s.dictionary_ids) = 0 or e.dictionary_id = any(s.dictionary_ids)))`;

export class WebhookDispatcher {
  /** This server's name in leases. */
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly loop: WakeLoop;
  private readonly guard: AddressGuard;
  private readonly leaseMs: number;
  private readonly agents: Agents = keepAliveAgents();
  private readonly unlisten: (() => Promise<void>)[] = [];
  /** Clients with an active subscription; null: to be read at the next round. */
  private subscribed: Set<number> | null = null;
  private subscribedAt = 0;

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    this.guard = addressGuard(config);
    // Longer than one delivery can take, so a live server keeps its lease between renewals.
    this.leaseMs = Math.max(config.WEBHOOKS_TIMEOUT_MS * 3, 5000);
    this.loop = new WakeLoop(() => this.tick(), config.EVENTS_POLL_MS);
  }

  /**
   * Wakes on the commits of clients with subscriptions, on changes of subscriptions, and when the
   * listener reconnects; otherwise every EVENTS_POLL_MS only (docs/events.md, "Waking up").
   */
  async start(): Promise<void> {
    const reread = () => {
      this.subscribed = null;
      this.loop.wake();
    };
    this.unlisten.push(
      await listenForClients(
        this.orm,
        this.log,
        EVENTS_CHANNEL,
        (clientId) => {
          // Events of a client without subscriptions cost nothing: not even a query.
          if (this.subscribed === null || this.subscribed.has(clientId)) this.loop.wake();
        },
        reread,
      ),
      await listenForClients(this.orm, this.log, WEBHOOKS_CHANNEL, reread, reread),
    );
    this.loop.wake();
  }

  /** One wake-up: rounds while there is work; then the time until a retry or a lease falls due. */
  private async tick(): Promise<number> {
    try {
      const em = this.orm.em.fork();
      // Read again with the fallback poll (and after a change of subscriptions or a reconnect).
      if (this.subscribed === null || Date.now() - this.subscribedAt >= this.config.EVENTS_POLL_MS) {
        this.subscribedAt = Date.now();
        const rows = await sql<{ clientId: number }>(
          em,
          'select distinct client_id as "clientId" from webhook_subscriptions where active',
        );
        this.subscribed = new Set(rows.map((row) => row.clientId));
      }
      if (this.subscribed.size === 0) return this.idle();
      if (await this.round()) return 0;
      const [next] = await sql<{ ms: number | null }>(
        em,
        `select extract(epoch from min(greatest(s.next_attempt_at, coalesce(s.lease_until, s.next_attempt_at))) - now())
                * 1000 as ms
           from webhook_subscriptions s where ${PENDING}`,
      );
      // Due now but not claimed: another server took it a moment ago; look again shortly.
      return next?.ms === null || next?.ms === undefined ? this.idle() : Math.max(Number(next.ms), 20);
    } catch (error) {
      this.log.warn({ err: error }, 'webhook round failed; the fallback poll retries');
      this.subscribed = null;
      return this.idle();
    }
  }

  /** Until the fallback poll. */
  private idle(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** One round: claims due subscriptions and works through them; true when there was work. */
  async round(): Promise<boolean> {
    try {
      await this.pruneLog();
      const claimed = await this.claim(this.orm.em.fork());
      await Promise.all(claimed.map((row) => this.work(row)));
      return claimed.length > 0;
    } catch (error) {
      this.log.warn({ err: error }, 'webhook round failed; the next round retries');
      return false;
    }
  }

  private pruned = 0;

  /** Keeps the delivery log to its last LOG_DAYS days (every server, now and then; deleting twice is harmless). */
  private async pruneLog(): Promise<void> {
    if (Date.now() - this.pruned < PRUNE_EVERY_MS) return;
    this.pruned = Date.now();
    await sql(
      this.orm.em.fork(),
      `delete from webhook_deliveries where created_at < now() - ? * interval '1 day'`,
      [LOG_DAYS],
    );
  }

  private async claim(em: EntityManager): Promise<SubscriptionRow[]> {
    return sql<SubscriptionRow>(
      em,
      `with due as (
         select s.id from webhook_subscriptions s
           join event_sequences q on q.client_id = s.client_id and q.last_sequence > s.cursor
          where s.next_attempt_at <= now() and (s.lease_until is null or s.lease_until < now()) and ${PENDING}
          order by s.next_attempt_at limit ${PARALLEL}
          for update of s skip locked)
       update webhook_subscriptions s set lease_owner = ?, lease_until = now() + ? * interval '1 millisecond'
         from due where s.id = due.id
       returning ${SUBSCRIPTION_COLUMNS.replace(/coalesce\(nullif\(u\.full_name, ''\), u\.username\)/, 'null')}`,
      [this.owner, this.leaseMs],
    );
  }

  /**
   * Delivers a claimed subscription's events until none is left, one fails, or the lease is lost. The
   * log rows and the cursor are written together every FLUSH events (and at a failure or the end): a
   * crash in between sends at most those again, which at-least-once allows and webhook-id dedupes.
   */
  private async work(subscription: SubscriptionRow): Promise<void> {
    const em = this.orm.em.fork();
    let cursor = Number(subscription.cursor);
    const pending: DeliveryRecord[] = [];
    let renewed = Date.now();
    // Also a third of the lease after the last write: one delivery takes at most a third (the timeout),
    // so the lease is renewed before it can run out.
    const due = () => pending.length >= FLUSH || Date.now() - renewed > this.leaseMs / 3;
    const flush = async () => {
      renewed = Date.now();
      const records = pending.splice(0);
      return this.advance(em, subscription, cursor, records);
    };
    try {
      for (;;) {
        const events = await readEvents(em, subscription.clientId, cursor, BATCH, {
          // Patterns are matched against today's types, so a type added later joins its family.
          types: matchedTypes(subscription.eventTypes).types,
          dictionaryIds: subscription.dictionaryIds,
        });
        if (events.length === 0) break;
        const visible = await visibleToOwner(em, this.config, this.log, subscription, events);
        if (visible === null) {
          await flush();
          await this.disable(em, subscription, 'its owner can no longer sign in to the client');
          return;
        }
        const bySequence = new Map(visible.map((event) => [event.sequence, event]));
        for (const event of events) {
          const shown = bySequence.get(event.sequence);
          if (shown) {
            const attempt = subscription.attempt + 1;
            const { result, record } = await attemptOnce(
              this.config,
              this.guard,
              subscription,
              shown,
              attempt,
              false,
              this.agents,
            );
            pending.push(record);
            if (!result.ok) {
              const failed = pending.pop()!;
              if (pending.length && !(await flush())) return;
              await this.failed(em, subscription, cursor, attempt, result.error, failed);
              return;
            }
            subscription.attempt = 0;
          }
          cursor = event.sequence;
          if (due() && !(await flush())) return;
        }
        if (!(await flush())) return;
      }
      await this.release(em, subscription);
    } catch (error) {
      this.log.warn({ err: error, webhook: subscription.id }, 'webhook delivery round failed');
      // The lease runs out by itself; leaving it makes the next round wait instead of spinning.
    }
  }

  /** Moves the cursor and renews the lease; false when the lease is no longer this server's. */
  private async advance(
    em: EntityManager,
    subscription: SubscriptionRow,
    cursor: number,
    records: DeliveryRecord[],
  ): Promise<boolean> {
    await recordDeliveries(em, records);
    const rows = await sql<{ id: number }>(
      em,
      `update webhook_subscriptions set cursor = ?, attempt = 0, failing_since = null,
         lease_until = now() + ? * interval '1 millisecond'
       where id = ? and lease_owner = ? returning id`,
      [cursor, this.leaseMs, subscription.id, this.owner],
    );
    return rows.length > 0;
  }

  private async release(em: EntityManager, subscription: SubscriptionRow): Promise<void> {
    await sql(
      em,
      'update webhook_subscriptions set lease_owner = null, lease_until = null where id = ? and lease_owner = ?',
      [subscription.id, this.owner],
    );
  }

  /** Schedules the retry, or disables the subscription once it has failed for the whole window. */
  private async failed(
    em: EntityManager,
    subscription: SubscriptionRow,
    cursor: number,
    attempt: number,
    error: string | null,
    record: DeliveryRecord,
  ): Promise<void> {
    await recordDeliveries(em, [record]);
    const [row] = await sql<{ failingFor: number }>(
      em,
      `update webhook_subscriptions set cursor = ?, attempt = ?, failing_since = coalesce(failing_since, now()),
         next_attempt_at = now() + ? * interval '1 millisecond', lease_owner = null, lease_until = null
       where id = ? and lease_owner = ?
       returning extract(epoch from now() - failing_since) * 1000 as "failingFor"`,
      [cursor, attempt, backoffMs(this.config, attempt), subscription.id, this.owner],
    );
    if (row && Number(row.failingFor) >= this.config.WEBHOOKS_RETRY_WINDOW_MS) {
      const hours = Math.round(this.config.WEBHOOKS_RETRY_WINDOW_MS / 36e5);
      await this.disable(
        em,
        subscription,
        `every attempt failed for ${hours >= 1 ? `${hours} h` : `${this.config.WEBHOOKS_RETRY_WINDOW_MS} ms`} (${attempt} attempts; last: ${error ?? 'unknown error'})`,
        true,
      );
    }
  }

  private async disable(em: EntityManager, subscription: SubscriptionRow, reason: string, leaseFree = false) {
    const rows = await sql<{ id: number }>(
      em,
      `update webhook_subscriptions set active = false, disabled_at = now(), disabled_reason = ?,
         lease_owner = null, lease_until = null, updated_at = now()
       where id = ? and ${leaseFree ? 'lease_owner is null' : 'lease_owner = ?'} and active returning id`,
      leaseFree ? [reason, subscription.id] : [reason, subscription.id, this.owner],
    );
    if (rows.length === 0) return;
    this.log.warn({ webhook: subscription.id, reason }, 'webhook disabled');
    try {
      await sendDisabledMail(em, this.config, subscription, reason);
    } catch (error) {
      this.log.warn({ err: error, webhook: subscription.id }, 'could not mail the disabled webhook’s owner');
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.unlisten.splice(0).map((off) => off()));
    await this.loop.close();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
