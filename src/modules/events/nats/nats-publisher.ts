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
import { EVENTS_CHANNEL, listenForClients, WakeLoop } from '../event-wakeups.js';
import { eventId } from '../webhooks/webhook-delivery.js';
import { sql } from '../webhooks/webhook-sql.js';

const BATCH = 500;
const PARALLEL = 4;
const LEASE_MS = 30_000;
/** The cursors' target before they were kept per stream; adopted by the first stream that starts. */
const LEGACY_TARGET = 'nats';

/** The subject of an event: <prefix>.<client id>.<type>, e.g. polyterm.12.concept.updated. */
export const subjectOf = (prefix: string, event: Pick<EventRecord, 'clientId' | 'type'>) =>
  `${prefix}.${event.clientId}.${event.type}`;

/** The cursors' key: one cursor per client and stream, so a new stream starts on its own. */
export const natsTarget = (stream: string) => `nats:${stream}`;

export class NatsPublisher {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private connection: NatsConnection | null = null;
  private client: JetStreamClient | null = null;
  private readonly loop: WakeLoop;
  private readonly target: string;
  private unlisten: (() => Promise<void>) | null = null;
  private started = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    this.target = natsTarget(config.EVENTS_NATS_STREAM);
    this.loop = new WakeLoop(() => this.tick(), config.EVENTS_POLL_MS);
  }

  /** Wakes on every commit's notification and when the listener reconnects; else every EVENTS_POLL_MS. */
  async start(): Promise<void> {
    const wake = () => this.loop.wake();
    this.unlisten = await listenForClients(this.orm, this.log, EVENTS_CHANNEL, wake, wake);
    this.loop.wake();
  }

  private async tick(): Promise<number> {
    if (!(await this.round())) return this.nextDue();
    return 0;
  }

  /** When a lease another server holds on unpublished events runs out (it may have crashed). */
  private async nextDue(): Promise<number> {
    try {
      const [row] = await sql<{ ms: number | null }>(
        this.orm.em.fork(),
        `select extract(epoch from min(p.lease_until) - now()) * 1000 as ms from event_publish_cursors p
           join event_sequences q on q.client_id = p.client_id and q.last_sequence > p.cursor
          where p.target = ? and p.lease_until > now()`,
        [this.target],
      );
      return row?.ms === null || row?.ms === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(Number(row.ms), 20);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  /**
   * The first start of this stream, once per installation (event_publish_targets): every client's
   * cursor starts at its last event (EVENTS_NATS_START=end) or at 0 (beginning); cursors of the time
   * before they were kept per stream carry on. A client whose first event comes later starts at 0.
   */
  private async firstStart(): Promise<void> {
    if (this.started) return;
    await this.orm.em.fork().transactional(async (em) => {
      const [started] = await sql(
        em,
        'insert into event_publish_targets (target) values (?) on conflict do nothing returning target',
        [this.target],
      );
      if (!started) return;
      await sql(
        em,
        `insert into event_publish_cursors (target, client_id, cursor)
         select ?, client_id, cursor from event_publish_cursors where target = ?
         on conflict do nothing`,
        [this.target, LEGACY_TARGET],
      );
      await sql(
        em,
        `insert into event_publish_cursors (target, client_id, cursor)
         select ?, client_id, ${this.config.EVENTS_NATS_START === 'end' ? 'last_sequence' : '0'} from event_sequences
         on conflict do nothing`,
        [this.target],
      );
      this.log.info(
        { stream: this.config.EVENTS_NATS_STREAM, from: this.config.EVENTS_NATS_START },
        'NATS publishing starts for this stream',
      );
    });
    this.started = true;
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
      await this.firstStart();
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
    // A client that had no event when the stream first started gets its cursor with its first event,
    // at 0: all of its events come after that start.
    await sql(
      em,
      `insert into event_publish_cursors (target, client_id)
       select ?, q.client_id from event_sequences q
        where not exists (select 1 from event_publish_cursors p where p.target = ? and p.client_id = q.client_id)
       on conflict do nothing`,
      [this.target, this.target],
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
      [this.target, this.owner, LEASE_MS, this.target],
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
            [cursor, LEASE_MS, this.target, clientId, this.owner],
          );
          if (rows.length === 0) return;
        }
        if (failed !== -1) throw (results[failed] as PromiseRejectedResult).reason;
      }
      await sql(
        em,
        'update event_publish_cursors set lease_owner = null, lease_until = null where target = ? and client_id = ? and lease_owner = ?',
        [this.target, clientId, this.owner],
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
    await this.unlisten?.();
    await this.loop.close();
    await this.connection?.drain().catch(() => undefined);
  }
}
