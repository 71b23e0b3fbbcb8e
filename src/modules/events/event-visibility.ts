/**
 * Which events a reader may receive (docs/events.md, Visibility): its own client's only; of a
 * dictionary, only with DICT_READ there; of a section, only when that section is readable; of a term,
 * only when its workflow entry is not in a state unpublished to the reader. Feedback events go to the
 * dictionary's administrators, an upload's to them and its uploader; a project's events to readers of all its dictionaries. Events of a
 * dictionary that is gone, or of no dictionary, go to client administrators only. A concept event's term list loses the terms the reader may not see.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { type Actor, isClientAdmin, type Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import {
  accessIn,
  accessSubject,
  type DictionaryRow,
  dictionaryRowsSql,
  isDictionaryAdmin,
  structureFrom,
} from '../access/access.service.js';
import { rolesActingIn } from '../auth/auth.service.js';
import { unseenTermIds } from '../workflow/workflow-visibility.js';
import { ADMIN_EVENT_TYPES, type EventRecord, UPLOAD_EVENT_TYPES } from './event-types.js';

/** The events among `events` the scope's actor may read, in their order; term lists trimmed. */
export async function filterVisibleEvents(
  scope: Scope,
  events: readonly EventRecord[],
): Promise<EventRecord[]> {
  const mine = events.filter((event) => event.clientId === scope.actor.clientId);
  if (mine.length === 0) return [];
  const admin = isClientAdmin(scope.actor);
  const dictionaryIds = [...new Set(mine.flatMap(dictionariesOf))];
  const rows = dictionaryIds.length
    ? await boundRows<DictionaryRow>(scope.em, dictionaryRowsSql(dictionaryIds, scope.actor.clientId))
    : [];
  const live = rows.map((row) => row.id);
  const structure = structureFrom(live, rows);
  const { permissions, readableSections, dictionaries } = accessIn(
    scope.actor,
    await accessSubject(scope),
    live,
    structure,
  );
  const readableDictionaries = new Set(
    permissions.filter((p) => admin || p.permissions.DICT_READ).map((p) => p.dictionaryId),
  );
  const administered = new Set(
    dictionaries.filter((d) => isDictionaryAdmin(scope.actor, d)).map((d) => d.id),
  );
  const passes = mine.filter((event) => {
    if (admin) return true;
    if (event.dictionaryId === null) {
      // A project's: readers of all its dictionaries.
      const spanned = dictionariesOf(event);
      return spanned.length > 0 && spanned.every((id) => readableDictionaries.has(id));
    }
    if (!live.includes(event.dictionaryId)) return false;
    const inReadableSection = event.sectionId === null || readableSections.has(event.sectionId);
    if (ADMIN_EVENT_TYPES.has(event.type)) return administered.has(event.dictionaryId) && inReadableSection;
    // An upload is on no concept yet, so in no section: its name may be meant for a section the reader
    // does not read. Readers learn of the file from the concept change that puts it on a concept.
    if (UPLOAD_EVENT_TYPES.has(event.type)) {
      return administered.has(event.dictionaryId) || event.actorId === scope.actor.userId;
    }
    if (!readableDictionaries.has(event.dictionaryId)) return false;
    return inReadableSection;
  });
  return trimUnseenTerms(scope, passes);
}

/** Drops term events of unseen entries and removes unseen terms from concept events. */
async function trimUnseenTerms(scope: Scope, events: EventRecord[]): Promise<EventRecord[]> {
  const termIds = new Set<number>();
  for (const event of events) {
    if (event.termId !== null) termIds.add(event.termId);
    for (const id of termIdsOf(event)) termIds.add(id);
  }
  if (termIds.size === 0) return events;
  const items = await boundRows<{
    dictionaryId: number;
    conceptId: number;
    languageCode: string;
    termId: number;
  }>(scope.em, {
    text: `select dictionary_id as "dictionaryId", concept_id as "conceptId", language_code as "languageCode", id as "termId"
               from terms where id = any(?::int[]) and client_id = ?`,
    params: [[...termIds], scope.actor.clientId],
  });
  const unseen = await unseenTermIds(scope, items);
  if (unseen.size === 0) return events;
  return events.flatMap((event) => {
    if (event.termId !== null && unseen.has(event.termId)) return [];
    if (!termIdsOf(event).some((id) => unseen.has(id))) return [event];
    const data = { ...event.data };
    if (Array.isArray(data.termIds)) data.termIds = data.termIds.filter((id) => !unseen.has(Number(id)));
    if (Array.isArray(data.changes)) {
      data.changes = data.changes.filter(
        (change) => !unseen.has(Number((change as { termId?: number }).termId ?? Number.NaN)),
      );
    }
    return [{ ...event, data }];
  });
}

/** The dictionary of an event, or those a project event spans. */
function dictionariesOf(event: EventRecord): number[] {
  if (event.dictionaryId !== null) return [event.dictionaryId];
  const spanned = (event.data as { dictionaryIds?: unknown }).dictionaryIds;
  return Array.isArray(spanned) ? spanned.filter((id): id is number => typeof id === 'number') : [];
}

function termIdsOf(event: EventRecord): number[] {
  const ids: number[] = [];
  const { termIds, changes } = event.data as { termIds?: unknown; changes?: unknown };
  if (Array.isArray(termIds)) for (const id of termIds) ids.push(Number(id));
  if (Array.isArray(changes)) {
    for (const change of changes) {
      const id = (change as { termId?: unknown }).termId;
      if (typeof id === 'number') ids.push(id);
    }
  }
  return ids;
}

/**
 * The actor a user would be in its home client or `clientId` (for background readers such as webhook
 * deliveries, which act for the subscription's owner without a session); null when the user may no
 * longer log in there. Roles as at login: only in the home client, system administrators everywhere.
 */
export async function actorOfUser(
  em: EntityManager,
  userId: number,
  clientId: number,
): Promise<Actor | null> {
  const [row] = await boundRows<{
    username: string;
    full_name: string | null;
    home_client_id: number;
    roles: string[];
    mapped: boolean;
  }>(em, {
    text: `select u.username, u.full_name, u.client_id as home_client_id, u.roles,
                  (u.client_id = c.id or 'SYSADMIN' = any(u.roles)
                   or exists (select 1 from user_clients uc where uc.user_id = u.id and uc.client_id = c.id)) as mapped
             from users u, clients c
            where u.id = ? and c.id = ? and u.active and not u.deleted and (u.exp_date is null or u.exp_date > now())
              and c.active and not c.deleted`,
    params: [userId, clientId],
  });
  if (!row?.mapped) return null;
  return {
    userId,
    username: row.username,
    fullName: row.full_name,
    clientId,
    homeClientId: row.home_client_id,
    roles: rolesActingIn(row.roles, row.home_client_id, clientId, false),
    sessionId: 0,
    guest: false,
    apiLogin: false,
  };
}

/** A scope for actorOfUser's actor, on a manager of the caller's. */
export const scopeOfActor = (
  em: EntityManager,
  actor: Actor,
  config: Config,
  log: FastifyBaseLogger,
): Scope => ({ em, actor, config, log });
