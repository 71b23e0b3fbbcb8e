/**
 * The task inbox (docs/workflows.md): the entries assigned to the caller (ASSIGN actions), newest move
 * first, by dictionary and language. Entries of concepts the caller cannot read are left out.
 */
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { MAX_ID } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import type { Scope } from '../../shared/scope.js';
import { readableConcepts } from '../concept/concept-access.js';

export const InboxInputSchema = z.object({
  assignee: z.literal('me').default('me').describe('only "me": the caller'),
  'dictionary-id': z.number().int().positive().max(MAX_ID).optional(),
  'language-code': z.string().trim().toLowerCase().max(64).optional(),
  open: queryBoolean()
    .default(false)
    .describe(
      'true: open tasks only, entries in a DRAFT or REVIEW state (approved, rejected and retired ones are done)',
    ),
  size: z.number().int().min(1).max(1000).default(100),
  page: z.number().int().min(0).max(1_000_000).default(0),
});
export type InboxInput = z.infer<typeof InboxInputSchema>;

export const InboxItemSchema = z.object({
  dictionaryId: z.number().int(),
  conceptId: z.number().int(),
  languageCode: z.string().nullable(),
  termId: z.number().int().nullable(),
  state: z.string(),
  category: z.string(),
  version: z.number().int(),
  enteredAt: z.number().int().nullable(),
});

/** One page of the caller's assigned entries (the assignee index serves the filter and the order). */
export async function inbox(scope: Scope, input: InboxInput) {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests have no inbox');
  const rows = await scope.em.execute<
    {
      dictionary_id: number;
      concept_id: number;
      language_code: string;
      term_id: number;
      state: string;
      category: string;
      version: number;
      entered_at: Date | null;
    }[]
  >(
    `select dictionary_id, concept_id, language_code, term_id, state, category, version, entered_at
       from workflow_entry_states
      where assignee_id = ? and client_id = ?
        and (?::int is null or dictionary_id = ?) and (?::text is null or language_code = ?)
        and workflow_id in (select id from workflows where enabled)
        and (not ? or category in ('DRAFT', 'REVIEW'))
      order by entered_at desc nulls last, id desc limit ? offset ?`,
    [
      scope.actor.userId,
      scope.actor.clientId,
      input['dictionary-id'] ?? null,
      input['dictionary-id'] ?? null,
      input['language-code'] ?? null,
      input['language-code'] ?? null,
      input.open,
      input.size,
      input.page * input.size,
    ],
  );
  const readable = new Set(
    (
      await readableConcepts(
        scope,
        rows.map((row) => row.concept_id),
      )
    ).map((loaded) => loaded.concept.id),
  );
  return rows
    .filter((row) => readable.has(row.concept_id))
    .map((row) => ({
      dictionaryId: row.dictionary_id,
      conceptId: row.concept_id,
      languageCode: row.language_code || null,
      termId: row.term_id || null,
      state: row.state,
      category: row.category,
      version: row.version,
      enteredAt: row.entered_at ? new Date(row.entered_at).getTime() : null,
    }));
}
