/**
 * Events of workflow votes (docs/events.md). Moves are concept history items and get their
 * workflow.transitioned events from the history trigger; a vote that does not (yet) move its entry is
 * only a row of workflow_votes, recorded here in the voter's transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';

/** One workflow.voted event per entry the user just voted on, in one statement. */
export async function recordVoteEvents(
  em: EntityManager,
  input: { clientId: number; userId: number | null; transition: string; entryStateIds: readonly string[] },
): Promise<void> {
  if (input.entryStateIds.length === 0) return;
  await boundRows(em, {
    text: `insert into event_drafts (client_id, type, dictionary_id, section_id, concept_id, term_id, actor_id, data)
           select s.client_id, 'workflow.voted', s.dictionary_id, c.section_id, s.concept_id, nullif(s.term_id, 0), ?,
                  jsonb_strip_nulls(jsonb_build_object('transition', ?::text, 'state', s.state,
                                                       'languageCode', nullif(s.language_code, '')))
             from workflow_entry_states s join concepts c on c.id = s.concept_id
            where s.id = any(?::bigint[]) and s.client_id = ?
            order by s.id
           returning id`,
    params: [input.userId, input.transition, `{${input.entryStateIds.join(',')}}`, input.clientId],
  });
}
