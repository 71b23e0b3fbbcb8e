/**
 * Merged cells of a streamed XLSX sheet (docs/exchange.md, Spreadsheets). exceljs's streaming reader
 * skips `<mergeCells>`, which the sheet part lists after its rows; so a first pass reads only that: the
 * sheet's part is streamed out of the zip (yauzl) through saxes, keeping the `<mergeCell ref>`s. The
 * second pass (the rows) gives each cell of a range its top-left cell's value, as the whole-workbook
 * reader does: the top-left cell comes first, rows being in order.
 */
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { zipEntries } from '../attachment/attachment-bundle.js';

export interface MergeRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Most ranges kept: a sheet of many more is no list of terms with a merged domain here and there. */
const MAX_RANGES = 100_000;

/** `B12` -> row 12, column 2. */
function cellRef(ref: string): { row: number; column: number } | null {
  const match = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i.exec(ref.trim());
  if (!match) return null;
  let column = 0;
  for (const letter of match[1]!.toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  return { row: Number(match[2]), column };
}

/** `A2:B5` -> its corners; null when it is no range. */
export function mergeRange(ref: string): MergeRange | null {
  const [from, to] = ref.split(':');
  const start = from ? cellRef(from) : null;
  const end = to ? cellRef(to) : start;
  if (!start || !end) return null;
  return {
    top: Math.min(start.row, end.row),
    left: Math.min(start.column, end.column),
    bottom: Math.max(start.row, end.row),
    right: Math.max(start.column, end.column),
  };
}

/** The merged ranges of the workbook's `xl/worksheets/sheet<sheetId>.xml`, in the file's order. */
export async function sheetMerges(path: string, sheetId: string | number): Promise<MergeRange[]> {
  const part = `xl/worksheets/sheet${sheetId}.xml`;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const ranges: MergeRange[] = [];
  try {
    for await (const entry of zipEntries(zip)) {
      if (entry.fileName !== part) continue;
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, read) => (error ? reject(error) : resolve(read))),
      );
      const parser = new SaxesParser({ xmlns: false });
      parser.on('opentag', (tag) => {
        if (tag.name !== 'mergeCell' || ranges.length >= MAX_RANGES) return;
        const range = mergeRange(String(tag.attributes.ref ?? ''));
        if (range) ranges.push(range);
      });
      const decoder = new TextDecoder('utf-8');
      for await (const chunk of stream) parser.write(decoder.decode(chunk as Buffer, { stream: true }));
      parser.close();
      break;
    }
  } finally {
    zip.close();
  }
  return ranges;
}

/**
 * Fills the rows' merged cells as they pass (rows in order): the top-left cell's text goes to every
 * cell of its range. Holds the ranges and the texts of the ranges begun.
 */
export class MergeFiller {
  private readonly pending: MergeRange[];
  private readonly active = new Map<MergeRange, string>();

  constructor(ranges: readonly MergeRange[]) {
    // By top row, so ranges start in the order rows come.
    this.pending = [...ranges].sort((a, b) => b.top - a.top);
  }

  fill(row: number, cells: string[]): void {
    while (this.pending.length && this.pending.at(-1)!.top <= row) {
      const range = this.pending.pop()!;
      // A range whose top row is missing (no cells there) has nothing to give.
      if (range.top === row) this.active.set(range, cells[range.left - 1] ?? '');
    }
    for (const [range, text] of this.active) {
      if (range.bottom < row) {
        this.active.delete(range);
        continue;
      }
      for (let column = range.left; column <= range.right; column++) {
        while (cells.length < column) cells.push('');
        cells[column - 1] = text;
      }
    }
  }
}
