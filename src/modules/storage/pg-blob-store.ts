import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';
import {
  type BlobInfo,
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  type PutOptions,
} from './blob-store.js';
import { SNIFF_BYTES, sniffContentType } from './sniff.js';

/** Bytes per `bytea` row: one chunk is all a put or a get holds in memory at a time. */
export const CHUNK_BYTES = 256 * 1024;

interface BlobRow {
  key: string;
  size: string;
  sha256: string;
  content_type: string;
  created_at: Date;
}

const infoOf = (row: BlobRow): BlobInfo => ({
  key: row.key,
  size: Number(row.size),
  sha256: row.sha256.trim(),
  contentType: row.content_type,
  createdAt: row.created_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Blobs as rows of `storage_blob_chunks` (bytea, CHUNK_BYTES each) under a `storage_blobs` row: pg_dump
 * covers them, deleting a blob deletes its chunks (no large-object orphans), and reads fetch one chunk
 * per statement. A put writes outside any transaction, chunk by chunk, and marks the blob complete
 * last; an interrupted put leaves an incomplete blob that `sweepIncomplete` removes.
 */
export class PgBlobStore implements BlobStore {
  /** `em` is used for its connection pool only (never its identity map). */
  constructor(private readonly em: EntityManager) {}

  private rows<T extends object>(text: string, params: unknown[]): Promise<T[]> {
    return boundRows<T>(this.em, { text, params });
  }

  async put(source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobInfo> {
    const key = randomUUID();
    await this.rows(
      `insert into storage_blobs (key, client_id, size, sha256, content_type, complete)
       values (?, ?, 0, '', 'application/octet-stream', false)`,
      [key, options.clientId ?? null],
    );
    const hash = createHash('sha256');
    let size = 0;
    let index = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let head: Buffer | undefined;
    const writeChunk = async (data: Buffer) => {
      head ??= data.subarray(0, SNIFF_BYTES);
      await this.rows('insert into storage_blob_chunks (blob_key, n, data) values (?, ?, ?)', [
        key,
        index++,
        data,
      ]);
    };
    try {
      for await (const piece of source) {
        const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
        size += bytes.length;
        if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
        hash.update(bytes);
        pending.push(bytes);
        pendingBytes += bytes.length;
        while (pendingBytes >= CHUNK_BYTES) {
          const all = Buffer.concat(pending, pendingBytes);
          await writeChunk(all.subarray(0, CHUNK_BYTES));
          pending = [all.subarray(CHUNK_BYTES)];
          pendingBytes = all.length - CHUNK_BYTES;
        }
      }
      if (pendingBytes > 0 || index === 0) await writeChunk(Buffer.concat(pending, pendingBytes));
      const contentType = await sniffContentType(head ?? Buffer.alloc(0));
      const [row] = await this.rows<BlobRow>(
        `update storage_blobs set size = ?, sha256 = ?, content_type = ?, complete = true
         where key = ? returning key, size, sha256, content_type, created_at`,
        [size, hash.digest('hex'), contentType, key],
      );
      return infoOf(row as BlobRow);
    } catch (error) {
      await this.delete(key);
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    if (!UUID.test(key)) return undefined;
    const [row] = await this.rows<BlobRow>(
      'select key, size, sha256, content_type, created_at from storage_blobs where key = ? and complete',
      [key],
    );
    return row ? infoOf(row) : undefined;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const info = await this.stat(key);
    if (!info) throw new BlobNotFoundError(key);
    const start = Math.max(0, range?.start ?? 0);
    const end = Math.min(info.size - 1, range?.end ?? info.size - 1);
    const read = (n: number) =>
      this.rows<{ data: Buffer }>('select data from storage_blob_chunks where blob_key = ? and n = ?', [
        key,
        n,
      ]);
    async function* chunks(): AsyncGenerator<Buffer> {
      if (end < start) return;
      for (let n = Math.floor(start / CHUNK_BYTES); n <= Math.floor(end / CHUNK_BYTES); n++) {
        const [row] = await read(n);
        if (!row) throw new BlobNotFoundError(key);
        const offset = n * CHUNK_BYTES;
        yield row.data.subarray(Math.max(0, start - offset), end - offset + 1);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    if (!UUID.test(key)) return;
    await this.rows('delete from storage_blobs where key = ?', [key]);
  }

  /** Removes blobs whose put never finished (a dropped upload, a crash) and that are older than `age` ms. */
  async sweepIncomplete(ageMs: number): Promise<number> {
    const rows = await this.rows<{ key: string }>(
      `delete from storage_blobs where not complete and created_at < now() - (? * interval '1 millisecond')
       returning key`,
      [ageMs],
    );
    return rows.length;
  }
}
