/**
 * Event readers wake on the commit's notification (docs/events.md, "Waking up"): with the fallback poll
 * set to ten minutes, a live stream and a webhook still receive an event within seconds, which only the
 * notification can do; and after the shared listener's connection is terminated, the events committed
 * meanwhile and after arrive too (the reconnect makes every reader look once, and notifications flow
 * again). Every wait here is bounded well below the fallback, so a pass cannot come from the poll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { TestApp } from '../helpers/app.js';
import type { RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows } from '../helpers/structure.js';
import { Receiver, until, WEBHOOK_TEST_CONFIG } from './webhooks-receiver.js';

const FALLBACK_MS = 600_000;
/** Far below the fallback: what arrives within it was woken by a notification. */
const PROMPT_MS = 20_000;

let s: Server;
let t: TestApp;
const receivers: Receiver[] = [];
const clients: number[] = [];

beforeAll(async () => {
  s = await startServer({ ...WEBHOOK_TEST_CONFIG, EVENTS_POLL_MS: String(FALLBACK_MS) });
  t = s.t;
});
afterAll(async () => {
  for (const id of clients)
    await rows(t, 'update webhook_subscriptions set active = false where client_id = ?', [id]);
  await s?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function world() {
  const { admin, tenant } = await newTenant(t, s.sysadmin);
  clients.push(tenant.id);
  const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
  const receiver = new Receiver();
  receivers.push(receiver);
  const url = await receiver.start();
  const created = await admin.post<{ id: number }>('/webhooks', { url, eventTypes: ['concept.*'] });
  expect(created.status, created.text).toBe(201);
  return { admin, clientId: tenant.id, dictionaryId: dictionary.id, receiver };
}

async function emit(clientId: number, dictionaryId: number, conceptIds: number[]): Promise<void> {
  await t.orm.em.fork().transactional((tx) =>
    recordEvents(
      tx,
      conceptIds.map(
        (conceptId): EventInput => ({
          clientId,
          type: 'concept.updated',
          actorId: null,
          dictionaryId,
          conceptId,
        }),
      ),
    ),
  );
}

/** An open event stream, and the concept ids of the events it has received so far. */
async function openStream(admin: RestClient) {
  const response = await fetch(`${s.base}/api/v4/events/stream?type=concept.*`, {
    headers: { 'x-auth-token': admin.token ?? '', accept: 'text/event-stream' },
  });
  expect(response.status, response.status === 200 ? '' : await response.text()).toBe(200);
  const seen: number[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const reading = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (data) seen.push((JSON.parse(data.slice(6)) as { conceptId: number }).conceptId);
      }
    }
  })();
  return {
    seen,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await reading;
    },
  };
}

const webhookConcepts = (receiver: Receiver) =>
  receiver.bodies().map((body) => body.data.conceptId as number);

describe('waking on notifications', () => {
  it('a stream and a webhook get an event within seconds although the fallback poll is ten minutes', async () => {
    const w = await world();
    const stream = await openStream(w.admin);
    try {
      // The stream is set up once its first heartbeat went out; give the server a moment to wait.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await emit(w.clientId, w.dictionaryId, [101, 102]);
      await until(() => stream.seen.length >= 2, PROMPT_MS, 'the stream’s events');
      await until(() => w.receiver.received.length >= 2, PROMPT_MS, 'the webhook deliveries');
      expect(stream.seen).toEqual([101, 102]);
      expect(webhookConcepts(w.receiver)).toEqual([101, 102]);

      // A later commit wakes them again (the stream waits anew after each read).
      await emit(w.clientId, w.dictionaryId, [103]);
      await until(() => stream.seen.length >= 3, PROMPT_MS, 'the stream’s next event');
      await until(() => w.receiver.received.length >= 3, PROMPT_MS, 'the next delivery');
      expect(stream.seen).toEqual([101, 102, 103]);
      expect(webhookConcepts(w.receiver)).toEqual([101, 102, 103]);
    } finally {
      await stream.close();
    }
  });

  it('after the listener’s connection is terminated, what committed meanwhile and after still arrives', async () => {
    const w = await world();
    const stream = await openStream(w.admin);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [terminated] = await rows<{ n: string }>(
        t,
        `select count(pg_terminate_backend(pid))::text as n from pg_stat_activity
          where application_name = 'polyterm-listener'`,
      );
      expect(Number(terminated!.n)).toBeGreaterThan(0);
      // Committed while the listener may still be reconnecting: its notification can be lost; the
      // reconnect's look finds it.
      await emit(w.clientId, w.dictionaryId, [201]);
      await until(() => stream.seen.includes(201), PROMPT_MS, 'the stream’s event after the drop');
      await until(() => w.receiver.received.length >= 1, PROMPT_MS, 'the delivery after the drop');

      // Listening again: later commits wake through notifications, as before.
      await until(
        async () =>
          (
            await rows(
              t,
              "select 1 from pg_stat_activity where application_name = 'polyterm-listener' and query ilike 'listen%'",
            )
          ).length > 0,
        PROMPT_MS,
        'the listener back',
      );
      await emit(w.clientId, w.dictionaryId, [202]);
      await until(() => stream.seen.includes(202), PROMPT_MS, 'the stream’s next event');
      await until(() => w.receiver.received.length >= 2, PROMPT_MS, 'the next delivery');
      expect(stream.seen).toEqual([201, 202]);
      expect(webhookConcepts(w.receiver)).toEqual([201, 202]);
    } finally {
      await stream.close();
    }
  });
});
