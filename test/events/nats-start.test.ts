/**
 * Where NATS publishing starts (docs/events.md, "NATS"), on the real JetStream at 127.0.0.1:4222: a
 * stream's first start publishes from the log's end (not the whole history), a restarted publisher
 * resumes after the last event it published (none again, none skipped), EVENTS_NATS_START=beginning
 * publishes the whole log, and commits wake the publisher (its fallback poll is ten minutes here).
 *
 * The streams are made here with a 100 ms duplicate window (the least JetStream takes), so a message published twice would be kept
 * twice and seen: JetStream's own deduplication cannot hide a publisher that starts over.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import { NatsPublisher, natsTarget } from '../../src/modules/events/nats/nats-publisher.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin } from '../helpers/rest.js';
import { newTenant, rows, uniqueSuffix } from '../helpers/structure.js';
import { until } from './webhooks-receiver.js';

const NATS_URL = process.env.EVENTS_NATS_URL ?? 'nats://127.0.0.1:4222';
const suffix = uniqueSuffix();
const streams: string[] = [];
/** Streams' subjects may not overlap: each stream has its own prefix, the stream name in lower case. */
const prefixOf = (stream: string) => stream.toLowerCase();

let t: TestApp;
let nc: NatsConnection;

beforeAll(async () => {
  t = await buildTestApp({ EVENTS_NATS_URL: NATS_URL });
  nc = await connect({ servers: NATS_URL });
});
afterAll(async () => {
  if (nc) {
    const manager = await jetstreamManager(nc);
    for (const stream of streams) await manager.streams.delete(stream).catch(() => undefined);
    await nc.close();
  }
  await t?.close();
});

/** A fresh stream of this test's subjects, which keeps what is published twice. */
async function newStream(name: string): Promise<string> {
  const stream = `PT_START_${name}_${suffix}`;
  streams.push(stream);
  const manager = await jetstreamManager(nc);
  await manager.streams.add({
    name: stream,
    subjects: [`${prefixOf(stream)}.>`],
    duplicate_window: 100 * 1_000_000,
  });
  return stream;
}

/** A publisher of `stream` that only commits wake (the fallback poll is ten minutes). */
async function publisherOf(stream: string, start: Config['EVENTS_NATS_START'] = 'end') {
  const config: Config = {
    ...t.config,
    EVENTS_NATS_STREAM: stream,
    EVENTS_NATS_SUBJECT_PREFIX: prefixOf(stream),
    EVENTS_NATS_START: start,
    EVENTS_POLL_MS: 600_000,
  };
  const publisher = new NatsPublisher(t.orm, config, t.app.log);
  await publisher.start();
  await until(
    async () =>
      (await rows(t, 'select 1 from event_publish_targets where target = ?', [natsTarget(stream)])).length >
      0,
    15_000,
    'the stream’s first start',
  );
  return publisher;
}

async function client(): Promise<number> {
  const { tenant } = await newTenant(t, await loginSysadmin(t.app));
  return tenant.id;
}

async function emit(clientId: number, count: number): Promise<void> {
  const events = Array.from(
    { length: count },
    (): EventInput => ({ clientId, type: 'concept.updated', actorId: null }),
  );
  await t.orm.em.fork().transactional((tx) => recordEvents(tx, events));
}

const lastSequence = async (clientId: number) =>
  Number(
    (
      await rows<{ last: string }>(
        t,
        'select last_sequence::text as last from event_sequences where client_id = ?',
        [clientId],
      )
    )[0]?.last ?? 0,
  );

/** The sequences of every message of the client in the stream, in stream order. */
async function published(stream: string, clientId: number): Promise<number[]> {
  const consumer = await jetstream(nc).consumers.get(stream, {
    // One subject (a list needs NATS 2.10).
    filter_subjects: `${prefixOf(stream)}.${clientId}.>`,
  });
  const sequences: number[] = [];
  const messages = await consumer.fetch({ max_messages: 10_000, expires: 1500 });
  for await (const message of messages) sequences.push(message.json<{ sequence: number }>().sequence);
  return sequences;
}

/** Waits until the client's messages in the stream are `expected`, then checks nothing more comes. */
async function expectPublished(stream: string, clientId: number, expected: number[]) {
  await until(
    async () => (await published(stream, clientId)).length >= expected.length,
    20_000,
    `${expected.length} messages`,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await published(stream, clientId)).toEqual(expected);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('where NATS publishing starts', () => {
  it('a stream’s first start publishes from the end of the log; a restart resumes after the last published', async () => {
    const stream = await newStream('END');
    const old = await client();
    await emit(old, 5);
    const before = await lastSequence(old);

    let publisher = await publisherOf(stream);
    try {
      const [cursor] = await rows<{ cursor: string }>(
        t,
        'select cursor::text as cursor from event_publish_cursors where target = ? and client_id = ?',
        [natsTarget(stream), old],
      );
      expect(Number(cursor?.cursor)).toBe(before);
      // A client new since the start is published from its first event.
      const fresh = await client();
      await emit(old, 3);
      await emit(fresh, 2);
      await expectPublished(stream, old, range(before + 1, before + 3));
      await expectPublished(stream, fresh, range(1, await lastSequence(fresh)));

      // Down while 4 events commit; the next publisher goes on after the last one published.
      await publisher.close();
      await emit(old, 4);
      publisher = await publisherOf(stream);
      await expectPublished(stream, old, range(before + 1, before + 7));
    } finally {
      await publisher.close();
    }
  });

  it('EVENTS_NATS_START=beginning publishes a client’s whole log', async () => {
    const stream = await newStream('BEGINNING');
    const old = await client();
    await emit(old, 4);
    const publisher = await publisherOf(stream, 'beginning');
    try {
      await expectPublished(stream, old, range(1, await lastSequence(old)));
    } finally {
      await publisher.close();
    }
  });
});
