/**
 * An uploaded termbase file's entries, whatever its format: TBX (any dialect) or MultiTerm XML, told
 * apart by the root element, so both go through one import (docs/exchange.md).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isMultiTermXml, readMtf } from '../multiterm/mtf-reader.js';
import type { TbxEntry } from './tbx-model.js';
import { type ReadTbxOptions, readTbx } from './tbx-reader.js';

export type TermbaseFormat = 'TBX' | 'MULTITERM_XML';
export const FORMAT_NAMES: Record<TermbaseFormat, string> = { TBX: 'TBX', MULTITERM_XML: 'MultiTerm XML' };

const HEAD_BYTES = 4096;

/** The file's entries in file order (TbxFormatError for a bad file, as readTbx). */
export async function* readTermbaseFile(
  path: string,
  format: TermbaseFormat,
  options: ReadTbxOptions = {},
): AsyncGenerator<TbxEntry> {
  const reader = format === 'MULTITERM_XML' ? readMtf : readTbx;
  yield* reader(createReadStream(path), options);
}

/** The format by the file's root element: `<mtf>` is MultiTerm XML, anything else is read as TBX. */
export async function termbaseFormat(path: string): Promise<TermbaseFormat> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return isMultiTermXml(head.subarray(0, bytesRead)) ? 'MULTITERM_XML' : 'TBX';
  } finally {
    await file.close();
  }
}
