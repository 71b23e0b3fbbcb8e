/**
 * Entries per state (docs/workflows.md), entries that never moved counted in the initial state, and the
 * entries of one state as a list (the filter by state). Set-based: one statement each.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { MAX_ID } from '../../shared/ids.js';
import type { Scope } from '../../shared/scope.js';
import { readableSectionIds } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import type { Workflow } from './workflow.entity.js';
import { enabledWorkflow } from './workflow.service.js';
import { entryKeysSql } from './workflow-bulk.js';
import type { GoverningWorkflow } from './workflow-effects.js';
import { unseenStates } from './workflow-visibility.js';

export const StateCountInputSchema = z.object({ 'dictionary-id': z.number().int().positive().max(MAX_ID) });
export const StateCountSchema = z.object({
  state: z.string(),
  languageCode: z.string().nullable(),
  count: z.number().int(),
});

export const EntryListInputSchema = z.object({
  'dictionary-id': z.number().int().positive().max(MAX_ID),
  state: z.string().max(64).optional(),
  'language-code': z.string().trim().toLowerCase().max(64).optional(),
  size: z.number().int().min(1).max(1000).default(100),
  page: z.number().int().min(0).max(1_000_000).default(0),
});
export const EntryListItemSchema = z.object({
  conceptId: z.number().int(),
  languageCode: z.string().nullable(),
  termId: z.number().int().nullable(),
  state: z.string(),
});

/**
 * The governing workflow, the readable sections and the states the caller may not see
 * (workflow-visibility.ts: unpublished ones for guests and non-reviewers), or 400 when none governs the
 * dictionary.
 */
async function governed(scope: Scope, dictionaryId: number) {
  const dictionary = await readableDictionary(scope, dictionaryId);
  const workflow = await enabledWorkflow(scope.em, dictionary.id);
  if (!workflow) throw new AppError('BAD_REQUEST', 'No workflow is enabled for this dictionary');
  const sections = `{${[...(await readableSectionIds(scope, [dictionary.id]))].join(',')}}`;
  const unseen = await unseenStates(scope, governingOf(workflow, dictionary.oid ?? null));
  return { dictionary, workflow, sections, unseen };
}

/** A workflow entity as the visibility rule reads it. */
export const governingOf = (workflow: Workflow, dictionaryOid: string | null): GoverningWorkflow => ({
  id: workflow.id,
  dictionaryId: workflow.dictionary.id,
  dictionaryOid,
  unit: workflow.unit,
  definition: workflow.definition,
});

/** Entries per state and language, over the concepts of sections the caller reads, in states they see. */
export async function stateCounts(scope: Scope, dictionaryId: number) {
  const { dictionary, workflow, sections, unseen } = await governed(scope, dictionaryId);
  return countStates(scope.em, workflow, dictionary.id, sections, unseen);
}

/**
 * An entry row `e` (left-joined: null is the initial state) in none of the unseen states; a stored key
 * the definition lost counts as the initial state, as statesOf reads it.
 */
const SEEN_STATE = `(case when e.state = any(?::text[]) then e.state else ? end) <> all(?::text[])`;
const seenParams = (workflow: Workflow, unseen: readonly string[]) => [
  `{${workflow.definition.states.map((state) => state.key).join(',')}}`,
  workflow.definition.initialState,
  `{${unseen.join(',')}}`,
];

/**
 * Entries per state and language of a dictionary's sections (a Postgres int array literal), entries that
 * never moved in the initial state, leaving out the `unseen` states: one statement, the entries' rows
 * joined on their unique index. The dictionary statistics (src/modules/statistics) include it.
 */
export async function countStates(
  em: EntityManager,
  workflow: Workflow,
  dictionaryId: number,
  sections: string,
  unseen: readonly string[],
) {
  const keys = entryKeysSql(workflow, 'c.dictionary_id = ? and c.section_id = any(?::int[])');
  const rows = await em.execute<{ state: string; language_code: string; count: number }[]>(
    `select coalesce(e.state, ?) as state, k.language_code, count(*)::int as count
       from (${keys}) k
       left join workflow_entry_states e
         on e.workflow_id = ? and e.concept_id = k.concept_id and e.language_code = k.language_code and e.term_id = k.term_id
      where ${SEEN_STATE}
      group by 1, 2 order by 1, 2`,
    [workflow.definition.initialState, dictionaryId, sections, workflow.id, ...seenParams(workflow, unseen)],
  );
  return rows.map((row) => ({ state: row.state, languageCode: row.language_code || null, count: row.count }));
}

/** One page of the entries in a state (and language), by concept id. */
export async function entriesInState(scope: Scope, input: z.infer<typeof EntryListInputSchema>) {
  const { dictionary, workflow, sections, unseen } = await governed(scope, input['dictionary-id']);
  const keys = entryKeysSql(workflow, 'c.dictionary_id = ? and c.section_id = any(?::int[])');
  const rows = await scope.em.execute<
    { concept_id: number; language_code: string; term_id: number; state: string }[]
  >(
    `select k.concept_id, k.language_code, k.term_id, coalesce(e.state, ?) as state
       from (${keys}) k
       left join workflow_entry_states e
         on e.workflow_id = ? and e.concept_id = k.concept_id and e.language_code = k.language_code and e.term_id = k.term_id
      where (?::text is null or coalesce(e.state, ?) = ?) and (?::text is null or k.language_code = ?)
        and ${SEEN_STATE}
      order by k.concept_id, k.language_code, k.term_id limit ? offset ?`,
    [
      workflow.definition.initialState,
      dictionary.id,
      sections,
      workflow.id,
      input.state ?? null,
      workflow.definition.initialState,
      input.state ?? null,
      input['language-code'] ?? null,
      input['language-code'] ?? null,
      ...seenParams(workflow, unseen),
      input.size,
      input.page * input.size,
    ],
  );
  return rows.map((row) => ({
    conceptId: row.concept_id,
    languageCode: row.language_code || null,
    termId: row.term_id || null,
    state: row.state,
  }));
}
