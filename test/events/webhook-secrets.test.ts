/**
 * Webhook signing secrets encrypted at rest (docs/events.md, "The secret"): the stored column holds
 * neither the secret nor its key bytes, deliveries are still signed with the secret that create and
 * rotate answered (verified with the `standardwebhooks` library), a secret stored plain before the key
 * was set still signs and is encrypted when a server with the key starts, and a server with another key
 * cannot open it.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import {
  isSealed,
  openSecret,
  sealStoredSecrets,
} from '../../src/modules/events/webhooks/webhook-secret-box.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows } from '../helpers/structure.js';
import { Receiver, until, WEBHOOK_TEST_CONFIG } from './webhooks-receiver.js';

let t: TestApp;
let sysadmin: RestClient;
const receivers: Receiver[] = [];
const clients: number[] = [];

beforeAll(async () => {
  t = await buildTestApp({ ...WEBHOOK_TEST_CONFIG });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  for (const id of clients)
    await rows(t, 'update webhook_subscriptions set active = false where client_id = ?', [id]);
  await t?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  clients.push(tenant.id);
  const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
  const receiver = new Receiver();
  receivers.push(receiver);
  const url = await receiver.start();
  const created = await admin.post<{ id: number; secret: string }>('/webhooks', {
    url,
    eventTypes: ['concept.*'],
  });
  expect(created.status, created.text).toBe(201);
  return { admin, clientId: tenant.id, dictionaryId: dictionary.id, receiver, ...created.body };
}

async function emit(clientId: number, dictionaryId: number, conceptId: number): Promise<void> {
  const event: EventInput = { clientId, type: 'concept.updated', actorId: null, dictionaryId, conceptId };
  await t.orm.em.fork().transactional((tx) => recordEvents(tx, [event]));
}

const stored = async (id: number) =>
  (await rows<{ secret: string }>(t, 'select secret from webhook_subscriptions where id = ?', [id]))[0]!
    .secret;

/** Verifies the n-th request the receiver got with `secret`; returns the event's concept id. */
function verified(receiver: Receiver, index: number, secret: string): number {
  const request = receiver.received[index]!;
  const payload = new Webhook(secret).verify(request.body, request.headers) as {
    data: { conceptId: number };
  };
  return payload.data.conceptId;
}

describe('webhook secrets at rest', () => {
  it('are stored encrypted, and deliveries are signed with the secret answered at creation and rotation', async () => {
    const w = await world();
    const column = await stored(w.id);
    expect(isSealed(column)).toBe(true);
    expect(column).not.toContain(w.secret);
    expect(column).not.toContain(w.secret.slice('whsec_'.length));
    expect(openSecret(t.config, column)).toBe(w.secret);

    await emit(w.clientId, w.dictionaryId, 1);
    await until(() => w.receiver.received.length >= 1, 15_000, 'the first delivery');
    expect(verified(w.receiver, 0, w.secret)).toBe(1);

    const rotated = await w.admin.post<{ secret: string }>(`/webhooks/${w.id}/rotate-secret`, {});
    expect(rotated.status, rotated.text).toBe(200);
    const rotatedColumn = await stored(w.id);
    expect(isSealed(rotatedColumn)).toBe(true);
    expect(rotatedColumn).not.toContain(rotated.body.secret.slice('whsec_'.length));
    await emit(w.clientId, w.dictionaryId, 2);
    await until(() => w.receiver.received.length >= 2, 15_000, 'the delivery after rotation');
    expect(verified(w.receiver, 1, rotated.body.secret)).toBe(2);
    expect(() => verified(w.receiver, 1, w.secret)).toThrow();
  });

  it('a secret stored plain before the key still signs, and is encrypted when a server with the key starts', async () => {
    const w = await world();
    // As a server without WEBHOOK_SECRET_KEY stored it.
    await rows(t, 'update webhook_subscriptions set secret = ? where id = ?', [w.secret, w.id]);
    await emit(w.clientId, w.dictionaryId, 7);
    await until(() => w.receiver.received.length >= 1, 15_000, 'the delivery with the plain secret');
    expect(verified(w.receiver, 0, w.secret)).toBe(7);

    expect(await sealStoredSecrets(t.orm.em.fork(), t.config)).toBeGreaterThanOrEqual(1);
    const column = await stored(w.id);
    expect(isSealed(column)).toBe(true);
    expect(column).not.toContain(w.secret.slice('whsec_'.length));
    await emit(w.clientId, w.dictionaryId, 8);
    await until(() => w.receiver.received.length >= 2, 15_000, 'the delivery with the encrypted secret');
    expect(verified(w.receiver, 1, w.secret)).toBe(8);

    // Another key does not open it; no key at all says what is missing.
    expect(() => openSecret({ WEBHOOK_SECRET_KEY: 'another-key-another-key-another-key!' }, column)).toThrow(
      /does not open/,
    );
    expect(() => openSecret({}, column)).toThrow(/WEBHOOK_SECRET_KEY is not set/);
  });
});
