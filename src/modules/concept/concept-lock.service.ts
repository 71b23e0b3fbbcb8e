/**
 * Concept edit locks. A lock is a row in concept_locks: live while it has not expired and its session has
 * not ended, so it ends with its holder's session or after CONCEPT_LOCK_TIMEOUT. Acquiring is one
 * statement (insert, or take over a dead lock, or renew one's own), so two users racing get one winner.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import type { ConceptLockDto } from './concept.schema.js';
import { readableConcept } from './concept-access.js';

const LIVE = `l.expires_at > now() and exists (
  select 1 from sessions s where s.id = l.session_id and s.ended_at is null and s.expires_at > now())`;

interface LockRow {
  concept_id: number;
  user_id: number;
  session_id: number;
  expires_at: Date;
  username: string | null;
  full_name: string | null;
}

/** The live locks of some concepts, by concept id. */
export async function liveLocks(em: EntityManager, conceptIds: readonly number[]) {
  const locks = new Map<number, LockRow>();
  if (conceptIds.length === 0) return locks;
  const rows = await em.execute<LockRow[]>(
    `select l.concept_id, l.user_id, l.session_id, l.expires_at, u.username, u.full_name
       from concept_locks l left join users u on u.id = l.user_id
      where l.concept_id in (?) and ${LIVE}`,
    [[...conceptIds]],
  );
  for (const row of rows) locks.set(row.concept_id, row);
  return locks;
}

export function lockDto(scope: Scope, row: LockRow | undefined): ConceptLockDto | null {
  if (!row) return null;
  return {
    userId: row.user_id,
    name: row.username,
    fullName: row.full_name,
    mine: row.session_id === scope.actor.sessionId,
    expirationTime: new Date(row.expires_at).getTime(),
  };
}

/**
 * Refuses a change while another session holds a live lock (423-like, answered as 409 CONFLICT so
 * clients retry after the holder is done). Called inside the writer's transaction.
 */
export async function assertNotLockedByOther(scope: Scope, em: EntityManager, conceptId: number) {
  const lock = (await liveLocks(em, [conceptId])).get(conceptId);
  if (lock && lock.session_id !== scope.actor.sessionId) {
    const who = lock.full_name || lock.username || `user ${lock.user_id}`;
    throw new AppError(
      'CONFLICT',
      `Concept ${conceptId} is locked by ${who} until ${new Date(lock.expires_at).toISOString()}; try again after they release it`,
    );
  }
}

/** The concept, when the caller has some permission to change it (else 403; unreadable: 404). */
async function lockableConcept(scope: Scope, conceptId: number) {
  const { concept, access } = await readableConcept(scope, conceptId);
  const mayEdit =
    access.concept.CONCEPT_UPDATE ||
    access.concept.CONCEPT_EDIT_FIELDS ||
    access.concept.CONCEPT_DELETE ||
    access.concept.TERM_CREATE ||
    access.term.TERM_UPDATE ||
    access.term.TERM_DELETE;
  if (!mayEdit) throw new AppError('FORBIDDEN', 'You may not edit this concept, so you cannot lock it');
  return concept;
}

/**
 * Sets (or renews) the caller's lock; true when the caller's session holds it afterwards, false when
 * another live session holds it. Needs a permission to change the concept.
 */
export async function acquireLock(scope: Scope, conceptId: number): Promise<boolean> {
  const concept = await lockableConcept(scope, conceptId);
  const seconds = scope.config.CONCEPT_LOCK_TIMEOUT;
  const rows = await scope.em.execute<{ session_id: number }[]>(
    `insert into concept_locks as l (concept_id, client_id, user_id, session_id, acquired_at, expires_at)
       values (?, ?, ?, ?, now(), now() + make_interval(secs => ?))
     on conflict (concept_id) do update set
       user_id = excluded.user_id, session_id = excluded.session_id,
       acquired_at = case when l.session_id = excluded.session_id then l.acquired_at else excluded.acquired_at end,
       expires_at = excluded.expires_at
     where l.session_id = excluded.session_id or not (${LIVE})
     returning l.session_id`,
    [concept.id, concept.client.id, scope.actor.userId, scope.actor.sessionId, seconds],
  );
  return rows.length === 1;
}

/**
 * Removes the caller's lock; true when the concept is unlocked afterwards. Administrators of the
 * dictionary may also break another user's lock; others get false while someone else holds it.
 */
export async function releaseLock(scope: Scope, conceptId: number): Promise<boolean> {
  const { concept } = await readableConcept(scope, conceptId);
  const mayBreak = isClientAdmin(scope.actor);
  await scope.em.execute(
    `delete from concept_locks l where l.concept_id = ? and (l.session_id = ? or ? or not (${LIVE}))`,
    [concept.id, scope.actor.sessionId, mayBreak],
  );
  return !(await liveLocks(scope.em, [concept.id])).has(concept.id);
}

/**
 * Moves a lock the caller's own user holds in another session (another tab or browser) to the caller's
 * session, or sets it when the concept is unlocked: true when the caller's session holds it afterwards,
 * false when another user's live lock stands. The other session's unsaved edits then meet a 409.
 */
export async function takeOverLock(scope: Scope, conceptId: number): Promise<boolean> {
  const concept = await lockableConcept(scope, conceptId);
  const rows = await scope.em.execute<{ session_id: number }[]>(
    `insert into concept_locks as l (concept_id, client_id, user_id, session_id, acquired_at, expires_at)
       values (?, ?, ?, ?, now(), now() + make_interval(secs => ?))
     on conflict (concept_id) do update set
       user_id = excluded.user_id, session_id = excluded.session_id,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
     where l.user_id = excluded.user_id or not (${LIVE})
     returning l.session_id`,
    [
      concept.id,
      concept.client.id,
      scope.actor.userId,
      scope.actor.sessionId,
      scope.config.CONCEPT_LOCK_TIMEOUT,
    ],
  );
  return rows.length === 1;
}
