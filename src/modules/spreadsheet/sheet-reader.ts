/**
 * A spreadsheet's rows as text cells, from CSV or XLSX (docs/exchange.md, Spreadsheets).
 *
 * CSV is streamed (csv-parse): its encoding comes from a byte order mark, else UTF-16 is recognised by
 * its zero bytes, else UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what Excel writes for
 * "CSV" on Western Windows); the separator is the one of `,` `;` tab `|` that splits the first lines into
 * the most equal columns. Quoted cells may hold separators and line breaks.
 *
 * XLSX is read with exceljs: formulas as their computed values, dates as ISO dates, rich text as its
 * text. A workbook up to XLSX_IN_MEMORY_BYTES is read whole, which gives a merged range's value to each
 * of its cells (a domain merged over the rows of its concepts belongs to each). A larger one is streamed
 * row by row (exceljs's WorkbookReader), so memory holds a row and the shared strings, never the
 * workbook; its merged ranges, which the sheet lists after its rows and exceljs's streaming reader
 * skips, are read in a first pass over the sheet's part (sheet-merges.ts) and filled in as rows pass.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { MergeFiller, sheetMerges } from './sheet-merges.js';

export type SheetKind = 'CSV' | 'XLSX';
export type SheetEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type SheetDelimiter = ',' | ';' | '\t' | '|';

export interface SheetRow {
  /** 1-based, as a spreadsheet program numbers rows (a CSV record, however many lines its cells span). */
  row: number;
  cells: string[];
}

export interface SheetOptions {
  sheet?: string;
  delimiter?: SheetDelimiter;
  encoding?: SheetEncoding;
}

/** XLSX: stream workbooks larger than this (default XLSX_IN_MEMORY_BYTES; tests stream small ones). */
export interface StreamOption {
  inMemoryBytes?: number;
}

/** What the file is, as detected (or as the options say). */
export interface SheetShape {
  kind: SheetKind;
  /** XLSX: the worksheets' names, in order; CSV: none. */
  sheets: string[];
  sheet: string | null;
  encoding: SheetEncoding | null;
  delimiter: SheetDelimiter | null;
}

/** A file that is no readable spreadsheet (answered 400). */
export class SheetFormatError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`row ${line}: ${reason}`);
    this.name = 'SheetFormatError';
  }
}

const HEAD_BYTES = 64 * 1024;
/**
 * Larger workbooks are streamed. Read whole, exceljs's model takes some 60 times the file's size (a 5 MB
 * workbook of 300,000 terms raised the server's peak RSS by 300 MB), so only small ones are.
 */
export const XLSX_IN_MEMORY_BYTES = 2 * 1024 * 1024;
const DELIMITERS: SheetDelimiter[] = [',', ';', '\t', '|'];

/** Detects the kind, encoding, separator and sheets of a file. */
export async function sheetShape(
  path: string,
  options: SheetOptions & StreamOption = {},
): Promise<SheetShape> {
  const head = await readHead(path);
  if (isZip(head)) {
    const sheets =
      (await stat(path)).size > XLSX_IN_MEMORY_BYTES
        ? await streamedSheetNames(path)
        : (await readWorkbook(path)).worksheets.map((sheet) => sheet.name);
    const sheet = options.sheet ?? sheets[0] ?? null;
    if (sheet !== null && !sheets.includes(sheet)) {
      throw new SheetFormatError(0, `the workbook has no sheet "${sheet}" (it has ${sheets.join(', ')})`);
    }
    return { kind: 'XLSX', sheets, sheet, encoding: null, delimiter: null };
  }
  const encoding = options.encoding ?? detectEncoding(head);
  const text = new TextDecoder(encoding).decode(head);
  const delimiter = options.delimiter ?? detectDelimiter(text);
  return { kind: 'CSV', sheets: [], sheet: null, encoding, delimiter };
}

/** The rows of the file (XLSX: of the shape's sheet), in order. */
export async function* readSheetRows(
  path: string,
  shape: SheetShape,
  options: StreamOption = {},
): AsyncGenerator<SheetRow> {
  if (shape.kind === 'XLSX') {
    if ((await stat(path)).size > (options.inMemoryBytes ?? XLSX_IN_MEMORY_BYTES))
      yield* streamedRows(path, shape.sheet);
    else yield* workbookRows(await readWorkbook(path), shape.sheet);
    return;
  }
  const decoder = new TextDecoder(shape.encoding ?? 'utf-8');
  async function* text() {
    for await (const chunk of createReadStream(path)) yield decoder.decode(chunk as Buffer, { stream: true });
    yield decoder.decode();
  }
  const parser = Readable.from(text()).pipe(
    parse({
      delimiter: shape.delimiter ?? ',',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }),
  );
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      yield { row, cells: record };
    }
  } catch (error) {
    throw new SheetFormatError(row + 1, error instanceof Error ? error.message : String(error));
  }
}

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

const isZip = (head: Uint8Array) =>
  head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/** The encoding of a CSV file from its first bytes. */
export function detectEncoding(head: Uint8Array): SheetEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  // Text in UTF-16 without a mark: every other byte of its (mostly Latin) characters is zero.
  let evenZeros = 0;
  let oddZeros = 0;
  const sample = Math.min(head.length, 4096);
  for (let index = 0; index < sample; index++) {
    if (head[index] === 0) index % 2 === 0 ? evenZeros++ : oddZeros++;
  }
  if (oddZeros > sample / 4) return 'utf-16le';
  if (evenZeros > sample / 4) return 'utf-16be';
  try {
    // stream: a character cut at the end of the head is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The separator that splits the first lines into the most equal number (over one) of columns. */
export function detectDelimiter(text: string): SheetDelimiter {
  const lines = text.replace(/^\uFEFF/, '');
  let best: { delimiter: SheetDelimiter; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    let records: string[][];
    try {
      records = parseSync(lines, { delimiter, relax_column_count: true, relax_quotes: true, to: 20 });
    } catch {
      continue;
    }
    // The last record may be cut by the end of the head.
    const counts = records.slice(0, Math.max(1, records.length - 1)).map((record) => record.length);
    const common = mode(counts);
    if (common < 2) continue;
    const score = counts.filter((count) => count === common).length * common;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
}

async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new SheetFormatError(
      0,
      `not a readable XLSX workbook (${error instanceof Error ? error.message : error})`,
    );
  }
  return workbook;
}

const STREAM_OPTIONS = {
  worksheets: 'emit',
  sharedStrings: 'cache',
  hyperlinks: 'ignore',
  // Styles tell dates from numbers.
  styles: 'cache',
  entries: 'ignore',
} as const;

const unreadable = (error: unknown) =>
  new SheetFormatError(0, `not a readable XLSX workbook (${error instanceof Error ? error.message : error})`);

/**
 * The sheet names of a streamed workbook: the workbook part, which comes before the sheets in the
 * files Excel and LibreOffice write, names them all by the first sheet; else every sheet is passed.
 */
async function streamedSheetNames(path: string): Promise<string[]> {
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(path, STREAM_OPTIONS);
  const names: string[] = [];
  try {
    for await (const sheet of reader) {
      const listed = (reader as unknown as { model?: { sheets?: { name: string }[] } }).model?.sheets;
      if (listed?.length) return listed.map((entry) => entry.name);
      names.push((sheet as unknown as { name: string }).name);
    }
  } catch (error) {
    throw unreadable(error);
  } finally {
    (reader as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  }
  return names;
}

/** The rows of one sheet of a streamed workbook (the first when none is named). */
async function* streamedRows(path: string, sheetName: string | null): AsyncGenerator<SheetRow> {
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(path, STREAM_OPTIONS);
  let first = true;
  try {
    for await (const sheet of reader) {
      const name = (sheet as unknown as { name: string }).name;
      const wanted = sheetName === null ? first : name === sheetName;
      first = false;
      // A sheet not iterated is skipped unread.
      if (!wanted) continue;
      const merges = new MergeFiller(await sheetMerges(path, (sheet as unknown as { id: string }).id));
      let width = 0;
      for await (const row of sheet) {
        const values = (row.values as ExcelJS.CellValue[]) ?? [];
        const cells: string[] = [];
        for (let column = 1; column < values.length; column++) cells.push(valueText(values[column]));
        merges.fill(row.number, cells);
        // As wide as the widest row so far (the header, mostly), as the whole workbook's rows are.
        width = Math.max(width, cells.length);
        while (cells.length < width) cells.push('');
        yield { row: row.number, cells };
      }
      return;
    }
  } catch (error) {
    if (error instanceof SheetFormatError) throw error;
    throw unreadable(error);
  } finally {
    // Left before the end (the preview's first rows, the sheet found): the file is closed now.
    (reader as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  }
}

function* workbookRows(workbook: ExcelJS.Workbook, sheetName: string | null): Generator<SheetRow> {
  const sheet = sheetName === null ? workbook.worksheets[0] : workbook.getWorksheet(sheetName);
  if (!sheet) return;
  const width = sheet.columnCount;
  for (let row = 1; row <= sheet.rowCount; row++) {
    const source = sheet.getRow(row);
    const cells: string[] = [];
    for (let column = 1; column <= width; column++) cells.push(cellText(source.getCell(column)));
    yield { row, cells };
  }
}

/** A cell's value as text: a merged cell's is its range's, a formula's its result. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.isMerged && cell.master ? cell.master.value : cell.value;
  return valueText(value);
}

function valueText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return valueText(value.result as ExcelJS.CellValue);
  if ('hyperlink' in value) return valueText(value.text as ExcelJS.CellValue);
  if ('error' in value) return '';
  return '';
}
