/**
 * Workflow states inside term search (docs/workflows.md, "Term lists"): which states each governed
 * dictionary lists for the caller (hidden states never; unpublished ones only for reviewers; with
 * `workflowStates`, only those), turned into a condition of the search itself on both engines, so pages
 * are full and totals exact. Without an enabled workflow and without `workflowStates` the plan holds
 * none and the engines run exactly the statements they ran before workflows existed.
 *
 * Entries without a state row are in the workflow's initial state. PostgreSQL compares the copy of the
 * entry's state that each term row keeps (`terms.workflow_state`, null without a row:
 * workflow-state-sql.ts, shared with filters). Elasticsearch reads it from the term's document
 * (`workflowState`, written from the same rows through the outbox); a stored key the definition no
 * longer knows counts as the initial state on both engines, as statesOf does.
 */
import { AppError } from '../../shared/errors.js';
import type { Actor } from '../../shared/scope.js';
import type { Sql } from '../filter/filter-sql.js';
import type { WorkflowUnit } from '../workflow/workflow-definition.js';
import { type GoverningWorkflow, reviews } from '../workflow/workflow-effects.js';
import { termStatesSql } from '../workflow/workflow-state-sql.js';
import type { StateSource } from './search-plan.js';

/** What one governed dictionary lists. */
export interface GovernedDictionary {
  dictionaryId: number;
  workflowId: number;
  unit: WorkflowUnit;
  initialState: string;
  /** States listed for the caller; the initial state among them lists entries without a row. */
  visible: string[];
  /** The definition's other states. */
  invisible: string[];
}

/** The workflow part of a search plan. */
export interface WorkflowScope {
  /** Governed dictionaries whose listing is narrowed (those listing every state are left out). */
  governed: GovernedDictionary[];
  /** Whether terms of the plan's ungoverned dictionaries pass: not with `workflowStates` (they have no state). */
  othersPass: boolean;
  /** Governed dictionaries listing every state: their terms pass. */
  passing: number[];
}

/**
 * The workflow scope of a search, or null when nothing is narrowed. `requested` (workflowStates) must
 * name states of the dictionaries' enabled workflows: an unknown key is 400.
 */
export function workflowScopeOf(
  actor: Actor,
  groupIds: ReadonlySet<number>,
  dictionaryIds: readonly number[],
  workflows: readonly GoverningWorkflow[],
  requested: readonly string[] | null | undefined,
): WorkflowScope | null {
  const wanted = requested?.length ? new Set(requested) : null;
  const governing = workflows.filter((workflow) => dictionaryIds.includes(workflow.dictionaryId));
  if (wanted) {
    const known = new Set(governing.flatMap((w) => w.definition.states.map((state) => state.key)));
    const unknown = [...wanted].filter((key) => !known.has(key));
    if (unknown.length) {
      throw new AppError(
        'BAD_REQUEST',
        `workflowStates: no state ${unknown.join(', ')} in the enabled workflows of these dictionaries`,
      );
    }
  }
  const governed: GovernedDictionary[] = [];
  const passing: number[] = [];
  for (const workflow of governing) {
    const reviewer = reviews(actor, groupIds, workflow);
    const states = workflow.definition.states;
    const listed = (state: (typeof states)[number]) =>
      !state.hidden && (!state.unpublished || reviewer) && (!wanted || wanted.has(state.key));
    const visible = states.filter(listed).map((state) => state.key);
    if (visible.length === states.length) {
      passing.push(workflow.dictionaryId);
      continue;
    }
    governed.push({
      dictionaryId: workflow.dictionaryId,
      workflowId: workflow.id,
      unit: workflow.unit,
      initialState: workflow.definition.initialState,
      visible,
      invisible: states.filter((state) => !listed(state)).map((state) => state.key),
    });
  }
  const othersPass = wanted === null;
  const others = dictionaryIds.some((id) => !governing.some((w) => w.dictionaryId === id));
  if (governed.length === 0 && (othersPass || !others)) return null;
  return { governed, othersPass, passing };
}

/** A term `t` of the dictionary is in a listed state. */
const listedSql = (dictionary: GovernedDictionary): Sql =>
  termStatesSql({
    workflowId: dictionary.workflowId,
    unit: dictionary.unit,
    initialState: dictionary.initialState,
    listed: dictionary.visible,
    unlisted: dictionary.invisible,
  });

/**
 * The scope as one condition on `t` (terms): a single governed dictionary searched alone gets the bare
 * comparison of the terms' state copy; several are joined per dictionary.
 */
export function workflowConditionSql(scope: WorkflowScope, dictionaryIds: readonly number[]): Sql {
  const [only] = scope.governed;
  if (only && scope.governed.length === 1 && dictionaryIds.length === 1) return listedSql(only);
  const alternatives: Sql[] = scope.governed.map((dictionary) => {
    const listed = listedSql(dictionary);
    return {
      text: `t.dictionary_id = ? and ${listed.text}`,
      params: [dictionary.dictionaryId, ...listed.params],
    };
  });
  const narrowed = scope.governed.map((dictionary) => dictionary.dictionaryId);
  if (scope.othersPass) {
    alternatives.push({ text: 't.dictionary_id <> all(?::int[])', params: [`{${narrowed.join(',')}}`] });
  } else if (scope.passing.length) {
    alternatives.push({ text: 't.dictionary_id = any(?::int[])', params: [`{${scope.passing.join(',')}}`] });
  }
  if (alternatives.length === 0) return { text: 'false', params: [] };
  return {
    text: alternatives.map((alternative) => `(${alternative.text})`).join(' or '),
    params: alternatives.flatMap((alternative) => alternative.params),
  };
}

/** The enabled workflows of the plan's dictionaries whose states the hits are to carry. */
export const stateSourcesOf = (
  dictionaryIds: readonly number[],
  workflows: readonly GoverningWorkflow[],
): StateSource[] =>
  workflows
    .filter((workflow) => dictionaryIds.includes(workflow.dictionaryId))
    .map((workflow) => ({
      dictionaryId: workflow.dictionaryId,
      workflowId: workflow.id,
      unit: workflow.unit,
    }));

type Query = Record<string, unknown>;

/** The scope as an Elasticsearch filter on the documents' `workflowState`. */
export function workflowQuery(scope: WorkflowScope): Query {
  const should: Query[] = scope.governed.map((dictionary) => {
    const state = dictionary.visible.includes(dictionary.initialState)
      ? { bool: { must_not: [{ terms: { workflowState: dictionary.invisible } }] } }
      : { terms: { workflowState: dictionary.visible } };
    return { bool: { filter: [{ term: { dictionaryId: dictionary.dictionaryId } }, state] } };
  });
  if (scope.othersPass) {
    should.push({
      bool: { must_not: [{ terms: { dictionaryId: scope.governed.map((d) => d.dictionaryId) } }] },
    });
  } else if (scope.passing.length) {
    should.push({ terms: { dictionaryId: scope.passing } });
  }
  return should.length ? { bool: { should, minimum_should_match: 1 } } : { match_none: {} };
}
