/**
 * Spreadsheets (docs/exchange.md): the preview's detection and proposal, the import by a mapping (CSV in
 * Windows-1252 and UTF-16, XLSX with formulas, merged cells and two sheets), row numbers in the error
 * summary, refusals, and CSV/XLSX exports that import back to the same content. One server for the file.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeMapping } from '../../src/modules/spreadsheet/sheet-proposal.js';
import {
  detectDelimiter,
  detectEncoding,
  readSheetRows,
  type SheetRow,
  sheetShape,
} from '../../src/modules/spreadsheet/sheet-reader.js';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import type { Server } from '../concepts/concept-helpers.js';
import { createDictionary, newTenant } from '../helpers/structure.js';
import { type ImportSummary, startTbxSuite, type TbxClient } from '../tbx/tbx-sample-files.js';

let server: Server;
let token: string;
let client: TbxClient;
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
  tenant = await newTenant(server.t, server.sysadmin);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

interface Preview {
  kind: string;
  sheets: string[];
  sheet: string | null;
  encoding: string | null;
  delimiter: string | null;
  rows: string[][];
  mapping: { headerRow: boolean; columns: Record<string, unknown>[] } & Record<string, unknown>;
}

async function post(path: string, file: Uint8Array, fields: Record<string, string>, as = token) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'sheet');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${server.base}/api/v4/dictionaries/${path}`, {
    method: 'POST',
    headers: { 'x-auth-token': as },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

async function preview(file: Uint8Array, fields: Record<string, string> = {}): Promise<Preview> {
  const answer = await post('import-spreadsheet/preview', file, fields);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as unknown as Preview;
}

async function importSheet(
  file: Uint8Array,
  mapping: unknown,
  fields: Record<string, string> = {},
  as = token,
) {
  const answer = await post('import-spreadsheet', file, { mapping: JSON.stringify(mapping), ...fields }, as);
  expect([200, 202], answer.text).toContain(answer.status);
  let job = answer.body as { status?: string; result?: unknown; jobTaskId?: number; message?: string };
  while (answer.status === 202 && job.status !== 'DONE' && job.status !== 'FAILED') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const id = (answer.body as { jobTaskId: number }).jobTaskId;
    const response = await fetch(`${server.base}/api/v4/jobs/${id}`, { headers: { 'x-auth-token': as } });
    job = (await response.json()) as typeof job;
  }
  expect(job.status ?? 'DONE', job.message ?? '').toBe('DONE');
  return job.result as ImportSummary;
}

async function fullExport(dictionaryId: number): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readTbx([await client.export(dictionaryId, 'TBX_V3_FULL')])) entries.push(entry);
  return entries;
}

/** Terms and values per concept, without ids and order of values. */
const contentOf = (entries: TbxEntry[]) =>
  entries.map((entry) => ({
    values: entry.values.map((v) => `${v.category}=${v.value}`).sort(),
    languages: entry.languages
      .map((s) => ({
        lang: s.lang,
        values: s.values.map((v) => `${v.category}=${v.value}`).sort(),
        terms: s.terms.map((t) => ({
          term: t.term,
          values: t.values.map((v) => `${v.category}=${v.value}`).sort(),
        })),
      }))
      .sort((a, b) => a.lang.localeCompare(b.lang)),
  }));

const GLOSSARY = [
  'ID;English;Icelandic;Definition;English: Note;Domain',
  'g1;"dictionary; lexicon";orðabók;"A book of words; with meanings";"general; old";Language',
  'g2;term;íðorð;A word of a special field;;"Language; Terminology"',
  'g3;"multi-line\nterm";hugtak;;;',
].join('\r\n');

describe('spreadsheet preview and proposal', () => {
  it('detects encodings and separators', () => {
    expect(detectEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('utf-8');
    expect(detectEncoding(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toBe('utf-16le');
    expect(detectEncoding(Buffer.from('Eng\tIsl\r\n', 'utf16le'))).toBe('utf-16le');
    expect(detectEncoding(Buffer.from('orðabók', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('orðabók', 'latin1'))).toBe('windows-1252');
    expect(detectDelimiter(GLOSSARY)).toBe(';');
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a\tb\tc\n1\t2, 3\t4\n')).toBe('\t');
  });

  it('proposes roles from headers: languages by name, code or tag; fields of terms and languages; id; domain', () => {
    const mapping = proposeMapping([
      {
        row: 1,
        cells: [
          'ID',
          'English',
          'de',
          'en-US',
          'Íslenska',
          'Definition (en)',
          'Deutsch: Genus',
          'Note',
          'Subject',
          '',
        ],
      },
      { row: 2, cells: ['1', 'a; b', 'x', 'y', 'z', 'def', 'm', 'n', 's', ''] },
    ]);
    expect(mapping.headerRow).toBe(true);
    expect(mapping.columns).toEqual([
      { role: 'id' },
      { role: 'term', language: 'en', separator: '; ' },
      { role: 'term', language: 'de', separator: undefined },
      { role: 'term', language: 'en-US', separator: undefined },
      { role: 'term', language: 'is', separator: undefined },
      { role: 'languageField', language: 'en', field: 'Definition' },
      { role: 'termField', language: 'de', field: 'Genus', separator: undefined },
      { role: 'conceptField', field: 'Note' },
      { role: 'domain', separator: undefined },
      { role: 'ignore' },
    ]);
  });
});

describe('spreadsheet import', () => {
  it('imports a semicolon CSV in Windows-1252 by the proposed mapping: synonyms, fields, domains, ids', async () => {
    const file = Buffer.from(GLOSSARY, 'latin1');
    const shown = await preview(file);
    expect(shown).toMatchObject({ kind: 'CSV', encoding: 'windows-1252', delimiter: ';' });
    expect(shown.rows[1]).toEqual([
      'g1',
      'dictionary; lexicon',
      'orðabók',
      'A book of words; with meanings',
      'general; old',
      'Language',
    ]);
    expect(shown.rows[3]![1]).toBe('multi-line\nterm');
    expect(shown.mapping.columns.map((c) => c.role)).toEqual([
      'id',
      'term',
      'term',
      'conceptField',
      'termField',
      'domain',
    ]);
    const summary = await importSheet(file, shown.mapping, { name: 'Glossary 1252' });
    expect(summary.errors).toEqual([]);
    expect(summary.concepts).toBe(3);
    expect(summary.terms).toBe(7);
    const [g1, g2] = await fullExport(summary.dictionaryId);
    const english = g1!.languages.find((s) => s.lang === 'en')!;
    expect(english.terms.map((t) => [t.term, t.values.find((v) => v.category === 'note')?.value])).toEqual([
      ['dictionary', 'general'],
      ['lexicon', 'old'],
    ]);
    expect(g1!.values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ category: 'definition', value: 'A book of words; with meanings' }),
        expect.objectContaining({ category: 'subjectField', value: 'Language' }),
      ]),
    );
    expect(
      g2!.values
        .filter((v) => v.category === 'subjectField')
        .map((v) => v.value)
        .sort(),
    ).toEqual(['Language', 'Terminology']);
    // Merging by the ID column: the file again, one definition changed, updates that concept only.
    const changed = Buffer.from(
      GLOSSARY.replace('A word of a special field', 'A word of a subject field'),
      'latin1',
    );
    const again = await importSheet(changed, shown.mapping, {
      'dictionary-id': String(summary.dictionaryId),
    });
    expect(again).toMatchObject({ concepts: 0, updated: 1, skipped: 2 });
  });

  it('reads UTF-16 with a mark, tab-separated, quoted cells across lines', async () => {
    const text = 'English\tGerman\r\n"line one\r\nline two"\tZeile\r\ncomputer\tRechner\r\n';
    const file = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const shown = await preview(file);
    expect(shown).toMatchObject({ encoding: 'utf-16le', delimiter: '\t' });
    expect(shown.rows).toEqual([
      ['English', 'German'],
      ['line one\r\nline two', 'Zeile'],
      ['computer', 'Rechner'],
    ]);
    const summary = await importSheet(file, shown.mapping);
    expect(summary).toMatchObject({ concepts: 2, terms: 4 });
  });

  it('imports XLSX: a chosen sheet, formulas as their values, merged cells for each row, dates', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['nothing here']);
    const sheet = workbook.addWorksheet('Terms');
    sheet.addRow(['English', 'French', 'Domain', 'Date']);
    sheet.addRow(['river', 'rivière', 'Geography', new Date('2020-05-01T00:00:00Z')]);
    sheet.addRow(['rivers', { formula: 'B2&"s"', result: 'rivières' }, null, null]);
    sheet.mergeCells('C2:C3');
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    const first = await preview(file);
    expect(first).toMatchObject({ kind: 'XLSX', sheets: ['Notes', 'Terms'], sheet: 'Notes' });
    const shown = await preview(file, { sheet: 'Terms' });
    expect(shown.rows).toEqual([
      ['English', 'French', 'Domain', 'Date'],
      ['river', 'rivière', 'Geography', '2020-05-01'],
      ['rivers', 'rivières', 'Geography', ''],
    ]);
    const summary = await importSheet(file, shown.mapping);
    expect(summary).toMatchObject({ concepts: 2, terms: 4, errors: [] });
    const entries = await fullExport(summary.dictionaryId);
    expect(
      entries.map((e) => e.values.filter((v) => v.category === 'subjectField').map((v) => v.value)),
    ).toEqual([['Geography'], ['Geography']]);
    expect(entries[0]!.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ category: 'Date', value: '2020-05-01' })]),
    );
  });

  it('names the rows whose values the fields refuse; refuses bad requests with 400', async () => {
    const dictionary = await createDictionary(tenant.admin, {
      languages: [{ code: 'eng' }],
      termFields: [{ name: 'Note', fieldType: 'SINGLELINE', model: { maxLen: 5 } }],
    });
    const file = Buffer.from('English,English: Note\nshort,fine\nlong,far too long a note\n');
    const mapping = (await preview(file)).mapping;
    const summary = await importSheet(
      file,
      mapping,
      { 'dictionary-id': String(dictionary.id) },
      tenant.admin.token!,
    );
    expect(summary.concepts).toBe(2);
    expect(summary.errors).toEqual([{ line: 3, message: expect.stringContaining('Field "Note"') }]);

    const noTerms = await post('import-spreadsheet', file, {
      mapping: JSON.stringify({ columns: [{ role: 'id' }] }),
    });
    expect(noTerms.status).toBe(400);
    expect(noTerms.body.message).toMatch(/no column holds terms/);
    const notJson = await post('import-spreadsheet', file, { mapping: '{' });
    expect(notJson.body).toEqual({ code: 'BAD_REQUEST', message: 'mapping: not JSON' });
    const badRole = await post('import-spreadsheet', file, {
      mapping: JSON.stringify({ columns: [{ role: 'x' }] }),
    });
    expect(badRole.status).toBe(400);
    const notXlsx = await post('import-spreadsheet/preview', Buffer.from('PK\u0003\u0004 broken'), {});
    expect(notXlsx.status).toBe(400);
    expect(notXlsx.body.message).toMatch(/^Not a valid spreadsheet: .*XLSX/);
    // Another tenant's dictionary is not there.
    const foreign = await post('import-spreadsheet', file, {
      mapping: JSON.stringify(mapping),
      'dictionary-id': String(dictionary.id),
    });
    expect(foreign.status).toBe(404);
  });
});

describe('spreadsheet export', () => {
  it('exports CSV and XLSX (one concept a row) that import back to the same terms and values', async () => {
    const original = await importSheet(
      Buffer.from(GLOSSARY, 'latin1'),
      (await preview(Buffer.from(GLOSSARY, 'latin1'))).mapping,
    );
    const csvResponse = await fetch(
      `${server.base}/api/v4/dictionaries/export-tbx/${original.dictionaryId}?format=CSV`,
      { headers: { 'x-auth-token': token } },
    );
    expect(csvResponse.status).toBe(200);
    expect(csvResponse.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8$/i);
    const csvBytes = new Uint8Array(await csvResponse.arrayBuffer());
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(Buffer.from(csvBytes).toString('utf8'), { bom: true }) as string[][];
    expect(rows[0]!.slice(0, 4)).toEqual(['ID', 'Definition', 'Domain', 'English']);
    expect(rows[1]).toEqual(expect.arrayContaining(['dictionary; lexicon', 'orðabók', 'Language']));
    expect(rows).toHaveLength(4);

    const xlsxResponse = await fetch(
      `${server.base}/api/v4/dictionaries/export-tbx/${original.dictionaryId}?format=XLSX`,
      { headers: { 'x-auth-token': token } },
    );
    expect(xlsxResponse.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const xlsx = new Uint8Array(await xlsxResponse.arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(xlsx) as never);
    expect(workbook.worksheets[0]!.getRow(1).getCell(4).value).toBe('English');

    const before = contentOf(await fullExport(original.dictionaryId));
    for (const file of [csvBytes, xlsx]) {
      const copy = await importSheet(file, (await preview(file)).mapping);
      expect(copy.errors).toEqual([]);
      expect(contentOf(await fullExport(copy.dictionaryId))).toEqual(before);
    }
  });

  it('round-trips spreadsheet -> dictionary -> spreadsheet, synonyms joined or in repeated columns', async () => {
    const source = Buffer.from(GLOSSARY, 'latin1');
    const original = await importSheet(source, (await preview(source)).mapping);
    const csvOf = async (dictionaryId: number, synonyms: string) => {
      const text = await client.export(dictionaryId, 'CSV', { synonyms });
      return parse(text, { bom: true }) as string[][];
    };
    const joined = await csvOf(original.dictionaryId, 'JOINED');
    const repeated = await csvOf(original.dictionaryId, 'COLUMNS');
    // The most English terms of a concept is 2: two English columns, each with its note after it.
    expect(repeated[0]).toEqual([
      'ID',
      'Definition',
      'Domain',
      'English',
      'English: Note',
      'English',
      'English: Note',
      'Icelandic',
      'Icelandic: Note',
    ]);
    expect(repeated[1]).toEqual([
      'g1',
      'A book of words; with meanings',
      'Language',
      'dictionary',
      'general',
      'lexicon',
      'old',
      'orðabók',
      '',
    ]);
    const before = contentOf(await fullExport(original.dictionaryId));
    for (const rows of [joined, repeated]) {
      const file = Buffer.from(
        `\uFEFF${rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n')}`,
      );
      const copy = await importSheet(file, (await preview(file)).mapping);
      expect(copy.errors).toEqual([]);
      expect(contentOf(await fullExport(copy.dictionaryId))).toEqual(before);
      // ... and its spreadsheet is the one it came from, every cell.
      expect(await csvOf(copy.dictionaryId, rows === joined ? 'JOINED' : 'COLUMNS')).toEqual(rows);
    }
    const xlsx = Buffer.from(
      await (
        await fetch(
          `${server.base}/api/v4/dictionaries/export-tbx/${original.dictionaryId}?format=XLSX&synonyms=COLUMNS`,
          { headers: { 'x-auth-token': token } },
        )
      ).arrayBuffer(),
    );
    const copy = await importSheet(xlsx, (await preview(xlsx)).mapping);
    expect(contentOf(await fullExport(copy.dictionaryId))).toEqual(before);
  });

  it('streams a large XLSX row by row with the same cells as reading it whole', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Other').addRow(['skip me']);
    const sheet = workbook.addWorksheet('Terms');
    sheet.addRow(['English', 'French', 'Domain', 'Date']);
    sheet.addRow(['river', 'rivière', 'Geography', new Date('2020-05-01T00:00:00Z')]);
    sheet.addRow(['rivers', { formula: 'B2&"s"', result: 'rivières' }, 'Hydrology', null]);
    sheet.addRow([]);
    sheet.addRow(['lake', { richText: [{ text: 'l' }, { text: 'ac' }] }, null, 3]);
    const dir = mkdtempSync(join(tmpdir(), 'sheet-stream-'));
    const path = join(dir, 'terms.xlsx');
    writeFileSync(path, Buffer.from(await workbook.xlsx.writeBuffer()));
    const rowsOf = async (inMemoryBytes?: number) => {
      const shape = await sheetShape(path, { sheet: 'Terms', inMemoryBytes });
      const rows: SheetRow[] = [];
      for await (const row of readSheetRows(path, shape, { inMemoryBytes })) {
        if (row.cells.some(Boolean)) rows.push({ row: row.row, cells: row.cells.slice(0, 4) });
      }
      return { sheets: shape.sheets, rows };
    };
    const streamed = await rowsOf(0);
    expect(streamed.sheets).toEqual(['Other', 'Terms']);
    expect(streamed).toEqual(await rowsOf());
    expect(streamed.rows.map((row) => row.row)).toEqual([1, 2, 3, 5]);
    rmSync(dir, { recursive: true, force: true });
  });
});
