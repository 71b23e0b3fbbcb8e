/**
 * Entry states and firing transitions (docs/workflows.md). An entry (a concept, a language of a concept,
 * or a term, by the workflow's unit) without a state row is in the initial state; the first move writes
 * its row. Firing locks the row, so of two concurrent moves with one version exactly one wins (409).
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { accessSubject } from '../access/access.service.js';
import type { Concept, Term } from '../concept/concept.entity.js';
import { readableConcept } from '../concept/concept-access.js';
import { loadParts, snapshotOf } from '../concept/concept-parts.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { recordVoteEvents } from '../events/workflow-events.js';
import { diffSnapshots } from '../history/history-recorder.js';
import type { Workflow } from './workflow.entity.js';
import { enabledWorkflow } from './workflow.service.js';
import { applyActions } from './workflow-actions.js';
import { stateOf, type WorkflowTransition } from './workflow-definition.js';
import type { ConceptWorkflowDto, FireInput } from './workflow-entry.schema.js';
import { recordMoves } from './workflow-history.js';
import { conceptWorkflows, fieldsOfEntry } from './workflow-read.js';
import { conditionHolds, mayFire, missingFields } from './workflow-rules.js';
import { wakeWorkflowSweeper } from './workflow-sweeper.js';

const NO_TENANT = { tenant: false } as const;

/** A stored entry state (or the initial state of an entry that never moved: id null, version 0). */
export interface EntryRow {
  id: string | null;
  concept_id: number;
  language_code: string;
  term_id: number;
  state: string;
  version: number;
  entered_at: Date | null;
  entered_by_id: number | null;
  assignee_id: number | null;
}

/** The workflow entries of a readable concept with the transitions the caller may fire (404 otherwise). */
export async function conceptWorkflow(scope: Scope, conceptId: number): Promise<ConceptWorkflowDto> {
  const found = (await conceptWorkflows(scope, [conceptId])).get(conceptId);
  if (!found) throw notFound('Concept', conceptId);
  return found;
}

/** The entry key a request names, checked against the unit and the concept's live terms. */
function entryKeyOf(
  workflow: Workflow,
  terms: readonly Term[],
  input: Pick<FireInput, 'languageCode' | 'termId'>,
) {
  if (workflow.unit === 'CONCEPT') return { languageCode: '', termId: 0 };
  if (workflow.unit === 'TERM') {
    if (input.termId === undefined)
      throw new AppError('BAD_REQUEST', 'This workflow governs terms: send termId');
    const term = terms.find((t) => t.id === input.termId);
    if (!term) throw notFound('Term', input.termId);
    return { languageCode: term.languageCode, termId: term.id };
  }
  if (!input.languageCode)
    throw new AppError('BAD_REQUEST', 'This workflow governs languages: send languageCode');
  if (!terms.some((term) => term.languageCode === input.languageCode)) {
    throw new AppError('NOT_FOUND', `The concept has no terms in language ${input.languageCode}`);
  }
  return { languageCode: input.languageCode, termId: 0 };
}

/** Inserts the row of an entry that never moved (initial state, version 0) and locks it. */
export async function lockEntry(
  em: EntityManager,
  workflow: Workflow,
  conceptId: number,
  key: { languageCode: string; termId: number },
): Promise<EntryRow> {
  const initial = stateOf(workflow.definition, workflow.definition.initialState);
  await em.execute(
    `insert into workflow_entry_states (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id, state, category, version)
     values (?, ?, ?, ?, ?, ?, ?, ?, 0) on conflict do nothing`,
    [
      workflow.client.id,
      workflow.dictionary.id,
      workflow.id,
      conceptId,
      key.languageCode,
      key.termId,
      initial.key,
      initial.category,
    ],
  );
  const [row] = await em.execute<EntryRow[]>(
    `select id::text as id, concept_id, language_code, term_id, state, version, entered_at, entered_by_id, assignee_id
       from workflow_entry_states where workflow_id = ? and concept_id = ? and language_code = ? and term_id = ? for update`,
    [workflow.id, conceptId, key.languageCode, key.termId],
  );
  return row!;
}

/** Whether the votes now cast make a voted transition fire. */
async function votesDecide(
  em: EntityManager,
  entryId: string,
  transition: WorkflowTransition,
): Promise<boolean> {
  const votes = transition.votes!;
  if (votes.mode === 'FIRST_WINS') return true;
  const [count] = await em.execute<{ own: number; other: number }[]>(
    `select count(*) filter (where transition = ?)::int as own, count(*) filter (where transition <> ?)::int as other
       from workflow_votes where entry_state_id = ?`,
    [transition.key, transition.key, entryId],
  );
  if (count!.own < votes.count) return false;
  return votes.mode === 'MINIMUM_VOTES' || count!.other === 0;
}

/**
 * Moves an entry (whoever fires it, the same rules): readable concept (404), the caller among those the
 * transition names (403), current version (409), the transition leaving from the current state (409),
 * its condition (409), a comment where required (400), required fields (422); votes may hold it back.
 */
export async function fireTransition(scope: Scope, input: FireInput) {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot move entries through a workflow');
  const { concept } = await readableConcept(scope, input.conceptId);
  const { fired, notifies } = await scope.em.transactional(async (em) => {
    const workflow = await enabledWorkflow(em, concept.dictionary.id);
    if (!workflow)
      throw new AppError('BAD_REQUEST', 'No workflow is enabled for the dictionary of this concept');
    const definition = workflow.definition;
    const transition = definition.transitions.find((t) => t.key === input.transition);
    if (!transition) throw new AppError('BAD_REQUEST', `The workflow has no transition ${input.transition}`);
    const terms = (await loadParts(em, [concept.id])).get(concept.id)!.terms;
    const key = entryKeyOf(workflow, terms, input);
    const dictionary = await em.findOneOrFail(
      Dictionary,
      { id: workflow.dictionary.id },
      { filters: NO_TENANT },
    );
    const subject = await accessSubject(scope);
    if (!mayFire(scope.actor, subject.groupIds, dictionary, transition, key.languageCode)) {
      throw new AppError(
        'FORBIDDEN',
        `You may not fire ${transition.key} (the workflow names other groups or roles)`,
      );
    }
    const row = await lockEntry(em, workflow, concept.id, key);
    assertVersion(row, input.version, 'Workflow entry');
    if (!transition.from.includes(row.state)) {
      throw new AppError('CONFLICT', `${transition.key} does not leave from state ${row.state}`);
    }
    const fields = fieldsOfEntry(concept, terms, key);
    if (!conditionHolds(transition, fields)) {
      throw new AppError('CONFLICT', `The condition of ${transition.key} does not hold for this entry`);
    }
    if (transition.commentRequired && !input.comment) {
      throw new AppError('BAD_REQUEST', `${transition.key} needs a comment`);
    }
    const missing = missingFields(transition, fields);
    if (missing.length)
      throw new AppError('UNPROCESSABLE', `Required fields are empty: ${missing.join(', ')}`);
    if (transition.votes) {
      const [cast] = await em.execute<{ id: string }[]>(
        `insert into workflow_votes (client_id, entry_state_id, transition, user_id, comment) values (?, ?, ?, ?, ?)
         on conflict do nothing returning id::text as id`,
        [workflow.client.id, row.id, transition.key, scope.actor.userId, input.comment ?? null],
      );
      if (!cast) throw new AppError('CONFLICT', `You already voted for ${transition.key} on this entry`);
      await recordVoteEvents(em, {
        clientId: workflow.client.id,
        userId: scope.actor.userId,
        transition: transition.key,
        entryStateIds: [row.id!],
      });
      if (!(await votesDecide(em, row.id!, transition))) return { fired: false, notifies: false };
    }
    await moveEntry(scope, em, workflow, concept, row, transition, input.comment ?? null);
    return { fired: true, notifies: transition.actions.some((action) => action.type === 'NOTIFY') };
  });
  scope.em.clear();
  if (notifies) wakeWorkflowSweeper(scope.em);
  const after = await conceptWorkflow(scope, concept.id);
  const key = after.entries.find((entry) =>
    after.unit === 'CONCEPT'
      ? true
      : after.unit === 'TERM'
        ? entry.termId === input.termId
        : entry.languageCode === input.languageCode,
  );
  return { fired, entry: key! };
}

/** Writes a move of a locked entry: its new state, the transition log, the concept history, the actions. */
async function moveEntry(
  scope: Scope,
  em: EntityManager,
  workflow: Workflow,
  concept: Concept,
  row: EntryRow,
  transition: WorkflowTransition,
  comment: string | null,
) {
  const to = stateOf(workflow.definition, transition.to);
  const revalidate = to.category === 'APPROVED' ? workflow.definition.revalidateAfterDays : null;
  await em.execute(
    `update workflow_entry_states set state = ?, category = ?, version = version + 1, entered_at = now(), entered_by_id = ?,
            revalidate_at = case when ?::int is null then null else now() + make_interval(days => ?::int) end
      where id = ?`,
    [to.key, to.category, scope.actor.userId, revalidate, revalidate, row.id],
  );
  await em.execute('delete from workflow_votes where entry_state_id = ?', [row.id]);
  // SET_FIELD: the history item lists its FIELD/TERM_FIELD changes, the concept before against after.
  const before = transition.actions.some((action) => action.type === 'SET_FIELD')
    ? snapshotOf(concept, (await loadParts(em, [concept.id])).get(concept.id)!)
    : null;
  const changedFields = await applyActions(scope, em, workflow, concept, row, transition, comment);
  await recordMoves(
    em,
    {
      clientId: workflow.client.id,
      dictionaryId: workflow.dictionary.id,
      workflowId: workflow.id,
      userId: scope.actor.userId,
    },
    [
      {
        entryStateId: row.id!,
        conceptId: concept.id,
        languageCode: row.language_code,
        termId: row.term_id,
        transition: transition.key,
        fromState: row.state,
        toState: to.key,
        comment,
      },
    ],
  );
  if (changedFields) {
    // SET_FIELD changed the concept: its history item keeps the state after the change.
    em.clear();
    const fresh = await em.findOneOrFail('Concept', { id: concept.id }, { filters: { tenant: false } });
    const parts = (await loadParts(em, [concept.id])).get(concept.id)!;
    const after = snapshotOf(fresh as Concept, parts);
    const fieldChanges = before
      ? diffSnapshots(before, after).filter((c) => c.subject === 'FIELD' || c.subject === 'TERM_FIELD')
      : [];
    await em.execute(
      `update concept_history set snapshot = ?::jsonb, changes = changes || ?::jsonb
        where concept_id = ? and revision = (select version from concepts where id = ?)`,
      [JSON.stringify(after), JSON.stringify(fieldChanges), concept.id, concept.id],
    );
  }
}

/** The moves of a readable concept's entries, oldest first (they are in the concept's history as well). */
export async function conceptTransitions(scope: Scope, conceptId: number) {
  await readableConcept(scope, conceptId);
  const rows = await scope.em.execute<
    {
      id: string;
      concept_id: number;
      language_code: string;
      term_id: number;
      transition: string | null;
      from_state: string;
      to_state: string;
      user_id: number | null;
      comment: string | null;
      created_at: Date;
    }[]
  >('select * from workflow_transitions where concept_id = ? and client_id = ? order by created_at, id', [
    conceptId,
    scope.actor.clientId,
  ]);
  return rows.map((row) => ({
    id: Number(row.id),
    conceptId: row.concept_id,
    languageCode: row.language_code || null,
    termId: row.term_id || null,
    transition: row.transition,
    fromState: row.from_state,
    toState: row.to_state,
    userId: row.user_id,
    comment: row.comment,
    date: new Date(row.created_at).getTime(),
  }));
}
