/**
 * The ASSIGN and NOTIFY actions of a bulk transition (docs/workflows.md, Bulk transitions), per batch:
 * one UPDATE assigns every moved entry, and each recipient gets one e-mail listing the batch's entries
 * that concern them, not one per entry (a bulk approval of 10,000 entries is a few mails, not 10,000).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import type { Workflow } from './workflow.entity.js';
import { queueNotification } from './workflow-actions.js';
import type { BulkEntry } from './workflow-bulk.js';
import { stateOf, type WorkflowTransition } from './workflow-definition.js';

/** Lines of entries a mail lists; the rest is counted. */
const LISTED_PER_MAIL = 200;

/** Who an entry concerns before it moves (NOTIFY's assignee and enteredBy), and its concept number. */
export interface EntryPeople {
  assignee: number | null;
  enteredBy: number | null;
  cid: number;
}

/** Read before the move: NOTIFY names the assignee and who entered the entry in the state it leaves. */
export async function entryPeople(
  em: EntityManager,
  entries: readonly BulkEntry[],
): Promise<Map<string, EntryPeople>> {
  if (entries.length === 0) return new Map();
  const rows = await em.execute<
    { id: string; assignee_id: number | null; entered_by_id: number | null; cid: number }[]
  >(
    `select e.id::text as id, e.assignee_id, e.entered_by_id, c.cid
       from workflow_entry_states e join concepts c on c.id = e.concept_id
      where e.id = any(?::bigint[])`,
    [`{${entries.map((entry) => entry.id).join(',')}}`],
  );
  return new Map(
    rows.map((row) => [row.id, { assignee: row.assignee_id, enteredBy: row.entered_by_id, cid: row.cid }]),
  );
}

/** Runs the transition's ASSIGN and NOTIFY actions, in their order, on the entries that moved. */
export async function assignAndNotify(
  scope: Scope,
  em: EntityManager,
  workflow: Workflow,
  transition: WorkflowTransition,
  moved: readonly BulkEntry[],
  people: Map<string, EntryPeople>,
  comment: string | null,
): Promise<void> {
  if (moved.length === 0) return;
  let assignee: { userId: number | null } | null = null;
  for (const action of transition.actions) {
    if (action.type === 'ASSIGN') {
      assignee = { userId: action.userId };
      await em.execute('update workflow_entry_states set assignee_id = ? where id = any(?::bigint[])', [
        action.userId,
        `{${moved.map((entry) => entry.id).join(',')}}`,
      ]);
    } else if (action.type === 'NOTIFY') {
      const mail = (entries: readonly BulkEntry[]) =>
        mailOf(scope, workflow, transition, entries, people, comment);
      if (action.userIds.length > 0 || action.groupIds.length > 0) {
        await queueNotification(em, workflow, scope.actor.userId, {
          userIds: action.userIds,
          groupIds: action.groupIds,
          ...mail(moved),
        });
      }
      // Each assignee and author hears of their own entries, unless named above (they had the list).
      const personal = new Map<number, BulkEntry[]>();
      for (const entry of moved) {
        const of = people.get(entry.id);
        const whom = [
          action.assignee ? (assignee ? assignee.userId : (of?.assignee ?? null)) : null,
          action.enteredBy ? (of?.enteredBy ?? null) : null,
        ];
        for (const userId of new Set(whom)) {
          if (userId === null || action.userIds.includes(userId)) continue;
          personal.set(userId, [...(personal.get(userId) ?? []), entry]);
        }
      }
      for (const [userId, entries] of personal) {
        await queueNotification(em, workflow, scope.actor.userId, {
          userIds: [userId],
          groupIds: [],
          ...mail(entries),
        });
      }
    }
  }
}

function mailOf(
  scope: Scope,
  workflow: Workflow,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
  people: Map<string, EntryPeople>,
  comment: string | null,
): { subject: string; body: string } {
  const to = stateOf(workflow.definition, transition.to).name;
  const count = `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`;
  const lines = entries.slice(0, LISTED_PER_MAIL).map((entry) => {
    const cid = people.get(entry.id)?.cid ?? entry.concept_id;
    const language = entry.language_code ? `, language ${entry.language_code}` : '';
    return `- concept ${cid} (id ${entry.concept_id})${language}: ${stateOf(workflow.definition, entry.state).name} → ${to}`;
  });
  const more = entries.length - lines.length;
  return {
    subject: `${count} → ${to} ("${transition.name}", bulk)`,
    body: [
      `${scope.actor.fullName ?? scope.actor.username} fired "${transition.name}" on ${count} at once:`,
      ...lines,
      more > 0 ? `… and ${more} more` : '',
      comment ? `Comment: ${comment}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  };
}
