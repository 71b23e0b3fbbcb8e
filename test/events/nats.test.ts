/**
 * Events to NATS JetStream (docs/events.md, "NATS") on the real server at 127.0.0.1:4222: every event
 * of the log published in order on <prefix>.<client>.<type> with Nats-Msg-Id = the event's id, read by
 * a real JetStream consumer; a publisher that lost its cursor publishes again and JetStream drops the
 * duplicates.
 */
import { AckPolicy, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import { NatsPublisher, natsTarget } from '../../src/modules/events/nats/nats-publisher.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin } from '../helpers/rest.js';
import { createDictionary, newTenant, rows, uniqueSuffix } from '../helpers/structure.js';
import { until } from './webhooks-receiver.js';

const NATS_URL = process.env.EVENTS_NATS_URL ?? 'nats://127.0.0.1:4222';
const suffix = uniqueSuffix();
const STREAM = `POLYTERM_TEST_${suffix}`;
const PREFIX = `pt${suffix}`;
const TARGET = natsTarget(STREAM);

let t: TestApp;
let nc: NatsConnection;
let publisher: NatsPublisher;

beforeAll(async () => {
  t = await buildTestApp({
    EVENTS_NATS_URL: NATS_URL,
    EVENTS_NATS_STREAM: STREAM,
    EVENTS_NATS_SUBJECT_PREFIX: PREFIX,
  });
  nc = await connect({ servers: NATS_URL });
  // Commits wake the publisher; the fallback poll only picks up the cursor this test moves by hand.
  publisher = new NatsPublisher(t.orm, { ...t.config, EVENTS_POLL_MS: 500 }, t.app.log);
  await publisher.start();
  // Clients created from now on are new to the stream: their events are published from the first.
  await until(
    async () => (await rows(t, 'select 1 from event_publish_targets where target = ?', [TARGET])).length > 0,
    10_000,
    'the stream to start',
  );
});
afterAll(async () => {
  await publisher?.close();
  if (nc) {
    await (await jetstreamManager(nc)).streams.delete(STREAM).catch(() => undefined);
    await nc.close();
  }
  await t?.close();
});

describe('NATS JetStream', () => {
  it('gets every event in order with its id for deduplication, and drops what a restarted publisher sends again', async () => {
    const sysadmin = await loginSysadmin(t.app);
    const { admin, tenant } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const events: EventInput[] = Array.from({ length: 30 }, (_, index) => ({
      clientId: tenant.id,
      type: index % 3 === 0 ? 'concept.created' : 'term.updated',
      actorId: null,
      dictionaryId: dictionary.id,
      conceptId: index,
    }));
    await t.orm.em.fork().transactional((tx) => recordEvents(tx, events));

    const manager = await jetstreamManager(nc);
    await until(async () => manager.streams.info(STREAM).catch(() => null), 10_000, 'the stream');
    const durable = `test_${suffix}`;
    await manager.consumers.add(STREAM, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      filter_subject: `${PREFIX}.${tenant.id}.>`,
    });
    const consumer = await jetstream(nc).consumers.get(STREAM, durable);
    const received: JsMsg[] = [];
    const messages = await consumer.consume();
    const reading = (async () => {
      for await (const message of messages) {
        // Only what this test emitted (creating the dictionary has its own event).
        if (/\.(concept|term)\.[a-z]+$/.test(message.subject)) received.push(message);
        message.ack();
      }
    })();
    await until(() => received.length >= 30, 15_000, 'the 30 messages');
    const [row] = await rows<{ last: string }>(
      t,
      'select last_sequence::text as last from event_sequences where client_id = ?',
      [tenant.id],
    );
    const last = Number(row!.last);
    const bodies = received.map((message) =>
      message.json<{ id: string; sequence: number; conceptId: number }>(),
    );
    expect(bodies.map((body) => body.conceptId)).toEqual(events.map((event) => event.conceptId));
    expect(bodies.map((body) => body.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => last - 29 + i));
    expect(received[0]!.subject).toBe(`${PREFIX}.${tenant.id}.concept.created`);
    expect(received[1]!.subject).toBe(`${PREFIX}.${tenant.id}.term.updated`);
    expect(received.map((message) => message.headers?.get('Nats-Msg-Id'))).toEqual(
      bodies.map((body) => body.id),
    );

    // A publisher that crashed after the acks but before moving its cursor publishes them again.
    await rows(t, 'update event_publish_cursors set cursor = ? where target = ? and client_id = ?', [
      last - 10,
      TARGET,
      tenant.id,
    ]);
    await until(
      async () => {
        const [cursor] = await rows<{ cursor: string }>(
          t,
          'select cursor::text as cursor from event_publish_cursors where target = ? and client_id = ?',
          [TARGET, tenant.id],
        );
        return Number(cursor?.cursor) === last;
      },
      10_000,
      'the cursor back at the end',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toHaveLength(30);
    messages.stop();
    await reading;
  });
});
