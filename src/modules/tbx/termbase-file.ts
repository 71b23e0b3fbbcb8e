/**
 * An uploaded termbase file's entries, whatever its format: TBX (any dialect) or MultiTerm XML, told
 * apart by the root element, or a spreadsheet (CSV, XLSX) read by a mapping of its columns, so all of
 * them go through one import (docs/exchange.md).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { MtfDefinition } from '../multiterm/mtf-definition.js';
import type { MtfFieldTargets } from '../multiterm/mtf-field-mapping.js';
import { multimediaFields } from '../multiterm/mtf-media.js';
import { isMultiTermXml, readMtf } from '../multiterm/mtf-reader.js';
import { sheetEntries } from '../spreadsheet/sheet-entries.js';
import type { SheetMapping } from '../spreadsheet/sheet-mapping.js';
import { readSheetRows, type SheetShape } from '../spreadsheet/sheet-reader.js';
import type { TbxEntry } from './tbx-model.js';
import { type ReadTbxOptions, readTbx } from './tbx-reader.js';

export type TermbaseFormat = 'TBX' | 'MULTITERM_XML' | 'SPREADSHEET';
export const FORMAT_NAMES: Record<TermbaseFormat, string> = {
  TBX: 'TBX',
  MULTITERM_XML: 'MultiTerm XML',
  SPREADSHEET: 'spreadsheet',
};

/** How to read a file: its format and, for a spreadsheet, its shape and column mapping. */
export interface TermbaseSource {
  format: TermbaseFormat;
  sheet?: { shape: SheetShape; mapping: SheetMapping };
  /** MultiTerm XML: its field mapping and termbase definition, when given. */
  multiterm?: { targets?: MtfFieldTargets; definition?: MtfDefinition };
}

const HEAD_BYTES = 4096;

/** The file's entries in file order (TbxFormatError or SheetFormatError for a bad file). */
export async function* readTermbaseFile(
  path: string,
  source: TermbaseSource,
  options: ReadTbxOptions = {},
): AsyncGenerator<TbxEntry> {
  if (source.sheet) {
    options.onHeader?.({ dialect: 'TBX_V2', sourceLang: null, title: null });
    yield* sheetEntries(readSheetRows(path, source.sheet.shape), source.sheet.mapping);
    return;
  }
  if (source.format === 'MULTITERM_XML') {
    yield* readMtf(createReadStream(path), {
      ...options,
      fields: source.multiterm?.targets,
      multimedia: multimediaFields(source.multiterm?.definition),
    });
    return;
  }
  yield* readTbx(createReadStream(path), options);
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
