/**
 * Webhook subscriptions (docs/events.md, "Webhooks"): managed by client and dictionary administrators,
 * the signing secret answered only when it is made (creation, rotation), the delivery log, manual
 * redelivery. Delivery itself is the dispatcher's (webhook-dispatcher.ts).
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { notify } from '../../../db/pg-listener.js';
import { AppError, notFound } from '../../../shared/errors.js';
import { pageRequest, toPage } from '../../../shared/paging.js';
import type { Scope } from '../../../shared/scope.js';
import { WEBHOOKS_CHANNEL } from '../event-wakeups.js';
import type {
  WebhookCreateInput,
  WebhookDeliveryListInput,
  WebhookDto,
  WebhookListInput,
  WebhookRedeliverInput,
  WebhookUpdateInput,
  WebhookWithSecretDto,
} from './webhook.schema.js';
import { assertDictionaries, managedSubscription, webhookReach } from './webhook-access.js';
import { addressGuard } from './webhook-address-guard.js';
import { redeliverEvent } from './webhook-delivery.js';
import { matchedTypes } from './webhook-event-types.js';
import { openSecret, sealSecret } from './webhook-secret-box.js';
import { literalRefusal } from './webhook-sender.js';
import { newWebhookSecret } from './webhook-signing.js';
import { sql } from './webhook-sql.js';
import {
  deliveryDto,
  findDelivery,
  findSubscription,
  listDeliveries,
  listSubscriptions,
  type SubscriptionRow,
  toDto,
} from './webhook-store.js';

/** Refuses a URL whose host is written as an address the server would not deliver to (names are checked at delivery). */
function assertDeliverable(scope: Scope, url: string): void {
  const refused = literalRefusal(new URL(url), addressGuard(scope.config));
  if (refused) throw new AppError('BAD_REQUEST', `url: ${refused}`);
}

/** A pattern that takes no known type is refused: a typo would deliver nothing, silently. */
function typesOf(patterns: readonly string[]): void {
  const { unknown } = matchedTypes(patterns);
  if (unknown) throw new AppError('BAD_REQUEST', `eventTypes: ${unknown} is no event type (docs/events.md)`);
}

/** Tells every server's dispatcher, at commit, to read the subscriptions again (and deliver). */
const subscriptionsChanged = (em: EntityManager, clientId: number) =>
  notify(em, WEBHOOKS_CHANNEL, String(clientId));

const withSecret = (scope: Scope, row: SubscriptionRow): WebhookWithSecretDto => ({
  ...toDto(row),
  secret: openSecret(scope.config, row.secret),
});

async function reload(scope: Scope, id: number): Promise<SubscriptionRow> {
  const row = await findSubscription(scope.em, scope.actor.clientId, id);
  if (!row) throw notFound('Webhook', id);
  return row;
}

/** The subscriptions the caller manages, by id. */
export async function listWebhooks(scope: Scope, input: WebhookListInput) {
  const reach = await webhookReach(scope);
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const { rows, total } = await listSubscriptions(
    scope.em,
    scope.actor.clientId,
    reach.all ? null : reach.administered,
    request,
  );
  return toPage(rows.map(toDto), total, request, 'id,ASC');
}

export async function getWebhook(scope: Scope, id: number): Promise<WebhookDto> {
  return toDto(await managedSubscription(scope, id));
}

/** A new subscription, owned by the caller; it receives the events committed from now on. */
export async function createWebhook(scope: Scope, input: WebhookCreateInput): Promise<WebhookWithSecretDto> {
  await assertDictionaries(scope, input.dictionaryIds);
  assertDeliverable(scope, input.url);
  typesOf(input.eventTypes);
  const id = await scope.em.transactional(async (em) => {
    const [row] = await sql<{ id: number }>(
      em,
      `insert into webhook_subscriptions (client_id, owner_id, url, event_types, dictionary_ids, active, description,
         secret, cursor)
       values (?, ?, ?, ?::text[], ?::int[], ?, ?, ?,
         coalesce((select last_sequence from event_sequences where client_id = ?), 0))
       returning id`,
      [
        scope.actor.clientId,
        scope.actor.userId,
        input.url,
        input.eventTypes,
        input.dictionaryIds,
        input.active,
        input.description ?? null,
        sealSecret(scope.config, newWebhookSecret()),
        scope.actor.clientId,
      ],
    );
    await subscriptionsChanged(em, scope.actor.clientId);
    return row!.id;
  });
  return withSecret(scope, await reload(scope, id));
}

/** Changes what was given; enabling a disabled subscription resumes delivery where it stopped. */
export async function updateWebhook(scope: Scope, input: WebhookUpdateInput): Promise<WebhookDto> {
  await scope.em.transactional(async (em) => {
    const row = await managedSubscription({ ...scope, em }, input.id);
    if (input.dictionaryIds) await assertDictionaries({ ...scope, em }, input.dictionaryIds);
    if (input.url) assertDeliverable(scope, input.url);
    const enabling = input.active === true && !row.active;
    const patterns = input.eventTypes ?? row.eventTypes;
    typesOf(patterns);
    await sql(
      em,
      `update webhook_subscriptions set url = ?, event_types = ?::text[], dictionary_ids = ?::int[], active = ?,
         description = ?, updated_at = now()
         ${enabling ? ', attempt = 0, failing_since = null, next_attempt_at = now(), disabled_at = null, disabled_reason = null' : ''}
       where id = ?`,
      [
        input.url ?? row.url,
        patterns,
        input.dictionaryIds ?? row.dictionaryIds,
        input.active ?? row.active,
        input.description === undefined ? row.description : input.description,
        row.id,
      ],
    );
    await subscriptionsChanged(em, scope.actor.clientId);
  });
  return toDto(await reload(scope, input.id));
}

/** A new signing secret, answered once; the old one stops signing at once. */
export async function rotateWebhookSecret(scope: Scope, id: number): Promise<WebhookWithSecretDto> {
  await scope.em.transactional(async (em) => {
    const row = await managedSubscription({ ...scope, em }, id);
    await sql(em, 'update webhook_subscriptions set secret = ?, updated_at = now() where id = ?', [
      sealSecret(scope.config, newWebhookSecret()),
      row.id,
    ]);
  });
  return withSecret(scope, await reload(scope, id));
}

export async function deleteWebhook(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional(async (em) => {
    const row = await managedSubscription({ ...scope, em }, id);
    await sql(em, 'delete from webhook_subscriptions where id = ?', [row.id]);
    await subscriptionsChanged(em, scope.actor.clientId);
  });
}

/** The delivery log of a subscription, newest first. */
export async function listWebhookDeliveries(scope: Scope, input: WebhookDeliveryListInput) {
  const row = await managedSubscription(scope, input.id);
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const { rows, total } = await listDeliveries(scope.em, row.id, request);
  return toPage(rows.map(deliveryDto), total, request, 'id,DESC');
}

/** Sends a logged delivery's event again now, whatever became of it, and logs the attempt. */
export async function redeliverWebhook(scope: Scope, input: WebhookRedeliverInput) {
  const row = await managedSubscription(scope, input.id);
  const delivery = await findDelivery(scope.em, row.id, input.deliveryId);
  if (!delivery) throw notFound('Webhook delivery', input.deliveryId);
  const result = await redeliverEvent(scope.em, scope.config, scope.log, row, Number(delivery.sequence));
  if (!result) throw notFound('Event', Number(delivery.sequence));
  return result;
}
