/**
 * The storage sweeper (docs/attachments.md "Unreferenced files"): deletes files nothing names any more,
 * once they are older than STORAGE_ORPHAN_GRACE_HOURS, in a round every STORAGE_SWEEP_MINUTES.
 *
 * - An attachment is named by field values: of concepts, terms and concept languages (live or soft
 *   deleted) and of history records (snapshots and changes, which undo restores). One named nowhere in
 *   its client goes, with its file and thumbnail.
 * - A blob no row names (BLOB_REFERENCES: attachments, thumbnails, feedback) goes: a crash between an
 *   upload and its row, a refused upload whose cleanup failed. Incomplete blobs (dropped uploads) too.
 *
 * The grace period covers uploads in flight: an editor uploads first and saves the concept after. A
 * round takes a transaction-scoped advisory lock, so servers sharing the database do not sweep at once;
 * it reads the references once per client, then locks the attachments named nowhere and reads again:
 * a concept write naming one of them (attachment-keys.ts takes FOR KEY SHARE) either committed before
 * the lock and is seen by the second reading, or waits and then finds the key gone (400).
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { boundRows } from '../../shared/sql.js';
import { PgBlobStore } from './pg-blob-store.js';

/** Table columns holding blob keys: a blob named in none of them is unreferenced. */
export const BLOB_REFERENCES: readonly { table: string; column: string }[] = [
  { table: 'attachments', column: 'key' },
  { table: 'attachments', column: 'thumbnail_key' },
  { table: 'feedback', column: 'attachment_key' },
];

/** JSON columns (with their table's client column) where field values, and so attachment keys, live. */
const FIELD_VALUE_DOCUMENTS: readonly { table: string; column: string }[] = [
  { table: 'concepts', column: 'field_map' },
  { table: 'terms', column: 'field_map' },
  { table: 'concept_language_fields', column: 'field_map' },
  { table: 'concept_history', column: 'snapshot' },
  { table: 'concept_history', column: 'changes' },
  // A staged entry (docs/staging.md) names the files an import into a staging area brought, until accepted.
  { table: 'staged_entries', column: 'entry' },
];

/** Loose blobs deleted per round: the rest wait for the next round. */
const BATCH = 2000;
const LOCK_KEY = 7_310_041; // any constant: one round at a time across the servers of a database
const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export interface SweepResult {
  /** Attachment rows deleted (each with its file and thumbnail). */
  attachments: number;
  /** Blobs deleted: those of the attachments, unreferenced ones, incomplete ones. */
  blobs: number;
}

/**
 * The keys among `keys` that field values of `clientId` name (any UUID in those JSON documents counts:
 * a false match keeps a file, never loses one). Only dictionaries with ATTACHMENT fields (deleted ones
 * included) and the uploads' own dictionaries are read.
 */
async function namedKeys(em: EntityManager, clientId: number, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const scoped = `client_id = ? and dictionary_id in (
      select dictionary_id from fields where client_id = ? and field_type = 'ATTACHMENT'
      union select dictionary_id from attachments where client_id = ? and dictionary_id is not null)`;
  const parts = FIELD_VALUE_DOCUMENTS.map(
    ({ table, column }) => `select ${column}::text as doc from ${table} where ${scoped}`,
  );
  const rows = await boundRows<{ key: string }>(em, {
    text: `select distinct m[1] as key from (${parts.join(' union all ')}) d,
             regexp_matches(d.doc, '${UUID_PATTERN}', 'g') m
            where m[1] = any(?::text[])`,
    params: [...FIELD_VALUE_DOCUMENTS.flatMap(() => [clientId, clientId, clientId]), [...keys]],
  });
  return new Set(rows.map((row) => row.key));
}

/** One sweep over every client, deleting what nothing names and is older than `graceMs`. */
export async function sweepUnreferencedFiles(em: EntityManager, graceMs: number): Promise<SweepResult> {
  const result: SweepResult = { attachments: 0, blobs: 0 };
  const store = new PgBlobStore(em);
  const doomedBlobs: string[] = [];
  await em.transactional(async (tx) => {
    const [lock] = await boundRows<{ locked: boolean }>(tx, {
      text: 'select pg_try_advisory_xact_lock(?) as locked',
      params: [LOCK_KEY],
    });
    if (!lock?.locked) return;
    const age = "now() - (? * interval '1 millisecond')";
    const clients = await boundRows<{ client_id: number }>(tx, {
      text: `select distinct client_id from attachments where created_at < ${age}`,
      params: [graceMs],
    });
    for (const { client_id: clientId } of clients) {
      const old = await boundRows<{ key: string }>(tx, {
        text: `select key from attachments where client_id = ? and created_at < ${age}`,
        params: [clientId, graceMs],
      });
      const named = await namedKeys(
        tx,
        clientId,
        old.map((row) => row.key),
      );
      const unnamed = old.filter((row) => !named.has(row.key)).map((row) => row.key);
      if (unnamed.length === 0) continue;
      // Locked, then read again: a concept write naming one of them either committed before the lock
      // (the second reading sees it) or waits for this transaction and then finds the key gone.
      const locked = await boundRows<{ key: string; thumbnail_key: string | null }>(tx, {
        text: 'select key, thumbnail_key from attachments where client_id = ? and key = any(?::uuid[]) for update',
        params: [clientId, unnamed],
      });
      const renamed = await namedKeys(
        tx,
        clientId,
        locked.map((row) => row.key),
      );
      const doomed = locked.filter((row) => !renamed.has(row.key));
      if (doomed.length === 0) continue;
      await boundRows(tx, {
        text: 'delete from attachments where client_id = ? and key = any(?::uuid[])',
        params: [clientId, doomed.map((row) => row.key)],
      });
      result.attachments += doomed.length;
      for (const row of doomed) doomedBlobs.push(row.key, ...(row.thumbnail_key ? [row.thumbnail_key] : []));
    }
    // Blobs no row names, old enough that no upload is still on its way to its row.
    const referenced = BLOB_REFERENCES.map(
      ({ table, column }) => `not exists (select 1 from ${table} r where r.${column}::text = b.key::text)`,
    ).join(' and ');
    const loose = await boundRows<{ key: string }>(tx, {
      text: `select b.key from storage_blobs b where b.complete and b.created_at < ${age} and ${referenced}
              order by b.created_at limit ${BATCH}`,
      params: [graceMs],
    });
    doomedBlobs.push(...loose.map((row) => row.key));
  });
  // After the commit: a row without its file would be an error, a file without its row is only space.
  for (const key of new Set(doomedBlobs)) {
    await store.delete(key);
    result.blobs++;
  }
  result.blobs += await store.sweepIncomplete(graceMs);
  return result;
}

/** Runs sweepUnreferencedFiles every STORAGE_SWEEP_MINUTES (docs/attachments.md). */
export class StorageSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.config.STORAGE_SWEEP_MINUTES === 0) return;
    this.timer = setInterval(() => void this.sweep(), this.config.STORAGE_SWEEP_MINUTES * 60_000);
    this.timer.unref();
  }

  /** One round now; rounds never overlap. */
  sweep(): Promise<unknown> {
    this.running = this.running.then(async () => {
      try {
        const swept = await sweepUnreferencedFiles(
          this.orm.em.fork(),
          this.config.STORAGE_ORPHAN_GRACE_HOURS * 3_600_000,
        );
        if (swept.blobs > 0) this.log.info(swept, 'storage sweep deleted unreferenced files');
      } catch (error) {
        this.log.warn({ err: error }, 'storage sweep failed; the next round retries');
      }
    });
    return this.running;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
