/**
 * Webhook delivery with several servers on one database (docs/events.md, "Webhooks"): two dispatchers
 * deliver each event once per subscriber between them and in order, a lease left by a crashed server is
 * taken over when it expires, and a subscriber receives only its own client's events that its owner may
 * read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../src/db/orm.js';
import { databaseTimeouts } from '../../src/db/timeouts.js';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import { WebhookDispatcher } from '../../src/modules/events/webhooks/webhook-dispatcher.js';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';
import { Receiver, until, WEBHOOK_TEST_CONFIG } from './webhooks-receiver.js';

let t: TestApp;
let sysadmin: RestClient;
const receivers: Receiver[] = [];
const clients: number[] = [];

beforeAll(async () => {
  // Never disabling: this suite's servers also take the other webhook suite's subscriptions when the
  // two run side by side, and that suite expects its own server (with its mail catcher) to disable and mail.
  t = await buildTestApp({ ...WEBHOOK_TEST_CONFIG, WEBHOOKS_RETRY_WINDOW_MS: String(24 * 3600 * 1000) });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  for (const id of clients)
    await rows(t, 'update webhook_subscriptions set active = false where client_id = ?', [id]);
  await t?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(): Promise<{ receiver: Receiver; url: string }> {
  const created = new Receiver();
  receivers.push(created);
  return { receiver: created, url: await created.start() };
}

async function tenant() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  clients.push(tenant.id);
  return { admin, tenant };
}

async function emit(clientId: number, events: Partial<EventInput>[]): Promise<void> {
  await t.orm.em.fork().transactional((tx) =>
    recordEvents(
      tx,
      events.map((event) => ({
        clientId,
        type: 'concept.updated',
        actorId: null,
        ...event,
      })) as EventInput[],
    ),
  );
}

async function subscribe(caller: RestClient, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await caller.post<{ id: number }>('/webhooks', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('several servers', () => {
  it('deliver each event once per subscriber between them, in order', async () => {
    // A second server: its own connection pool and dispatcher, beside the test app's.
    const orm = await openOrm(t.config.DATABASE_URL!, {}, databaseTimeouts(t.config));
    const second = new WebhookDispatcher(orm, t.config, t.app.log);
    second.start();
    try {
      const { admin, tenant: client } = await tenant();
      const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
      const subscribers = await Promise.all(
        [0, 1, 2, 3].map(async () => {
          const { receiver: r, url } = await receiver();
          r.answer = () => ({ status: 200, delayMs: 2 });
          await subscribe(admin, { url });
          return r;
        }),
      );
      for (let batch = 0; batch < 4; batch++) {
        await emit(
          client.id,
          Array.from({ length: 50 }, (_, index) => ({
            dictionaryId: dictionary.id,
            conceptId: batch * 50 + index,
          })),
        );
      }
      for (const r of subscribers) {
        await until(() => r.received.length >= 200, 30_000, '200 deliveries');
      }
      // Settle: a double delivery would arrive now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const r of subscribers) {
        const sequences = r.bodies().map((body) => body.data.sequence);
        expect(sequences).toHaveLength(200);
        expect(new Set(r.received.map((request) => request.headers['webhook-id'])).size).toBe(200);
        expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      }
    } finally {
      await second.close();
      await orm.close(true);
    }
  });

  it('take over a subscription whose server crashed holding its lease, once the lease expires', async () => {
    const { admin, tenant: client } = await tenant();
    const { receiver: r, url } = await receiver();
    const { id } = await subscribe(admin, { url });
    // A server claimed the subscription and died before it delivered or let go.
    await rows(
      t,
      "update webhook_subscriptions set lease_owner = 'crashed-server', lease_until = now() + interval '1500 milliseconds' where id = ?",
      [id],
    );
    const emitted = Date.now();
    await emit(client.id, [{ conceptId: 1 }, { conceptId: 2 }]);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(r.received).toHaveLength(0);
    await until(() => r.received.length >= 2, 10_000, 'the deliveries after the lease expired');
    expect(r.received[0]!.at - emitted).toBeGreaterThanOrEqual(1000);
    expect(r.bodies().map((body) => body.data.conceptId)).toEqual([1, 2]);
    const [row] = await rows<{ lease_owner: string | null; cursor: string }>(
      t,
      'select lease_owner, cursor::text as cursor from webhook_subscriptions where id = ?',
      [id],
    );
    expect(row?.lease_owner).not.toBe('crashed-server');
  });
});

describe('what a subscriber receives', () => {
  it("only its own client's events, of what its owner may read", async () => {
    const { admin, tenant: client } = await tenant();
    const groups = await systemGroups(admin);
    const readers = await createScheme(admin, [grant(groups.ALL_USERS.id, ['DICT_READ'])]);
    const closed = await createScheme(admin, [grant((await groupWith(admin, [])).id, ['DICT_READ'])]);
    const open = await createDictionary(admin, {
      languages: [{ code: 'eng' }],
      permissionSchemeId: readers.id,
    });
    const hidden = await createDictionary(admin, {
      languages: [{ code: 'eng' }],
      permissionSchemeId: closed.id,
    });
    const secret = await admin.post<{ id: number }>('/sections', {
      name: `Secret ${uniqueSuffix()}`,
      dictionaryId: open.id,
      permissionSchemeId: closed.id,
    });
    expect(secret.status, secret.text).toBe(201);
    const reader = await loggedInUser(t, client);
    const { receiver: r, url } = await receiver();
    const { id } = await subscribe(admin, { url });
    // The subscription acts for its owner: make it a plain reader.
    await rows(t, 'update webhook_subscriptions set owner_id = ? where id = ?', [reader.id, id]);

    const stranger = await tenant();
    const strangerDictionary = await createDictionary(stranger.admin, { languages: [{ code: 'eng' }] });
    await emit(stranger.tenant.id, [{ dictionaryId: strangerDictionary.id, conceptId: 999 }]);
    const publicSection = open.sections[0]!.id;
    await emit(client.id, [
      { dictionaryId: open.id, sectionId: publicSection, conceptId: 1 },
      { dictionaryId: open.id, sectionId: secret.body.id, conceptId: 2 },
      { dictionaryId: hidden.id, sectionId: hidden.sections[0]!.id, conceptId: 3 },
      { type: 'feedback.created', dictionaryId: open.id, data: { feedbackId: 1 } },
      { type: 'dictionary.created', dictionaryId: null },
      { dictionaryId: open.id, sectionId: publicSection, conceptId: 4 },
    ]);
    await until(() => r.received.length >= 2, 10_000, 'the readable events');
    await until(
      async () => {
        const [row] = await rows<{ cursor: string; last: string }>(
          t,
          `select s.cursor::text as cursor, q.last_sequence::text as last
           from webhook_subscriptions s join event_sequences q on q.client_id = s.client_id where s.id = ?`,
          [id],
        );
        return row && row.cursor === row.last;
      },
      10_000,
      'the cursor to pass every event',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.bodies().map((body) => [body.type, body.data.conceptId])).toEqual([
      ['concept.updated', 1],
      ['concept.updated', 4],
    ]);
  });
});
