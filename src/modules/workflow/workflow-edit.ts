/**
 * What an edit of a concept does to its workflow entries, in the edit's own transaction: an edit of a
 * term or of language values in a read-only state is refused, and an edit of an approved entry re-opens
 * it (unless the workflow keeps approvals), which the edit's history item shows as WORKFLOW changes.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import type { Concept } from '../concept/concept.entity.js';
import type { HistoryChange } from '../history/history.types.js';
import type { Workflow } from './workflow.entity.js';
import { enabledWorkflow } from './workflow.service.js';
import { stateOf } from './workflow-definition.js';

interface EntryKey {
  languageCode: string;
  termId: number;
}

/**
 * The language a LANGUAGE_FIELD change's tag (`eng`, `eng-GB`, `srp-Latn`) belongs to: the longest of the
 * dictionary's language codes the tag is or starts with (custom codes may contain '-'), as stored.
 */
export function languageOfTag(tag: string, codes: readonly string[]): string | null {
  const lower = tag.toLowerCase();
  let best: string | null = null;
  for (const code of codes) {
    const c = code.toLowerCase();
    if ((lower === c || lower.startsWith(`${c}-`)) && c.length > (best?.length ?? -1)) best = code;
  }
  return best;
}

/**
 * The languages whose language values an edit changed (LANGUAGE_FIELD changes, by tag); one statement
 * for the dictionary's language codes, none without such changes.
 */
async function valueLanguages(
  em: EntityManager,
  dictionaryId: number,
  changes: readonly HistoryChange[],
): Promise<string[]> {
  const tags = [
    ...new Set(
      changes.flatMap((change) =>
        change.subject === 'LANGUAGE_FIELD' && change.language ? [change.language] : [],
      ),
    ),
  ];
  if (tags.length === 0) return [];
  const codes = (
    await em.execute<{ code: string }[]>('select distinct code from languages where dictionary_id = ?', [
      dictionaryId,
    ])
  ).map((row) => row.code);
  return tags.map((tag) => languageOfTag(tag, codes)).filter((code): code is string => code !== null);
}

/**
 * The entries an edit touches, under the workflow's unit: the concept; the languages of changed terms
 * and of changed language values; the changed terms (language values belong to no term).
 */
async function touchedEntries(
  em: EntityManager,
  workflow: Workflow,
  changes: readonly HistoryChange[],
): Promise<EntryKey[]> {
  if (workflow.unit === 'CONCEPT') return [{ languageCode: '', termId: 0 }];
  const termIds = [...new Set(changes.map((change) => change.termId).filter((id): id is number => !!id))];
  const terms = termIds.length
    ? await em.execute<{ id: number; language_code: string }[]>(
        'select id, language_code from terms where id in (?)',
        [termIds],
      )
    : [];
  if (workflow.unit === 'TERM')
    return terms.map((term) => ({ languageCode: term.language_code, termId: term.id }));
  const languages = await valueLanguages(em, workflow.dictionary.id, changes);
  return [...new Set([...terms.map((term) => term.language_code), ...languages])].map((code) => ({
    languageCode: code,
    termId: 0,
  }));
}

/** Runs after an edit's history item is built; answers the WORKFLOW changes to add to it. */
export async function workflowAfterEdit(
  em: EntityManager,
  concept: Concept,
  changes: readonly HistoryChange[],
  userId: number,
): Promise<HistoryChange[]> {
  if (changes.length === 0) return [];
  const workflow = await enabledWorkflow(em, concept.dictionary.id);
  if (!workflow) return [];
  const touched = await touchedEntries(em, workflow, changes);
  if (touched.length === 0) return [];
  const definition = workflow.definition;
  const rows = await em.execute<{ id: string; language_code: string; term_id: number; state: string }[]>(
    `select e.id::text as id, e.language_code, e.term_id, e.state from workflow_entry_states e
       join jsonb_to_recordset(?::jsonb) k("languageCode" text, "termId" int)
         on e.language_code = k."languageCode" and e.term_id = k."termId"
      where e.workflow_id = ? and e.concept_id = ? for update of e`,
    [JSON.stringify(touched), workflow.id, concept.id],
  );
  const stored = new Set(rows.map((row) => `${row.language_code}|${row.term_id}`));
  const states = [
    ...rows.map((row) => row.state),
    ...touched
      .filter((key) => !stored.has(`${key.languageCode}|${key.termId}`))
      .map(() => definition.initialState),
  ];
  const readOnly = states.map((key) => stateOf(definition, key)).find((state) => state.readOnly);
  if (readOnly) throw new AppError('FORBIDDEN', `Entries in state "${readOnly.name}" are read-only`);
  if (definition.onEditOfApproved === 'KEEP') return [];
  const approved = rows.filter((row) => stateOf(definition, row.state).category === 'APPROVED');
  if (approved.length === 0) return [];
  const to = stateOf(definition, definition.reopenState ?? definition.initialState);
  await em.execute(
    `update workflow_entry_states set state = ?, category = ?, version = version + 1, entered_at = now(), entered_by_id = ?, revalidate_at = null
      where id in (?)`,
    [to.key, to.category, userId, approved.map((row) => row.id)],
  );
  await em.execute('delete from workflow_votes where entry_state_id in (?)', [approved.map((row) => row.id)]);
  await em.execute(
    `insert into workflow_transitions (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id, transition, from_state, to_state, user_id, comment)
     select ?, ?, ?, ?, r."languageCode", r."termId", null, r."fromState", ?, ?, 'Re-opened by an edit'
       from jsonb_to_recordset(?::jsonb) r("languageCode" text, "termId" int, "fromState" text)`,
    [
      workflow.client.id,
      workflow.dictionary.id,
      workflow.id,
      concept.id,
      to.key,
      userId,
      JSON.stringify(
        approved.map((row) => ({
          languageCode: row.language_code,
          termId: row.term_id,
          fromState: row.state,
        })),
      ),
    ],
  );
  return approved.map((row) => ({
    kind: 'CHANGED',
    subject: 'WORKFLOW',
    ...(row.term_id ? { termId: row.term_id } : {}),
    before: { state: row.state },
    after: { state: to.key, languageCode: row.language_code || undefined, comment: 'Re-opened by an edit' },
  }));
}
