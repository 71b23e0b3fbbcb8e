/**
 * A term search resolved to what both engines execute (docs/search.md). Access, sections, domains and
 * filters are settled before an engine sees the plan; texts are already lowered or folded by the
 * database's own functions (polyterm_lower, polyterm_fold), which also produce the Elasticsearch keys,
 * so both engines compare the same strings and sort by the same bytes.
 */
import type { Sql } from '../filter/filter-sql.js';
import type { WorkflowUnit } from '../workflow/workflow-definition.js';
import type { WorkflowScope } from './search-workflow.js';

/** The order of every list: folded name, then exact name (both by code point), then term id. */
export type SortKey = readonly [folded: string, name: string, id: number];

export type MatchMode = 'PREFIX' | 'SUBSTRING' | 'EXACT';

export interface NameMatch {
  mode: MatchMode;
  /** Compare lower-cased names (accents count) or folded ones (case and accents ignored). */
  on: 'lower' | 'folded';
  text: string;
}

export interface TextMatch {
  name: NameMatch;
  /** Also folded names within `distance` edits (Levenshtein, no transpositions) of `text`. */
  fuzzy: { text: string; distance: number } | null;
  /** Also terms whose stem key is the text's under their dictionary's settings (option `stemmed`). */
  stems?: { dictionaryId: number; key: string }[] | null;
  /** Also terms whose term or concept values hold a word starting with each of `words`. */
  values: { words: string[]; fieldOids: string[] | null } | null;
}

export interface SearchPlan {
  clientId: number;
  dictionaryIds: number[];
  /** Readable and requested sections; never empty (an empty selection answers no results early). */
  sectionIds: number[];
  /** Concept domains, subdomains included; null: any. */
  domainIds: number[] | null;
  languageCode: string;
  /** Lower case; null: every variant. */
  regionCode: string | null;
  scriptCode: string | null;
  /** null lists every term. */
  text: TextMatch | null;
  /** Filter criteria (saved, quick and the groups') as SQL on `c` (concepts) and `t` (terms). */
  restriction: Sql | null;
  /** Workflow states listed (search-workflow.ts); null or absent: no workflow narrows the list. */
  workflow?: WorkflowScope | null;
  /**
   * The enabled workflows whose states the hits carry (`TermHit.workflowState`), for the list's style
   * and read-only marks; absent or empty: the Elasticsearch engine's hits carry none (the PostgreSQL
   * engine's always carry the term row's copy, at no cost).
   */
  stateSources?: StateSource[];
}

/** An enabled workflow of a searched dictionary, as an engine reads its entries' states. */
export interface StateSource {
  dictionaryId: number;
  workflowId: number;
  unit: WorkflowUnit;
}

/** A stretch of the ordered list: up to `limit` terms strictly beyond `bound` in `direction`. */
export interface SearchWindow {
  direction: 'asc' | 'desc';
  bound: SortKey | null;
  limit: number;
}

export interface TermHit {
  id: number;
  name: string;
  folded: string;
  dictionaryId: number;
  tid: number;
  conceptId: number;
  conceptOid: string | null;
  sectionId: number;
  langCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  /**
   * The entry's stored state key (null: no row, so the initial state). Meaningful only for a dictionary
   * with an enabled workflow: the PostgreSQL engine reads the term row's copy, which switching the
   * workflow off leaves as it was.
   */
  workflowState?: string | null;
}

export interface SearchEngine {
  readonly name: 'elasticsearch' | 'postgresql';
  /** The window's terms in its direction, and the number of all matches when asked. */
  find(
    plan: SearchPlan,
    window: SearchWindow,
    withTotal: boolean,
  ): Promise<{ hits: TermHit[]; total: number }>;
}

export const keyOf = (hit: Pick<TermHit, 'folded' | 'name' | 'id'>): SortKey => [
  hit.folded,
  hit.name,
  hit.id,
];

/** Longest folded text a fuzzy match is tried for (fuzzystrmatch compares at most 255 characters). */
export const FUZZY_MAX_LENGTH = 253;
