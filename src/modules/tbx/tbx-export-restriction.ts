/**
 * What an export of any format (TBX, MultiTerm XML, CSV, XLSX, SKOS) is restricted to: languages, fields,
 * a filter's criteria and a saved query's concepts, checked against the dictionary (400 naming an unknown
 * language, field, filter or saved query) and turned into SQL on the concepts (alias c) and terms (alias t)
 * it reads.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { Field } from '../field/field.entity.js';
import { getFilter } from '../filter/filter.service.js';
import type { FilterCriteria } from '../filter/filter-criteria.js';
import { criteriaSql, type Sql } from '../filter/filter-sql.js';
import type { Language } from '../language/language.entity.js';
import { savedQueryConcepts } from '../saved-query/saved-query-concepts.js';

export interface ExportRestrictionInput {
  /** Language codes (ISO 639-2 or 639-1, or a custom language's code); empty: all. */
  languages: readonly string[];
  /** Field oids; empty: all. */
  fields: readonly string[];
  filterId?: number;
  /** The caller's saved query (docs/exchange.md): only the concepts its search finds. */
  savedQueryId?: number | undefined;
}

/** Hits (terms) a saved query may find for an export; more is 400 rather than a partial file. */
export const SAVED_QUERY_EXPORT_LIMIT = 100_000;

export interface ExportRestriction {
  conceptWhere: Sql[];
  termWhere: Sql[];
  /** The dictionary's spelling of the languages asked for; null: all. */
  languageCodes: Set<string> | null;
  /** The fields written; null: all. */
  fieldOids: Set<string> | null;
}

export async function exportRestriction(
  scope: Scope,
  dictionaryId: number,
  input: ExportRestrictionInput,
  fields: readonly Pick<Field, 'oid'>[],
  languages: readonly Pick<Language, 'code' | 'code2' | 'code3'>[],
): Promise<ExportRestriction> {
  for (const oid of input.fields) {
    if (!fields.some((field) => field.oid === oid)) {
      throw new AppError('BAD_REQUEST', `fields: "${oid}" is not a field of dictionary ${dictionaryId}`);
    }
  }
  const conceptWhere: Sql[] = [];
  const termWhere: Sql[] = [];
  let languageCodes: Set<string> | null = null;
  if (input.languages.length) {
    const codes = input.languages.map((code) => {
      const wanted = code.trim().toLowerCase();
      const language = languages.find((l) =>
        [l.code, l.code2, l.code3].some((c) => c?.toLowerCase() === wanted),
      );
      if (!language) {
        throw new AppError(
          'BAD_REQUEST',
          `languages: "${code}" is not a language of dictionary ${dictionaryId}`,
        );
      }
      return language.code;
    });
    termWhere.push({ text: 't.language_code in (?)', params: [codes] });
    languageCodes = new Set(codes);
  }
  if (input.filterId !== undefined) {
    // FULL answers every member; the type leaves them optional for the other formats.
    const filter: { id: number; dictionaryId?: number; criteria?: FilterCriteria } = await getFilter(
      scope,
      input.filterId,
      'FULL',
      false,
    );
    if (filter.dictionaryId !== dictionaryId || !filter.criteria) {
      throw new AppError('BAD_REQUEST', `filter-id: filter ${input.filterId} belongs to another dictionary`);
    }
    await criteriaSql(scope.em, dictionaryId, filter.criteria, conceptWhere, termWhere);
  }
  if (input.savedQueryId !== undefined) {
    const selection = await savedQueryConcepts(
      scope,
      input.savedQueryId,
      [dictionaryId],
      SAVED_QUERY_EXPORT_LIMIT,
      'saved-query-id',
    );
    if (selection.truncated) {
      throw new AppError(
        'BAD_REQUEST',
        `saved-query-id: saved query ${input.savedQueryId} finds more than ${SAVED_QUERY_EXPORT_LIMIT} terms; export with a filter instead`,
      );
    }
    conceptWhere.push({ text: 'c.id = any(?::int[])', params: [`{${selection.conceptIds.join(',')}}`] });
  }
  return {
    conceptWhere,
    termWhere,
    languageCodes,
    fieldOids: input.fields.length ? new Set(input.fields) : null,
  };
}
