/**
 * Looks up, in one indexed query per request, the terms whose folded name or stem key is one of the
 * keys of a request's spans, and the terms of their concepts in the source and target languages
 * (preferred terms and translations). PostgreSQL answers both in one statement; on the Elasticsearch
 * engine the index finds the terms (`folded` and `stemKey` keywords) and PostgreSQL adds the rest by
 * concept id. Every matching term comes back: the Elasticsearch lookup pages until it has them all.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../shared/sql.js';
import { likeEscaped, scopeConditions } from '../search/postgres-search.js';
import type { SearchPlan } from '../search/search-plan.js';
import { searchRuntimeOf, type TermIndexAccess } from '../search/search-runtime.js';

export interface TermRow {
  hit: boolean;
  id: number;
  conceptId: number;
  dictionaryId: number;
  name: string;
  folded: string;
  stemKey: string | null;
  langCode: string;
  /** The term's usage status values (TERM fields of data category USAGE_STATUS). */
  usage: string[];
  /** The category of the term's workflow state, where a workflow governs its dictionary. */
  workflowCategory?: string | null;
  /** The dictionary lets acronyms match any case (its `acronymCase` is 'fold'). */
  acronymFolds?: boolean;
  /**
   * A matched term's lemma key and citation key (terms.lemma_key / citation_key, polyterm_lemma_keys of
   * its name: its words' Hunspell lemmas, and its words as written, kept by the row trigger); null but
   * for languages stemmed by a lexicon. They rank stemmed matches.
   */
  lemmaKey?: string | null;
  citationKey?: string | null;
}

export interface LookupKeys {
  folded: string[];
  stems: string[];
  /** Folded words whose longer forms are wanted too (fuzzy): names starting with one, up to `extra` letters longer. */
  prefixes: { word: string; maxLength: number }[];
}

const TERM_COLUMNS = `t.id, t.concept_id, t.dictionary_id, t.name, t.name_folded, t.stem_key, t.language_code, t.field_map,
  t.lemma_key, t.citation_key`;

/** A term's usage status values, whether its field holds one value or a list. */
const USAGE = `coalesce((select array_agg(v) from fields f
    cross join lateral jsonb_array_elements_text(case jsonb_typeof(x.field_map -> f.oid)
      when 'array' then x.field_map -> f.oid when 'string' then jsonb_build_array(x.field_map -> f.oid)
      else '[]'::jsonb end) v
   where f.dictionary_id = x.dictionary_id and f.data_category = 'USAGE_STATUS' and f.level = 'TERM'
     and not f.deleted and f.oid is not null), '{}')`;

/**
 * Keys as one PostgreSQL array literal: em.execute would expand an array into a list of thousands of
 * inlined strings, which the server then parses and plans one by one (a third of a lookup's time).
 */
const textArray = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;

/** Runs with em.execute, whose `in (?)` takes arrays, as the search conditions are written. */
const rowsOf = (em: EntityManager, query: Sql) => em.execute<TermRow[]>(query.text, query.params);

/**
 * The matched terms (`hits`) and the other terms of their concepts in `languages`, each of them one the
 * caller's term search in its language would answer: the plan's conditions (dictionaries, readable
 * sections, domains, the saved, quick and groups' filters) hold for every related term too, not just
 * for its concept, so a filter on languages or term fields hides a translation as it hides a hit.
 */
function termsSql(hits: Sql, plan: SearchPlan, languages: readonly string[]): Sql {
  const where = scopeConditions(plan, languages);
  return {
    text: `with hits as (${hits.text}),
      related as (
        select ${TERM_COLUMNS} from terms t join concepts c on c.id = t.concept_id
         where t.concept_id in (select concept_id from hits) and t.id not in (select id from hits)
           and ${where.map((w) => `(${w.text})`).join(' and ')})
      select x.hit, x.id, x.concept_id as "conceptId", x.dictionary_id as "dictionaryId", x.name,
             x.name_folded as folded, x.stem_key as "stemKey", x.language_code as "langCode", ${USAGE} as usage,
             -- Stored by the row trigger (null where no lexicon stems the language); only hits are ranked.
             case when x.hit then x.lemma_key end as "lemmaKey", case when x.hit then x.citation_key end as "citationKey"
        from (select true as hit, * from hits union all select false as hit, * from related) x`,
    params: [...hits.params, ...where.flatMap((w) => w.params)],
  };
}

/**
 * Terms in the plan's dictionaries, language, readable sections and filters whose keys are given. Each
 * kind of key is its own index scan (folded names, stem keys, prefix ranges), their ids united; the
 * access conditions then apply to those few rows, each term and concept read by its primary key
 * (`offset 0` keeps the planner from turning that into a join over the whole language when its
 * estimates are off, as after a large import that autovacuum has not analyzed yet).
 */
function postgresHits(plan: SearchPlan, keys: LookupKeys): Sql {
  const where = scopeConditions(plan);
  const base = 'select id from terms where dictionary_id in (?) and language_code = ? and not deleted';
  const scope = [plan.dictionaryIds, plan.languageCode];
  const parts: Sql[] = [
    { text: `${base} and name_folded = any(?::text[])`, params: [...scope, textArray(keys.folded)] },
    { text: `${base} and stem_key = any(?::text[])`, params: [...scope, textArray(keys.stems)] },
    // A prefix is a range of the folded-name index (C collation), its length checked on the rows.
    ...keys.prefixes.map((p) => ({
      text: `${base} and name_folded like ? and char_length(name_folded) <= ?`,
      params: [...scope, `${likeEscaped(p.word)}%`, p.maxLength],
    })),
  ];
  return {
    text: `select ${TERM_COLUMNS} from (${parts.map((p) => p.text).join(' union ')}) u
             join lateral (select * from terms t where t.id = u.id offset 0) t on true
             join lateral (select * from concepts c where c.id = t.concept_id offset 0) c on true
            where ${where.map((w) => `(${w.text})`).join(' and ')}`,
    params: [...parts.flatMap((p) => p.params), ...where.flatMap((w) => w.params)],
  };
}

/** Hits per Elasticsearch page: the index's max_result_window is larger, a page this size is quick. */
const PAGE = 5000;

export async function elasticsearchHitIds(
  index: TermIndexAccess,
  plan: SearchPlan,
  keys: LookupKeys,
): Promise<number[]> {
  const should: estypes.QueryDslQueryContainer[] = [];
  if (keys.folded.length) should.push({ terms: { folded: keys.folded } });
  if (keys.stems.length) should.push({ terms: { stemKey: keys.stems } });
  for (const prefix of keys.prefixes) should.push({ prefix: { folded: prefix.word } });
  if (!should.length) return [];
  const ids: number[] = [];
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await index.client.search<{ id: number }>(
      {
        index: index.index,
        query: {
          bool: {
            filter: [
              { term: { clientId: plan.clientId } },
              { terms: { dictionaryId: plan.dictionaryIds } },
              { term: { lang: plan.languageCode } },
              { terms: { sectionId: plan.sectionIds } },
            ],
            should,
            minimum_should_match: 1,
          },
        },
        sort: [{ id: 'asc' }],
        size: PAGE,
        _source: false,
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      },
      index.quick,
    );
    const hits = page.hits.hits;
    for (const hit of hits) ids.push(Number(hit._id));
    if (hits.length < PAGE) return ids;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * The terms matching the keys and the related terms of their concepts in `languages` (lower case).
 * Filters (saved, quick, groups') are evaluated by PostgreSQL, so a plan with a restriction is looked
 * up there on either engine.
 */
export async function lookUpTerms(
  em: EntityManager,
  plan: SearchPlan,
  keys: LookupKeys,
  languages: readonly string[],
): Promise<TermRow[]> {
  if (!keys.folded.length && !keys.stems.length && !keys.prefixes.length) return [];
  const onPostgres = () => rowsOf(em, termsSql(postgresHits(plan, keys), plan, languages));
  const index = searchRuntimeOf(em).termIndex;
  if (!index || plan.restriction) return onPostgres();
  return index.failover(
    async () => termsOfHitIds(em, plan, await elasticsearchHitIds(index, plan, keys), languages),
    onPostgres,
  );
}

/** The terms of ids the index found and their concepts' related terms, read by PostgreSQL. */
export async function termsOfHitIds(
  em: EntityManager,
  plan: SearchPlan,
  ids: number[],
  languages: readonly string[],
): Promise<TermRow[]> {
  if (!ids.length) return [];
  // The index found them; the plan's conditions, read again by id, keep out what it has not caught up with.
  const where = scopeConditions(plan);
  const hits: Sql = {
    text: `select ${TERM_COLUMNS} from terms t join concepts c on c.id = t.concept_id
            where t.id in (?) and ${where.map((w) => `(${w.text})`).join(' and ')}`,
    params: [ids, ...where.flatMap((w) => w.params)],
  };
  return rowsOf(em, termsSql(hits, plan, languages));
}
