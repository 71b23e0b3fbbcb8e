/**
 * Indexing inside a bulk transaction, for concepts no other transaction can see yet (an import into the
 * dictionary it creates). Each batch's documents are read in the transaction and sent to Elasticsearch
 * while the import goes on with the next batch; their outbox rows are deleted, so the drainer does not
 * index them a second time after the commit. A batch Elasticsearch does not take gets its outbox rows
 * back before the commit: at the commit every concept is indexed or waits in the outbox, as with any
 * other write (docs/search.md, "Imports into a new dictionary").
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { boundRows } from '../../shared/sql.js';
import { termDocumentsOfConcepts } from './elasticsearch-index.js';
import type { DirectIndex } from './search-runtime.js';

/**
 * Bulk requests under way at once. Elasticsearch writes one request to a shard on one thread: two keep
 * both cores busy while the import goes on.
 */
const MAX_IN_FLIGHT = 2;

export class EarlyIndexer {
  private readonly inFlight: { sent: Promise<void>; conceptIds: number[] }[] = [];
  /** The outbox id up to which this transaction's rows were handled (a lower bound for the next batch). */
  private outboxMark = 0;
  /** After one refusal the rest goes through the outbox: a down cluster must not slow each batch. */
  private refused = false;
  /** True once Elasticsearch took a batch: a rollback then leaves documents to remove. */
  wrote = false;

  constructor(
    private readonly em: EntityManager,
    private readonly index: DirectIndex,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Sends the documents of concepts this transaction just created (terms and domains written). Runs on
   * the transaction's connection, one statement at a time; the bulk request runs alongside the caller.
   */
  async add(conceptIds: readonly number[]): Promise<void> {
    if (this.refused || conceptIds.length === 0) return;
    const ids = [...conceptIds];
    const changes = await termDocumentsOfConcepts(this.em, ids, Date.now());
    // The rows the triggers wrote for these concepts: this transaction's own, all above the last mark.
    // Both bounds keep the delete on the primary key: a scan of the table would meet every row the
    // earlier batches deleted (dead only after the commit), growing with the import.
    const [range] = await boundRows<{ mark: string }>(this.em, {
      text: `with upper as (select last_value from search_outbox_id_seq),
            gone as (delete from search_outbox where id > ? and id <= (select last_value from upper)
                       and concept_id = any(?::int[]))
       select last_value::text as mark from upper`,
      params: [this.outboxMark, ids],
    });
    this.outboxMark = Number(range?.mark ?? this.outboxMark);
    while (this.inFlight.length >= MAX_IN_FLIGHT) await this.land();
    if (this.refused) return this.restore(ids);
    const sent = this.index.write({ documents: changes.documents, removed: [], version: changes.version });
    // Observed at once, so a failure while the next batch is written is no unhandled rejection.
    sent.catch(() => {});
    this.inFlight.push({ sent, conceptIds: ids });
  }

  /** Waits for every bulk request; call it before the transaction commits. */
  async finish(): Promise<void> {
    while (this.inFlight.length) await this.land();
  }

  /**
   * After a failed transaction: waits for the requests still under way (without the database, whose
   * transaction is gone) and answers whether any documents may have reached the index, so that the
   * caller removes them only once nothing can land after the removal.
   */
  async abandon(): Promise<boolean> {
    const pending = this.inFlight.splice(0);
    const landed = await Promise.allSettled(pending.map((request) => request.sent));
    return this.wrote || landed.some((result) => result.status === 'fulfilled');
  }

  /** Waits for the oldest bulk request; gives its concepts back to the outbox if it failed. */
  private async land(): Promise<void> {
    const oldest = this.inFlight.shift();
    if (!oldest) return;
    const { sent, conceptIds } = oldest;
    try {
      await sent;
      this.wrote = true;
    } catch (error) {
      if (!this.refused)
        this.log.warn({ err: error }, 'import indexing refused; the rest of the import waits in the outbox');
      this.refused = true;
      await this.restore(conceptIds);
    }
  }

  private async restore(conceptIds: readonly number[]): Promise<void> {
    await boundRows(this.em, {
      text: 'insert into search_outbox (concept_id) select unnest(?::int[])',
      params: [[...conceptIds]],
    });
  }
}
