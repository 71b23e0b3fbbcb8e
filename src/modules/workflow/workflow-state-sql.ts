/**
 * Entries in some states of a workflow as one condition, shared by the term search (search-workflow.ts)
 * and filters (filter-sql.ts). An entry without a row, or whose stored key the definition no longer has,
 * is in the initial state.
 *
 * On a term row `t` the condition compares `t.workflow_state`, the copy of its entry's stored state
 * that the database keeps in the term row (Migration20261216090000; null: no row): a comparison on the
 * row the search reads anyway. Probing workflow_entry_states per candidate term instead cost the
 * PostgreSQL search engine 11-19% of its throughput (docs/workflows.md, "Figures").
 *
 * A concept row (filters, CONCEPT unit) has no copy: there the condition probes the state rows, a
 * correlated subplan (`offset 0`) rather than a semi- or anti-join, which doubled the planning time.
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

const keysOf = (keys: readonly string[]) => `{${keys.join(',')}}`;

/** Terms `t` of the workflow's dictionary whose entries are in a listed state. */
export function termStatesSql(selection: StateSelection): Sql {
  if (selection.listed.includes(selection.initialState)) {
    if (selection.unlisted.length === 0) return { text: 'true', params: [] };
    return {
      text: `(t.workflow_state is null or t.workflow_state <> all(?::text[]))`,
      params: [keysOf(selection.unlisted)],
    };
  }
  if (selection.listed.length === 0) return { text: 'false', params: [] };
  return { text: `t.workflow_state = any(?::text[])`, params: [keysOf(selection.listed)] };
}

/** Concepts `c` (the CONCEPT unit) whose entries are in a listed state. */
export function conceptStatesSql(selection: StateSelection): Sql {
  const entry = `e.workflow_id = ? and e.concept_id = c.id and e.language_code = '' and e.term_id = 0`;
  if (selection.listed.includes(selection.initialState)) {
    return {
      text: `not exists (select 1 from workflow_entry_states e where ${entry} and e.state = any(?::text[]) offset 0)`,
      params: [selection.workflowId, keysOf(selection.unlisted)],
    };
  }
  if (selection.listed.length === 0) return { text: 'false', params: [] };
  return {
    text: `exists (select 1 from workflow_entry_states e where ${entry} and e.state = any(?::text[]) offset 0)`,
    params: [selection.workflowId, keysOf(selection.listed)],
  };
}
