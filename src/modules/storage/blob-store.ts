import type { Readable } from 'node:stream';

/**
 * Blob storage: immutable byte streams under an opaque key. Callers (attachments, feedback) keep the
 * key in their own rows and check access there; the store knows nothing of permissions. A blob is never
 * changed after `put`: replacing a file is a new blob, so history can bring an old one back.
 *
 * Two implementations are meant to pass the same tests (docs/attachments.md, "Storage"):
 * - `PgBlobStore` (default): chunks of `bytea` in PostgreSQL, so a database backup holds every file.
 * - an S3-compatible store (MinIO in tests; S3, R2 in production), keyed the same way.
 */
export interface BlobStore {
  /**
   * Streams `source` into a new blob, never holding it whole in memory. More than `maxBytes` bytes:
   * nothing is kept and BlobTooLargeError is thrown. The content type is sniffed from the first bytes
   * (sniff.ts), never taken from the client.
   */
  put(source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobInfo>;
  /** The blob's bytes as a stream (`range` inclusive, as in HTTP Range); BlobNotFoundError if missing. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size, hash and sniffed type, or undefined when there is no complete blob under the key. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

export interface PutOptions {
  /** Largest accepted size in bytes (MAX_FILE_SIZE, or FEEDBACK_MAX_FILE_SIZE). */
  maxBytes: number;
  /** Tenant owning the blob: its blobs go with it. */
  clientId?: number;
}

export interface BlobInfo {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes: the ETag of downloads, and a check for copies. */
  sha256: string;
  /** Media type sniffed from the bytes (application/octet-stream when nothing is recognised). */
  contentType: string;
  createdAt: Date;
}

/** First and last byte, both inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

export class BlobTooLargeError extends Error {
  override readonly name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the ${maxBytes} bytes allowed`);
  }
}

export class BlobNotFoundError extends Error {
  override readonly name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`No blob ${key}`);
  }
}
