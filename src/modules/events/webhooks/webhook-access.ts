/**
 * Who manages which webhook subscriptions: client administrators all of their client's; dictionary
 * administrators (DICTIONARY_ADMIN@<dictionary>, or a scheme granting DICT_READ with DICT_UPDATE)
 * those whose dictionaries they all administer. Anyone else, and another client's subscription: 404.
 */

import { AppError, notFound } from '../../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../../shared/scope.js';
import { dictionaryPermissions } from '../../access/access.service.js';
import { sql } from './webhook-sql.js';
import { findSubscription, type SubscriptionRow } from './webhook-store.js';

export interface WebhookReach {
  /** Client administrator: every subscription of the client. */
  all: boolean;
  /** The live dictionaries the caller administers (all of them for client administrators). */
  administered: number[];
  /** The live dictionaries the caller may read (others are answered 404, as if absent). */
  readable: number[];
}

export async function webhookReach(scope: Scope): Promise<WebhookReach> {
  const rows = await sql<{ id: number }>(
    scope.em,
    'select id from dictionaries where client_id = ? and not deleted order by id',
    [scope.actor.clientId],
  );
  const live = rows.map((row) => row.id);
  if (isClientAdmin(scope.actor)) return { all: true, administered: live, readable: live };
  if (scope.actor.guest || live.length === 0) return { all: false, administered: [], readable: [] };
  const permissions = await dictionaryPermissions(scope, live);
  const readable = permissions.filter(({ permissions: p }) => p.DICT_READ);
  const administered = readable.filter(({ permissions: p }) => p.DICT_UPDATE).map((p) => p.dictionaryId);
  return { all: false, administered, readable: readable.map((p) => p.dictionaryId) };
}

export const reachesSubscription = (reach: WebhookReach, dictionaryIds: readonly number[]): boolean =>
  reach.all || (dictionaryIds.length > 0 && dictionaryIds.every((id) => reach.administered.includes(id)));

/** A subscription of the acting client the caller manages; 404 otherwise. */
export async function managedSubscription(scope: Scope, id: number): Promise<SubscriptionRow> {
  const row = await findSubscription(scope.em, scope.actor.clientId, id);
  if (!row) throw notFound('Webhook', id);
  if (!reachesSubscription(await webhookReach(scope), row.dictionaryIds)) throw notFound('Webhook', id);
  return row;
}

/**
 * The dictionaries a subscription the caller writes may name: of the client (else 404), administered
 * by the caller; none named (all dictionaries) is for client administrators only.
 */
export async function assertDictionaries(scope: Scope, dictionaryIds: readonly number[]): Promise<void> {
  const reach = await webhookReach(scope);
  const unknown = dictionaryIds.find((id) => !reach.administered.includes(id));
  if (reach.all) {
    if (unknown !== undefined) throw notFound('Dictionary', unknown);
    return;
  }
  if (reach.administered.length === 0)
    throw new AppError(
      'FORBIDDEN',
      'Only client administrators and dictionary administrators manage webhooks',
    );
  if (dictionaryIds.length === 0)
    throw new AppError(
      'FORBIDDEN',
      'A webhook for all dictionaries is for client administrators; name the dictionaries you administer',
    );
  if (unknown !== undefined) {
    if (!reach.readable.includes(unknown)) throw notFound('Dictionary', unknown);
    throw new AppError('FORBIDDEN', `You do not administer dictionary ${unknown}`);
  }
}
