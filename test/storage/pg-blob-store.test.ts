import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError } from '../../src/modules/storage/blob-store.js';
import { CHUNK_BYTES, PgBlobStore } from '../../src/modules/storage/pg-blob-store.js';
import { sniffContentType } from '../../src/modules/storage/sniff.js';
import { useTestOrm } from '../helpers/test-orm.js';

const orm = useTestOrm();
const store = () => new PgBlobStore(orm().em.fork());

/** Pieces of a known pattern, as an upload arrives: never one buffer. */
async function* pattern(bytes: number, piece = 10_000): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes; at += piece) {
    const length = Math.min(piece, bytes - at);
    yield Buffer.from(Array.from({ length }, (_, i) => (at + i) % 251));
  }
}

const collect = async (stream: Readable) => Buffer.concat(await stream.toArray());

describe('PgBlobStore', () => {
  it('streams a blob of several chunks in and out, whole and by range', async () => {
    const size = CHUNK_BYTES * 2 + 1234;
    const info = await store().put(pattern(size), { maxBytes: size });
    expect(info).toMatchObject({ size, contentType: 'application/octet-stream' });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
    const whole = await collect(await store().get(info.key));
    expect(whole.equals(Buffer.concat(await Readable.from(pattern(size)).toArray()))).toBe(true);
    const start = CHUNK_BYTES - 5;
    const part = await collect(await store().get(info.key, { start, end: CHUNK_BYTES + 4 }));
    expect(part.equals(whole.subarray(start, CHUNK_BYTES + 5))).toBe(true);
    expect(await store().stat(info.key)).toMatchObject({ size, sha256: info.sha256 });
    await store().delete(info.key);
    expect(await store().stat(info.key)).toBeUndefined();
    await expect(store().get(info.key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses more than maxBytes and keeps nothing', async () => {
    const count = async () =>
      (await orm().em.getConnection().execute('select count(*)::int as n from storage_blobs'))[0]?.n;
    const before = await count();
    await expect(store().put(pattern(5000), { maxBytes: 4999 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await count()).toBe(before);
  });

  it('stores an empty blob', async () => {
    const info = await store().put(pattern(0), { maxBytes: 10 });
    expect(info.size).toBe(0);
    expect(await text(await store().get(info.key))).toBe('');
  });

  it('sniffs the type from the bytes', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const info = await store().put(Readable.from([png]), { maxBytes: 1e6 });
    expect(info.contentType).toBe('image/png');
    const sniff = (source: string) => sniffContentType(Buffer.from(source));
    expect(await sniff('<?xml version="1.0"?>\n<!-- x --><svg xmlns="http://www.w3.org/2000/svg"/>')).toBe(
      'image/svg+xml',
    );
    expect(await sniff('<!DOCTYPE html><p>hi')).toBe('text/html');
    expect(await sniff('<?xml version="1.0"?><martif/>')).toBe('application/xml');
    expect(await sniff('plain words')).toBe('text/plain');
    expect(await sniffContentType(Buffer.from([0, 1, 2, 3, 255]))).toBe('application/octet-stream');
  });
});
