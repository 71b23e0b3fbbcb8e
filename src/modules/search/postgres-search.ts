/**
 * Term search on PostgreSQL, the embedded default (docs/search.md): the indexes of the search
 * migrations serve the order (folded, name, id), prefix ranges (C collation), substrings of folded
 * names (polyterm_grams, per dictionary and language), of lower-cased ones (pg_trgm) and exact names;
 * fuzzy matches use fuzzystrmatch's bounded Levenshtein.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../filter/filter-sql.js';
import type { SearchEngine, SearchPlan, SearchWindow, TermHit, TextMatch } from './search-plan.js';
import { workflowConditionSql } from './search-workflow.js';

export interface HitRow {
  id: number;
  name: string;
  folded: string;
  dictionary_id: number;
  tid: number;
  concept_id: number;
  concept_oid: string | null;
  section_id: number;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
  /** terms.workflow_state: its entry's stored state key, while its dictionary has an enabled workflow. */
  workflow_state: string | null;
}

/** The columns of a HitRow, from `terms t join concepts c`. */
export const HIT_COLUMNS = `t.id, t.name, t.name_folded as folded, t.dictionary_id, t.tid, t.concept_id,
  c.oid as concept_oid, c.section_id, t.language_code, t.region_code, t.script_code, t.workflow_state`;

const FOLDED = 't.name_folded';
const NAME = `(t.name collate "C")`;
const KEY = `${FOLDED}, ${NAME}, t.id`;
/** KEY over a HitRow-shaped row `h`. */
const PAGE_KEY = `h.folded, (h.name collate "C"), h.id`;

/** `%`, `_` and `\` stand for themselves in a LIKE pattern. */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const join = (parts: readonly Sql[], separator: string): Sql => ({
  text: parts.map((part) => `(${part.text})`).join(separator),
  params: parts.flatMap((part) => part.params),
});

/**
 * The conditions of a plan without the text: dictionaries, client, language, sections, domains, filters.
 * With `languages` (lower case), the terms of those languages instead of the plan's that the same plan
 * would let the caller read: term decoration's translations and preferred terms (docs/decoration.md).
 */
export function scopeConditions(plan: SearchPlan, languages?: readonly string[]): Sql[] {
  const where: Sql[] = [
    {
      text: 't.dictionary_id in (?) and t.client_id = ? and not t.deleted',
      params: [plan.dictionaryIds, plan.clientId],
    },
    languages
      ? { text: 'lower(t.language_code) in (?)', params: [languages.length ? [...languages] : ['']] }
      : { text: 't.language_code = ?', params: [plan.languageCode] },
    { text: 'c.section_id in (?) and not c.deleted', params: [plan.sectionIds] },
  ];
  if (plan.regionCode !== null) where.push({ text: 'lower(t.region_code) = ?', params: [plan.regionCode] });
  if (plan.scriptCode !== null) where.push({ text: 'lower(t.script_code) = ?', params: [plan.scriptCode] });
  if (plan.domainIds !== null) {
    where.push({
      text: 'exists (select 1 from concept_domains cd where cd.concept_id = c.id and cd.domain_id in (?))',
      params: [plan.domainIds.length ? plan.domainIds : [0]],
    });
  }
  if (plan.restriction) where.push(plan.restriction);
  return where;
}

/** The shortest piece worth a trigram search: two trigrams. One alone matches too many names. */
const PIECE_MIN = 4;

/**
 * The target cut into `distance + 1` pieces: a name within `distance` edits of it holds one of them
 * unchanged (each edit spoils at most one piece), which the trigram indexes find. Null when a piece
 * would be shorter than PIECE_MIN: the names of a similar length are then the narrower set.
 */
export function fuzzyPieces(target: string, distance: number): string[] | null {
  const chars = [...target];
  const count = distance + 1;
  if (chars.length < PIECE_MIN * count) return null;
  const pieces: string[] = [];
  for (let index = 0; index < count; index++) {
    const start = Math.floor((index * chars.length) / count);
    const end = Math.floor(((index + 1) * chars.length) / count);
    pieces.push(chars.slice(start, end).join(''));
  }
  return pieces;
}

/** The GIN indexes of term search, whose pending lists every substring and fuzzy search reads. */
const SEARCH_GIN_INDEXES = ['terms_search_grams_index', 'terms_search_lower_trgm_index'];

/**
 * For a bulk write of terms, in its transaction: new terms wait in the pending lists up to 4 MB, not the
 * 256 kB the server's sessions keep for searches' sake (src/db/orm.ts). Merged that often, a
 * 400,000-term import took a third longer. The bulk write then calls mergeSearchPendingLists.
 */
export async function allowLongPendingLists(em: EntityManager): Promise<void> {
  await em.execute(`set local gin_pending_list_limit = '4MB'`);
}

/**
 * Merges the pending lists of the search GIN indexes into the indexes, as VACUUM would, after a bulk
 * load that let them grow (docs/search.md, "How each engine answers"). Only the indexes' owner may (as for
 * VACUUM): under another role they are left to autovacuum. Answers the pending pages merged.
 */
export async function mergeSearchPendingLists(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ merged: number | null }[]>(
    `select sum(gin_clean_pending_list(c.oid))::int as merged
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relname in (?) and n.nspname = current_schema() and pg_has_role(c.relowner, 'USAGE')`,
    [SEARCH_GIN_INDEXES],
  );
  return row?.merged ?? 0;
}

/** The GIN-indexed expression of Migration20261125090000_search_grams. */
const GRAMS = 'polyterm_grams(t.dictionary_id, t.language_code, t.name_folded)';

/**
 * `t.name_folded` holds `text`: the folded names of the plan's dictionaries and language whose
 * 3-character windows include all of the text's (the grams index finds them), then LIKE decides. The
 * text's keys come from the same function, on constants, so PostgreSQL computes them once when it
 * plans the statement. A text shorter than 3 characters has no window (and `@> '{}'` would hold for
 * every name): LIKE then reads the language's names.
 */
export function foldedSubstring(plan: SearchPlan, text: string): Sql {
  const like: Sql = { text: `${FOLDED} like ?`, params: [`%${likeEscaped(text)}%`] };
  if ([...text].length < 3) return like;
  const perDictionary = plan.dictionaryIds.map(
    (id): Sql => ({
      text: `${GRAMS} @> polyterm_grams(?::int, ?::text, ?::text)`,
      params: [id, plan.languageCode, text],
    }),
  );
  return join([like, join(perDictionary, ' or ')], ' and ');
}

function textCondition(plan: SearchPlan): Sql | null {
  const text = plan.text;
  if (!text) return null;
  const column = text.name.on === 'lower' ? 't.name_lower' : FOLDED;
  const alternatives: Sql[] = [];
  switch (text.name.mode) {
    case 'EXACT':
      alternatives.push({ text: `${column} = ?`, params: [text.name.text] });
      break;
    case 'PREFIX':
      alternatives.push({ text: `${column} like ?`, params: [`${likeEscaped(text.name.text)}%`] });
      break;
    case 'SUBSTRING':
      alternatives.push(
        text.name.on === 'folded'
          ? foldedSubstring(plan, text.name.text)
          : { text: `${column} like ?`, params: [`%${likeEscaped(text.name.text)}%`] },
      );
      break;
  }
  if (text.fuzzy) {
    const { text: target, distance } = text.fuzzy;
    const length = [...target].length;
    const pieces = fuzzyPieces(target, distance);
    // With pieces, the grams index finds the candidates, and the length only filters them: `+ 0`
    // keeps the planner off the length index, whose estimate for a common length is far too low (it
    // chose it, and read a fifth of a language's names, for a piece that held 700).
    const candidates: Sql = pieces
      ? join(
          [
            join(
              pieces.map((piece) => foldedSubstring(plan, piece)),
              ' or ',
            ),
            { text: 'char_length(t.name_folded) + 0', params: [] },
          ],
          ' and ',
        )
      : { text: 'char_length(t.name_folded)', params: [] };
    alternatives.push({
      text: `${candidates.text} between ? and ?
                  and levenshtein_less_equal(t.name_folded, ?, ?) <= ?`,
      params: [...candidates.params, length - distance, length + distance, target, distance, distance],
    });
  }
  if (text.stems?.length) {
    alternatives.push(
      join(
        text.stems.map(
          (stem): Sql => ({
            text: 't.dictionary_id = ? and t.stem_key = ?',
            params: [stem.dictionaryId, stem.key],
          }),
        ),
        ' or ',
      ),
    );
  }
  if (text.values?.words.length) {
    // Field words are "<field oid>\u0001<word>" (polyterm_field_words).
    const words = 'unnest(polyterm_field_words(c.field_map) || polyterm_field_words(t.field_map))';
    const fieldOids = text.values.fieldOids;
    const perWord = text.values.words.map(
      (word): Sql =>
        fieldOids
          ? {
              text: `exists (select 1 from ${words} fw where fw like any (array[?]::text[]))`,
              params: [fieldOids.map((oid) => `${likeEscaped(oid)}\u0001${likeEscaped(word)}%`)],
            }
          : {
              text: `exists (select 1 from ${words} fw where split_part(fw, chr(1), 2) like ?)`,
              params: [`${likeEscaped(word)}%`],
            },
    );
    alternatives.push(join(perWord, ' and '));
  }
  return join(alternatives, ' or ');
}

/** `and (key) > (?, ?, ?)` past the window's bound in its direction; nothing without a bound. */
function boundOn(key: string, window: SearchWindow): Sql {
  if (!window.bound) return { text: '', params: [] };
  return {
    text: ` and (${key}) ${window.direction === 'asc' ? '>' : '<'} (?, ?, ?)`,
    params: [...window.bound],
  };
}

const limitOf = (window: SearchWindow) => Math.max(0, Math.floor(window.limit));

/** One window of the matches of `filter`, in the list order (or its reverse). */
function pageSql(filter: Sql, window: SearchWindow): Sql {
  const bound = boundOn(KEY, window);
  const order = window.direction;
  return {
    text: `select ${HIT_COLUMNS}
             from terms t join concepts c on c.id = t.concept_id
            where ${filter.text}${bound.text}
            order by ${FOLDED} ${order}, ${NAME} ${order}, t.id ${order}
            limit ${limitOf(window)}`,
    params: [...filter.params, ...bound.params],
  };
}

/** PAGE_KEY's columns each in the window's direction: the order of a page of HIT_COLUMNS rows. */
const pageOrderOf = (window: SearchWindow) =>
  PAGE_KEY.split(', ')
    .map((part) => `${part} ${window.direction}`)
    .join(', ');

/**
 * The page and the number of all matches in one round trip; json_agg keeps the page's order. Both
 * use the ordered indexes: the page reads the window, the count the matches.
 */
function pageAndTotalSql(filter: Sql, window: SearchWindow): Sql {
  const page = pageSql(filter, window);
  return {
    text: `select (select coalesce(json_agg(h order by ${pageOrderOf(window)}), '[]') from (${page.text}) h) as hits,
                  (select count(*) from terms t join concepts c on c.id = t.concept_id where ${filter.text}) as total`,
    params: [...page.params, ...filter.params],
  };
}

/**
 * The page and the total of a text whose matches the list's order cannot walk to: substrings (found
 * through the grams or pg_trgm indexes), prefixes of lower-cased names, fuzzy matches (a Levenshtein per
 * candidate) and field words. Counting them reads every match anyway, so they are found once in a
 * materialized CTE, then counted and paged, instead of once for the count and again for the page.
 */
function matchesPageAndTotalSql(filter: Sql, window: SearchWindow): Sql {
  const bound = boundOn(PAGE_KEY, window);
  const pageOrder = pageOrderOf(window);
  const page = {
    text: `select * from matches h where true${bound.text} order by ${pageOrder} limit ${limitOf(window)}`,
    params: bound.params,
  };
  return {
    text: `with matches as materialized (
             select ${HIT_COLUMNS} from terms t join concepts c on c.id = t.concept_id where ${filter.text})
           select (select coalesce(json_agg(h order by ${pageOrder}), '[]') from (${page.text}) h) as hits,
                  (select count(*) from matches) as total`,
    params: [...filter.params, ...page.params],
  };
}

/**
 * Whether the text's matches are a range of the order's index (folded prefixes and exact folded names),
 * so that the page reads just its window of them. No text: the whole list, in that index's order.
 */
const followsListOrder = (text: TextMatch | null) =>
  !text ||
  (text.name.on === 'folded' && text.name.mode !== 'SUBSTRING' && !text.fuzzy && !text.values?.words.length);

export class PostgresSearch implements SearchEngine {
  readonly name = 'postgresql' as const;
  constructor(private readonly em: () => EntityManager) {}

  async find(plan: SearchPlan, window: SearchWindow, withTotal: boolean) {
    const where = scopeConditions(plan);
    const text = textCondition(plan);
    if (text) where.push(text);
    if (plan.workflow) where.push(workflowConditionSql(plan.workflow, plan.dictionaryIds));
    const filter = join(where, ' and ');
    const em = this.em();
    if (!withTotal) {
      const page = pageSql(filter, window);
      const rows = await em.execute<HitRow[]>(page.text, page.params);
      return { hits: rows.map(hitOf), total: -1 };
    }
    const query = followsListOrder(plan.text)
      ? pageAndTotalSql(filter, window)
      : matchesPageAndTotalSql(filter, window);
    const [row] = await em.execute<{ hits: HitRow[]; total: string }[]>(query.text, query.params);
    return { hits: (row?.hits ?? []).map(hitOf), total: Number(row?.total ?? 0) };
  }
}

export const hitOf = (row: HitRow): TermHit => ({
  id: row.id,
  name: row.name,
  folded: row.folded,
  dictionaryId: row.dictionary_id,
  tid: row.tid,
  conceptId: row.concept_id,
  conceptOid: row.concept_oid,
  sectionId: row.section_id,
  langCode: row.language_code,
  regionCode: row.region_code,
  scriptCode: row.script_code,
  workflowState: row.workflow_state,
});
