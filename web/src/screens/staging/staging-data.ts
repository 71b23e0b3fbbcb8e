import type { trpc } from '../../api';
import type { Concept, Dictionary } from '../../data';

/** The shapes the staging API answers (src/modules/staging/staging.schema.ts, docs/staging.md). */
export type StagingArea = Awaited<ReturnType<typeof trpc.staging.getArea.query>>;
export type StagedEntry = Awaited<ReturnType<typeof trpc.staging.listEntries.query>>['content'][number];
export type StagedEntryDetail = Awaited<ReturnType<typeof trpc.staging.getEntry.query>>;
export type StagedContent = StagedEntry['entry'];
export type StagedValue = StagedContent['values'][number];
export type StagedTerm = StagedContent['languages'][number]['terms'][number];
export type StagingChange = StagedEntryDetail['diff']['changes'][number];
export type BulkResult = Awaited<ReturnType<typeof trpc.staging.acceptEntries.mutate>>;

export const STAGED_STATUSES = ['PENDING', 'ACCEPTED', 'REJECTED'] as const;
export const STAGED_SOURCES = ['IMPORT', 'SUGGESTION'] as const;
export const MERGE_MODES = ['ENTRY_ID', 'TERM', 'NONE'] as const;
export type MergeMode = (typeof MERGE_MODES)[number];

/** An empty entry with one term in `lang`: what a new suggestion starts from. */
export function emptyContent(lang: string): StagedContent {
  return {
    id: null,
    values: [],
    languages: [{ lang, values: [], terms: [{ id: null, term: '', values: [] }] }],
  };
}

/**
 * A concept as a staged entry (for "Suggest a change"): its values named by their field's name, as the
 * import's merge maps them back; attachment fields and domains stay as they are (not offered here).
 */
export function contentOfConcept(concept: Concept, dictionary: Dictionary | undefined): StagedContent {
  const fields = new Map(
    [...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])]
      .filter((field) => field.fieldType !== 'ATTACHMENT')
      .map((field) => [field.oid ?? '', field.name]),
  );
  const valuesOf = (map: Record<string, string[]> | undefined): StagedValue[] =>
    Object.entries(map ?? {}).flatMap(([oid, values]) => {
      const category = fields.get(oid);
      return category ? values.map((value) => ({ category, value })) : [];
    });
  const codes = [
    ...new Set([
      ...(concept.terms ?? []).map((term) => term.languageCode),
      ...(concept.languageFields ?? []).map((row) => row.languageCode),
    ]),
  ];
  return {
    id: null,
    values: valuesOf(concept.fieldMap),
    languages: codes.map((lang) => ({
      lang,
      values: (concept.languageFields ?? [])
        .filter((row) => row.languageCode === lang && !row.regionCode && !row.scriptCode)
        .flatMap((row) => valuesOf(row.fieldMap)),
      terms: (concept.terms ?? [])
        .filter((term) => term.languageCode === lang)
        .map((term) => ({ id: null, term: term.name, values: valuesOf(term.fieldMap) })),
    })),
  };
}

/** What the server takes: no empty terms, values or languages. */
export function cleanContent(content: StagedContent): StagedContent {
  const values = (list: StagedValue[]) =>
    list
      .filter((v) => v.category.trim() !== '' && v.value.trim() !== '')
      .map((v) => ({ ...v, category: v.category.trim() }));
  return {
    ...content,
    values: values(content.values),
    languages: content.languages
      .map((section) => ({
        ...section,
        values: values(section.values),
        terms: section.terms
          .filter((term) => term.term.trim() !== '')
          .map((term) => ({ ...term, term: term.term.trim(), values: values(term.values) })),
      }))
      .filter((section) => section.terms.length > 0 || section.values.length > 0),
  };
}

/** Whether the entry holds a term (the server refuses a suggestion without one). */
export const hasTerm = (content: StagedContent) =>
  content.languages.some((section) => section.terms.some((term) => term.term.trim() !== ''));

/**
 * The dictionary's language a staged language tag stands for: by code (`eng`), by its two-letter code
 * (`en`, as TBX files write it) or by the tag's primary part (`en-US`); undefined when none does.
 */
export function languageOf(dictionary: Dictionary | undefined, lang: string) {
  const tag = lang.toLowerCase();
  const primary = tag.split(/[-_]/)[0];
  const languages = dictionary?.languages ?? [];
  return (
    languages.find((l) => l.code.toLowerCase() === tag || l.code2?.toLowerCase() === tag) ??
    languages.find((l) => l.code.toLowerCase() === primary || l.code2?.toLowerCase() === primary)
  );
}

/** A staged language tag by the dictionary's name for it (the tag itself where it names none). */
export const languageName = (dictionary: Dictionary | undefined, lang: string) =>
  languageOf(dictionary, lang)?.name ?? lang;
