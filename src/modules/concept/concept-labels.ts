/**
 * Display labels of several concepts at once (issue 28: the task inbox, any list of concept ids): for
 * each concept the term a person would call it by, read in one statement for the whole list and filtered
 * by the same rules as a concept read (readable sections of the caller's client) and a term list (the
 * workflow's hidden and unpublished states), so a label never shows what the caller could not open.
 */
import { z } from 'zod';
import { queryIdList } from '../../shared/ids.js';
import type { Scope } from '../../shared/scope.js';
import { readableSectionIds } from '../access/access.service.js';
import { visibleTermsWithStates } from '../workflow/workflow-effects.js';

export const ConceptLabelsInputSchema = z.object({
  ids: queryIdList()
    .refine((ids) => ids.length >= 1 && ids.length <= 500, 'ids: 1 to 500 concept ids')
    .describe('concept ids; unknown, deleted or unreadable ones are left out of the answer'),
  languages: z
    .union([z.array(z.string().max(64)), z.string().max(3200)])
    .default([])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(','))
        .map((code) => code.trim().toLowerCase())
        .filter((code) => code !== ''),
    )
    .refine((codes) => codes.length <= 50, 'languages: at most 50')
    .describe('languages in order of preference (the working languages), repeated or comma-separated'),
});
export type ConceptLabelsInput = z.infer<typeof ConceptLabelsInputSchema>;

export const ConceptLabelSchema = z.object({
  id: z.number().int(),
  dictionaryId: z.number().int(),
  label: z
    .string()
    .nullable()
    .describe('the first term in the first preferred language it has; null: no term'),
  languageCode: z.string().nullable(),
});
export type ConceptLabel = z.infer<typeof ConceptLabelSchema>;

interface Row {
  concept_id: number;
  dictionary_id: number;
  section_id: number;
  term_id: number | null;
  name: string | null;
  language_code: string | null;
}

/**
 * Labels of the concepts the caller may read, in the order asked. The preferred term is the first
 * term entered in a language (lowest id), as in the concept view; without one of the languages asked,
 * the first term of the concept.
 */
export async function conceptLabels(scope: Scope, input: ConceptLabelsInput): Promise<ConceptLabel[]> {
  const ids = [...new Set(input.ids)];
  // Client first: another client's concept is never read, whatever its id.
  const rows = await scope.em.execute<Row[]>(
    `select c.id as concept_id, c.dictionary_id, c.section_id, t.id as term_id, t.name, t.language_code
       from concepts c
       join dictionaries d on d.id = c.dictionary_id and not d.deleted
       left join terms t on t.concept_id = c.id and not t.deleted
      where c.client_id = ? and not c.deleted and c.id in (?)
      order by c.id, t.id`,
    [scope.actor.clientId, ids],
  );
  if (rows.length === 0) return [];
  const readable = await readableSectionIds(scope, [...new Set(rows.map((row) => row.dictionary_id))]);
  const allowed = rows.filter((row) => readable.has(row.section_id));
  const terms = allowed
    .filter((row) => row.term_id !== null)
    .map((row) => ({
      id: row.term_id!,
      dictionaryId: row.dictionary_id,
      conceptId: row.concept_id,
      langCode: row.language_code!,
      name: row.name!,
    }));
  const visible = await visibleTermsWithStates(scope, terms);
  const termsOf = new Map<number, typeof terms>();
  for (const { term } of visible) termsOf.set(term.conceptId, [...(termsOf.get(term.conceptId) ?? []), term]);
  const conceptOf = new Map(allowed.map((row) => [row.concept_id, row.dictionary_id]));
  const order = input.languages;
  return ids.flatMap((id): ConceptLabel[] => {
    const dictionaryId = conceptOf.get(id);
    if (dictionaryId === undefined) return [];
    const own = termsOf.get(id) ?? [];
    const chosen =
      order.map((code) => own.find((term) => term.langCode.toLowerCase() === code)).find(Boolean) ?? own[0];
    return [{ id, dictionaryId, label: chosen?.name ?? null, languageCode: chosen?.langCode ?? null }];
  });
}
