/**
 * TBX bundles: one zip with the TBX document and the files its xGraphic/xSource values point at
 * (`files/<key>/<name>`). Written and read as streams with yazl and yauzl; the reader takes only the
 * document and `files/` entries of the expected form, so no entry can land outside the upload's folder.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { AppError } from '../../shared/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { BUNDLE_PATH, type ExportAttachments } from './attachment-tbx.js';

/**
 * The zip of a TBX export and the files it names, produced as it is read: the document first (its
 * entries decide which files go in), then each file streamed from the store.
 */
export function zipBundle(
  documentName: string,
  document: AsyncIterable<string | Uint8Array>,
  attachments: ExportAttachments,
  store: BlobStore,
): AsyncIterable<Uint8Array> {
  const zip = new yazl.ZipFile();
  const output = new PassThrough();
  zip.outputStream.on('error', (error) => output.destroy(error));
  zip.outputStream.pipe(output);
  const body = Readable.from(document, { objectMode: false });
  body.on('error', (error) => output.destroy(error));
  body.on('end', () => {
    for (const [key, path] of attachments.written) {
      zip.addReadStream(Readable.from(blobBytes(store, key)), path, { compress: false });
    }
    zip.end();
  });
  zip.addReadStream(body, documentName);
  return output;
}

export async function* blobBytes(store: BlobStore, key: string): AsyncGenerator<Buffer> {
  for await (const chunk of await store.get(key)) yield chunk as Buffer;
}

/** Whether a file on disk is a zip (local file header magic). */
export async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    await handle.close();
  }
}

/** Most entries a bundle may hold: a document and its files. */
const MAX_ENTRIES = 100_000;

/**
 * Unpacks a bundle into `directory`: its one TBX document (a `.tbx` or `.xml` at the top) to
 * `documentPath`, its files to `directory/files/<key>/<name>`. Answers the bundle paths and where each
 * file is. Sizes are checked as the bytes come (`maxBytes` per entry), not trusted from the headers.
 */
export async function unpackBundle(
  zipPath: string,
  directory: string,
  documentPath: string,
  maxBytes: number,
): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, strictFileNames: true }, (error, file) =>
      error ? reject(new AppError('BAD_REQUEST', `The zip cannot be read: ${error.message}`)) : resolve(file),
    ),
  );
  const files = new Map<string, string>();
  let document = false;
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new AppError('BAD_REQUEST', 'The zip holds too many entries');
    for await (const entry of zipEntries(zip)) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      const isDocument = /^[^/]+\.(tbx|xml)$/i.test(name);
      const bundled = BUNDLE_PATH.test(name);
      if (!isDocument && !bundled) continue;
      if (isDocument && document)
        throw new AppError('BAD_REQUEST', 'The zip holds more than one TBX document');
      const destination = isDocument ? documentPath : join(directory, name);
      await mkdir(dirname(destination), { recursive: true });
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, read) => (error ? reject(error) : resolve(read))),
      );
      await pipeline(stream, limited(maxBytes, name), createWriteStream(destination));
      if (isDocument) document = true;
      else files.set(name, destination);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', `The zip cannot be read: ${(error as Error).message}`);
  } finally {
    zip.close();
  }
  if (!document) throw new AppError('BAD_REQUEST', 'The zip holds no TBX document (.tbx) at its top');
  return files;
}

/** A yauzl zip's entries in central directory order (opened with lazyEntries). */
export async function* zipEntries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  while (true) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      const onEntry = (found: yauzl.Entry) => {
        zip.off('end', onEnd);
        zip.off('error', onError);
        resolve(found);
      };
      const onEnd = () => {
        zip.off('entry', onEntry);
        zip.off('error', onError);
        resolve(null);
      };
      const onError = (error: Error) => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        reject(error);
      };
      zip.once('entry', onEntry);
      zip.once('end', onEnd);
      zip.once('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

/** Passes bytes through until more than maxBytes came (a zip bomb stops here, whatever its header said). */
export function limited(maxBytes: number, name: string) {
  let seen = 0;
  return async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      seen += chunk.length;
      if (seen > maxBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `"${name}" in the zip is larger than ${maxBytes} bytes`);
      }
      yield chunk;
    }
  };
}

/** The names of a zip's entries, from its central directory (nothing is unpacked); 400 when unreadable. */
export async function zipEntryNames(zipPath: string): Promise<string[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (error, file) =>
      error ? reject(new AppError('BAD_REQUEST', `The zip cannot be read: ${error.message}`)) : resolve(file),
    ),
  );
  const names: string[] = [];
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new AppError('BAD_REQUEST', 'The zip holds too many entries');
    for await (const entry of zipEntries(zip)) names.push(entry.fileName);
  } finally {
    zip.close();
  }
  return names;
}
