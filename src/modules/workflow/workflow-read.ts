/**
 * Reading workflow entries for many concepts at once (REST reads one, GraphQL batches a page through a
 * DataLoader): a fixed number of queries whatever the number of concepts.
 */

import type { Scope } from '../../shared/scope.js';
import { accessSubject } from '../access/access.service.js';
import type { Concept, Term } from '../concept/concept.entity.js';
import { readableConcepts } from '../concept/concept-access.js';
import { loadParts } from '../concept/concept-parts.js';
import { stateOf } from './workflow-definition.js';
import { enabledWorkflows, type GoverningWorkflow } from './workflow-effects.js';
import type { ConceptWorkflowDto, EntryStateDto } from './workflow-entry.schema.js';
import type { EntryRow } from './workflow-entry.service.js';
import { conditionHolds, type EntryFields, mayFire, missingFields } from './workflow-rules.js';

interface Vote {
  entry_state_id: string;
  transition: string;
  user_id: number;
}

/** The entries of a concept under a unit: one, one per language with live terms, or one per live term. */
function entryKeys(workflow: GoverningWorkflow, terms: readonly Term[]) {
  if (workflow.unit === 'CONCEPT') return [{ languageCode: '', termId: 0 }];
  if (workflow.unit === 'TERM')
    return terms.map((term) => ({ languageCode: term.languageCode, termId: term.id }));
  return [...new Set(terms.map((term) => term.languageCode))]
    .sort()
    .map((code) => ({ languageCode: code, termId: 0 }));
}

/** The fields conditions see for an entry: the concept's, and its term's or its language's terms'. */
export function fieldsOfEntry(
  concept: Concept,
  terms: readonly Term[],
  key: { languageCode: string; termId: number },
): EntryFields {
  const own = key.termId
    ? terms.filter((t) => t.id === key.termId)
    : key.languageCode
      ? terms.filter((t) => t.languageCode === key.languageCode)
      : terms;
  return { concept: concept.fieldMap, terms: own.map((term) => term.fieldMap) };
}

/** The workflow of each readable concept among `conceptIds` (unreadable ones are left out of the map). */
export async function conceptWorkflows(
  scope: Scope,
  conceptIds: readonly number[],
): Promise<Map<number, ConceptWorkflowDto>> {
  const loaded = await readableConcepts(scope, conceptIds);
  const answer = new Map<number, ConceptWorkflowDto>();
  const workflows = await enabledWorkflows(
    scope.em,
    loaded.map(({ concept }) => concept.dictionary.id),
  );
  const governed = loaded.filter(({ concept }) => workflows.has(concept.dictionary.id));
  for (const { concept } of loaded) {
    if (!workflows.has(concept.dictionary.id))
      answer.set(concept.id, { workflowId: null, unit: null, entries: [] });
  }
  if (governed.length === 0) return answer;
  const ids = governed.map(({ concept }) => concept.id);
  const parts = await loadParts(scope.em, ids);
  const rows = await scope.em.execute<EntryRow[]>(
    `select id::text as id, concept_id, language_code, term_id, state, version, entered_at, entered_by_id, assignee_id
       from workflow_entry_states where workflow_id = any(?::int[]) and concept_id = any(?::int[])`,
    [`{${[...workflows.values()].map((w) => w.id).join(',')}}`, `{${ids.join(',')}}`],
  );
  const votes = rows.length
    ? await scope.em.execute<Vote[]>(
        'select entry_state_id::text as entry_state_id, transition, user_id from workflow_votes where entry_state_id = any(?::bigint[]) order by id',
        [`{${rows.map((row) => row.id).join(',')}}`],
      )
    : [];
  const stored = new Map(rows.map((row) => [`${row.concept_id}|${row.language_code}|${row.term_id}`, row]));
  const groupIds = (await accessSubject(scope)).groupIds;
  for (const { concept } of governed) {
    const workflow = workflows.get(concept.dictionary.id)!;
    const terms = parts.get(concept.id)!.terms;
    const entries = entryKeys(workflow, terms).map((key) => {
      const row = stored.get(`${concept.id}|${key.languageCode}|${key.termId}`) ?? {
        id: null,
        concept_id: concept.id,
        language_code: key.languageCode,
        term_id: key.termId,
        state: workflow.definition.initialState,
        version: 0,
        entered_at: null,
        entered_by_id: null,
        assignee_id: null,
      };
      return renderEntry(scope, groupIds, workflow, concept, terms, row, votes);
    });
    answer.set(concept.id, { workflowId: workflow.id, unit: workflow.unit, entries });
  }
  return answer;
}

/** One entry with the transitions the caller may fire now. */
function renderEntry(
  scope: Scope,
  groupIds: ReadonlySet<number>,
  workflow: GoverningWorkflow,
  concept: Concept,
  terms: readonly Term[],
  row: EntryRow,
  votes: readonly Vote[],
): EntryStateDto {
  const definition = workflow.definition;
  const state = stateOf(definition, row.state);
  const fields = fieldsOfEntry(concept, terms, { languageCode: row.language_code, termId: row.term_id });
  const dictionary = { id: workflow.dictionaryId, oid: workflow.dictionaryOid };
  const offered = definition.transitions.filter(
    (transition) =>
      transition.from.includes(state.key) &&
      mayFire(scope.actor, groupIds, dictionary, transition, row.language_code) &&
      conditionHolds(transition, fields),
  );
  return {
    conceptId: concept.id,
    languageCode: row.language_code || null,
    termId: row.term_id || null,
    state: state.key,
    stateName: state.name,
    category: state.category,
    processStatus: state.processStatus,
    style: state.style,
    readOnly: state.readOnly,
    hidden: state.hidden,
    unpublished: state.unpublished,
    version: row.version,
    enteredAt: row.entered_at ? new Date(row.entered_at).getTime() : null,
    enteredById: row.entered_by_id,
    assigneeId: row.assignee_id,
    votes: votes
      .filter((vote) => vote.entry_state_id === row.id)
      .map((vote) => ({ transition: vote.transition, userId: vote.user_id })),
    transitions: offered.map((transition) => ({
      key: transition.key,
      name: transition.name,
      to: transition.to,
      commentRequired: transition.commentRequired,
      votes: transition.votes,
      missingFields: missingFields(transition, fields),
    })),
  };
}
