/**
 * A MultiTerm termbase as MultiTerm users send it: the XML export beside its termbase definition (.xdt),
 * or both in one zip (docs/exchange.md). A zip upload is unpacked in its upload directory: the XML takes
 * the upload's place and the definition becomes its `definition` companion.
 */
import { createWriteStream } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import { AppError } from '../../shared/errors.js';
import type { TbxUpload } from '../tbx/tbx-import.service.js';
import { TbxFormatError } from '../tbx/tbx-reader.js';
import { type MtfDefinition, readMtfDefinition } from './mtf-definition.js';

/** Unpacked files may be this many times the zip (XML compresses about 10:1), so a zip bomb stops early. */
const MAX_RATIO = 50;

async function isZip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(4);
    await file.read(head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  } finally {
    await file.close();
  }
}

/** Writes an entry to `path`, refusing it past `limit` bytes. */
async function extract(entry: JSZip.JSZipObject, path: string, limit: number): Promise<void> {
  let bytes = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(
        bytes > limit
          ? new AppError('BAD_REQUEST', `${entry.name} unpacks to more than ${limit} bytes`)
          : null,
        chunk,
      );
    },
  });
  await pipeline(entry.nodeStream('nodebuffer'), guard, createWriteStream(path));
}

/**
 * When the upload is a zip: its .xml (or .mtf) replaces it and its .xdt becomes the definition
 * companion (unless one was sent beside it). A zip without an XML file answers 400.
 */
export async function unpackMultiTermZip(upload: TbxUpload): Promise<void> {
  if (!(await isZip(upload.path))) return;
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(await readFile(upload.path));
  } catch (error) {
    throw new AppError(
      'BAD_REQUEST',
      `Not a readable zip: ${error instanceof Error ? error.message : error}`,
    );
  }
  // An Office document (XLSX) is a zip of XML parts too: it is a spreadsheet, imported by its mapping.
  if (zip.file('[Content_Types].xml')) {
    throw new AppError(
      'BAD_REQUEST',
      'This is an Office document (XLSX?), not MultiTerm XML: import a workbook as a spreadsheet (POST /dictionaries/import-spreadsheet)',
    );
  }
  const files = Object.values(zip.files).filter((entry) => !entry.dir && !entry.name.startsWith('__MACOSX/'));
  const xml = files.find((entry) => /\.(xml|mtf)$/i.test(entry.name));
  if (!xml) throw new AppError('BAD_REQUEST', 'The zip holds no MultiTerm XML file (.xml)');
  const limit = Math.max(upload.size, 1024 * 1024) * MAX_RATIO;
  const directory = dirname(upload.path);
  const definition = files.find((entry) => /\.xdt$/i.test(entry.name));
  if (definition && !upload.companions.definition) {
    const path = join(directory, 'definition.xdt');
    await extract(definition, path, limit);
    upload.companions.definition = path;
  }
  // Renamed over the upload: a CLI upload is a hard link to the user's file, which stays as it was.
  const unpacked = join(directory, 'unpacked.xml');
  try {
    await extract(xml, unpacked, limit);
    await rename(unpacked, upload.path);
  } catch (error) {
    await rm(unpacked, { force: true });
    throw error;
  }
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
