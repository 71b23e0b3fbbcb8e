/**
 * The transactional outbox to Elasticsearch (design.md, docs/search.md). Statement triggers write
 * `search_outbox` rows in the writer's own transaction; this drainer turns them into bulk requests after
 * the commit and deletes them only once Elasticsearch took them. Elasticsearch being down delays search
 * freshness: the rows wait, and the background loop applies them when it is back.
 *
 * One drainer at a time across all instances (a transaction-level advisory lock), so batches reach the
 * index in outbox order and an older state never overwrites a newer one.
 */
import type { Client } from '@elastic/elasticsearch';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import {
  applyToIndex,
  type IndexChanges,
  rebuildDictionaryDocuments,
  removeDictionaryDocuments,
  termDocumentsOfConcepts,
} from './elasticsearch-index.js';

/** pg_advisory_xact_lock key of the drainer ("ptsearch"). */
const DRAIN_LOCK = 0x7074_7365;
const BATCH_ROWS = 2000;

interface OutboxRow {
  id: string;
  concept_id: number | null;
  term_id: number | null;
  /** A dictionary deleted or brought back, or whose workflow changed what its documents hold. */
  dictionary_id: number | null;
}

export class SearchOutbox {
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly client: Client,
    private readonly index: string,
    private readonly log: FastifyBaseLogger,
    /**
     * Called once a batch's documents are in Elasticsearch and its rows deleted. The caller refreshes
     * the index after the drain, and again on the next one while that refresh fails: the rows are gone
     * by then, so nothing else would ever make those documents searchable.
     */
    private readonly onApplied: () => void,
  ) {}

  /**
   * Applies every row committed before the call. Calls during a run wait for the next run, which
   * starts after it and so sees rows the running one may have missed.
   */
  drain(): Promise<void> {
    if (!this.current) {
      this.current = this.run().finally(() => {
        this.current = null;
      });
      return this.current;
    }
    if (!this.queued) {
      this.queued = this.current
        .catch(() => {})
        .then(() => {
          this.queued = null;
          return this.drain();
        });
    }
    return this.queued;
  }

  /** Rows waiting (for /ready and tests). */
  async pending(): Promise<number> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ count: string }[]>('select count(*) as count from search_outbox');
    return Number(row?.count ?? 0);
  }

  private async run(): Promise<void> {
    const em = this.orm.em.fork();
    const [waiting] = await em.execute<{ any: boolean }[]>(
      'select exists (select 1 from search_outbox) as any',
    );
    if (!waiting?.any) return;
    // The drain lock belongs to a transaction that only holds it; the batches commit on their own, so
    // the outbox shrinks as Elasticsearch takes them (what /ready reports and progress watchers see).
    // The batches' manager is made outside the lock's transaction: it must not join it.
    const batches = this.orm.em.fork();
    await this.orm.em.fork().transactional(async (lock) => {
      await lock.execute('select pg_advisory_xact_lock(?)', [DRAIN_LOCK]);
      await this.applyAll(batches);
    });
  }

  /**
   * Every waiting row, a batch at a time, while the caller holds the drain lock. Reading a batch from
   * PostgreSQL overlaps the previous batch's bulk request; bulks still go out one after the other, in
   * outbox order, and a batch's rows are deleted once Elasticsearch took it. After a failure the rows
   * not yet deleted are applied again later, which is harmless.
   */
  private async applyAll(em: EntityManager): Promise<void> {
    let lastId = '0';
    let inFlight: { sent: Promise<void>; rowIds: string[] } | null = null;
    const land = async () => {
      if (!inFlight) return;
      const { sent, rowIds } = inFlight;
      inFlight = null;
      await sent;
      await em.execute('delete from search_outbox where id in (?)', [rowIds]);
      this.onApplied();
    };
    try {
      for (;;) {
        const rows = await em.execute<OutboxRow[]>(
          `select id, concept_id, term_id, dictionary_id from search_outbox where id > ? order by id limit ${BATCH_ROWS}`,
          [lastId],
        );
        if (rows.length === 0) break;
        lastId = rows[rows.length - 1]!.id;
        const started = performance.now();
        const changes = await this.changesOf(em, rows);
        const read = performance.now();
        await land();
        const dictionaryIds = [
          ...new Set(rows.flatMap((row) => (row.dictionary_id === null ? [] : [row.dictionary_id]))),
        ];
        // The batch's rows are deleted only once its dictionaries are applied too.
        const sent = applyToIndex(this.client, this.index, changes).then(() =>
          this.applyDictionaries(dictionaryIds),
        );
        // Observed at once, so a failure while the next batch is read is no unhandled rejection.
        sent.catch(() => {});
        inFlight = { sent, rowIds: rows.map((row) => row.id) };
        this.log.debug(
          { rows: rows.length, documents: changes.documents.length, readMs: Math.round(read - started) },
          'search outbox batch read',
        );
        if (rows.length < BATCH_ROWS) break;
      }
      await land();
    } finally {
      // A failed read leaves a bulk in flight: let it finish while the lock is still held.
      await (inFlight as { sent: Promise<void> } | null)?.sent.catch(() => {});
    }
  }

  /**
   * Dictionaries whose `deleted` flag changed, as they are now: a deleted (or gone) one loses its
   * documents, one brought back has them written again from PostgreSQL.
   */
  private async applyDictionaries(dictionaryIds: readonly number[]): Promise<void> {
    if (dictionaryIds.length === 0) return;
    // A manager of its own: the next batch is read on the drainer's meanwhile.
    const em = this.orm.em.fork();
    const live = await em.execute<{ id: number }[]>(
      'select id from dictionaries where id in (?) and not deleted',
      [[...dictionaryIds]],
    );
    for (const dictionaryId of dictionaryIds) {
      if (live.some((row) => row.id === dictionaryId)) {
        const written = await rebuildDictionaryDocuments(this.client, this.index, em, dictionaryId);
        this.log.info(
          { dictionaryId, documents: written },
          'search documents of a restored dictionary written',
        );
      } else {
        const removed = await removeDictionaryDocuments(this.client, this.index, em, dictionaryId);
        this.log.info(
          { dictionaryId, documents: removed },
          'search documents of a deleted dictionary removed',
        );
      }
    }
  }

  /** The documents to write and the ids to remove for a batch of outbox rows. */
  private async changesOf(em: EntityManager, rows: readonly OutboxRow[]): Promise<IndexChanges> {
    const conceptIds = [...new Set(rows.flatMap((row) => (row.concept_id === null ? [] : [row.concept_id])))];
    const { documents, removed, version } = await termDocumentsOfConcepts(em, conceptIds, Date.now());
    // Terms removed for good (dictionary emptied, concept purged) have no row left to read.
    const present = new Set(documents.map((document) => document.id));
    const gone = rows.flatMap((row) =>
      row.term_id !== null && !present.has(row.term_id) ? [row.term_id] : [],
    );
    return { documents, removed: [...new Set([...removed, ...gone])], version };
  }
}
