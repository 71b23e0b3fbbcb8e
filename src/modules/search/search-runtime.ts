/**
 * Which engine serves term search, chosen once per app from the configuration: ELASTICSEARCH_URL means
 * Elasticsearch (fed through the outbox), none means PostgreSQL. Domain code reaches the runtime of its
 * ORM through searchRuntimeOf(em), so services need no extra parameter.
 *
 * Over 500 lines for now: the outbox drain, the refresh tracking, the writers' bounded wait and the
 * recovery after an outage share one state (what is applied, refreshed, pending); the next cut moves
 * the Elasticsearch runtime to a file of its own beside the small PostgreSQL one.
 */
import { Client, type estypes, type TransportRequestOptions } from '@elastic/elasticsearch';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';
import {
  addNewFields,
  applyToIndex,
  ensureTermIndex,
  type IndexChanges,
  rebuildDictionaryDocuments,
  removeDictionaryDocuments,
  removeStaleDocuments,
} from './elasticsearch-index.js';
import { ElasticsearchSearch } from './elasticsearch-search.js';
import { PostgresSearch } from './postgres-search.js';
import {
  FailoverSearch,
  type Outage,
  outageReasonOf,
  quickRequest,
  SearchAvailability,
} from './search-availability.js';
import { SearchOutbox } from './search-outbox.js';
import type { SearchEngine } from './search-plan.js';

const POLL_MS = 1000;
/** Without Elasticsearch, outbox rows are kept this long (an Elasticsearch instance may share the database). */
const POSTGRES_OUTBOX_RETENTION = '1 hour';
/** More dictionaries than any installation holds: the orphan check sees every indexed dictionary. */
const ORPHAN_CHECK_MAX_DICTIONARIES = 10_000;
/** The job types of imports (tbx-import-run.ts), the only writers of early documents. */
export const TBX_IMPORT_JOB = 'dictionaries.import-tbx';
export const SKOS_IMPORT_JOB = 'dictionaries.import-skos';
const IMPORT_JOBS = [TBX_IMPORT_JOB, SKOS_IMPORT_JOB];
/** While an import runs, the orphan check waits this long before it looks again. */
const ORPHAN_RECHECK_MS = 60_000;

export interface SearchStatus {
  /** The configured engine. */
  engine: 'elasticsearch' | 'postgresql';
  /** The engine answering searches now: PostgreSQL while Elasticsearch is unavailable. */
  servedBy: 'elasticsearch' | 'postgresql';
  /** Why Elasticsearch does not serve, and since when; null while it does (or is not configured). */
  outage: Outage | null;
  pendingChanges: number;
}

/** What a caller reads when an operation needs Elasticsearch and it is unavailable (503, Retry-After). */
export const SEARCH_INDEX_UNAVAILABLE = 'The search index is unavailable; retry shortly';

/**
 * Writes to the index that bypass the outbox, for documents no other transaction can see yet: the
 * terms of a dictionary an import creates, indexed while its transaction runs (docs/search.md, "Imports
 * into a new dictionary"). Until the commit no search can name that dictionary, so early documents
 * stay invisible; after a rollback they belong to a dictionary that never existed.
 */
export interface DirectIndex {
  /** Writes documents now; throws when Elasticsearch is unreachable or refuses one. */
  write(changes: IndexChanges): Promise<void>;
  /** Makes the written documents searchable: now, or on the next drain if this refresh fails. */
  refresh(): Promise<void>;
  /** Removes a dictionary's documents (an import rolled back after writing some); never throws. */
  forget(em: EntityManager, dictionaryId: number): Promise<void>;
}

/** The Elasticsearch term index for reads other than term search (term decoration). */
export interface TermIndexAccess {
  client: Client;
  index: string;
  /** Options of a request someone waits for (bounded by ELASTICSEARCH_SEARCH_TIMEOUT_MS). */
  quick: TransportRequestOptions;
  /** Runs `onIndex`, or `fallback` (PostgreSQL) while the index is unavailable, as search does. */
  failover<T>(onIndex: () => Promise<T>, fallback: () => Promise<T>): Promise<T>;
}

export interface SearchRuntime {
  readonly engine: SearchEngine;
  /** The Elasticsearch index; null on the PostgreSQL engine. */
  readonly termIndex: TermIndexAccess | null;
  /** Direct writes for a new dictionary's import; null on the PostgreSQL engine. */
  readonly directIndex: DirectIndex | null;
  /** Called after a committed write: waits (bounded) until the change is searchable. */
  afterWrite(): Promise<void>;
  /** As afterWrite, without the time limit (jobs: a finished import is searchable); never throws. */
  settle(): Promise<void>;
  /** Rebuilds a dictionary's documents from PostgreSQL; progress gets (done, total) terms. */
  rebuildDictionary(
    em: EntityManager,
    dictionaryId: number,
    progress?: (done: number) => void,
  ): Promise<number>;
  /**
   * Removes the documents of dictionaries that never committed (an import into a new dictionary killed
   * mid-way); answers how many, or null when an import runs somewhere and the check must wait. Run
   * once after start.
   */
  removeOrphanDocuments(): Promise<number | null>;
  status(): Promise<SearchStatus>;
  /** Starts the background work; resolves when search can be served (bounded by request timeouts). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

class PostgresRuntime implements SearchRuntime {
  readonly engine: PostgresSearch;
  readonly directIndex = null;
  readonly termIndex = null;
  private timer: NodeJS.Timeout | null = null;
  constructor(private readonly fork: () => EntityManager) {
    this.engine = new PostgresSearch(fork);
  }
  async afterWrite() {}
  async settle() {}
  async rebuildDictionary() {
    // PostgreSQL searches the tables themselves: there is nothing to rebuild.
    return 0;
  }
  async removeOrphanDocuments() {
    return 0;
  }
  async status(): Promise<SearchStatus> {
    return { engine: 'postgresql', servedBy: 'postgresql', outage: null, pendingChanges: 0 };
  }
  async start() {
    this.timer = setInterval(() => {
      this.fork()
        .execute(
          `delete from search_outbox where created_at < now() - interval '${POSTGRES_OUTBOX_RETENTION}'`,
        )
        .catch(() => {});
    }, 60_000);
    this.timer.unref();
  }
  async stop() {
    if (this.timer) clearInterval(this.timer);
  }
}

/** The Elasticsearch settings of the runtime (config.ts). */
type ElasticsearchSettings = Pick<
  Config,
  | 'ELASTICSEARCH_INDEX'
  | 'ELASTICSEARCH_WRITE_WAIT_MS'
  | 'ELASTICSEARCH_SEARCH_TIMEOUT_MS'
  | 'ELASTICSEARCH_REQUEST_TIMEOUT_MS'
>;

class ElasticsearchRuntime implements SearchRuntime {
  readonly engine: FailoverSearch;
  private readonly client: Client;
  private readonly index: string;
  private readonly outbox: SearchOutbox;
  private readonly availability: SearchAvailability;
  private timer: NodeJS.Timeout | null = null;
  private rebuilding: Promise<void> | null = null;
  /** Dictionaries an index created again still lacks: written before search returns to it. */
  private readonly unbuilt = new Set<number>();
  private readonly fork: () => EntityManager;
  private failing = false;
  /**
   * Set while the drain that ends an outage runs: writes wait for it again, so that none answered
   * without waiting has its change missing from the index once search is back on Elasticsearch.
   */
  private recovering = false;
  /**
   * Set when written documents still wait for a refresh: the outbox's (one refresh per drain, the
   * writer's next search sees its change) and those written directly (see directIndex.refresh).
   */
  private unrefreshed = false;
  /** The refresh under way, if any (see refreshIfNeeded). */
  private refreshing: Promise<void> | null = null;
  private orphansChecked = false;
  private orphansCheckAfter = 0;
  /** The index was there, or made, since this server started: missing later, it was lost. */
  private indexSeen = false;
  /** Requests whose answer someone waits for: a hung cluster gives way to PostgreSQL, or to the loop. */
  private readonly quick: TransportRequestOptions;
  readonly directIndex: DirectIndex;
  readonly termIndex: TermIndexAccess;

  constructor(
    orm: MikroORM,
    url: string,
    private readonly settings: ElasticsearchSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.index = settings.ELASTICSEARCH_INDEX;
    this.client = new Client({
      node: url,
      requestTimeout: settings.ELASTICSEARCH_REQUEST_TIMEOUT_MS,
      maxRetries: 1,
    });
    this.quick = quickRequest(settings.ELASTICSEARCH_SEARCH_TIMEOUT_MS);
    this.availability = new SearchAvailability(log);
    const postgres = new PostgresSearch(() => orm.em.fork());
    this.engine = new FailoverSearch(
      new ElasticsearchSearch(this.client, this.index, () => orm.em.fork(), postgres, this.quick),
      postgres,
      this.availability,
    );
    this.outbox = new SearchOutbox(orm, this.client, this.index, log, () => {
      this.unrefreshed = true;
    });
    this.fork = () => orm.em.fork();
    this.termIndex = {
      client: this.client,
      index: this.index,
      quick: this.quick,
      failover: (onIndex, fallback) => this.engine.run(onIndex, fallback),
    };
    this.directIndex = {
      write: async (changes) => {
        // The import gives these concepts back to the outbox: no waiting on a cluster known to be away.
        if (this.availability.outage) throw new Error('Elasticsearch unavailable');
        await applyToIndex(this.client, this.index, changes);
      },
      refresh: async () => {
        this.unrefreshed = true;
        // During an outage the drain that ends it refreshes.
        if (this.availability.outage) return;
        await this.refreshIfNeeded().catch((error) => this.noteFailure(error));
      },
      forget: async (em, dictionaryId) => {
        try {
          // None of the dictionary's documents has a live term: the import rolled back.
          await removeDictionaryDocuments(this.client, this.index, em, dictionaryId);
        } catch (error) {
          this.log.warn(
            { err: error, dictionaryId },
            'documents of a rolled-back import left in the search index (no search can reach them)',
          );
        }
      },
    };
  }

  /** Elasticsearch serves search, or the drain that brings it back runs: writes wait for the index. */
  private get indexing(): boolean {
    return this.availability.outage === null || this.recovering;
  }

  /**
   * Refreshes when documents wait for it. A refresh under way is waited for first: it may cover this
   * caller's documents (they landed before it started, and it cleared the flag), so returning at once
   * would answer a writer before its change is searchable. Documents that landed after it started set
   * the flag again, and get a refresh of their own.
   */
  private async refreshIfNeeded(): Promise<void> {
    while (this.refreshing) await this.refreshing.catch(() => {});
    if (!this.unrefreshed) return;
    // Cleared first: a refresh asked for while this one runs may cover writes it does not.
    this.unrefreshed = false;
    const refresh = this.client.indices.refresh({ index: this.index }).then(() => undefined);
    this.refreshing = refresh;
    try {
      await refresh;
    } catch (error) {
      this.unrefreshed = true;
      throw error;
    } finally {
      if (this.refreshing === refresh) this.refreshing = null;
    }
  }

  /**
   * Checked before every drain (one HEAD request, with the short timeout: it is also the loop's sign
   * of life): an index lost with its data (a new cluster, a deleted index) is created again and rebuilt
   * from PostgreSQL in the background, while PostgreSQL answers searches.
   */
  private async ensureIndex(): Promise<void> {
    if (await this.client.indices.existsAlias({ name: this.index }, this.quick)) {
      await addNewFields(this.client, this.index);
      this.indexSeen = true;
      return;
    }
    // Dictionaries with terms to write: a search must not find the index empty, from before it exists
    // again until they are written. Lost while this server used it, that is an outage; missing at
    // start, a first start on this cluster.
    const dictionaries = await this.fork().execute<{ id: number }[]>(
      `select d.id from dictionaries d
        where not d.deleted and exists (select 1 from terms t where t.dictionary_id = d.id and not t.deleted)
        order by d.id`,
    );
    if (dictionaries.length > 0) {
      this.availability.down('index missing', undefined, { quiet: !this.indexSeen });
      for (const { id } of dictionaries) this.unbuilt.add(id);
    }
    const created = await ensureTermIndex(this.client, this.index);
    this.indexSeen = true;
    if (dictionaries.length === 0) return;
    if (created) {
      this.availability.down('index rebuilding');
      this.log.info(
        { index: this.index, dictionaries: dictionaries.length },
        'search index created; rebuilding its dictionaries from PostgreSQL, which answers searches meanwhile',
      );
    }
    this.rebuilding ??= this.rebuildUnbuilt(this.fork())
      .then(
        () => this.log.info({ index: this.index }, 'search index rebuilt'),
        (error) =>
          this.log.warn(
            { err: error },
            'search index rebuild interrupted; it goes on when Elasticsearch is back',
          ),
      )
      .finally(() => {
        this.rebuilding = null;
      });
  }

  /**
   * Writes the dictionaries an index created again has not got yet. Elasticsearch going away stops it
   * (the probe goes on later, and search stays on PostgreSQL until then); a dictionary Elasticsearch
   * refuses is left for dictionaries/reindex, as search must not stay off Elasticsearch for it.
   */
  private async rebuildUnbuilt(em: EntityManager): Promise<void> {
    for (const id of [...this.unbuilt]) {
      try {
        await this.writeDictionary(em, id);
      } catch (error) {
        if (outageReasonOf(error)) throw error;
        this.log.warn(
          { err: error, dictionaryId: id },
          'search index rebuild failed; run dictionaries/reindex',
        );
      }
      this.unbuilt.delete(id);
    }
  }

  private async drain(): Promise<void> {
    await this.ensureIndex();
    await this.outbox.drain();
    await this.refreshIfNeeded();
    if (this.failing) this.log.info('search index updated again; pending changes applied');
    this.failing = false;
  }

  /**
   * The probe of an outage, then the drain that ends it: the index is there (or created and rebuilt),
   * not red, and holds every change committed before the drain began. Search returns to Elasticsearch
   * only then.
   */
  private async recover(): Promise<void> {
    if (this.rebuilding) return this.availability.probeSoon();
    try {
      await this.ensureIndex();
      if (this.rebuilding) return this.availability.probeSoon();
      // What a rebuild left when Elasticsearch went away again.
      await this.rebuildUnbuilt(this.fork());
      const health = await this.client.cluster.health(
        { index: this.index },
        { ...this.quick, ignore: [408] },
      );
      if (health.status === 'red') throw new Error(`search index ${this.index} is red`);
      this.recovering = true;
      await this.drain();
      this.availability.up();
    } catch (error) {
      this.availability.probeFailed(error);
    } finally {
      this.recovering = false;
    }
  }

  async afterWrite() {
    // During an outage PostgreSQL answers searches, and it sees the write already.
    if (!this.indexing) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settings.ELASTICSEARCH_WRITE_WAIT_MS);
    });
    // Observed whatever wins the race: a drain that fails after the wait still begins the outage.
    const drained = this.drain().catch((error) => this.noteFailure(error));
    try {
      await Promise.race([drained, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async settle() {
    if (!this.indexing) return;
    await this.drain().catch((error) => this.noteFailure(error));
  }

  private noteFailure(error: unknown) {
    const reason = outageReasonOf(error);
    if (reason) return this.availability.down(reason, error);
    // Logged once until a drain succeeds: the write succeeded, the background loop retries.
    if (!this.failing) {
      this.log.warn({ err: error }, 'search index not updated; the change waits in the outbox');
    }
    this.failing = true;
  }

  /** Unlike a search, a rebuild has nothing to fall back on: during an outage it answers 503. */
  async rebuildDictionary(em: EntityManager, dictionaryId: number, progress?: (done: number) => void) {
    if (this.availability.outage) throw new AppError('SERVICE_UNAVAILABLE', SEARCH_INDEX_UNAVAILABLE);
    try {
      return await this.writeDictionary(em, dictionaryId, progress);
    } catch (error) {
      if (!outageReasonOf(error)) throw error;
      this.noteFailure(error);
      throw new AppError('SERVICE_UNAVAILABLE', SEARCH_INDEX_UNAVAILABLE);
    }
  }

  private async writeDictionary(em: EntityManager, dictionaryId: number, progress?: (done: number) => void) {
    await this.ensureIndex();
    return rebuildDictionaryDocuments(this.client, this.index, em, dictionaryId, { progress });
  }

  async removeOrphanDocuments(): Promise<number | null> {
    // The dictionaries the index holds documents of (bounded by the number of dictionaries).
    const answer = await this.client.search<unknown, Record<'dictionaries', estypes.AggregationsAggregate>>({
      index: this.index,
      size: 0,
      aggs: { dictionaries: { terms: { field: 'dictionaryId', size: ORPHAN_CHECK_MAX_DICTIONARIES } } },
    });
    const buckets = (answer.aggregations?.dictionaries as estypes.AggregationsLongTermsAggregate | undefined)
      ?.buckets;
    const indexed = (Array.isArray(buckets) ? buckets : []).map((bucket) => Number(bucket.key));
    if (indexed.length === 0) return 0;
    const em = this.fork();
    // An import under way indexes a dictionary its transaction has not committed yet. Jobs keep
    // heartbeats (job-heartbeat.ts), so RUNNING means running, on this instance or another one.
    const [imports] = await em.execute<{ running: number }[]>(
      `select count(*)::int as running from job_tasks where status = 'RUNNING' and type in (?)`,
      [IMPORT_JOBS],
    );
    if ((imports?.running ?? 0) > 0) return null;
    // Read after the job check: an import that committed meanwhile has its dictionary here.
    const known = await em.execute<{ id: number }[]>('select id from dictionaries where id in (?)', [
      indexed,
    ]);
    const orphans = indexed.filter((id) => !known.some((row) => row.id === id));
    let removed = 0;
    for (const dictionaryId of orphans) {
      // Removes only documents without a live term in PostgreSQL: here, all of them.
      removed += await removeStaleDocuments(
        this.client,
        this.index,
        em,
        dictionaryId,
        Number.MAX_SAFE_INTEGER,
      );
    }
    if (removed > 0) {
      await this.client.indices.refresh({ index: this.index });
      this.log.info(
        { dictionaries: orphans, documents: removed },
        'documents of imports that never committed removed',
      );
    }
    return removed;
  }

  /** removeOrphanDocuments once per start, after the first drain; an import under way postpones it. */
  private async checkOrphansOnce(): Promise<void> {
    if (this.orphansChecked || Date.now() < this.orphansCheckAfter) return;
    try {
      this.orphansChecked = (await this.removeOrphanDocuments()) !== null;
      this.orphansCheckAfter = Date.now() + ORPHAN_RECHECK_MS;
    } catch (error) {
      this.orphansChecked = true;
      this.log.warn({ err: error }, 'check for documents of uncommitted imports failed');
    }
  }

  /** The state the loop keeps: readiness probes never wait on Elasticsearch, nor add to its load. */
  async status(): Promise<SearchStatus> {
    const pendingChanges = await this.outbox.pending();
    const outage = this.availability.outage;
    return { engine: 'elasticsearch', servedBy: this.availability.servedBy, outage, pendingChanges };
  }

  /**
   * Every second: while Elasticsearch serves, a drain (its HEAD request notices an outage); during an
   * outage, the probe when it is due (after 1, 2, 4... up to 10 s).
   */
  /** Resolves once the index is there (created if need be) or Elasticsearch found unavailable. */
  start(): Promise<void> {
    const round = async () => {
      if (!this.availability.outage) {
        await this.drain();
        await this.checkOrphansOnce();
      } else if (this.availability.probeDue()) {
        await this.recover();
      }
    };
    const tick = () => {
      if (!this.timer) return;
      round()
        .catch((error) => this.noteFailure(error))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, POLL_MS).unref();
        });
    };
    const first = this.ensureIndex().catch((error) => this.noteFailure(error));
    this.timer = setTimeout(() => void first.then(tick), 0).unref();
    return first;
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // During an outage the rows stay for the next start (or another instance).
    if (!this.availability.outage) {
      await this.outbox.drain().catch(() => {});
      await this.refreshIfNeeded().catch(() => {});
    }
    await this.client.close();
  }
}

const runtimes = new WeakMap<object, SearchRuntime>();

/** The runtime for an app's ORM, made from its configuration. */
export function createSearchRuntime(orm: MikroORM, config: Config, log: FastifyBaseLogger): SearchRuntime {
  const runtime = config.ELASTICSEARCH_URL
    ? new ElasticsearchRuntime(orm, config.ELASTICSEARCH_URL, config, log)
    : new PostgresRuntime(() => orm.em.fork());
  runtimes.set(orm.config, runtime);
  return runtime;
}

/** The runtime of the ORM behind `em`; PostgreSQL when no app registered one (scripts, direct calls). */
export function searchRuntimeOf(em: EntityManager): SearchRuntime {
  let runtime = runtimes.get(em.config);
  if (!runtime) {
    runtime = new PostgresRuntime(() => em.fork());
    runtimes.set(em.config, runtime);
  }
  return runtime;
}
