/**
 * What workflow states do to the rest of Polyterm (docs/workflows.md): term lists get the state's style,
 * read-only states disable the entry, hidden states are not listed, and unpublished states are invisible
 * to guests and to users who may not review. One query for the enabled workflows of a page's
 * dictionaries (none: nothing changes) and one for the states of its entries.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, Scope } from '../../shared/scope.js';
import { accessSubject } from '../access/access.service.js';
import { Workflow } from './workflow.entity.js';
import { stateOf, type WorkflowState } from './workflow-definition.js';
import { mayFire } from './workflow-rules.js';

/** A term (or concept) as the effects need it. */
export interface GovernedItem {
  dictionaryId: number;
  conceptId: number;
  languageCode: string;
  termId: number;
}

/** The enabled workflows of the dictionaries, by dictionary id. */
export async function enabledWorkflows(em: EntityManager, dictionaryIds: readonly number[]) {
  const ids = [...new Set(dictionaryIds)];
  if (ids.length === 0) return new Map<number, Workflow>();
  const rows = await em.find(
    Workflow,
    { dictionary: { $in: ids }, enabled: true },
    { filters: { tenant: false }, populate: ['dictionary'] },
  );
  return new Map(rows.map((workflow) => [workflow.dictionary.id, workflow]));
}

const entryKey = (workflow: Workflow, item: GovernedItem) =>
  workflow.unit === 'CONCEPT'
    ? `${item.conceptId}||0`
    : workflow.unit === 'LANGUAGE'
      ? `${item.conceptId}|${item.languageCode}|0`
      : `${item.conceptId}|${item.languageCode}|${item.termId}`;

/** The state of each item (null where no workflow governs its dictionary). */
export async function statesOf(
  em: EntityManager,
  items: readonly GovernedItem[],
  workflows?: Map<number, Workflow>,
): Promise<({ workflow: Workflow; state: WorkflowState } | null)[]> {
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
export function reviews(actor: Actor, groupIds: ReadonlySet<number>, workflow: Workflow): boolean {
  if (actor.guest) return false;
  const inReview = new Set(
    workflow.definition.states.filter((s) => s.category === 'REVIEW').map((s) => s.key),
  );
  // Loaded with the workflow (enabledWorkflows populates it): DICTIONARY_ADMIN roles name its oid.
  const dictionary = workflow.dictionary.getEntity();
  return workflow.definition.transitions.some(
    (transition) =>
      transition.from.some((state) => inReview.has(state)) &&
      mayFire(actor, groupIds, dictionary, { ...transition, languages: [] }, ''),
  );
}

/** A term list entry as the search builds it. */
interface ListEntry {
  id: number;
  dictionaryId: number;
  conceptId: number;
  langCode: string;
  style: string;
  disabled: boolean;
  hidden: boolean;
}

/** Term list entries with the workflow applied: styled, disabled when read-only, hidden and unpublished ones left out. */
export async function applyWorkflowToTermList<T extends ListEntry>(scope: Scope, entries: T[]): Promise<T[]> {
  if (entries.length === 0) return entries;
  const workflows = await enabledWorkflows(
    scope.em,
    entries.map((entry) => entry.dictionaryId),
  );
  if (workflows.size === 0) return entries;
  const states = await statesOf(
    scope.em,
    entries.map((entry) => ({
      dictionaryId: entry.dictionaryId,
      conceptId: entry.conceptId,
      languageCode: entry.langCode,
      termId: entry.id,
    })),
    workflows,
  );
  const groupIds = (await accessSubject(scope)).groupIds;
  const reviewer = new Map([...workflows.values()].map((w) => [w.id, reviews(scope.actor, groupIds, w)]));
  return entries.flatMap((entry, index) => {
    const found = states[index];
    if (!found) return [entry];
    const { state, workflow } = found;
    if (state.hidden || (state.unpublished && !reviewer.get(workflow.id))) return [];
    return [{ ...entry, style: state.style, disabled: entry.disabled || state.readOnly }];
  });
}
