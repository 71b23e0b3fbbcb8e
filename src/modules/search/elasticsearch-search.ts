/**
 * Term search on Elasticsearch: the plan becomes a bool query over the keys of elasticsearch-index.ts,
 * sorted by (folded, name, id) with `search_after`. A filter's criteria are evaluated in PostgreSQL into
 * term ids; when they select more than MAX_RESTRICTED_TERMS the query goes to PostgreSQL instead, which
 * answers the same (docs/search.md).
 */
import type { Client, estypes, TransportRequestOptions } from '@elastic/elasticsearch';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SUFFIX_LENGTH, type TermDocument } from './elasticsearch-index.js';
import { type PostgresSearch, scopeConditions } from './postgres-search.js';
import type { SearchEngine, SearchPlan, SearchWindow, TermHit } from './search-plan.js';
import { workflowQuery } from './search-workflow.js';

/** Elasticsearch's default limit of a terms query. */
export const MAX_RESTRICTED_TERMS = 65_536;

type Query = estypes.QueryDslQueryContainer;

const wildcardEscaped = (text: string) => text.replace(/[\\*?]/g, (char) => `\\${char}`);

function textQuery(plan: SearchPlan): Query | null {
  const text = plan.text;
  if (!text) return null;
  const should: Query[] = [];
  const { mode, on, text: value } = text.name;
  if (mode === 'EXACT') should.push({ term: { [on]: value } });
  else if (mode === 'PREFIX') should.push({ prefix: { [on]: value } });
  else if ([...value].length > SUFFIX_LENGTH)
    should.push({ wildcard: { [on]: { value: `*${wildcardEscaped(value)}*` } } });
  else if (on === 'folded') should.push({ prefix: { foldedSuffixes: value } });
  else {
    // Plain documents leave out lowerSuffixes: their folded suffixes are the same keys.
    should.push(
      { prefix: { lowerSuffixes: value } },
      { bool: { filter: [{ term: { plain: true } }, { prefix: { foldedSuffixes: value } }] } },
    );
  }
  if (text.fuzzy) {
    should.push({
      fuzzy: {
        folded: {
          value: text.fuzzy.text,
          fuzziness: String(text.fuzzy.distance),
          transpositions: false,
          prefix_length: 0,
          max_expansions: 10_000,
          rewrite: 'constant_score',
        },
      },
    });
  }
  if (text.stems?.length) {
    should.push(
      ...text.stems.map(
        (stem): Query => ({
          bool: { filter: [{ term: { dictionaryId: stem.dictionaryId } }, { term: { stemKey: stem.key } }] },
        }),
      ),
    );
  }
  if (text.values?.words.length) {
    const fieldOids = text.values.fieldOids;
    should.push({
      bool: {
        filter: text.values.words.map(
          (word): Query =>
            fieldOids
              ? {
                  bool: {
                    should: fieldOids.map((oid) => ({ prefix: { fieldWords: `${oid}\u0001${word}` } })),
                    minimum_should_match: 1,
                  },
                }
              : { prefix: { words: word } },
        ),
      },
    });
  }
  return { bool: { should, minimum_should_match: 1 } };
}

type HitSource = Pick<
  TermDocument,
  | 'id'
  | 'name'
  | 'folded'
  | 'dictionaryId'
  | 'tid'
  | 'conceptId'
  | 'conceptOid'
  | 'sectionId'
  | 'lang'
  | 'regionCode'
  | 'scriptCode'
  | 'workflowState'
>;
const SOURCE_FIELDS: (keyof HitSource)[] = [
  'id',
  'name',
  'folded',
  'dictionaryId',
  'tid',
  'conceptId',
  'conceptOid',
  'sectionId',
  'lang',
  'regionCode',
  'scriptCode',
  'workflowState',
];

/**
 * The search request of a plan's window (without the index). `termIds` carries a filter's terms,
 * evaluated in PostgreSQL. Exported so that bench/search sends Elasticsearch exactly our query.
 */
export function termSearchRequest(
  plan: SearchPlan,
  window: SearchWindow,
  withTotal: boolean,
  termIds: readonly number[] | null = null,
) {
  const filter: Query[] = [
    { term: { clientId: plan.clientId } },
    { terms: { dictionaryId: plan.dictionaryIds } },
    { term: { lang: plan.languageCode } },
    { terms: { sectionId: plan.sectionIds } },
  ];
  if (plan.regionCode !== null) filter.push({ term: { region: plan.regionCode } });
  if (plan.scriptCode !== null) filter.push({ term: { script: plan.scriptCode } });
  if (plan.domainIds !== null) filter.push({ terms: { domainIds: plan.domainIds } });
  if (termIds !== null) filter.push({ terms: { id: [...termIds] } });
  if (plan.workflow) filter.push(workflowQuery(plan.workflow) as Query);
  const text = textQuery(plan);
  if (text) filter.push(text);
  const order = window.direction;
  return {
    query: { bool: { filter } },
    sort: [{ folded: order }, { name: order }, { id: order }] satisfies estypes.Sort,
    ...(window.bound ? { search_after: [...window.bound] } : {}),
    size: Math.max(0, Math.floor(window.limit)),
    track_total_hits: withTotal,
    _source: SOURCE_FIELDS,
  };
}

export class ElasticsearchSearch implements SearchEngine {
  readonly name = 'elasticsearch' as const;
  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly em: () => EntityManager,
    private readonly fallback: PostgresSearch,
    /** A hung cluster must not hold the caller: PostgreSQL answers instead (search-availability.ts). */
    private readonly requestOptions: TransportRequestOptions,
  ) {}

  async find(plan: SearchPlan, window: SearchWindow, withTotal: boolean) {
    let termIds: number[] | null = null;
    if (plan.restriction) {
      termIds = await this.restrictedTermIds(plan);
      if (termIds === null) return this.fallback.find(plan, window, withTotal);
    }
    const response = await this.client.search<HitSource>(
      { index: this.index, ...termSearchRequest(plan, window, withTotal, termIds) },
      this.requestOptions,
    );
    const total = response.hits.total;
    return {
      hits: response.hits.hits.map((hit) => hitOf(hit._source!, Boolean(plan.stateSources?.length))),
      total: withTotal ? (typeof total === 'number' ? total : (total?.value ?? -1)) : -1,
    };
  }

  /** The terms a filter leaves, from PostgreSQL; null when there are too many to pass on. */
  private async restrictedTermIds(plan: SearchPlan): Promise<number[] | null> {
    const where = scopeConditions(plan);
    const rows = await this.em().execute<{ id: number }[]>(
      `select t.id from terms t join concepts c on c.id = t.concept_id
        where ${where.map((part) => `(${part.text})`).join(' and ')} limit ${MAX_RESTRICTED_TERMS + 1}`,
      where.flatMap((part) => part.params),
    );
    return rows.length > MAX_RESTRICTED_TERMS ? null : rows.map((row) => row.id);
  }
}

/**
 * `withState`: the hit carries the document's state, which the outbox keeps as fresh as the rest of the
 * document (and which the search's own workflow filter judged).
 */
const hitOf = (source: HitSource, withState: boolean): TermHit => ({
  id: source.id,
  name: source.name,
  folded: source.folded,
  dictionaryId: source.dictionaryId,
  tid: source.tid,
  conceptId: source.conceptId,
  conceptOid: source.conceptOid,
  sectionId: source.sectionId,
  langCode: source.lang,
  regionCode: source.regionCode,
  scriptCode: source.scriptCode,
  ...(withState ? { workflowState: source.workflowState ?? null } : {}),
});
