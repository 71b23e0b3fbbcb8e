/**
 * One delivery of one event to one subscription: the Standard Webhooks message (docs/events.md,
 * "Webhooks"), signed, sent through the address guard, logged. The dispatcher calls it for the head of
 * a subscription's queue; manual redelivery for a logged event, out of turn.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import { readEvents } from '../event-log.js';
import type { EventRecord } from '../event-types.js';
import { actorOfUser, filterVisibleEvents, scopeOfActor } from '../event-visibility.js';
import type { WebhookDeliveryDto } from './webhook.schema.js';
import { type AddressGuard, addressGuard } from './webhook-address-guard.js';
import { openSecret } from './webhook-secret-box.js';
import { type Agents, type SendResult, send } from './webhook-sender.js';
import { signedHeaders } from './webhook-signing.js';
import { sql } from './webhook-sql.js';
import { type DeliveryRecord, recordDelivery, type SubscriptionRow } from './webhook-store.js';

/** The event's id in webhook-id and Nats-Msg-Id: its client and sequence, the same on every attempt. */
export const eventId = (event: Pick<EventRecord, 'clientId' | 'sequence'>): string =>
  `${event.clientId}-${event.sequence}`;

/** The body: Standard Webhooks' type, timestamp and data, data being the event as the feed shows it. */
export const webhookBody = (event: EventRecord): string =>
  JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: { id: eventId(event), ...event } });

/** Signs and sends one attempt; the record for the log (the caller writes it, alone or in a batch). */
export async function attemptOnce(
  config: Config,
  guard: AddressGuard,
  subscription: Pick<SubscriptionRow, 'id' | 'clientId' | 'url' | 'secret'>,
  event: EventRecord,
  attempt: number,
  manual: boolean,
  agents?: Agents,
): Promise<{ result: SendResult; record: DeliveryRecord }> {
  const body = webhookBody(event);
  const id = eventId(event);
  const secret = openSecret(config, subscription.secret);
  const result = await send(subscription.url, signedHeaders(secret, id, body), body, {
    guard,
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    ...(agents ? { agents } : {}),
  });
  const record: DeliveryRecord = {
    subscriptionId: subscription.id,
    clientId: subscription.clientId,
    eventId: id,
    sequence: event.sequence,
    eventType: event.type,
    attempt,
    manual,
    succeeded: result.ok,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
  };
  return { result, record };
}

/** The events among these the subscription's owner may read now; null when the owner can no longer log in. */
export async function visibleToOwner(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  subscription: Pick<SubscriptionRow, 'ownerId' | 'clientId'>,
  events: EventRecord[],
): Promise<EventRecord[] | null> {
  if (subscription.ownerId === null) return null;
  const actor = await actorOfUser(em, subscription.ownerId, subscription.clientId);
  if (!actor) return null;
  return filterVisibleEvents(scopeOfActor(em, actor, config, log), events);
}

/** Sends a logged event again now (if its owner may still read it); null when it is no longer there. */
export async function redeliverEvent(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  subscription: SubscriptionRow,
  sequence: number,
): Promise<WebhookDeliveryDto | null> {
  const [event] = await readEvents(em, subscription.clientId, sequence - 1, 1);
  if (!event || event.sequence !== sequence) return null;
  const visible = await visibleToOwner(em, config, log, subscription, [event]);
  if (!visible?.length) return null;
  const [previous] = await sql<{ n: number }>(
    em,
    'select coalesce(max(attempt), 0) as n from webhook_deliveries where subscription_id = ? and sequence = ?',
    [subscription.id, sequence],
  );
  const { record } = await attemptOnce(
    config,
    addressGuard(config),
    subscription,
    visible[0]!,
    Number(previous?.n ?? 0) + 1,
    true,
  );
  return recordDelivery(em, record);
}
