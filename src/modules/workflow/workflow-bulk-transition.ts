/**
 * Bulk transitions (docs/workflows.md): one transition over a list of concept ids or a filter (state,
 * language), run as a job in batches of set-based SQL. The rules of a single move hold for each entry:
 * the caller must be named by the transition (else 403 before anything runs), entries of sections the
 * caller cannot read or in other states are left alone; entries failing the condition or required
 * fields are skipped and listed in the result with the reason. A voted transition casts the caller's
 * vote on each entry (those whose votes then decide move); SET_FIELD actions apply to the moved entries
 * (workflow-bulk-actions.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { MAX_ID } from '../../shared/ids.js';
import type { Scope } from '../../shared/scope.js';
import { accessSubject, readableSectionIds } from '../access/access.service.js';
import type { FieldValues } from '../concept/concept.entity.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { runAsJob } from '../jobs/job-runner.js';
import type { Workflow } from './workflow.entity.js';
import { enabledWorkflow } from './workflow.service.js';
import { type BulkEntry, materializeEntries, moveEntries } from './workflow-bulk.js';
import type { BulkTransitionResult, SkippedEntry } from './workflow-bulk.schema.js';
import { castVotes, refreshSnapshots, setFields, skippedEntry } from './workflow-bulk-actions.js';
import { assignAndNotify, entryPeople } from './workflow-bulk-notify.js';
import type { WorkflowTransition } from './workflow-definition.js';
import { conditionHolds, mayFire, missingFields } from './workflow-rules.js';

const BATCH = 5_000;
/** Skipped entries listed in the result (skippedCount counts them all). */
const MAX_LISTED = 1_000;

export const BulkTransitionInputSchema = z.object({
  dictionaryId: z.number().int().positive().max(MAX_ID),
  transition: z.string().min(1).max(64),
  comment: z.string().trim().max(4000).optional(),
  conceptIds: z
    .array(z.number().int().positive().max(MAX_ID))
    .max(200_000)
    .optional()
    .describe('the concepts whose entries move; absent: every concept of the dictionary'),
  state: z.string().max(64).optional().describe('only entries in this state'),
  languageCode: z.string().trim().toLowerCase().max(64).optional().describe('only entries of this language'),
});
export type BulkTransitionInput = z.infer<typeof BulkTransitionInputSchema>;

/** Checks what can be checked at once, then runs the moves as a job; the result is the number moved. */
export async function bulkTransition(scope: Scope, input: BulkTransitionInput) {
  const run = await prepareBulkTransition(scope, input);
  return runAsJob(scope, 'workflows.bulk-transition', run, { answerWhenLate: true });
}

/**
 * The checks of a bulk transition (403 when the transition does not name the caller, 400 for an unknown
 * transition or a missing comment), made before anything moves; the answer runs the moves in the
 * EntityManager given. Completing a project's assignment checks every dictionary first, then runs them
 * all in one transaction (project-assignments.ts).
 */
export async function prepareBulkTransition(
  scope: Scope,
  input: BulkTransitionInput,
): Promise<(em: EntityManager, progress?: (done: number) => Promise<void>) => Promise<BulkTransitionResult>> {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot move entries through a workflow');
  const dictionary = await readableDictionary(scope, input.dictionaryId);
  const workflow = await enabledWorkflow(scope.em, dictionary.id);
  if (!workflow) throw new AppError('BAD_REQUEST', 'No workflow is enabled for this dictionary');
  const transition = workflow.definition.transitions.find((t) => t.key === input.transition);
  if (!transition) throw new AppError('BAD_REQUEST', `The workflow has no transition ${input.transition}`);
  if (transition.commentRequired && !input.comment) {
    throw new AppError('BAD_REQUEST', `${transition.key} needs a comment`);
  }
  const subject = await accessSubject(scope);
  const languages = transition.languages.length ? transition.languages : null;
  const named = mayFire(scope.actor, subject.groupIds, dictionary, { ...transition, languages: [] }, '');
  if (!named) throw new AppError('FORBIDDEN', `You may not fire ${transition.key}`);
  const sections = [...(await readableSectionIds(scope, [dictionary.id]))];
  const notifies = transition.actions.some((action) => action.type !== 'SET_FIELD');
  return async (em, progress) => {
    await materializeAll(em, workflow, input.conceptIds);
    const result: BulkTransitionResult = { moved: 0, waiting: 0, skippedCount: 0, skipped: [] };
    const skip = (skipped: readonly SkippedEntry[]) => {
      result.skippedCount += skipped.length;
      result.skipped.push(...skipped.slice(0, MAX_LISTED - result.skipped.length));
    };
    let after = '0';
    for (;;) {
      const batch = await em.transactional(async (tx) => {
        const entries = await candidates(tx, workflow, transition, input, sections, languages, after);
        const { passing, skipped } = await passingEntries(tx, transition, entries);
        let moving = passing;
        if (transition.votes) {
          const votes = await castVotes(tx, workflow, transition, passing, {
            userId: scope.actor.userId,
            comment: input.comment ?? null,
          });
          moving = votes.decided;
          result.waiting += votes.waiting.length;
          skipped.push(...votes.repeated.map((entry) => skippedEntry(entry, 'you voted on it already')));
        }
        const people = notifies ? await entryPeople(tx, moving) : new Map();
        // SET_FIELD first: its changes (old and new values) go into the moves' history items.
        const fields = await setFields(tx, transition, moving);
        await moveEntries(
          tx,
          workflow,
          moving,
          {
            to: transition.to,
            transition: transition.key,
            comment: input.comment ?? null,
            userId: scope.actor.userId,
          },
          fields.changes,
        );
        await refreshSnapshots(tx, transition, moving, fields.termIds);
        await assignAndNotify(scope, tx, workflow, transition, moving, people, input.comment ?? null);
        return { last: entries.at(-1)?.id ?? null, count: entries.length, moved: moving.length, skipped };
      });
      result.moved += batch.moved;
      skip(batch.skipped);
      await progress?.(result.moved);
      if (batch.count < BATCH || batch.last === null) break;
      after = batch.last;
    }
    return result;
  };
}

async function materializeAll(
  em: EntityManager,
  workflow: Workflow,
  conceptIds: readonly number[] | undefined,
) {
  const ids =
    conceptIds ??
    (
      await em.execute<{ id: number }[]>('select id from concepts where dictionary_id = ? and not deleted', [
        workflow.dictionary.id,
      ])
    ).map((row) => row.id);
  for (let start = 0; start < ids.length; start += BATCH) {
    await em.transactional((tx) => materializeEntries(tx, workflow, ids.slice(start, start + BATCH)));
  }
}

/** The next batch of entries the transition leaves from, in readable sections, by id. */
function candidates(
  em: EntityManager,
  workflow: Workflow,
  transition: WorkflowTransition,
  input: BulkTransitionInput,
  sections: readonly number[],
  languages: readonly string[] | null,
  after: string,
) {
  const from = input.state ? transition.from.filter((state) => state === input.state) : transition.from;
  return em.execute<BulkEntry[]>(
    `select e.id::text as id, e.concept_id, e.language_code, e.term_id, e.state
       from workflow_entry_states e join concepts c on c.id = e.concept_id
      where e.workflow_id = ? and e.id > ?::bigint and e.state = any(?::text[])
        and not c.deleted and c.section_id = any(?::int[])
        and (?::text is null or e.language_code = ?)
        and (?::text[] is null or e.language_code = any(?::text[]))
        and (?::int[] is null or e.concept_id = any(?::int[]))
      order by e.id limit ? for update of e skip locked`,
    [
      workflow.id,
      after,
      `{${from.join(',')}}`,
      `{${sections.join(',')}}`,
      input.languageCode ?? null,
      input.languageCode ?? null,
      languages ? `{${languages.join(',')}}` : null,
      languages ? `{${languages.join(',')}}` : null,
      input.conceptIds ? `{${input.conceptIds.join(',')}}` : null,
      input.conceptIds ? `{${input.conceptIds.join(',')}}` : null,
      BATCH,
    ],
  );
}

/**
 * The entries whose fields meet the condition and the required fields (two queries per batch), and the
 * others with their reason.
 */
async function passingEntries(
  em: EntityManager,
  transition: WorkflowTransition,
  entries: readonly BulkEntry[],
): Promise<{ passing: BulkEntry[]; skipped: SkippedEntry[] }> {
  if (transition.condition.length === 0 && transition.requiredFields.length === 0) {
    return { passing: [...entries], skipped: [] };
  }
  const conceptIds = `{${[...new Set(entries.map((entry) => entry.concept_id))].join(',')}}`;
  const concepts = await em.execute<{ id: number; field_map: FieldValues }[]>(
    'select id, field_map from concepts where id = any(?::int[])',
    [conceptIds],
  );
  const terms = await em.execute<
    { id: number; concept_id: number; language_code: string; field_map: FieldValues }[]
  >(
    'select id, concept_id, language_code, field_map from terms where concept_id = any(?::int[]) and not deleted',
    [conceptIds],
  );
  const conceptFields = new Map(concepts.map((row) => [row.id, row.field_map]));
  const termsOf = new Map<number, typeof terms>();
  for (const term of terms) {
    const list = termsOf.get(term.concept_id);
    if (list) list.push(term);
    else termsOf.set(term.concept_id, [term]);
  }
  const passing: BulkEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const entry of entries) {
    const own = (termsOf.get(entry.concept_id) ?? []).filter((term) =>
      entry.term_id
        ? term.id === entry.term_id
        : !entry.language_code || term.language_code === entry.language_code,
    );
    const fields = {
      concept: conceptFields.get(entry.concept_id) ?? {},
      terms: own.map((term) => term.field_map),
    };
    const missing = missingFields(transition, fields);
    if (!conditionHolds(transition, fields)) {
      skipped.push(skippedEntry(entry, `the condition of ${transition.key} does not hold`));
    } else if (missing.length) {
      skipped.push(skippedEntry(entry, `required fields are empty: ${missing.join(', ')}`));
    } else passing.push(entry);
  }
  return { passing, skipped };
}
