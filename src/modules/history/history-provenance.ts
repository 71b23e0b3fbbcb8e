/**
 * Provenance on history items (docs/history.md, Provenance): the terms it names follow the workflow's
 * visibility like the rest of an item, so a reader who may not see a term does not learn of its people.
 */
import type { Scope } from '../../shared/scope.js';
import { unseenTermIds } from '../workflow/workflow-visibility.js';
import type { HistoryItemOutput } from './history.schema.js';

/** Leaves out the provenance of terms the caller may not see (one query, only when items name terms). */
export async function hideUnseenProvenance(
  scope: Scope,
  items: HistoryItemOutput[],
): Promise<HistoryItemOutput[]> {
  const termIds = [
    ...new Set(items.flatMap((item) => item.provenance?.terms.map((term) => term.termId) ?? [])),
  ];
  if (termIds.length === 0) return items;
  const rows = await scope.em.execute<
    { id: number; concept_id: number; dictionary_id: number; language_code: string }[]
  >(
    'select id, concept_id, dictionary_id, language_code from terms where id = any(?::int[]) and client_id = ?',
    [`{${termIds.join(',')}}`, scope.actor.clientId],
  );
  const hidden = await unseenTermIds(
    scope,
    rows.map((row) => ({
      dictionaryId: row.dictionary_id,
      conceptId: row.concept_id,
      languageCode: row.language_code,
      termId: row.id,
    })),
  );
  if (hidden.size === 0) return items;
  return items.map((item) =>
    item.provenance
      ? {
          ...item,
          provenance: {
            ...item.provenance,
            terms: item.provenance.terms.filter((term) => !hidden.has(term.termId)),
          },
        }
      : item,
  );
}
