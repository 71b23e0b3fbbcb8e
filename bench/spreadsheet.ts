/**
 * Spreadsheet import and export rates on a synthetic sheet (not a test: it prints figures).
 *
 *   npm run bench:spreadsheet                      # 1,000,000 terms
 *   BENCH_TERMS=100000 npm run bench:spreadsheet   # smaller run
 *
 * The sheet is a CSV as teams keep them: ID, Definition, Domain, then per language its terms (English
 * with a synonym joined by "; " in every other row, and a part of speech). Steps, each through the REST
 * calls the web application makes, with terms/s and the server's peak RSS (VmHWM) after it:
 *   1. POST /dictionaries/import-spreadsheet/preview, then POST /dictionaries/import-spreadsheet (CSV);
 *   2. GET /dictionaries/export-tbx/{id}?format=CSV (synonyms joined);
 *   3. GET ...?format=XLSX&synonyms=COLUMNS (synonyms in repeated columns);
 *   4. that XLSX imported again: over XLSX_IN_MEMORY_BYTES (2 MB), it is read as a stream.
 * Database and search as bench:tbx (BENCH_DATABASE_URL, BENCH_ELASTICSEARCH_URL or BENCH_ENGINE=postgresql).
 */
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { XLSX_IN_MEMORY_BYTES } from '../src/modules/spreadsheet/sheet-reader.js';
import { createBenchDatabase } from './bench-database.js';
import { type Headers, login, runJob, serverEnv } from './lib/polyterm-api.js';
import { mb } from './lib/report.js';
import { memoryOf, startBenchElasticsearch, startServer, stopServers } from './lib/servers.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 1_000_000);
const ENGINE = process.env.BENCH_ENGINE === 'postgresql' ? 'postgresql' : 'elasticsearch';
const quote = (cell: string) => (/[",\n;]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** Writes the CSV; answers its rows. */
async function writeSheet(file: string, terms: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write('\uFEFFID,Definition,Domain,English,English: Part of speech,Icelandic,German,French\r\n');
  let written = 0;
  let rows = 0;
  let chunk = '';
  while (written < terms) {
    rows++;
    const n = (rows * 7919) % 100_003;
    const english = rows % 2 === 0 ? `engine ${rows} ${n}; motor ${rows}` : `engine ${rows} ${n}`;
    const cells = [
      `c${rows}`,
      `Definition of concept number ${rows}, with some words`,
      `Domain ${rows % 40}`,
      english,
      rows % 2 === 0 ? 'noun; noun' : 'noun',
      `vél ${rows} ${n}`,
      `Motor ${rows} ${n}`,
      `moteur ${rows} ${n}`,
    ];
    written += rows % 2 === 0 ? 5 : 4;
    chunk += `${cells.map(quote).join(',')}\r\n`;
    if (chunk.length > 256 * 1024) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
  return rows;
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function importSheet(server: Server, headers: Headers, file: string, name: string): Promise<number> {
  const previewForm = new FormData();
  previewForm.append('file', await openAsBlob(file), path.basename(file));
  const preview = await fetch(`${server.url}/api/v4/dictionaries/import-spreadsheet/preview`, {
    method: 'POST',
    headers,
    body: previewForm,
  });
  const { mapping } = (await preview.json()) as { mapping: unknown };
  if (!preview.ok) throw new Error(`preview: ${preview.status} ${JSON.stringify(mapping)}`);
  const form = new FormData();
  form.append('file', await openAsBlob(file), path.basename(file));
  form.append('mapping', JSON.stringify(mapping));
  const answer = await fetch(
    `${server.url}/api/v4/dictionaries/import-spreadsheet?name=${encodeURIComponent(name)}&merge=NONE`,
    { method: 'POST', headers, body: form },
  );
  const result = await runJob<{ dictionaryId: number; terms: number; errorCount: number }>(
    server,
    headers,
    answer,
  );
  if (result.errorCount > 0) throw new Error(`import of ${name}: ${result.errorCount} errors`);
  return result.dictionaryId;
}

async function exportSheet(server: Server, headers: Headers, id: number, query: string, file: string) {
  const download = await fetch(`${server.url}/api/v4/dictionaries/export-tbx/${id}?${query}`, { headers });
  if (!download.ok || !download.body) throw new Error(`export: ${download.status}`);
  await pipeline(Readable.fromWeb(download.body as never), createWriteStream(file));
  return (await stat(file)).size;
}

async function main() {
  const database = await createBenchDatabase();
  const { name, url: databaseUrl } = database;
  const csv = path.join(tmpdir(), `${name}.csv`);
  const exportedCsv = path.join(tmpdir(), `${name}-export.csv`);
  const xlsx = path.join(tmpdir(), `${name}-export.xlsx`);
  const elasticsearch = ENGINE === 'postgresql' ? null : await startBenchElasticsearch();
  try {
    const server = await startServer('server', {
      ...serverEnv(databaseUrl),
      LOG_LEVEL: 'info',
      ...(elasticsearch ? { ELASTICSEARCH_URL: elasticsearch.url, ELASTICSEARCH_INDEX: name } : {}),
    });
    const pid = server.process.pid!;
    const rss = () => `server peak RSS ${mb(memoryOf(pid).hwm)}`;
    console.log(`engine: ${elasticsearch ? `elasticsearch (${elasticsearch.url})` : 'postgresql'}`);
    let started = Date.now();
    const rows = await writeSheet(csv, TERMS);
    console.log(
      `sheet: ${TERMS} terms in ${rows} rows, ${mb((await stat(csv)).size)} CSV in ${(Date.now() - started) / 1000} s`,
    );
    const headers = await login(server);
    const step = (what: string, seconds: number, extra = '') =>
      console.log(
        `${what}: ${seconds.toFixed(1)} s, ${Math.round(TERMS / seconds)} terms/s${extra}, ${rss()}`,
      );

    started = Date.now();
    const id = await importSheet(server, headers, csv, 'Bench');
    step(`CSV import${elasticsearch ? ' (including indexing)' : ''}`, (Date.now() - started) / 1000);

    started = Date.now();
    let bytes = await exportSheet(server, headers, id, 'format=CSV', exportedCsv);
    step('CSV export (synonyms joined)', (Date.now() - started) / 1000, `, ${mb(bytes)}`);

    started = Date.now();
    bytes = await exportSheet(server, headers, id, 'format=XLSX&synonyms=COLUMNS', xlsx);
    step('XLSX export (synonyms in columns)', (Date.now() - started) / 1000, `, ${mb(bytes)}`);

    if (process.env.BENCH_XLSX_IMPORT !== '0') {
      started = Date.now();
      await importSheet(server, headers, xlsx, 'Bench XLSX');
      const streamed = (await stat(xlsx)).size > XLSX_IN_MEMORY_BYTES;
      step(`XLSX import (${streamed ? 'streamed' : 'read whole'})`, (Date.now() - started) / 1000);
    }
  } finally {
    await stopServers();
    await elasticsearch?.stop();
    await Promise.all([csv, exportedCsv, xlsx].map((file) => rm(file, { force: true })));
    await database.drop();
  }
}

await main();
