/**
 * Merged cells in a streamed XLSX workbook (docs/exchange.md, Spreadsheets): a generated workbook over
 * the 2 MB threshold, with a domain merged over the rows of each group and a header merged across two
 * columns, reads streamed to the same cells as read whole.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeRange } from '../../src/modules/spreadsheet/sheet-merges.js';
import {
  readSheetRows,
  type SheetRow,
  sheetShape,
  XLSX_IN_MEMORY_BYTES,
} from '../../src/modules/spreadsheet/sheet-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'sheet-merges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rowsOf(path: string, inMemoryBytes: number): Promise<SheetRow[]> {
  const shape = await sheetShape(path, { sheet: 'Terms', inMemoryBytes });
  const rows: SheetRow[] = [];
  for await (const row of readSheetRows(path, shape, { inMemoryBytes })) rows.push(row);
  return rows;
}

describe('merged cells in streamed workbooks', () => {
  it('reads A1 ranges', () => {
    expect(mergeRange('C2:C4')).toEqual({ top: 2, left: 3, bottom: 4, right: 3 });
    expect(mergeRange('$AA$10:AB11')).toEqual({ top: 10, left: 27, bottom: 11, right: 28 });
    expect(mergeRange('nonsense')).toBeNull();
  });

  it('gives each cell of a merged range its value in a workbook over 2 MB, as read whole', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['not this sheet']);
    const sheet = workbook.addWorksheet('Terms');
    sheet.addRow(['English', 'German', 'Note', '', 'Domain']);
    // "Note" spans two columns.
    sheet.mergeCells('C1:D1');
    // Few merges (exceljs checks each against the others), rows of random text to pass 2 MB zipped.
    const groups = 4000;
    for (let group = 0; group < groups; group++) {
      for (let member = 0; member < 3; member++) {
        const noise = () => randomBytes(75).toString('base64');
        sheet.addRow([
          `term ${group}.${member} ${noise()}`,
          `Begriff ${noise()}`,
          `note ${noise()}`,
          '',
          null,
        ]);
      }
      const top = 2 + group * 3;
      sheet.getCell(`E${top}`).value = `Domain ${group}`;
      sheet.mergeCells(`E${top}:E${top + 2}`);
    }
    const path = join(dir, 'merged.xlsx');
    writeFileSync(path, Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(statSync(path).size).toBeGreaterThan(XLSX_IN_MEMORY_BYTES);

    const streamed = await rowsOf(path, XLSX_IN_MEMORY_BYTES);
    expect(streamed).toHaveLength(1 + groups * 3);
    expect(streamed[0]!.cells.slice(0, 5)).toEqual(['English', 'German', 'Note', 'Note', 'Domain']);
    expect(streamed.slice(1, 4).map((row) => row.cells[4])).toEqual(['Domain 0', 'Domain 0', 'Domain 0']);
    expect(streamed.at(-1)!.cells[4]).toBe(`Domain ${groups - 1}`);
    const whole = await rowsOf(path, Number.POSITIVE_INFINITY);
    expect(streamed).toEqual(whole);
  }, 120_000);
});
