/**
 * Staged content is the import's entry model (tbx-model.ts), stored as JSON. Reading it back revives
 * its dates; content a user writes (a suggestion, an edit) becomes that model the way a file's would.
 */
import type { TbxEntry, TbxValue } from '../tbx/tbx-model.js';
import type { StagedContent } from './staging.schema.js';

type Stored = Omit<TbxEntry, 'transactions'> & {
  transactions?: { kind: 'created' | 'changed'; date: string | Date | null; responsibility: string | null }[];
};

const revived = (transactions: Stored['transactions']) =>
  (transactions ?? []).map((t) => ({ ...t, date: t.date === null ? null : new Date(t.date) }));

/** An entry as stored (JSON), with its transaction dates as dates again. */
export function reviveEntry(stored: unknown): TbxEntry {
  const entry = stored as Stored;
  return {
    ...entry,
    values: entry.values ?? [],
    transactions: revived(entry.transactions),
    languages: (entry.languages ?? []).map((language) => ({
      ...language,
      values: language.values ?? [],
      terms: (language.terms ?? []).map((term) => ({
        ...term,
        values: term.values ?? [],
        transactions: revived((term as { transactions?: Stored['transactions'] }).transactions),
      })),
    })),
  };
}

/** The element a value a user wrote comes in, as a TBX file would carry it. */
const userValue =
  (element: string) =>
  (value: StagedContent['values'][number]): TbxValue => ({
    category: value.category,
    element: value.element ?? (value.category === 'note' ? 'note' : element),
    value: value.value,
    ...(value.target ? { target: value.target } : {}),
  });

/** Content a user wrote as the entry model (line: where the edited entry came from, if it did). */
export function entryFromContent(content: StagedContent, line = 0): TbxEntry {
  return {
    id: content.id ?? null,
    values: content.values.map(userValue('descrip')),
    transactions: [],
    line,
    languages: content.languages.map((language) => ({
      lang: language.lang,
      values: language.values.map(userValue('descrip')),
      terms: language.terms.map((term) => ({
        id: term.id ?? null,
        term: term.term,
        values: term.values.map(userValue('termNote')),
        transactions: [],
        line,
      })),
    })),
  };
}
