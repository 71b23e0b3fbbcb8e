/**
 * The table of Idempotency-Keys (docs/reliability.md, "Sending a write again"). A key is inserted by the
 * transaction of the change it guards (call-writes.ts), so it exists exactly when the change does, on
 * every instance; its answer is stored after the commit. Keys live 24 hours.
 */
import { createHash } from 'node:crypto';
import type { TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { canonicalJson } from '../../shared/canonical-json.js';

export const KEY_LIFETIME_HOURS = 24;
const LIVE = `created_at > now() - interval '${KEY_LIFETIME_HOURS} hours'`;

/** Whose key: keys are scoped per client and user, so two callers never see each other's answers. */
export interface KeyOwner {
  clientId: number;
  userId: number;
  key: string;
}

export interface StoredKey {
  fingerprint: string;
  answered: boolean;
  status: number | null;
  response: unknown;
}

/** What makes two requests "the same": the procedure and its input as sent, key order aside. */
export const fingerprintOf = (procedure: string, input: unknown): string =>
  createHash('sha256')
    .update(canonicalJson({ procedure, input: input ?? null }))
    .digest('hex');

/** The live key of this owner, if any. */
export async function findKey(em: EntityManager, owner: KeyOwner): Promise<StoredKey | undefined> {
  const [row] = await em.getConnection().execute<StoredKey[]>(
    `select fingerprint, answered, status, response from idempotency_keys
      where client_id = ? and user_id = ? and key = ? and ${LIVE}`,
    [owner.clientId, owner.userId, owner.key],
  );
  return row;
}

/**
 * Inserts the key in the committing transaction. An expired key of the same name is taken over. False
 * when a live key exists: another request with it committed first (a concurrent one waits here for
 * that request's transaction to end, on the primary key).
 */
export async function insertKey(
  { em, transaction }: TransactionEventArgs,
  owner: KeyOwner,
  fingerprint: string,
): Promise<boolean> {
  const rows = await em.getConnection().execute(
    `insert into idempotency_keys (client_id, user_id, key, fingerprint) values (?, ?, ?, ?)
       on conflict (client_id, user_id, key) do update
         set fingerprint = excluded.fingerprint, answered = false, status = null, response = null,
             created_at = now()
         where not (idempotency_keys.${LIVE})
       returning 1 as inserted`,
    [owner.clientId, owner.userId, owner.key, fingerprint],
    'all',
    transaction,
  );
  return rows.length > 0;
}

/** The answer of the request that committed the key, for its replays. */
export async function storeAnswer(
  em: EntityManager,
  owner: KeyOwner,
  status: number | null,
  response: unknown,
): Promise<void> {
  await em
    .getConnection()
    .execute(
      'update idempotency_keys set answered = true, status = ?, response = ? where client_id = ? and user_id = ? and key = ?',
      [status, JSON.stringify(response ?? null), owner.clientId, owner.userId, owner.key],
    );
}

/** Removes expired keys (the job heartbeat's round). */
export async function deleteExpiredKeys(em: EntityManager): Promise<number> {
  const rows = await em
    .getConnection()
    .execute(`delete from idempotency_keys where not (${LIVE}) returning 1`);
  return rows.length;
}
