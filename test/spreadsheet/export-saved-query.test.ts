/**
 * A saved query as an export's selection (docs/exchange.md): CSV, XLSX, MultiTerm XML, TBX and SKOS write
 * only the concepts its search finds; the saved query of another user or tenant is 404, one searching
 * another dictionary 400. One server for the file.
 */

import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { newTenant } from '../helpers/structure.js';
import { type ImportSummary, startTbxSuite, type TbxClient } from '../tbx/tbx-sample-files.js';

let server: Server;
let token: string;
let client: TbxClient;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const GLOSSARY = [
  'ID;English;Icelandic;Definition',
  'g1;river;á;Flowing water',
  'g2;riverbank;árbakki;The side of a river',
  'g3;lake;stöðuvatn;Standing water',
].join('\r\n');

async function importGlossary(name: string): Promise<number> {
  const file = Buffer.from(GLOSSARY);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'sheet.csv');
  const previewResponse = await fetch(`${server.base}/api/v4/dictionaries/import-spreadsheet/preview`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  const { mapping } = (await previewResponse.json()) as { mapping: unknown };
  form.append('mapping', JSON.stringify(mapping));
  form.append('name', name);
  const response = await fetch(`${server.base}/api/v4/dictionaries/import-spreadsheet`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  let job = (await response.json()) as { status?: string; result?: ImportSummary; jobTaskId?: number };
  while (response.status === 202 && job.status !== 'DONE' && job.status !== 'FAILED') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const jobResponse = await fetch(`${server.base}/api/v4/jobs/${job.jobTaskId}`, {
      headers: { 'x-auth-token': token },
    });
    job = { ...(await jobResponse.json()), jobTaskId: job.jobTaskId };
  }
  expect(job.status ?? 'DONE').toBe('DONE');
  return job.result!.dictionaryId;
}

const saveQuery = (name: string, query: string, as = token) =>
  fetch(`${server.base}/api/v4/saved-queries`, {
    method: 'PUT',
    headers: { 'x-auth-token': as, 'content-type': 'application/json' },
    body: JSON.stringify({ name, query }),
  }).then(async (response) => {
    expect(response.status).toBe(200);
    return ((await response.json()) as { id: number }).id;
  });

const download = (path: string, as = token) =>
  fetch(`${server.base}/api/v4/dictionaries/${path}`, { headers: { 'x-auth-token': as } });

describe('a saved query as the selection of an export', () => {
  it('writes only the concepts its search finds, in every format, through REST', async () => {
    const dictionaryId = await importGlossary('Waters');
    // Prefix "river" in English finds river and riverbank, not lake.
    const savedId = await saveQuery('Rivers', `q=river&d=${dictionaryId}&lang=eng&mode=PREFIX`);

    const csv = await client.export(dictionaryId, 'CSV', { 'saved-query-id': String(savedId) });
    const rows = parse(csv, { bom: true }) as string[][];
    expect(rows.slice(1).map((row) => row[0])).toEqual(['g1', 'g2']);
    // Without it, every concept; with a filter-free saved query naming no dictionary, every concept too.
    expect(parse(await client.export(dictionaryId, 'CSV'), { bom: true })).toHaveLength(4);
    const everything = await saveQuery('Everything', 'q=&lang=eng');
    expect(
      parse(await client.export(dictionaryId, 'CSV', { 'saved-query-id': String(everything) }), {
        bom: true,
      }),
    ).toHaveLength(4);

    const xlsxResponse = await download(`export-tbx/${dictionaryId}?format=XLSX&saved-query-id=${savedId}`);
    expect(xlsxResponse.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsxResponse.arrayBuffer()) as never);
    expect(workbook.worksheets[0]!.rowCount).toBe(3);

    const mtf = await client.export(dictionaryId, 'MULTITERM_XML', { 'saved-query-id': String(savedId) });
    expect(mtf.match(/<conceptGrp>/g)).toHaveLength(2);
    expect(mtf).not.toContain('stöðuvatn');
    const tbx = await client.export(dictionaryId, 'TBX_V3_FULL', { 'saved-query-id': String(savedId) });
    expect(tbx).toContain('árbakki');
    expect(tbx).not.toContain('stöðuvatn');

    const skos = await download(`export-skos/${dictionaryId}?format=turtle&saved-query-id=${savedId}`);
    expect(skos.status).toBe(200);
    const quads = new Parser().parse(await skos.text());
    const concepts = quads.filter(
      (q) => q.predicate.value.endsWith('#type') && q.object.value.endsWith('core#Concept'),
    );
    expect(concepts).toHaveLength(2);
  });

  it('refuses a saved query of another user (404) or of another dictionary (400)', async () => {
    const dictionaryId = await importGlossary('Waters 2');
    const other = await importGlossary('Other');
    const elsewhere = await saveQuery('Elsewhere', `q=lake&d=${other}&lang=eng`);
    const answer = await download(`export-tbx/${dictionaryId}?format=CSV&saved-query-id=${elsewhere}`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toMatch(/saved-query-id/);
    const skos = await download(`export-skos/${dictionaryId}?saved-query-id=${elsewhere}`);
    expect(skos.status).toBe(400);

    const stranger = await newTenant(server.t, server.sysadmin);
    const theirs = await saveQuery('Theirs', 'q=lake', stranger.admin.token!);
    const missing = await download(`export-tbx/${dictionaryId}?format=CSV&saved-query-id=${theirs}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND');
  });
});
