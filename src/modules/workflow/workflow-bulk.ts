/**
 * Set-based moves of many entries at once (bulk transitions, re-validation): a handful of statements per
 * 5,000 entries, never an ORM load per entry. History revisions are per concept, so entries of one
 * concept (several languages or terms) are recorded in successive rounds.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HistoryChange } from '../history/history.types.js';
import type { Workflow } from './workflow.entity.js';
import { stateOf } from './workflow-definition.js';
import { type RecordedMove, recordMoves } from './workflow-history.js';

/** An entry to move, as found by the bulk query (its row exists: bulk paths insert missing ones first). */
export interface BulkEntry {
  id: string;
  concept_id: number;
  language_code: string;
  term_id: number;
  state: string;
}

/** Moves the entries to a state: their rows, the transition log and the concept history. */
export async function moveEntries(
  em: EntityManager,
  workflow: Workflow,
  entries: readonly BulkEntry[],
  move: { to: string; transition: string | null; comment: string | null; userId: number | null },
  /** Changes to add to an entry's history item, by entry id (SET_FIELD in bulk). */
  changes?: ReadonlyMap<string, readonly HistoryChange[]>,
): Promise<void> {
  if (entries.length === 0) return;
  const to = stateOf(workflow.definition, move.to);
  const revalidate = to.category === 'APPROVED' ? workflow.definition.revalidateAfterDays : null;
  const ids = entries.map((entry) => entry.id);
  await em.execute(
    `update workflow_entry_states set state = ?, category = ?, version = version + 1, entered_at = now(), entered_by_id = ?,
            revalidate_at = case when ?::int is null then null else now() + make_interval(days => ?::int) end
      where id = any(?::bigint[])`,
    [to.key, to.category, move.userId, revalidate, revalidate, `{${ids.join(',')}}`],
  );
  await em.execute('delete from workflow_votes where entry_state_id = any(?::bigint[])', [
    `{${ids.join(',')}}`,
  ]);
  const rounds: RecordedMove[][] = [];
  const seen = new Map<number, number>();
  for (const entry of entries) {
    const round = seen.get(entry.concept_id) ?? 0;
    seen.set(entry.concept_id, round + 1);
    if (!rounds[round]) rounds[round] = [];
    rounds[round].push({
      entryStateId: entry.id,
      conceptId: entry.concept_id,
      languageCode: entry.language_code,
      termId: entry.term_id,
      transition: move.transition,
      fromState: entry.state,
      toState: to.key,
      comment: move.comment,
      changes: changes?.get(entry.id),
    });
  }
  const target = {
    clientId: workflow.client.id,
    dictionaryId: workflow.dictionary.id,
    workflowId: workflow.id,
    userId: move.userId,
  };
  for (const round of rounds) await recordMoves(em, target, round);
}

/**
 * Writes the rows of entries that never moved (initial state, version 0) for the given concepts, so a
 * bulk path can select and lock every entry the same way.
 */
export async function materializeEntries(
  em: EntityManager,
  workflow: Workflow,
  conceptIds: readonly number[],
) {
  if (conceptIds.length === 0) return;
  const initial = stateOf(workflow.definition, workflow.definition.initialState);
  const keys = entryKeysSql(workflow, 'c.id = any(?::int[])');
  await em.execute(
    `insert into workflow_entry_states (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id, state, category, version)
     select ?, ?, ?, k.concept_id, k.language_code, k.term_id, ?, ?, 0 from (${keys}) k
     on conflict do nothing`,
    [
      workflow.client.id,
      workflow.dictionary.id,
      workflow.id,
      initial.key,
      initial.category,
      `{${conceptIds.join(',')}}`,
    ],
  );
}

/**
 * The entries a workflow governs as rows (concept_id, language_code, term_id) of the live concepts that
 * `where` selects (a condition on `c`, the concepts table): one per concept, per language with live
 * terms, or per live term.
 */
export function entryKeysSql(workflow: Workflow, where: string): string {
  if (workflow.unit === 'CONCEPT') {
    return `select c.id as concept_id, '' as language_code, 0 as term_id from concepts c where ${where} and not c.deleted`;
  }
  const term = workflow.unit === 'TERM' ? 't.id' : '0';
  return `select distinct c.id as concept_id, t.language_code, ${term} as term_id
            from concepts c join terms t on t.concept_id = c.id and not t.deleted where ${where} and not c.deleted`;
}
