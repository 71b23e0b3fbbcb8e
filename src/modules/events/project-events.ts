/**
 * Events of projects, their entries, assignments and candidates (docs/events.md). A project spans
 * dictionaries, so its events name them in `data.dictionaryIds` (the dictionary column stays empty) and
 * go to readers of all of them. Written with the project's row in the caller's transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import type { EventType } from './event-types.js';

type ProjectEventType = Extract<
  EventType,
  `project.${string}` | `assignment.${string}` | `candidate.${string}`
>;

/** One event of the project `projectId` (its dictionaries read from its row), with `data`. */
export async function recordProjectEvent(
  em: EntityManager,
  scope: Scope,
  type: ProjectEventType,
  projectId: number,
  data: Record<string, unknown> = {},
): Promise<void> {
  await boundRows(em, {
    text: `insert into event_drafts (client_id, type, actor_id, data)
           select p.client_id, ?, ?, jsonb_build_object('projectId', p.id, 'dictionaryIds', to_jsonb(p.dictionary_ids)) || ?::jsonb
             from projects p where p.id = ? and p.client_id = ?
           returning id`,
    params: [type, scope.actor.userId, JSON.stringify(data), projectId, scope.actor.clientId],
  });
}
