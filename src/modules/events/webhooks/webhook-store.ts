/**
 * The webhook tables (migration 20270106150000), read and written with plain SQL: the dispatcher's
 * leases and cursors are single statements whose locking matters, and the list is a plain page.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookDeliveryDto, WebhookDto } from './webhook.schema.js';
import { sql } from './webhook-sql.js';

export interface SubscriptionRow {
  id: number;
  clientId: number;
  ownerId: number | null;
  ownerName: string | null;
  url: string;
  eventTypes: string[];
  dictionaryIds: number[];
  active: boolean;
  description: string | null;
  secret: string;
  cursor: string;
  attempt: number;
  failingSince: Date | null;
  nextAttemptAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SUBSCRIPTION_COLUMNS = `s.id, s.client_id as "clientId", s.owner_id as "ownerId",
  coalesce(nullif(u.full_name, ''), u.username) as "ownerName", s.url, s.event_types as "eventTypes",
  s.dictionary_ids as "dictionaryIds", s.active, s.description, s.secret, s.cursor::text as cursor, s.attempt,
  s.failing_since as "failingSince", s.next_attempt_at as "nextAttemptAt", s.disabled_at as "disabledAt",
  s.disabled_reason as "disabledReason", s.created_at as "createdAt", s.updated_at as "updatedAt"`;
const FROM = 'webhook_subscriptions s left join users u on u.id = s.owner_id';

const ms = (date: Date | null) => (date ? new Date(date).getTime() : null);

/** The answer's view of a row: never the secret. */
export function toDto(row: SubscriptionRow): WebhookDto {
  const failing = row.failingSince !== null && row.active;
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    dictionaryIds: row.dictionaryIds,
    active: row.active,
    description: row.description,
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    deliveredSequence: Number(row.cursor),
    failingSince: ms(row.failingSince),
    attempts: row.attempt,
    nextAttempt: failing ? ms(row.nextAttemptAt) : null,
    disabled: ms(row.disabledAt),
    disabledReason: row.disabledReason,
    created: ms(row.createdAt)!,
    changed: ms(row.updatedAt)!,
  };
}

export async function findSubscription(
  em: EntityManager,
  clientId: number,
  id: number,
): Promise<SubscriptionRow | null> {
  const [row] = await sql<SubscriptionRow>(
    em,
    `select ${SUBSCRIPTION_COLUMNS} from ${FROM} where s.id = ? and s.client_id = ?`,
    [id, clientId],
  );
  return row ?? null;
}

/**
 * A page of the client's subscriptions; `within` (dictionary administrators) keeps those whose
 * dictionaries are all among these.
 */
export async function listSubscriptions(
  em: EntityManager,
  clientId: number,
  within: number[] | null,
  page: { size: number; offset: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const filter = within ? `and cardinality(s.dictionary_ids) > 0 and s.dictionary_ids <@ ?::int[]` : '';
  const params = within ? [clientId, within] : [clientId];
  const rows = await sql<SubscriptionRow>(
    em,
    `select ${SUBSCRIPTION_COLUMNS} from ${FROM} where s.client_id = ? ${filter} order by s.id limit ? offset ?`,
    [...params, page.size, page.offset],
  );
  const [count] = await sql<{ n: string }>(
    em,
    `select count(*) as n from webhook_subscriptions s where s.client_id = ? ${filter}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

interface DeliveryRow {
  id: string;
  eventId: string;
  sequence: string;
  eventType: string;
  attempt: number;
  manual: boolean;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  createdAt: Date;
}

const DELIVERY_COLUMNS = `id::text as id, event_id as "eventId", sequence::text as sequence, event_type as "eventType",
  attempt, manual, succeeded, status_code as "statusCode", latency_ms as "latencyMs", error, created_at as "createdAt"`;

export const deliveryDto = (row: DeliveryRow): WebhookDeliveryDto => ({
  id: Number(row.id),
  eventId: row.eventId,
  sequence: Number(row.sequence),
  eventType: row.eventType,
  attempt: row.attempt,
  manual: row.manual,
  succeeded: row.succeeded,
  statusCode: row.statusCode,
  latencyMs: row.latencyMs,
  error: row.error,
  created: new Date(row.createdAt).getTime(),
});

/**
 * The delivery log of one subscription, newest first: by the row's id, which the sequence hands out in
 * insertion order, and one server at a time writes a subscription's attempts (its lease). The id is
 * named with its table: a bare `id` in ORDER BY is the output column, text here, and "999" sorts after
 * "1000".
 */
export async function listDeliveries(
  em: EntityManager,
  subscriptionId: number,
  page: { size: number; offset: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const rows = await sql<DeliveryRow>(
    em,
    `select ${DELIVERY_COLUMNS} from webhook_deliveries where subscription_id = ?
     order by webhook_deliveries.id desc limit ? offset ?`,
    [subscriptionId, page.size, page.offset],
  );
  const [count] = await sql<{ n: string }>(
    em,
    'select count(*) as n from webhook_deliveries where subscription_id = ?',
    [subscriptionId],
  );
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findDelivery(em: EntityManager, subscriptionId: number, id: number) {
  const [row] = await sql<DeliveryRow>(
    em,
    `select ${DELIVERY_COLUMNS} from webhook_deliveries where subscription_id = ? and id = ?`,
    [subscriptionId, id],
  );
  return row ?? null;
}

export interface DeliveryRecord {
  subscriptionId: number;
  clientId: number;
  eventId: string;
  sequence: string | number;
  eventType: string;
  attempt: number;
  manual: boolean;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** Writes one attempt to the log; returns it as the log shows it. */
export async function recordDelivery(em: EntityManager, record: DeliveryRecord): Promise<WebhookDeliveryDto> {
  const [row] = await sql<DeliveryRow>(
    em,
    `insert into webhook_deliveries (subscription_id, client_id, event_id, sequence, event_type, attempt, manual,
       succeeded, status_code, latency_ms, error)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${DELIVERY_COLUMNS}`,
    [
      record.subscriptionId,
      record.clientId,
      record.eventId,
      record.sequence,
      record.eventType,
      record.attempt,
      record.manual,
      record.succeeded,
      record.statusCode,
      record.latencyMs,
      record.error?.slice(0, 1000) ?? null,
    ],
  );
  return deliveryDto(row!);
}

/** Writes several attempts to the log in one statement (the dispatcher's batches). */
export async function recordDeliveries(em: EntityManager, records: readonly DeliveryRecord[]): Promise<void> {
  if (records.length === 0) return;
  await sql(
    em,
    `insert into webhook_deliveries (subscription_id, client_id, event_id, sequence, event_type, attempt, manual,
       succeeded, status_code, latency_ms, error)
     select r."subscriptionId", r."clientId", r."eventId", r.sequence, r."eventType", r.attempt, r.manual,
       r.succeeded, r."statusCode", r."latencyMs", r.error
       from jsonb_to_recordset(?::jsonb) as r("subscriptionId" int, "clientId" int, "eventId" text, sequence bigint,
         "eventType" text, attempt int, manual boolean, succeeded boolean, "statusCode" int, "latencyMs" int, error text)`,
    [JSON.stringify(records.map((record) => ({ ...record, error: record.error?.slice(0, 1000) ?? null })))],
  );
}
