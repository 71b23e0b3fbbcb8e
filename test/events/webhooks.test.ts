/**
 * Webhooks (docs/events.md, "Webhooks") against a real receiver on loopback: subscriptions over REST,
 * tRPC and GraphQL with their permissions and tenant isolation, the secret shown once, signatures that a
 * Standard Webhooks library verifies, retries with backoff through failures and timeouts in order,
 * manual redelivery, disabling with an e-mail after persistent failure, and the address guard.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import { addressGuard } from '../../src/modules/events/webhooks/webhook-address-guard.js';
import { send } from '../../src/modules/events/webhooks/webhook-sender.js';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, loggedInUser, newTenant, rows, uniqueSuffix } from '../helpers/structure.js';
import { Receiver, until, WEBHOOK_TEST_CONFIG } from './webhooks-receiver.js';

interface WebhookBody {
  id: number;
  url: string;
  eventTypes: string[];
  dictionaryIds: number[];
  active: boolean;
  secret?: string;
  attempts: number;
  disabled: number | null;
  disabledReason: string | null;
}
interface DeliveryBody {
  id: number;
  eventId: string;
  sequence: number;
  attempt: number;
  manual: boolean;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}
interface Page<T> {
  content: T[];
  totalElements: number;
}

let t: TestApp;
let sysadmin: RestClient;
let catcher: MailCatcher;
const receivers: Receiver[] = [];
const clients: number[] = [];

beforeAll(async () => {
  catcher = new MailCatcher();
  const smtpPort = await catcher.start();
  t = await buildTestApp({ ...WEBHOOK_TEST_CONFIG, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  // Nothing of this suite is left for another suite's server to deliver.
  for (const id of clients)
    await rows(t, 'update webhook_subscriptions set active = false where client_id = ?', [id]);
  await t?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await catcher?.close();
});

async function receiver(): Promise<{ receiver: Receiver; url: string }> {
  const created = new Receiver();
  receivers.push(created);
  return { receiver: created, url: await created.start() };
}

async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  clients.push(tenant.id);
  const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
  const other = await createDictionary(admin, { languages: [{ code: 'eng' }] });
  const adminMail = `admin-${uniqueSuffix()}@example.org`;
  await rows(t, "update users set email = ? where client_id = ? and username = 'admin'", [
    adminMail,
    tenant.id,
  ]);
  return { admin, tenant, dictionary, other, adminMail, sectionId: dictionary.sections[0]!.id };
}
type World = Awaited<ReturnType<typeof world>>;

/** Commits events of the world's client, as a change would. */
async function emit(w: World, events: Partial<EventInput>[]): Promise<void> {
  const em = t.orm.em.fork();
  await em.transactional((tx) =>
    recordEvents(
      tx,
      events.map((event) => ({
        clientId: w.tenant.id,
        type: 'concept.updated',
        actorId: null,
        dictionaryId: w.dictionary.id,
        sectionId: w.sectionId,
        ...event,
      })) as EventInput[],
    ),
  );
}

async function subscribe(caller: RestClient, body: Record<string, unknown>): Promise<WebhookBody> {
  const response = await caller.post<WebhookBody>('/webhooks', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const deliveries = async (caller: RestClient, id: number) =>
  (await caller.get<Page<DeliveryBody>>(`/webhooks/${id}/deliveries?size=100`)).body.content;

describe('subscriptions', () => {
  it('show the secret once, keep it out of every later answer, and rotate it', async () => {
    const w = await world();
    const { url } = await receiver();
    const created = await subscribe(w.admin, { url, eventTypes: ['concept.*'], description: 'CAT tool' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await w.admin.get<WebhookBody>(`/webhooks/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain('secret');
    const list = await w.admin.get<Page<WebhookBody>>('/webhooks');
    expect(list.body.content.map((item) => item.id)).toEqual([created.id]);
    expect(list.text).not.toContain(created.secret!);
    const rotated = await w.admin.post<WebhookBody>(`/webhooks/${created.id}/rotate-secret`);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const changed = await w.admin.put<WebhookBody>(`/webhooks/${created.id}`, {
      eventTypes: ['term.created'],
    });
    expect(changed.body).toMatchObject({ eventTypes: ['term.created'], url });
    expect((await w.admin.put(`/webhooks/${created.id}`, { eventTypes: ['concept.typo'] })).status).toBe(400);
    expect((await w.admin.post('/webhooks', { url: 'ftp://example.org/' })).status).toBe(400);
    expect((await w.admin.delete(`/webhooks/${created.id}`)).status).toBe(204);
    expect((await w.admin.get(`/webhooks/${created.id}`)).status).toBe(404);
  });

  it('belong to client administrators, and dictionary administrators for their dictionaries only', async () => {
    const w = await world();
    const { url } = await receiver();
    const manager = await loggedInUser(t, w.tenant, { roles: [dictionaryAdminRole(w.dictionary)] });
    const reader = await loggedInUser(t, w.tenant);
    const clientWide = await subscribe(w.admin, { url });
    expect((await manager.rest.post('/webhooks', { url })).status).toBe(403);
    expect((await manager.rest.post('/webhooks', { url, dictionaryIds: [w.other.id] })).status).toBe(403);
    const own = await subscribe(manager.rest, { url, dictionaryIds: [w.dictionary.id] });
    expect((await manager.rest.get<Page<WebhookBody>>('/webhooks')).body.content.map((s) => s.id)).toEqual([
      own.id,
    ]);
    expect((await manager.rest.get(`/webhooks/${clientWide.id}`)).status).toBe(404);
    expect((await w.admin.get(`/webhooks/${own.id}`)).status).toBe(200);
    expect((await reader.rest.post('/webhooks', { url, dictionaryIds: [w.dictionary.id] })).status).toBe(403);
    expect((await reader.rest.get<Page<WebhookBody>>('/webhooks')).body.totalElements).toBe(0);
    expect((await reader.rest.get(`/webhooks/${own.id}`)).status).toBe(404);

    // Another client sees nothing of them, and may not name this client's dictionaries.
    const stranger = await world();
    expect((await stranger.admin.get(`/webhooks/${own.id}`)).status).toBe(404);
    expect((await stranger.admin.delete(`/webhooks/${clientWide.id}`)).status).toBe(404);
    expect((await stranger.admin.get(`/webhooks/${own.id}/deliveries`)).status).toBe(404);
    expect((await stranger.admin.post('/webhooks', { url, dictionaryIds: [w.dictionary.id] })).status).toBe(
      404,
    );
  });

  it('are the same over tRPC and GraphQL', async () => {
    const w = await world();
    const { url } = await receiver();
    const gql = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-auth-token': w.admin.token! },
      payload: JSON.stringify({
        query:
          'mutation($u: String!) { createWebhook(url: $u, eventTypes: ["term.*"]) { id secret eventTypes } }',
        variables: { u: url },
      }),
    });
    const created = JSON.parse(gql.body).data.createWebhook;
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/trpc/webhooks.list?input=${encodeURIComponent(JSON.stringify({}))}`,
      headers: { 'x-auth-token': w.admin.token! },
    });
    const content = JSON.parse(listed.body).result.data.content;
    expect(content.map((item: { id: number }) => item.id)).toEqual([created.id]);
    expect(listed.body).not.toContain(created.secret);
    const query = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-auth-token': w.admin.token! },
      payload: JSON.stringify({ query: '{ webhooks { content { id eventTypes active } } }' }),
    });
    expect(JSON.parse(query.body).data.webhooks.content).toEqual([
      { id: created.id, eventTypes: ['term.*'], active: true },
    ]);
  });
});

describe('delivery', () => {
  it('signs each event (Standard Webhooks) and delivers the events after its creation in order', async () => {
    const w = await world();
    await emit(w, [{ conceptId: 1 }]);
    const { receiver: r, url } = await receiver();
    const created = await subscribe(w.admin, { url, eventTypes: ['concept.*'] });
    await emit(w, [
      { conceptId: 10 },
      { type: 'comment.created', conceptId: 10 },
      { type: 'concept.created', conceptId: 11 },
      { conceptId: 10 },
    ]);
    await until(() => r.received.length >= 3, 10_000, 'three deliveries');
    const verifier = new Webhook(created.secret!);
    for (const request of r.received) {
      expect(() => verifier.verify(request.body, request.headers)).not.toThrow();
      expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    }
    const bodies = r.bodies();
    expect(bodies.map((b) => [b.type, b.data.conceptId])).toEqual([
      ['concept.updated', 10],
      ['concept.created', 11],
      ['concept.updated', 10],
    ]);
    expect(r.received.map((request) => request.headers['webhook-id'])).toEqual(bodies.map((b) => b.data.id));
    const sequences = bodies.map((b) => b.data.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    // A tampered body does not verify.
    expect(() => verifier.verify(`${r.received[0]!.body} `, r.received[0]!.headers)).toThrow();
    await until(async () => (await deliveries(w.admin, created.id)).length === 3, 5000, 'the log');
    const log = await deliveries(w.admin, created.id);
    expect(log.every((entry) => entry.succeeded && entry.statusCode === 204 && entry.attempt === 1)).toBe(
      true,
    );
  });

  it('retries through errors and timeouts with growing waits, keeping later events back, then redelivers on request', async () => {
    const w = await world();
    const { receiver: r, url } = await receiver();
    const outcomes: Array<{ status?: number; delayMs?: number }> = [
      { status: 500 },
      { delayMs: 1000 },
      { status: 503 },
    ];
    r.answer = (_request, index) => outcomes[index] ?? { status: 200 };
    const created = await subscribe(w.admin, { url });
    // The log's ids cross a power of ten (…9998, …9999, 10000, …): a log ordered by its id as text put
    // the first attempts last. The sequence only moves forward, by a margin no concurrent suite uses up.
    await rows(
      t,
      `select setval('webhook_deliveries_id_seq', (10::numeric ^ length((last_value + 1000)::text))::bigint - 3)
         from webhook_deliveries_id_seq`,
    );
    await emit(w, [{ conceptId: 20 }, { conceptId: 20 }]);
    await until(() => r.received.length >= 5, 15_000, 'the retries and the second event');
    const ids = r.received.map((request) => request.headers['webhook-id']);
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    expect(ids[4]).not.toBe(ids[0]);
    const gaps = r.received.slice(1, 4).map((request, index) => request.at - r.received[index]!.at);
    // Waits of base·2^(n-1), half of it at least (jitter); the second attempt also waited for its timeout.
    expect(gaps[0]).toBeGreaterThanOrEqual(20);
    expect(gaps[1]).toBeGreaterThanOrEqual(400 + 40);
    expect(gaps[2]).toBeGreaterThanOrEqual(80);
    await until(async () => (await deliveries(w.admin, created.id)).length === 5, 5000, 'the log');
    const log = (await deliveries(w.admin, created.id)).reverse();
    expect(log.map((entry) => [entry.attempt, entry.succeeded, entry.statusCode])).toEqual([
      [1, false, 500],
      [2, false, null],
      [3, false, 503],
      [4, true, 200],
      [1, true, 200],
    ]);
    expect(log[1]!.error).toMatch(/timed out/);
    expect(log.map((entry) => entry.id)).toEqual(log.map((entry) => entry.id).sort((a, b) => a - b));

    const redelivered = await w.admin.post<DeliveryBody>(
      `/webhooks/${created.id}/deliveries/${log[0]!.id}/redeliver`,
    );
    expect(redelivered.status, redelivered.text).toBe(200);
    expect(redelivered.body).toMatchObject({ manual: true, succeeded: true, attempt: 5, eventId: ids[0] });
    expect(r.received.at(-1)!.headers['webhook-id']).toBe(ids[0]);
    expect((await w.admin.post(`/webhooks/${created.id}/deliveries/999999999/redeliver`)).status).toBe(404);
  });

  it('disables a subscription that fails for the whole window, mails its owner, and resumes when enabled', async () => {
    const w = await world();
    const { receiver: r, url } = await receiver();
    r.answer = () => ({ status: 500 });
    const created = await subscribe(w.admin, { url });
    await emit(w, [{ conceptId: 30 }, { conceptId: 31 }]);
    const disabled = await until(
      async () => {
        const body = (await w.admin.get<WebhookBody>(`/webhooks/${created.id}`)).body;
        return body.active ? null : body;
      },
      15_000,
      'the subscription to be disabled',
    );
    expect(disabled!.disabledReason).toMatch(/HTTP 500/);
    const mail = await until(() => catcher.to(w.adminMail)[0], 10_000, 'the mail');
    expect(mail!.text).toContain(`webhook ${created.id}`);
    expect(mail!.text).not.toContain('whsec_');
    const failedAttempts = r.received.length;
    expect(new Set(r.received.map((request) => request.headers['webhook-id'])).size).toBe(1);

    r.answer = () => ({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received.length).toBe(failedAttempts);
    const enabled = await w.admin.put<WebhookBody>(`/webhooks/${created.id}`, { active: true });
    expect(enabled.body).toMatchObject({ active: true, disabled: null, attempts: 0 });
    await until(() => r.received.length >= failedAttempts + 2, 10_000, 'the resumed deliveries');
    expect(
      r
        .bodies()
        .slice(failedAttempts)
        .map((b) => b.data.conceptId),
    ).toEqual([30, 31]);
  });
});

describe('the address guard', () => {
  it('refuses private, loopback, link-local and unique-local addresses unless allowed', async () => {
    const w = await world();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://192.168.0.1/',
      'http://127.0.0.2/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://0.0.0.0/',
    ]) {
      const response = await w.admin.post<{ code: string; message: string }>('/webhooks', { url });
      expect(response.status, url).toBe(400);
      expect(response.body.message).toMatch(/private, loopback, link-local/);
    }
    const strict = addressGuard({ WEBHOOKS_ALLOW_PRIVATE: false, WEBHOOKS_ALLOWED_NETWORKS: '' });
    expect(strict.refusal('127.0.0.1')).not.toBeNull();
    expect(strict.refusal('93.184.216.34')).toBeNull();
    expect(strict.refusal('2606:4700::1111')).toBeNull();
    const open = addressGuard({ WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOKS_ALLOWED_NETWORKS: '' });
    expect(open.refusal('169.254.169.254')).toBeNull();
  });

  it('checks the address a name resolves to when delivering, and follows no redirect', async () => {
    const { receiver: r } = await receiver();
    const strict = addressGuard({ WEBHOOKS_ALLOW_PRIVATE: false, WEBHOOKS_ALLOWED_NETWORKS: '' });
    const viaName = await send(`http://localhost:${r.port}/hook`, {}, '{}', {
      guard: strict,
      timeoutMs: 2000,
    });
    expect(viaName).toMatchObject({ ok: false, statusCode: null });
    expect(viaName.error).toMatch(/^refused: /);
    expect(r.received).toHaveLength(0);

    const allowed = addressGuard({
      WEBHOOKS_ALLOW_PRIVATE: false,
      WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1, ::1',
    });
    r.answer = () => ({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    const redirected = await send(`http://localhost:${r.port}/hook`, {}, '{}', {
      guard: allowed,
      timeoutMs: 2000,
    });
    expect(redirected).toMatchObject({ ok: false, statusCode: 302 });
    expect(redirected.error).toMatch(/not followed/);
    expect(r.received).toHaveLength(1);
  });
});
