/**
 * Which engine serves term search, chosen once per app from the configuration: ELASTICSEARCH_URL means
 * Elasticsearch (fed through the outbox), none means PostgreSQL. Domain code reaches the runtime of its
 * ORM through searchRuntimeOf(em), so services need no extra parameter.
 */
import { Client, type estypes } from '@elastic/elasticsearch';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import {
  applyToIndex,
  ensureTermIndex,
  type IndexChanges,
  rebuildDictionaryDocuments,
  removeDictionaryDocuments,
  removeStaleDocuments,
} from './elasticsearch-index.js';
import { ElasticsearchSearch } from './elasticsearch-search.js';
import { PostgresSearch } from './postgres-search.js';
import { SearchOutbox } from './search-outbox.js';
import type { SearchEngine } from './search-plan.js';

/** How long a write waits for its change to reach the index before answering anyway. */
const AFTER_WRITE_WAIT_MS = 5000;
const POLL_MS = 1000;
/** Without Elasticsearch, outbox rows are kept this long (an Elasticsearch instance may share the database). */
const POSTGRES_OUTBOX_RETENTION = '1 hour';
/** More dictionaries than any installation holds: the orphan check sees every indexed dictionary. */
const ORPHAN_CHECK_MAX_DICTIONARIES = 10_000;
/** The job type of TBX imports (tbx-import.service.ts), the only writer of early documents. */
export const TBX_IMPORT_JOB = 'dictionaries.import-tbx';
/** While an import runs, the orphan check waits this long before it looks again. */
const ORPHAN_RECHECK_MS = 60_000;

export interface SearchStatus {
  engine: 'elasticsearch' | 'postgresql';
  reachable: boolean;
  pendingChanges: number;
}

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

export interface SearchRuntime {
  readonly engine: SearchEngine;
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
  start(): void;
  stop(): Promise<void>;
}

class PostgresRuntime implements SearchRuntime {
  readonly engine: PostgresSearch;
  readonly directIndex = null;
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
    return { engine: 'postgresql', reachable: true, pendingChanges: 0 };
  }
  start() {
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

class ElasticsearchRuntime implements SearchRuntime {
  readonly engine: ElasticsearchSearch;
  private readonly client: Client;
  private readonly outbox: SearchOutbox;
  private timer: NodeJS.Timeout | null = null;
  private rebuilding: Promise<void> | null = null;
  private readonly fork: () => EntityManager;
  private failing = false;
  /**
   * Set when written documents still wait for a refresh: the outbox's (one refresh per drain, the
   * writer's next search sees its change) and those written directly (see directIndex.refresh).
   */
  private unrefreshed = false;
  /** The refresh under way, if any (see refreshIfNeeded). */
  private refreshing: Promise<void> | null = null;
  private orphansChecked = false;
  private orphansCheckAfter = 0;
  readonly directIndex: DirectIndex;

  constructor(
    orm: MikroORM,
    url: string,
    private readonly index: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new Client({ node: url, requestTimeout: 30_000, maxRetries: 1 });
    this.engine = new ElasticsearchSearch(
      this.client,
      index,
      () => orm.em.fork(),
      new PostgresSearch(() => orm.em.fork()),
    );
    this.outbox = new SearchOutbox(orm, this.client, index, log, () => {
      this.unrefreshed = true;
    });
    this.fork = () => orm.em.fork();
    this.directIndex = {
      write: (changes) => applyToIndex(this.client, this.index, changes),
      refresh: async () => {
        this.unrefreshed = true;
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
   * Checked before every drain (one HEAD request): an index lost with its data (a new cluster, a
   * deleted index) is created again and rebuilt from PostgreSQL in the background.
   */
  private async ensureIndex(): Promise<void> {
    if (!(await ensureTermIndex(this.client, this.index))) return;
    this.log.info({ index: this.index }, 'search index created; rebuilding every dictionary from PostgreSQL');
    this.rebuilding ??= this.rebuildAll().finally(() => {
      this.rebuilding = null;
    });
  }

  private async rebuildAll(): Promise<void> {
    const em = this.fork();
    const dictionaries = await em.execute<{ id: number }[]>(
      'select id from dictionaries where not deleted order by id',
    );
    for (const { id } of dictionaries) {
      await this.rebuildDictionary(em, id).catch((error) => {
        this.log.warn(
          { err: error, dictionaryId: id },
          'search index rebuild failed; run dictionaries/reindex',
        );
      });
    }
    this.log.info({ dictionaries: dictionaries.length }, 'search index rebuilt');
  }

  private async drain(): Promise<void> {
    await this.ensureIndex();
    await this.outbox.drain();
    await this.refreshIfNeeded();
    if (this.failing) this.log.info('search index reachable again; pending changes applied');
    this.failing = false;
  }

  async afterWrite() {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, AFTER_WRITE_WAIT_MS);
    });
    try {
      await Promise.race([this.drain(), timeout]);
    } catch (error) {
      this.noteFailure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  async settle() {
    await this.drain().catch((error) => this.noteFailure(error));
  }

  private noteFailure(error: unknown) {
    // Logged once per outage: the write succeeded, the background loop retries.
    if (!this.failing) {
      this.log.warn({ err: error }, 'search index not updated; the change waits in the outbox');
    }
    this.failing = true;
  }

  async rebuildDictionary(em: EntityManager, dictionaryId: number, progress?: (done: number) => void) {
    await ensureTermIndex(this.client, this.index);
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
      `select count(*)::int as running from job_tasks where status = 'RUNNING' and type = ?`,
      [TBX_IMPORT_JOB],
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

  async status(): Promise<SearchStatus> {
    const pendingChanges = await this.outbox.pending();
    try {
      // The client's own timeout: a hung cluster must not hang readiness probes.
      await this.client.cluster.health({ timeout: '2s' }, { requestTimeout: 2000, maxRetries: 0 });
      return { engine: 'elasticsearch', reachable: true, pendingChanges };
    } catch {
      return { engine: 'elasticsearch', reachable: false, pendingChanges };
    }
  }

  start() {
    const tick = () => {
      this.drain()
        .then(() => this.checkOrphansOnce())
        .catch((error) => this.noteFailure(error))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, POLL_MS).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.outbox.drain().catch(() => {});
    await this.refreshIfNeeded().catch(() => {});
    await this.client.close();
  }
}

const runtimes = new WeakMap<object, SearchRuntime>();

/** The runtime for an app's ORM, made from its configuration. */
export function createSearchRuntime(orm: MikroORM, config: Config, log: FastifyBaseLogger): SearchRuntime {
  const runtime = config.ELASTICSEARCH_URL
    ? new ElasticsearchRuntime(orm, config.ELASTICSEARCH_URL, config.ELASTICSEARCH_INDEX, log)
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
