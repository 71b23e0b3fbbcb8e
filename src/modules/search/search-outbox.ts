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
import { applyToIndex, termDocumentsOfConcepts } from './elasticsearch-index.js';

/** pg_advisory_xact_lock key of the drainer ("ptsearch"). */
const DRAIN_LOCK = 0x7074_7365;
const BATCH_ROWS = 2000;

interface OutboxRow {
  id: string;
  concept_id: number | null;
  term_id: number | null;
}

export class SearchOutbox {
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly client: Client,
    private readonly index: string,
    private readonly log: FastifyBaseLogger,
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
    let applied = 0;
    for (;;) {
      const batch = await this.applyBatch(this.orm.em.fork());
      applied += batch;
      if (batch < BATCH_ROWS) break;
    }
    // One refresh for the whole run: the writer's next search sees its change.
    if (applied > 0) await this.client.indices.refresh({ index: this.index });
  }

  /** One batch under the drain lock; answers how many outbox rows it consumed. */
  private applyBatch(em: EntityManager): Promise<number> {
    return em.transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(?)', [DRAIN_LOCK]);
      const rows = await tx.execute<OutboxRow[]>(
        `select id, concept_id, term_id from search_outbox order by id limit ${BATCH_ROWS}`,
      );
      if (rows.length === 0) return 0;
      const conceptIds = [
        ...new Set(rows.flatMap((row) => (row.concept_id === null ? [] : [row.concept_id]))),
      ];
      const started = performance.now();
      const { documents, removed } = await termDocumentsOfConcepts(tx, conceptIds, Date.now());
      const read = performance.now();
      // Terms removed for good (dictionary emptied, concept purged) have no row left to read.
      const present = new Set(documents.map((document) => document.id));
      const gone = rows.flatMap((row) =>
        row.term_id !== null && !present.has(row.term_id) ? [row.term_id] : [],
      );
      await applyToIndex(this.client, this.index, documents, [...new Set([...removed, ...gone])]);
      const sent = performance.now();
      await tx.execute('delete from search_outbox where id in (?)', [rows.map((row) => row.id)]);
      this.log.debug(
        {
          rows: rows.length,
          concepts: conceptIds.length,
          documents: documents.length,
          readMs: Math.round(read - started),
          bulkMs: Math.round(sent - read),
        },
        'search outbox applied',
      );
      return rows.length;
    });
  }
}
