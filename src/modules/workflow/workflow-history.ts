/**
 * Every workflow move of an entry is a row of workflow_transitions and a WORKFLOW change in the concept's
 * history (a new revision of the concept, so the history list shows who moved what, when, from where to
 * where, and why). Written with set-based SQL: the same statements serve one entry and 100,000.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HistoryChange } from '../history/history.types.js';

/** One move of one entry, as recorded. */
export interface RecordedMove {
  entryStateId: string;
  conceptId: number;
  languageCode: string;
  termId: number;
  transition: string | null;
  fromState: string;
  toState: string;
  comment: string | null;
  /** Further changes of the same item after the WORKFLOW one (a SET_FIELD action's FIELD changes). */
  changes?: readonly HistoryChange[];
}

/**
 * Records moves (at most one per concept per call: revisions are per concept). The concept's version goes
 * up by one, so a client holding the old version reloads before it edits, and search re-indexes it.
 */
export async function recordMoves(
  em: EntityManager,
  input: { clientId: number; dictionaryId: number; workflowId: number; userId: number | null },
  moves: readonly RecordedMove[],
): Promise<void> {
  if (moves.length === 0) return;
  const values = JSON.stringify(moves);
  await em.execute(
    `with moves as (
       select * from jsonb_to_recordset(?::jsonb) as m("conceptId" int, "languageCode" text, "termId" int,
              "transition" text, "fromState" text, "toState" text, "comment" text,
              "changes" jsonb)
     ), logged as (
       insert into workflow_transitions (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id,
                                         transition, from_state, to_state, user_id, comment)
       select ?, ?, ?, m."conceptId", m."languageCode", m."termId", m."transition", m."fromState", m."toState", ?, m."comment"
         from moves m
       returning 1
     ), bumped as (
       update concepts c set version = c.version + 1, changed_at = now(), changed_by_id = coalesce(?, c.changed_by_id)
         from moves m where c.id = m."conceptId"
       returning c.id, c.version
     )
     insert into concept_history (client_id, dictionary_id, concept_id, revision, action, user_id, created_at, changes, snapshot)
     select ?, ?, b.id, b.version, 'UPDATE', ?, now(),
            jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
              'kind', 'CHANGED', 'subject', 'WORKFLOW',
              'termId', nullif(m."termId", 0),
              'before', jsonb_build_object('state', m."fromState"),
              'after', jsonb_build_object('state', m."toState", 'transition', m."transition",
                                          'languageCode', nullif(m."languageCode", ''), 'comment', m."comment"))))
              || coalesce(m."changes", '[]'::jsonb),
            coalesce((select h.snapshot from concept_history h where h.concept_id = b.id order by h.revision desc limit 1), '{}'::jsonb)
       from bumped b join moves m on m."conceptId" = b.id`,
    [
      values,
      input.clientId,
      input.dictionaryId,
      input.workflowId,
      input.userId,
      input.userId,
      input.clientId,
      input.dictionaryId,
      input.userId,
    ],
  );
}
