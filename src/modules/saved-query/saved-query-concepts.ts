/**
 * A saved query as a selection of concepts: its search (q, d, lang, sec, dom, filter, mode, norm, fuzzy,
 * as the search screen reads them) run page by page, its hits' concepts collected. Projects add them as
 * entries; exports of every format write them (docs/exchange.md).
 */
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { TermSearchInput } from '../search/search.schema.js';
import { searchTerms } from '../search/search.service.js';
import { listSavedQueries } from './saved-query.service.js';

export interface SavedQuerySelection {
  conceptIds: number[];
  /** More hits than `limit` were found: only the first ones are in `conceptIds`. */
  truncated: boolean;
}

const MODES = new Set(['PREFIX', 'SUBSTRING', 'EXACT']);

/** The search a saved query's string asks for, in the dictionaries it names of `allowed` (none: all). */
export function savedQuerySearch(
  query: string,
  allowed: readonly number[],
): Omit<TermSearchInput, 'pageSize'> {
  const params = new URLSearchParams(query);
  const asked = (params.get('d') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
  const mode = params.get('mode') ?? '';
  const flag = (name: string) => (params.has(name) ? params.get(name) === '1' : undefined);
  const options: NonNullable<TermSearchInput['searchOptions']> = {};
  if (MODES.has(mode)) options.mode = mode as 'PREFIX' | 'SUBSTRING' | 'EXACT';
  if (flag('norm') !== undefined) options.normalized = flag('norm')!;
  if (flag('fuzzy') !== undefined) options.fuzzy = flag('fuzzy')!;
  return {
    dictionaryIds: (asked.length ? asked : allowed).filter((id) => allowed.includes(id)),
    langCode: params.get('lang') || 'eng',
    sectionOids: params.get('sec') ? [params.get('sec')!] : [],
    domainOids: params.get('dom') ? [params.get('dom')!] : undefined,
    filterId: params.get('filter') ? Number(params.get('filter')) : null,
    name: params.get('q') ?? '',
    searchOptions: options,
  };
}

/**
 * The concepts of the caller's saved query `id` in `dictionaryIds` (its own `d` narrows them), at most
 * `limit` hits (terms) read. Another user's saved query is 404; one that searches none of the
 * dictionaries is 400 naming `member`.
 */
export async function savedQueryConcepts(
  scope: Scope,
  id: number,
  dictionaryIds: readonly number[],
  limit: number,
  member: string,
): Promise<SavedQuerySelection> {
  const saved = (await listSavedQueries(scope)).find((query) => query.id === id);
  if (!saved) throw notFound('Saved query', id);
  const search = savedQuerySearch(saved.query, dictionaryIds);
  if (search.dictionaryIds.length === 0) {
    throw new AppError('BAD_REQUEST', `${member}: saved query ${id} searches none of these dictionaries`);
  }
  const ids = new Set<number>();
  let searchAfter: string | null = null;
  let seen = 0;
  do {
    const response = await searchTerms(scope, {
      ...search,
      pageSize: Math.min(scope.config.MAX_PAGE_SIZE, limit - seen),
      searchAfter,
    });
    for (const hit of response.results) ids.add(hit.conceptId);
    seen += response.results.length;
    searchAfter = response.results.length ? response.searchAfter : null;
  } while (searchAfter && seen < limit);
  return { conceptIds: [...ids], truncated: Boolean(searchAfter) };
}
