/**
 * Publishes every event to NATS JetStream when EVENTS_NATS_URL is set (docs/events.md, "NATS"), with
 * the webhooks' guarantee: a cursor per client in event_publish_cursors, advanced only after JetStream
 * acknowledged the events up to it, leased (FOR UPDATE SKIP LOCKED, with an expiry) so servers side by
 * side publish each client's events once and in order, and a crashed server's work is taken over. A
 * message published twice (after a crash between ack and cursor) carries the same Nats-Msg-Id, which
 * JetStream drops within its duplicate window.
 */

import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type JetStreamClient, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import { readEvents } from '../event-log.js';
import type { EventRecord } from '../event-types.js';
import { eventId } from '../webhooks/webhook-delivery.js';
import { sql } from '../webhooks/webhook-sql.js';

const BATCH = 500;
const PARALLEL = 4;
const LEASE_MS = 30_000;
const TARGET = 'nats';

/** The subject of an event: <prefix>.<client id>.<type>, e.g. polyterm.12.concept.updated. */
export const subjectOf = (prefix: string, event: Pick<EventRecord, 'clientId' | 'type'>) =>
  `${prefix}.${event.clientId}.${event.type}`;

export class NatsPublisher {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private connection: NatsConnection | null = null;
  private client: JetStreamClient | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.round().then((busy) => this.schedule(busy ? 0 : this.config.WEBHOOKS_POLL_MS));
    }, ms);
    this.timer.unref();
  }

  /** Connects and makes sure the stream exists (its subjects: <prefix>.>). */
  private async jetstream(): Promise<JetStreamClient> {
    if (this.client && this.connection && !this.connection.isClosed()) return this.client;
    const connection = await connect({
      servers: this.config.EVENTS_NATS_URL!,
      name: `polyterm-${this.owner}`,
      maxReconnectAttempts: -1,
    });
    const manager = await jetstreamManager(connection);
    const stream = this.config.EVENTS_NATS_STREAM;
    const subjects = [`${this.config.EVENTS_NATS_SUBJECT_PREFIX}.>`];
    try {
      await manager.streams.info(stream);
    } catch {
      await manager.streams.add({ name: stream, subjects });
    }
    this.connection = connection;
    this.client = jetstream(connection);
    return this.client;
  }

  /** One round: claims clients with unpublished events and publishes them; true when there was work. */
  async round(): Promise<boolean> {
    try {
      const client = await this.jetstream();
      const em = this.orm.em.fork();
      const claimed = await this.claim(em);
      await Promise.all(claimed.map((row) => this.publishClient(client, row.clientId, Number(row.cursor))));
      return claimed.length > 0;
    } catch (error) {
      this.log.warn({ err: error }, 'NATS publishing round failed; the next round retries');
      return false;
    }
  }

  private async claim(em: EntityManager): Promise<{ clientId: number; cursor: string }[]> {
    // A client's cursor row comes with its first event; it starts at 0, so every event is published.
    await sql(
      em,
      `insert into event_publish_cursors (target, client_id)
       select ?, q.client_id from event_sequences q
        where not exists (select 1 from event_publish_cursors p where p.target = ? and p.client_id = q.client_id)
       on conflict do nothing`,
      [TARGET, TARGET],
    );
    return sql(
      em,
      `with due as (
         select p.client_id from event_publish_cursors p
           join event_sequences q on q.client_id = p.client_id and q.last_sequence > p.cursor
          where p.target = ? and (p.lease_until is null or p.lease_until < now())
          limit ${PARALLEL} for update of p skip locked)
       update event_publish_cursors p set lease_owner = ?, lease_until = now() + ? * interval '1 millisecond'
         from due where p.target = ? and p.client_id = due.client_id
       returning p.client_id as "clientId", p.cursor::text as cursor`,
      [TARGET, this.owner, LEASE_MS, TARGET],
    );
  }

  private async publishClient(client: JetStreamClient, clientId: number, from: number): Promise<void> {
    const em = this.orm.em.fork();
    let cursor = from;
    try {
      for (;;) {
        const events = await readEvents(em, clientId, cursor, BATCH);
        if (events.length === 0) break;
        // Sent in order on one connection, acknowledged in any order: the cursor moves to the end of
        // the run of acknowledged events from its start.
        const results = await Promise.allSettled(events.map((event) => this.publish(client, event)));
        const failed = results.findIndex((result) => result.status === 'rejected');
        const done = failed === -1 ? events.length : failed;
        if (done > 0) {
          cursor = events[done - 1]!.sequence;
          const rows = await sql(
            em,
            `update event_publish_cursors set cursor = ?, lease_until = now() + ? * interval '1 millisecond'
             where target = ? and client_id = ? and lease_owner = ? returning client_id`,
            [cursor, LEASE_MS, TARGET, clientId, this.owner],
          );
          if (rows.length === 0) return;
        }
        if (failed !== -1) throw (results[failed] as PromiseRejectedResult).reason;
      }
      await sql(
        em,
        'update event_publish_cursors set lease_owner = null, lease_until = null where target = ? and client_id = ? and lease_owner = ?',
        [TARGET, clientId, this.owner],
      );
    } catch (error) {
      this.log.warn({ err: error, clientId }, 'publishing events to NATS failed; retried after the lease');
    }
  }

  private publish(client: JetStreamClient, event: EventRecord) {
    const header = headers();
    header.set('Polyterm-Event-Type', event.type);
    return client.publish(
      subjectOf(this.config.EVENTS_NATS_SUBJECT_PREFIX, event),
      JSON.stringify({ id: eventId(event), ...event }),
      { msgID: eventId(event), headers: header },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.connection?.drain().catch(() => undefined);
  }
}
