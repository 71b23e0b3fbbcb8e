/**
 * A MultiTerm termbase as MultiTerm users send it: the XML export beside its termbase definition (.xdt),
 * or both in one zip (docs/exchange.md). A zip upload is unpacked in its upload directory: the XML takes
 * the upload's place and the definition becomes its `definition` companion.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { AppError } from '../../shared/errors.js';
import { blobBytes, isZip, limited, zipEntries } from '../attachment/attachment-bundle.js';
import type { ExportAttachments } from '../attachment/attachment-tbx.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { TbxUpload } from '../tbx/tbx-import.service.js';
import { TbxFormatError } from '../tbx/tbx-reader.js';
import { type MtfDefinition, readMtfDefinition } from './mtf-definition.js';

/** Unpacked files may be this many times the zip (XML compresses about 10:1), so a zip bomb stops early. */
const MAX_RATIO = 50;
/** A termbase package holds its XML, definition and multimedia files: as many as a TBX bundle. */
const MAX_ENTRIES = 100_000;

const openZip = (path: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, file) =>
      error ? reject(new AppError('BAD_REQUEST', `Not a readable zip: ${error.message}`)) : resolve(file),
    ),
  );

/** The zip's file names, from its central directory (nothing is unpacked). */
async function fileNames(path: string): Promise<string[]> {
  const zip = await openZip(path);
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new AppError('BAD_REQUEST', 'The zip holds too many entries');
    const names: string[] = [];
    for await (const entry of zipEntries(zip)) {
      if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/'))
        names.push(entry.fileName);
    }
    return names;
  } finally {
    zip.close();
  }
}

/** Streams the named entries to their paths, each refused past `limit` bytes as it unpacks. */
async function extract(path: string, wanted: Map<string, string>, limit: number): Promise<void> {
  const zip = await openZip(path);
  try {
    for await (const entry of zipEntries(zip)) {
      const destination = wanted.get(entry.fileName);
      if (!destination) continue;
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, read) => (error ? reject(error) : resolve(read))),
      );
      await pipeline(stream, limited(limit, entry.fileName), createWriteStream(destination));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', `Not a readable zip: ${(error as Error).message}`);
  } finally {
    zip.close();
  }
}

/**
 * When the upload is a zip: its .xml (or .mtf) replaces it and its .xdt becomes the definition
 * companion (unless one was sent beside it). A zip without an XML file answers 400. Read with yauzl,
 * as TBX bundles are: the central directory first, then only the entries wanted, streamed to disk.
 *
 * With `media`, every other file of the zip is a multimedia file the entries may name (MultiTerm
 * exports them beside the XML): each is unpacked to `media/<n>` (the zip's names never become paths)
 * and answered as zip name -> file on disk, for mtf-media.ts.
 */
export async function unpackMultiTermZip(
  upload: TbxUpload,
  options: { media?: boolean } = {},
): Promise<Map<string, string>> {
  const media = new Map<string, string>();
  if (!(await isZip(upload.path))) return media;
  const names = await fileNames(upload.path);
  // An Office document (XLSX) is a zip of XML parts too: it is a spreadsheet, imported by its mapping.
  if (names.includes('[Content_Types].xml')) {
    throw new AppError(
      'BAD_REQUEST',
      'This is an Office document (XLSX?), not MultiTerm XML: import a workbook as a spreadsheet (POST /dictionaries/import-spreadsheet)',
    );
  }
  const xml = names.find((name) => /\.(xml|mtf)$/i.test(name));
  if (!xml) throw new AppError('BAD_REQUEST', 'The zip holds no MultiTerm XML file (.xml)');
  const limit = Math.max(upload.size, 1024 * 1024) * MAX_RATIO;
  const directory = dirname(upload.path);
  // Renamed over the upload afterwards: a CLI upload is a hard link to the user's file, which stays.
  const unpacked = join(directory, 'unpacked.xml');
  const wanted = new Map([[xml, unpacked]]);
  const definition = names.find((name) => /\.xdt$/i.test(name));
  const definitionPath = join(directory, 'definition.xdt');
  if (definition && !upload.companions.definition) wanted.set(definition, definitionPath);
  if (options.media) {
    const others = names.filter((name) => name !== xml && !/\.(xdt|xml|mtf)$/i.test(name));
    if (others.length) await mkdir(join(directory, 'media'), { recursive: true });
    for (const [index, name] of others.entries()) {
      const path = join(directory, 'media', String(index));
      wanted.set(name, path);
      media.set(name, path);
    }
  }
  try {
    await extract(upload.path, wanted, limit);
    await rename(unpacked, upload.path);
  } catch (error) {
    await rm(unpacked, { force: true });
    throw error;
  }
  if (wanted.has(definition ?? '')) upload.companions.definition = definitionPath;
  return media;
}

/** The upload's termbase definition, if it has one (400 when it cannot be read). */
export async function uploadedDefinition(upload: TbxUpload): Promise<MtfDefinition | undefined> {
  const path = upload.companions.definition;
  if (!path) return undefined;
  try {
    return await readMtfDefinition(path);
  } catch (error) {
    if (error instanceof TbxFormatError) {
      throw new AppError('BAD_REQUEST', `Not a valid termbase definition (.xdt): ${error.message}`);
    }
    throw error;
  }
}

/**
 * The MultiTerm package an export writes (with-files): `<name>.xml` streamed as it is read, then
 * `<name>.xdt`, the termbase definition of what the XML held (known once it is written), then the
 * multimedia files its values name (`files/<key>/<name>`, as a TBX bundle): the shape unpackMultiTermZip
 * reads.
 */
export function zipMultiTermPackage(
  baseName: string,
  document: AsyncIterable<string | Uint8Array>,
  definition: () => string,
  attachments: ExportAttachments | undefined,
  store: BlobStore,
): AsyncIterable<Uint8Array> {
  const zip = new yazl.ZipFile();
  const output = new PassThrough();
  zip.outputStream.on('error', (error) => output.destroy(error));
  zip.outputStream.pipe(output);
  const body = Readable.from(document, { objectMode: false });
  body.on('error', (error) => output.destroy(error));
  body.on('end', () => {
    zip.addBuffer(Buffer.from(definition(), 'utf8'), `${baseName}.xdt`);
    // The multimedia files the XML named (its Ulinks), stored: images are compressed already.
    for (const [key, path] of attachments?.written ?? []) {
      zip.addReadStream(Readable.from(blobBytes(store, key)), path, { compress: false });
    }
    zip.end();
  });
  zip.addReadStream(body, `${baseName}.xml`);
  return output;
}
