/**
 * What a bulk transition does besides moving entries (docs/workflows.md, Bulk transitions), set-based
 * per batch like the moves: the caller's vote on every entry of a voted transition (the entries whose
 * votes then decide move, the others wait), and SET_FIELD actions on the moved entries' concepts or
 * terms, with the history items of the moves showing the changes (old and new values) and, in their
 * snapshots, the values after the change.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { sameJson } from '../../shared/canonical-json.js';
import { recordVoteEvents } from '../events/workflow-events.js';
import type { HistoryChange } from '../history/history.types.js';
import type { Workflow } from './workflow.entity.js';
import type { BulkEntry } from './workflow-bulk.js';
import type { SkippedEntry } from './workflow-bulk.schema.js';
import type { WorkflowTransition } from './workflow-definition.js';

export const skippedEntry = (entry: BulkEntry, reason: string): SkippedEntry => ({
  conceptId: entry.concept_id,
  languageCode: entry.language_code || null,
  termId: entry.term_id || null,
  reason,
});

const idArray = (entries: readonly BulkEntry[]) => `{${entries.map((entry) => entry.id).join(',')}}`;

/**
 * Casts the caller's vote for the transition on every entry (one insert); answers the entries whose
 * votes now decide (they move), those still waiting, and those the caller had voted on already.
 */
export async function castVotes(
  em: EntityManager,
  workflow: Workflow,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
  vote: { userId: number | null; comment: string | null },
): Promise<{ decided: BulkEntry[]; waiting: BulkEntry[]; repeated: BulkEntry[] }> {
  if (entries.length === 0) return { decided: [], waiting: [], repeated: [] };
  const cast = await em.execute<{ id: string }[]>(
    `insert into workflow_votes (client_id, entry_state_id, transition, user_id, comment)
     select ?, e, ?, ?, ? from unnest(?::bigint[]) e
     on conflict do nothing returning entry_state_id::text as id`,
    [workflow.client.id, transition.key, vote.userId, vote.comment, idArray(entries)],
  );
  await recordVoteEvents(em, {
    clientId: workflow.client.id,
    userId: vote.userId,
    transition: transition.key,
    entryStateIds: cast.map((row) => row.id),
  });
  const fresh = new Set(cast.map((row) => row.id));
  const voted = entries.filter((entry) => fresh.has(entry.id));
  const repeated = entries.filter((entry) => !fresh.has(entry.id));
  const votes = transition.votes!;
  if (votes.mode === 'FIRST_WINS') return { decided: voted, waiting: [], repeated };
  const deciding = await em.execute<{ id: string }[]>(
    `select entry_state_id::text as id from workflow_votes where entry_state_id = any(?::bigint[])
      group by entry_state_id
     having count(*) filter (where transition = ?) >= ? and (? or count(*) filter (where transition <> ?) = 0)`,
    [idArray(voted), transition.key, votes.count, votes.mode === 'MINIMUM_VOTES', transition.key],
  );
  const decides = new Set(deciding.map((row) => row.id));
  return {
    decided: voted.filter((entry) => decides.has(entry.id)),
    waiting: voted.filter((entry) => !decides.has(entry.id)),
    repeated,
  };
}

/** The FIELD and TERM_FIELD changes SET_FIELD made, by the entry whose history item shows them. */
export type FieldChanges = Map<string, HistoryChange[]>;

function fieldChange(
  subject: 'FIELD' | 'TERM_FIELD',
  fieldOid: string,
  before: string[] | null,
  after: string[] | null,
  termId?: number,
): HistoryChange | null {
  if (sameJson(before, after)) return null;
  const kind = before === null ? 'ADDED' : after === null ? 'REMOVED' : 'CHANGED';
  return {
    kind,
    subject,
    fieldOid,
    ...(termId ? { termId } : {}),
    ...(before === null ? {} : { before }),
    ...(after === null ? {} : { after }),
  };
}

/**
 * The SET_FIELD actions of the transition on the entries about to move: concept fields of their
 * concepts, term fields of the governed term, of the language's live terms, or (CONCEPT unit) of every
 * live term; one statement per action and batch. Answers the changes (old and new values, as the
 * history of an edit shows them) for the moves' history items: a term's under its entry, a concept's
 * under the first entry of the concept (the others of a batch find the value set already, as when
 * firing them one by one). Run before the moves; refreshSnapshots after them.
 */
export async function setFields(
  em: EntityManager,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
): Promise<{ changes: FieldChanges; termIds: number[] }> {
  const changes: FieldChanges = new Map();
  const termIds = new Set<number>();
  const actions = transition.actions.flatMap((action) => (action.type === 'SET_FIELD' ? [action] : []));
  if (actions.length === 0 || entries.length === 0) return { changes, termIds: [] };
  const add = (entryId: string | undefined, change: HistoryChange | null) => {
    if (!entryId || !change) return;
    const list = changes.get(entryId);
    if (list) list.push(change);
    else changes.set(entryId, [change]);
  };
  const firstEntry = new Map<number, string>();
  for (const entry of entries)
    if (!firstEntry.has(entry.concept_id)) firstEntry.set(entry.concept_id, entry.id);
  const conceptIds = `{${[...firstEntry.keys()].join(',')}}`;
  for (const action of actions) {
    const value = action.values.length ? JSON.stringify({ [action.fieldOid]: action.values }) : null;
    const set = value ? 'field_map = x.field_map || ?::jsonb' : 'field_map = x.field_map - ?::text';
    const param = value ?? action.fieldOid;
    // `o` is the row before the update: the old value of the change.
    if (action.level === 'CONCEPT') {
      const rows = await em.execute<{ id: number; before: string[] | null; after: string[] | null }[]>(
        `update concepts x set ${set} from concepts o
          where o.id = x.id and x.id = any(?::int[])
        returning x.id, o.field_map->? as before, x.field_map->? as after`,
        [param, conceptIds, action.fieldOid, action.fieldOid],
      );
      for (const row of rows)
        add(firstEntry.get(row.id), fieldChange('FIELD', action.fieldOid, row.before, row.after));
      continue;
    }
    const rows = await em.execute<
      { id: number; entry_id: string; before: string[] | null; after: string[] | null }[]
    >(
      `update terms x set ${set}
         from terms o, (select * from unnest(?::bigint[], ?::int[], ?::text[], ?::int[]) as k(entry_id, concept_id, language_code, term_id)) k
        where o.id = x.id and x.concept_id = k.concept_id and not x.deleted
          and (k.term_id = 0 or x.id = k.term_id) and (k.language_code = '' or x.language_code = k.language_code)
        returning x.id, k.entry_id::text as entry_id, o.field_map->? as before, x.field_map->? as after`,
      [
        param,
        `{${entries.map((entry) => entry.id).join(',')}}`,
        `{${entries.map((entry) => entry.concept_id).join(',')}}`,
        `{${entries.map((entry) => `"${entry.language_code.replaceAll('"', '\\"')}"`).join(',')}}`,
        `{${entries.map((entry) => entry.term_id).join(',')}}`,
        action.fieldOid,
        action.fieldOid,
      ],
    );
    for (const row of rows) {
      termIds.add(row.id);
      add(row.entry_id, fieldChange('TERM_FIELD', action.fieldOid, row.before, row.after, row.id));
    }
  }
  return { changes, termIds: [...termIds] };
}

/**
 * Brings the snapshots of the history items this transaction wrote for the moved entries' concepts up
 * to date with what setFields changed (one statement per action and level): the same change in the
 * snapshot's fieldMap of the concept or of the changed terms.
 */
export async function refreshSnapshots(
  em: EntityManager,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
  termIds: readonly number[],
): Promise<void> {
  const actions = transition.actions.flatMap((action) => (action.type === 'SET_FIELD' ? [action] : []));
  if (actions.length === 0 || entries.length === 0) return;
  const conceptIds = `{${[...new Set(entries.map((entry) => entry.concept_id))].join(',')}}`;
  for (const action of actions) {
    const value = action.values.length ? JSON.stringify({ [action.fieldOid]: action.values }) : null;
    const param = value ?? action.fieldOid;
    const snapshotSet = value
      ? `coalesce(x->'fieldMap', '{}'::jsonb) || ?::jsonb`
      : `coalesce(x->'fieldMap', '{}'::jsonb) - ?::text`;
    if (action.level === 'CONCEPT') {
      await em.execute(
        `update concept_history h set snapshot = jsonb_set(h.snapshot, '{fieldMap}', ${snapshotSet.replaceAll('x->', 'h.snapshot->')})
          where h.concept_id = any(?::int[]) and h.created_at = now() and h.snapshot <> '{}'::jsonb`,
        [param, conceptIds],
      );
      continue;
    }
    if (termIds.length === 0) continue;
    await em.execute(
      `update concept_history h set snapshot = jsonb_set(h.snapshot, '{terms}', (
         select coalesce(jsonb_agg(case when (x->>'id')::int = any(?::int[])
                                        then jsonb_set(x, '{fieldMap}', ${snapshotSet}) else x end order by n), '[]'::jsonb)
           from jsonb_array_elements(h.snapshot->'terms') with ordinality as t(x, n)))
        where h.concept_id = any(?::int[]) and h.created_at = now() and jsonb_typeof(h.snapshot->'terms') = 'array'`,
      [`{${termIds.join(',')}}`, param, conceptIds],
    );
  }
}
