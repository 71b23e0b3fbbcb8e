/**
 * What workflow states do to the rest of Polyterm (docs/workflows.md): term lists get the state's style,
 * read-only states disable the entry, hidden states are not listed, and unpublished states are invisible
 * to guests and to users who may not review. One query for the enabled workflows of a page's
 * dictionaries (none: nothing changes) and one for the states of its entries.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, Scope } from '../../shared/scope.js';
import type { Sql } from '../../shared/sql.js';
import { accessSubject } from '../access/access.service.js';
import {
  stateOf,
  type WorkflowDefinition,
  type WorkflowState,
  type WorkflowUnit,
} from './workflow-definition.js';
import { mayFire } from './workflow-rules.js';

/** A term (or concept) as the effects need it. */
export interface GovernedItem {
  dictionaryId: number;
  conceptId: number;
  languageCode: string;
  termId: number;
}

/** An enabled workflow as the effects need it (one plain row; the search reads it in its context statement). */
export interface GoverningWorkflow {
  id: number;
  dictionaryId: number;
  dictionaryOid: string | null;
  unit: WorkflowUnit;
  definition: WorkflowDefinition;
}

/** The enabled workflows of some dictionaries as JSON-able rows (GoverningWorkflow). */
export function enabledWorkflowsSql(dictionaryIds: readonly number[]): Sql {
  return {
    text: `select w.id, w.dictionary_id as "dictionaryId", d.oid as "dictionaryOid", w.unit, w.definition
             from workflows w join dictionaries d on d.id = w.dictionary_id
            where w.dictionary_id = any(?::int[]) and w.enabled and not w.deleted`,
    params: [`{${[...new Set(dictionaryIds)].join(',')}}`],
  };
}

/** The enabled workflows of the dictionaries, by dictionary id. */
export async function enabledWorkflows(em: EntityManager, dictionaryIds: readonly number[]) {
  if (dictionaryIds.length === 0) return new Map<number, GoverningWorkflow>();
  const sql = enabledWorkflowsSql(dictionaryIds);
  return governingByDictionary(await em.execute<GoverningWorkflow[]>(sql.text, sql.params));
}

export const governingByDictionary = (rows: readonly GoverningWorkflow[]) =>
  new Map(rows.map((workflow) => [workflow.dictionaryId, workflow]));

const entryKey = (workflow: GoverningWorkflow, item: GovernedItem) =>
  workflow.unit === 'CONCEPT'
    ? `${item.conceptId}||0`
    : workflow.unit === 'LANGUAGE'
      ? `${item.conceptId}|${item.languageCode}|0`
      : `${item.conceptId}|${item.languageCode}|${item.termId}`;

/** The state of each item (null where no workflow governs its dictionary). */
export async function statesOf(
  em: EntityManager,
  items: readonly GovernedItem[],
  workflows?: Map<number, GoverningWorkflow>,
): Promise<({ workflow: GoverningWorkflow; state: WorkflowState } | null)[]> {
  const governing =
    workflows ??
    (await enabledWorkflows(
      em,
      items.map((item) => item.dictionaryId),
    ));
  if (governing.size === 0) return items.map(() => null);
  const governed = items.filter((item) => governing.has(item.dictionaryId));
  const rows = governed.length
    ? await em.execute<
        { workflow_id: number; concept_id: number; language_code: string; term_id: number; state: string }[]
      >(
        `select workflow_id, concept_id, language_code, term_id, state from workflow_entry_states
          where workflow_id = any(?::int[]) and concept_id = any(?::int[])`,
        [
          `{${[...governing.values()].map((w) => w.id).join(',')}}`,
          `{${[...new Set(governed.map((item) => item.conceptId))].join(',')}}`,
        ],
      )
    : [];
  const stored = new Map(
    rows.map((row) => [
      `${row.workflow_id}:${row.concept_id}|${row.language_code}|${row.term_id}`,
      row.state,
    ]),
  );
  return items.map((item) => {
    const workflow = governing.get(item.dictionaryId);
    if (!workflow) return null;
    const key = stored.get(`${workflow.id}:${entryKey(workflow, item)}`) ?? workflow.definition.initialState;
    return { workflow, state: stateOf(workflow.definition, key) };
  });
}

/**
 * Whether the actor has review rights in a workflow: named by a transition that leaves a REVIEW state.
 * Reviewers see unpublished entries; others (guests always) do not.
 */
export function reviews(actor: Actor, groupIds: ReadonlySet<number>, workflow: GoverningWorkflow): boolean {
  if (actor.guest) return false;
  const inReview = new Set(
    workflow.definition.states.filter((s) => s.category === 'REVIEW').map((s) => s.key),
  );
  const dictionary = { id: workflow.dictionaryId, oid: workflow.dictionaryOid };
  return workflow.definition.transitions.some(
    (transition) =>
      transition.from.some((state) => inReview.has(state)) &&
      mayFire(actor, groupIds, dictionary, { ...transition, languages: [] }, ''),
  );
}

/** A term as the effects need it: term lists and term decoration candidates alike. */
interface TermLike {
  id: number;
  dictionaryId: number;
  conceptId: number;
  langCode: string;
}

/** A term list entry as the search builds it. */
interface ListEntry extends TermLike {
  style: string;
  disabled: boolean;
  hidden: boolean;
}

/**
 * The terms the actor may see under the workflows, each with its state (null where no workflow governs
 * its dictionary): hidden states are left out, and unpublished ones for all but reviewers. Without an
 * enabled workflow it runs no statement beyond reading the workflows (none when they are `known`).
 * `carried`: the state keys the search read with its hits (null: the initial state), so that no
 * statement reads them again.
 */
export async function visibleTermsWithStates<T extends TermLike>(
  scope: Scope,
  terms: readonly T[],
  known?: readonly GoverningWorkflow[],
  carried?: readonly (string | null)[],
): Promise<{ term: T; state: WorkflowState | null }[]> {
  if (terms.length === 0) return [];
  const workflows = known
    ? governingByDictionary(known)
    : await enabledWorkflows(
        scope.em,
        terms.map((term) => term.dictionaryId),
      );
  if (workflows.size === 0) return terms.map((term) => ({ term, state: null }));
  const states = carried
    ? terms.map((term, index) => {
        const workflow = workflows.get(term.dictionaryId);
        if (!workflow) return null;
        const key = carried[index] ?? workflow.definition.initialState;
        return { workflow, state: stateOf(workflow.definition, key) };
      })
    : await statesOf(
        scope.em,
        terms.map((term) => ({
          dictionaryId: term.dictionaryId,
          conceptId: term.conceptId,
          languageCode: term.langCode,
          termId: term.id,
        })),
        workflows,
      );
  const groupIds = (await accessSubject(scope)).groupIds;
  const reviewer = new Map([...workflows.values()].map((w) => [w.id, reviews(scope.actor, groupIds, w)]));
  return terms.flatMap((term, index): { term: T; state: WorkflowState | null }[] => {
    const found = states[index];
    if (!found) return [{ term, state: null }];
    const { state, workflow } = found;
    if (state.hidden || (state.unpublished && !reviewer.get(workflow.id))) return [];
    return [{ term, state }];
  });
}

/**
 * Term list entries with the workflow applied: styled, disabled when read-only, hidden and unpublished
 * ones left out. `carried`: as for visibleTermsWithStates.
 */
export async function applyWorkflowToTermList<T extends ListEntry>(
  scope: Scope,
  entries: T[],
  known?: readonly GoverningWorkflow[],
  carried?: readonly (string | null)[],
): Promise<T[]> {
  // The search reads the enabled workflows in its context statement: without any, no statement here.
  const visible = await visibleTermsWithStates(scope, entries, known, carried);
  return visible.map(({ term, state }) =>
    state ? { ...term, style: state.style, disabled: term.disabled || state.readOnly } : term,
  );
}
