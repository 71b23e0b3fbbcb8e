/**
 * Term search, duplicates and suggestions (docs/search.md). Paging is by cursor over the order
 * (folded, name, id): `searchAfter` continues forward, `searchBefore` goes back, `termOid` opens the
 * list at a term. Engines only answer windows of that order.
 */

import type { z } from 'zod';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import {
  conceptAccessFor,
  conceptAccessInSections,
  isDictionaryAdmin,
  ownerGrantsIn,
  readableSectionIds,
} from '../access/access.service.js';
import { createConcept } from '../concept/concept.service.js';
import { termAllowed } from '../concept/concept-access.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { fieldsOf } from '../field/field.service.js';
import { tbxLanguage } from '../tbx/tbx-languages.js';
import { applyWorkflowToTermList } from '../workflow/workflow-effects.js';
import { HIT_COLUMNS, type HitRow, hitOf } from './postgres-search.js';
import type {
  DuplicatesInputSchema,
  TermListEntry,
  TermSearchInput,
  TermSearchResponse,
  TermSuggestionInput,
} from './search.schema.js';
import { decodeCursor, encodeCursor } from './search-cursor.js';
import { keyOf, type SearchPlan, type SortKey, type TermHit } from './search-plan.js';
import { loadSearchContext, planSearch, type SearchAccess } from './search-request.js';
import { searchRuntimeOf } from './search-runtime.js';

type Direction = 'asc' | 'desc';
const opposite = (direction: Direction): Direction => (direction === 'asc' ? 'desc' : 'asc');

/** The bound that makes a strict window include `key` itself (ids are integers). */
const including = (key: SortKey, direction: Direction): SortKey => [
  key[0],
  key[1],
  direction === 'asc' ? key[2] - 1 : key[2] + 1,
];

interface Page {
  hits: TermHit[];
  total: number;
  /** Terms exist before the first hit / after the last one (in the list's order). */
  before: boolean;
  after: boolean;
  message: string | null;
}

async function pageOf(
  scope: Scope,
  searchAccess: SearchAccess,
  plan: SearchPlan,
  input: TermSearchInput,
  pageSize: number,
): Promise<Page> {
  const engine = searchRuntimeOf(scope.em).engine;
  const order: Direction = input.reverse ? 'desc' : 'asc';
  const fetch = (direction: Direction, bound: SortKey | null, limit: number, withTotal: boolean) =>
    engine.find(plan, { direction, bound, limit }, withTotal);

  if (input.termOid) {
    const anchor = await anchorOf(scope, searchAccess, plan, input.termOid);
    const wantBefore = input.bidirectional ? Math.floor((pageSize - 1) / 2) : 0;
    const forward = await fetch(order, including(anchor.key, order), pageSize + 1, true);
    const backward = await fetch(opposite(order), anchor.key, pageSize + 1, false);
    const takeAfter = Math.min(forward.hits.length, pageSize - Math.min(wantBefore, backward.hits.length));
    const takeBefore = Math.min(backward.hits.length, pageSize - takeAfter);
    return {
      hits: [...backward.hits.slice(0, takeBefore).reverse(), ...forward.hits.slice(0, takeAfter)],
      total: forward.total,
      before: backward.hits.length > takeBefore,
      after: forward.hits.length > takeAfter,
      message: anchor.listed ? null : `Term ${input.termOid} is not in this list; its neighbours are shown`,
    };
  }
  if (input.searchBefore) {
    const cursor = decodeCursor(input.searchBefore, 'searchBefore');
    const { hits, total } = await fetch(opposite(order), cursor, pageSize + 1, true);
    return {
      hits: hits.slice(0, pageSize).reverse(),
      total,
      before: hits.length > pageSize,
      after: true,
      message: null,
    };
  }
  const cursor = input.searchAfter ? decodeCursor(input.searchAfter, 'searchAfter') : null;
  const { hits, total } = await fetch(order, cursor, pageSize + 1, true);
  return {
    hits: hits.slice(0, pageSize),
    total,
    before: cursor !== null,
    after: hits.length > pageSize,
    message: null,
  };
}

/** The term a list opens at: its sort key, and whether it belongs to the list at all. */
async function anchorOf(scope: Scope, searchAccess: SearchAccess, plan: SearchPlan, oid: string) {
  const [row] = await scope.em.execute<
    {
      id: number;
      name: string;
      folded: string;
      dictionary_id: number;
      section_id: number;
      language_code: string;
    }[]
  >(
    `select t.id, t.name, t.name_folded as folded, t.dictionary_id, c.section_id, t.language_code
       from terms t join concepts c on c.id = t.concept_id
      where t.client_id = ? and t.oid = ? and not t.deleted and not c.deleted and t.dictionary_id in (?)`,
    [plan.clientId, oid, plan.dictionaryIds],
  );
  if (!row || !searchAccess.access.readableSections.has(row.section_id)) throw notFound('Term', oid);
  const key: SortKey = [row.folded, row.name, row.id];
  const probe = await searchRuntimeOf(scope.em).engine.find(
    { ...plan, text: null },
    { direction: 'asc', bound: including(key, 'asc'), limit: 1 },
    false,
  );
  return { key, listed: probe.hits[0]?.id === row.id };
}

/**
 * The owner of each hit's concept, where it matters: for callers bound by a scheme that grants the
 * Owner group something (administrators and schemes without Owner grants need no lookup).
 */
async function ownersOf(scope: Scope, searchAccess: SearchAccess | null, hits: TermHit[]) {
  const ownerOf = new Map<number, number | null>();
  if (searchAccess) {
    const { access, subject } = searchAccess;
    const bound = access.dictionaries.filter((d) => !isDictionaryAdmin(scope.actor, d)).map((d) => d.id);
    const hitSections = new Set(
      hits.filter((hit) => bound.includes(hit.dictionaryId)).map((hit) => hit.sectionId),
    );
    if (!ownerGrantsIn(subject, access, hitSections)) return ownerOf;
  }
  const rows = await scope.em.execute<{ id: number; created_by_id: number | null }[]>(
    'select id, created_by_id from concepts where id in (?)',
    [[...new Set(hits.map((hit) => hit.conceptId))]],
  );
  for (const row of rows) ownerOf.set(row.id, row.created_by_id);
  return ownerOf;
}

/**
 * List entries: `disabled` when the caller may not edit the term (TERM_UPDATE in its section and
 * language). With `searchAccess` the sections and groups already loaded for the search are used.
 */
async function entriesOf(
  scope: Scope,
  hits: TermHit[],
  filterId: number | null,
  searchAccess: SearchAccess | null,
): Promise<TermListEntry[]> {
  if (hits.length === 0) return [];
  const ownerOf = await ownersOf(scope, searchAccess, hits);
  const entries = hits.map((hit) => ({
    sectionId: hit.sectionId,
    ownerId: ownerOf.get(hit.conceptId) ?? null,
  }));
  const access = searchAccess
    ? await conceptAccessInSections(scope, searchAccess.access, entries)
    : await conceptAccessFor(scope, entries);
  // Workflow states (docs/workflows.md): style and read-only. The search itself left hidden and
  // unpublished entries out (search-workflow.ts) and its hits carry their states (PostgreSQL: the term
  // row's copy; Elasticsearch: the document's, which the filter judged); hits without them are looked up.
  const carried = hits.every((hit) => hit.workflowState !== undefined)
    ? hits.map((hit) => hit.workflowState ?? null)
    : undefined;
  return applyWorkflowToTermList(
    scope,
    hits.map((hit, index) => ({
      id: hit.id,
      name: hit.name,
      dictionaryId: hit.dictionaryId,
      termId: hit.tid,
      conceptId: hit.conceptId,
      conceptOid: hit.conceptOid,
      langCode: hit.langCode,
      regionCode: hit.regionCode,
      scriptCode: hit.scriptCode,
      filterId,
      style: '',
      disabled: scope.actor.guest || !termAllowed(access[index]!, 'TERM_UPDATE', hit.langCode),
      hidden: false,
    })),
    searchAccess?.workflows,
    carried,
  );
}

export async function searchTerms(scope: Scope, input: TermSearchInput): Promise<TermSearchResponse> {
  if (input.bidirectional && !input.termOid) {
    throw new AppError('BAD_REQUEST', 'bidirectional needs termOid');
  }
  if ([input.termOid, input.searchAfter, input.searchBefore].filter(Boolean).length > 1) {
    throw new AppError('BAD_REQUEST', 'Send at most one of termOid, searchAfter and searchBefore');
  }
  const context = await loadSearchContext(scope, input);
  const { settings, searchAccess } = context;
  const pageSize = Math.min(input.pageSize ?? settings.pageSize, scope.config.MAX_PAGE_SIZE);
  const plan = await planSearch(scope, context, input);
  if (!plan) {
    return { total: 0, pageSize, searchAfter: null, searchBefore: null, results: [], message: null };
  }
  const page = await pageOf(scope, searchAccess, plan, input, pageSize);
  const first = page.hits[0];
  const last = page.hits[page.hits.length - 1];
  return {
    total: page.total,
    pageSize,
    searchAfter: last && page.after ? encodeCursor(keyOf(last)) : null,
    searchBefore: first && page.before ? encodeCursor(keyOf(first)) : null,
    results: await entriesOf(scope, page.hits, input.filterId ?? null, searchAccess),
    message: page.message,
  };
}

// ---------------------------------------------------------------- duplicates

type DuplicatesInput = z.infer<typeof DuplicatesInputSchema>;

/**
 * Terms of the dictionary and language whose folded name equals the given one, in readable sections.
 * A given region or script also matches terms without one. Read from PostgreSQL, the store of record.
 */
export async function findDuplicates(
  scope: Scope,
  input: DuplicatesInput,
  page?: { offset: number; size: number },
) {
  const dictionaryId = input['dictionary-id'];
  const readable = [...(await readableSectionIds(scope, [dictionaryId]))];
  if (readable.length === 0) throw notFound('Dictionary', dictionaryId);
  const where = [
    't.dictionary_id = ? and t.client_id = ? and not t.deleted and not c.deleted and c.section_id in (?)',
    't.language_code = ?',
    `t.name_folded = polyterm_fold(?)`,
  ];
  const params: unknown[] = [
    dictionaryId,
    scope.actor.clientId,
    readable,
    input['lang-code'].toLowerCase(),
    input.term,
  ];
  if (input['region-code']) {
    where.push('(t.region_code is null or lower(t.region_code) = ?)');
    params.push(input['region-code'].toLowerCase());
  }
  if (input['script-code']) {
    where.push('(t.script_code is null or lower(t.script_code) = ?)');
    params.push(input['script-code'].toLowerCase());
  }
  if (input['concept-id'] !== undefined) {
    where.push('t.concept_id <> ?');
    params.push(input['concept-id']);
  }
  const condition = where.join(' and ');
  const limit = page ? `limit ${page.size} offset ${page.offset}` : 'limit 1000';
  const rows = await scope.em.execute<HitRow[]>(
    `select ${HIT_COLUMNS} from terms t join concepts c on c.id = t.concept_id
      where ${condition}
      order by (t.name collate "C"), t.id ${limit}`,
    params,
  );
  const hits = rows.map(hitOf);
  const entries = await entriesOf(scope, hits, null, null);
  if (!page) return { entries, total: entries.length };
  const [count] = await scope.em.execute<{ count: string }[]>(
    `select count(*) as count from terms t join concepts c on c.id = t.concept_id where ${condition}`,
    params,
  );
  return { entries, total: Number(count?.count ?? 0) };
}

// ---------------------------------------------------------------- suggestions

type FieldInput = Record<string, string | string[]>;

/**
 * A suggested concept with its terms, created like any concept (CONCEPT_CREATE in the section, history
 * item, search index). Field keys may be oids, names or TBX data categories; answers the first term's id.
 */
export async function suggestTerm(scope: Scope, input: TermSuggestionInput): Promise<number> {
  const dictionaryId = input['dictionary-id'];
  await readableDictionary(scope, dictionaryId);
  const { fields } = await fieldsOf(scope.em, [dictionaryId]);
  const fieldMapOf = (values: FieldInput | undefined, level: 'CONCEPT' | 'TERM', where: string) => {
    const map: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(values ?? {})) {
      const wanted = key.trim().toLowerCase();
      const field =
        fields.find((f) => f.oid === key) ??
        fields.find((f) => f.level === level && f.name.toLowerCase() === wanted) ??
        fields.find((f) => f.level === level && f.dataCategory?.toLowerCase() === wanted);
      if (!field?.oid)
        throw new AppError('BAD_REQUEST', `${where}: no field "${key}" in dictionary ${dictionaryId}`);
      map[field.oid] = [value].flat();
    }
    return map;
  };
  const terms = input.terms.map((suggestion, index) => {
    const language = tbxLanguage(suggestion.langTag);
    if (!language)
      throw new AppError('BAD_REQUEST', `terms[${index}].langTag: unknown language "${suggestion.langTag}"`);
    return {
      name: suggestion.term,
      languageCode: language.languageCode,
      regionCode: language.regionCode,
      scriptCode: language.scriptCode,
      fieldMap: fieldMapOf(suggestion.fields, 'TERM', `terms[${index}].fields`),
    };
  });
  const sectionOid = input['section-oid'] ?? (await creatableSectionOid(scope, dictionaryId));
  const concept = await createConcept(scope, {
    format: 'ID',
    'with-comments': false,
    dictionaryId,
    sectionOid,
    fieldMap: fieldMapOf(input.conceptFields, 'CONCEPT', 'conceptFields'),
    terms,
  });
  const [term] = await scope.em.execute<{ id: number }[]>(
    'select id from terms where concept_id = ? and not deleted order by id limit 1',
    [concept.id],
  );
  return term!.id;
}

/** The first section (by sort order) where the caller may create concepts. */
async function creatableSectionOid(scope: Scope, dictionaryId: number): Promise<string> {
  const sections = await scope.em.execute<{ id: number; oid: string }[]>(
    'select id, oid from sections where dictionary_id = ? and not deleted order by id',
    [dictionaryId],
  );
  const access = await conceptAccessFor(
    scope,
    sections.map((section) => ({ sectionId: section.id, ownerId: null })),
  );
  const index = access.findIndex((a) => a.conceptCreate);
  if (index < 0)
    throw new AppError('FORBIDDEN', 'You may not create concepts in this dictionary (CONCEPT_CREATE)');
  return sections[index]!.oid;
}
