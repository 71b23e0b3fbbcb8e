/**
 * Events of dictionary structure (docs/events.md): sections, views, domains and imported definitions
 * (dictionary.structure.changed, from markStructureChanged), and dictionaries themselves.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import type { StructureChange } from '../dictionary/dictionary-access.js';

/** A dictionary.structure.changed event, in the transaction of `em`. */
export async function recordStructureEvent(
  em: EntityManager,
  dictionaryId: number,
  change: StructureChange,
): Promise<void> {
  await boundRows(em, {
    text: `insert into event_drafts (client_id, type, dictionary_id, actor_id, data)
           select client_id, 'dictionary.structure.changed', id, ?, ?::jsonb from dictionaries where id = ?
           returning id`,
    params: [
      change.actorId,
      JSON.stringify({ subject: change.subject, action: change.action, id: change.id ?? null }),
      dictionaryId,
    ],
  });
}

/** A dictionary.created, .updated or .deleted event, in the transaction of `em`. */
export async function recordDictionaryEvent(
  em: EntityManager,
  scope: Scope,
  type: 'dictionary.created' | 'dictionary.updated' | 'dictionary.deleted',
  dictionaryId: number,
): Promise<void> {
  await boundRows(em, {
    text: `insert into event_drafts (client_id, type, dictionary_id, actor_id, data)
           select client_id, ?, id, ?, jsonb_build_object('name', name, 'oid', oid) from dictionaries where id = ?
           returning id`,
    params: [type, scope.actor.userId, dictionaryId],
  });
}
