/**
 * What a bulk transition does besides moving entries (docs/workflows.md, Bulk transitions), set-based
 * per batch like the moves: the caller's vote on every entry of a voted transition (the entries whose
 * votes then decide move, the others wait), and SET_FIELD actions on the moved entries' concepts or
 * terms, with the history items of the moves showing the values after the change.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
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

/**
 * The SET_FIELD actions of the transition on the moved entries: concept fields of their concepts, term
 * fields of the governed term, of the language's live terms, or (CONCEPT unit) of every live term. Then
 * the snapshots of the history items this transaction wrote for those concepts are brought up to date.
 */
export async function setFields(
  em: EntityManager,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
): Promise<void> {
  const actions = transition.actions.flatMap((action) => (action.type === 'SET_FIELD' ? [action] : []));
  if (actions.length === 0 || entries.length === 0) return;
  const conceptIds = `{${[...new Set(entries.map((entry) => entry.concept_id))].join(',')}}`;
  for (const action of actions) {
    const value = action.values.length ? JSON.stringify({ [action.fieldOid]: action.values }) : null;
    const set = value ? 'field_map = field_map || ?::jsonb' : 'field_map = field_map - ?::text';
    const param = value ?? action.fieldOid;
    // The history snapshot keeps a fieldMap per concept and per term: the same change there.
    const snapshotSet = value
      ? `coalesce(x->'fieldMap', '{}'::jsonb) || ?::jsonb`
      : `coalesce(x->'fieldMap', '{}'::jsonb) - ?::text`;
    if (action.level === 'CONCEPT') {
      await em.execute(`update concepts set ${set} where id = any(?::int[])`, [param, conceptIds]);
      await em.execute(
        `update concept_history h set snapshot = jsonb_set(h.snapshot, '{fieldMap}', ${snapshotSet.replaceAll('x->', 'h.snapshot->')})
          where h.concept_id = any(?::int[]) and h.created_at = now() and h.snapshot <> '{}'::jsonb`,
        [param, conceptIds],
      );
      continue;
    }
    const terms = await em.execute<{ id: number }[]>(
      `update terms t set ${set}
         from (select * from unnest(?::int[], ?::text[], ?::int[]) as k(concept_id, language_code, term_id)) k
        where t.concept_id = k.concept_id and not t.deleted
          and (k.term_id = 0 or t.id = k.term_id) and (k.language_code = '' or t.language_code = k.language_code)
        returning t.id`,
      [
        param,
        `{${entries.map((entry) => entry.concept_id).join(',')}}`,
        `{${entries.map((entry) => `"${entry.language_code.replaceAll('"', '\\"')}"`).join(',')}}`,
        `{${entries.map((entry) => entry.term_id).join(',')}}`,
      ],
    );
    if (terms.length === 0) continue;
    await em.execute(
      `update concept_history h set snapshot = jsonb_set(h.snapshot, '{terms}', (
         select coalesce(jsonb_agg(case when (x->>'id')::int = any(?::int[])
                                        then jsonb_set(x, '{fieldMap}', ${snapshotSet}) else x end order by n), '[]'::jsonb)
           from jsonb_array_elements(h.snapshot->'terms') with ordinality as t(x, n)))
        where h.concept_id = any(?::int[]) and h.created_at = now() and jsonb_typeof(h.snapshot->'terms') = 'array'`,
      [`{${terms.map((term) => term.id).join(',')}}`, param, conceptIds],
    );
  }
}
