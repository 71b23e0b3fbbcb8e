/**
 * What a transition does besides moving the entry: set a field, assign the entry, notify people by
 * e-mail (queued in workflow_notifications, sent by workflow-mail.ts at once or as a digest).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import type { Concept } from '../concept/concept.entity.js';
import type { Workflow } from './workflow.entity.js';
import { stateOf, type WorkflowTransition } from './workflow-definition.js';
import type { EntryRow } from './workflow-entry.service.js';

/** Runs the actions in order; answers whether a SET_FIELD changed the concept or its terms. */
export async function applyActions(
  scope: Scope,
  em: EntityManager,
  workflow: Workflow,
  concept: Concept,
  row: EntryRow,
  transition: WorkflowTransition,
  comment: string | null,
): Promise<boolean> {
  let changed = false;
  let assignee = row.assignee_id;
  for (const action of transition.actions) {
    if (action.type === 'ASSIGN') {
      assignee = action.userId;
      await em.execute('update workflow_entry_states set assignee_id = ? where id = ?', [assignee, row.id]);
    } else if (action.type === 'SET_FIELD') {
      changed = true;
      const value = action.values.length ? JSON.stringify({ [action.fieldOid]: action.values }) : null;
      const update = (table: string) =>
        value
          ? `update ${table} set field_map = field_map || ?::jsonb where `
          : `update ${table} set field_map = field_map - ? where `;
      const param = value ?? action.fieldOid;
      if (action.level === 'CONCEPT') await em.execute(`${update('concepts')}id = ?`, [param, concept.id]);
      else if (row.term_id) await em.execute(`${update('terms')}id = ?`, [param, row.term_id]);
      else {
        await em.execute(
          `${update('terms')}concept_id = ? and not deleted and (? = '' or language_code = ?)`,
          [param, concept.id, row.language_code, row.language_code],
        );
      }
    } else {
      const recipients = new Set<number>(action.userIds);
      if (action.assignee && assignee) recipients.add(assignee);
      if (action.enteredBy && row.entered_by_id) recipients.add(row.entered_by_id);
      const to = stateOf(workflow.definition, transition.to);
      const subject = `Concept ${concept.cid}${row.language_code ? ` (${row.language_code})` : ''}: ${stateOf(workflow.definition, row.state).name} → ${to.name}`;
      const body = [
        `${scope.actor.fullName ?? scope.actor.username} fired "${transition.name}" on concept ${concept.cid} (id ${concept.id})${row.language_code ? `, language ${row.language_code}` : ''}.`,
        comment ? `Comment: ${comment}` : '',
      ]
        .filter(Boolean)
        .join('\n');
      await queueNotification(em, workflow, scope.actor.userId, {
        userIds: [...recipients],
        groupIds: action.groupIds,
        subject,
        body,
      });
    }
  }
  return changed;
}

/**
 * Queues one e-mail per recipient with an address, of the workflow's client: the users named and the
 * members of the groups, the firing user left out. Group members are resolved when queued: the mail goes
 * to who was in the group at the time.
 */
export async function queueNotification(
  em: EntityManager,
  workflow: Workflow,
  actorUserId: number | null,
  mail: { userIds: readonly number[]; groupIds: readonly number[]; subject: string; body: string },
): Promise<void> {
  const clientId = workflow.client.id;
  await em.execute(
    `insert into workflow_notifications (client_id, user_id, dictionary_id, subject, body)
     select ?, u.id, ?, ?, ? from users u
      where u.email is not null and not u.deleted and u.id <> ?
        and (u.client_id = ? or u.id in (select uc.user_id from user_clients uc where uc.client_id = ?))
        and (u.id = any(?::int[]) or u.id in (select m.user_id from group_members m join groups g on g.id = m.group_id
                                              where g.client_id = ? and g.id = any(?::int[])))`,
    [
      clientId,
      workflow.dictionary.id,
      mail.subject,
      mail.body,
      actorUserId ?? 0,
      clientId,
      clientId,
      `{${mail.userIds.join(',')}}`,
      clientId,
      `{${mail.groupIds.join(',')}}`,
    ],
  );
}
