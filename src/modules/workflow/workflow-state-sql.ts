/**
 * Entries in some states of a workflow as one condition on a term row `t` (or, for the CONCEPT unit, on
 * a concept row), shared by the term search (search-workflow.ts) and filters (filter-sql.ts). An entry
 * without a row, or whose stored key the definition no longer has, is in the initial state: when the
 * initial state is listed the condition is the absence of a row in an unlisted state (`not exists`),
 * otherwise a row in a listed state (`exists`). The entry key matches
 * workflow_entry_states_search_index, which includes the state, so a probe reads the index only (a
 * condition on another column, such as the dictionary, would fetch every probed row from the table).
 *
 * `offset 0` keeps each (not) exists a correlated subplan, an index probe per candidate row, instead of
 * letting the planner pull it up into a semi- or anti-join: the join doubled the planning time of a
 * search's statement (0.4 to 0.9 ms on the bench database, more than its execution), since every search
 * is planned anew, while the probes execute as fast on the lists measured (20 to 2,000 matches).
 */
import type { Sql } from '../../shared/sql.js';
import type { WorkflowUnit } from './workflow-definition.js';

export interface StateSelection {
  workflowId: number;
  unit: WorkflowUnit;
  initialState: string;
  /** The definition's keys that are listed, and the rest. */
  listed: readonly string[];
  unlisted: readonly string[];
}

/** `conceptId`: the column naming the entry's concept (`t.concept_id`, or `c.id` on concepts). */
export function listedStatesSql(selection: StateSelection, conceptId = 't.concept_id'): Sql {
  const entry = `e.workflow_id = ? and e.concept_id = ${conceptId}
         and e.language_code = ${selection.unit === 'CONCEPT' ? "''" : 't.language_code'}
         and e.term_id = ${selection.unit === 'TERM' ? 't.id' : '0'}`;
  if (selection.listed.includes(selection.initialState)) {
    return {
      text: `not exists (select 1 from workflow_entry_states e where ${entry} and e.state = any(?::text[]) offset 0)`,
      params: [selection.workflowId, `{${selection.unlisted.join(',')}}`],
    };
  }
  if (selection.listed.length === 0) return { text: 'false', params: [] };
  return {
    text: `exists (select 1 from workflow_entry_states e where ${entry} and e.state = any(?::text[]) offset 0)`,
    params: [selection.workflowId, `{${selection.listed.join(',')}}`],
  };
}
