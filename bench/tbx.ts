/**
 * TBX import and export rates on a synthetic file (not a test: it prints figures).
 *
 *   npm run bench:tbx                      # 1,000,000 terms
 *   BENCH_TERMS=100000 npm run bench:tbx   # smaller run
 *
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * a fresh database is created on it and dropped afterwards. The server runs in this process on a real
 * socket; the import goes through POST /dictionaries/import-tbx and GET /jobs/{id}, the export through
 * GET /dictionaries/export-tbx/{id}. Peak memory is the process RSS sampled every 100 ms.
 */

import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { ensureDefaultClient } from '../src/modules/system/bootstrap.js';
import { escapeXmlText } from '../src/modules/tbx/tbx-writer.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 1_000_000);
const LANGUAGES = ['en', 'is', 'de', 'fr'] as const;
const ADMIN_PASSWORD = 'bench-Password-1';
const serverUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

/** Writes a TBX v3 DCA file: one concept per 4 terms (one per language), each with a definition. */
async function writeFile(file: string, terms: number) {
  const out = createWriteStream(file);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>Bench</p></sourceDesc></fileDesc></tbxHeader><text><body>\n',
  );
  const concepts = Math.ceil(terms / LANGUAGES.length);
  let written = 0;
  for (let c = 1; c <= concepts; c++) {
    let entry = `<conceptEntry id="c${c}"><descrip type="definition">${escapeXmlText(`Definition of concept number ${c}, with some words`)}</descrip>`;
    for (const lang of LANGUAGES) {
      if (written++ >= terms) break;
      entry += `<langSec xml:lang="${lang}"><termSec><term>${lang} term ${c} ${(c * 7919) % 100_003}</term><termNote type="partOfSpeech">noun</termNote></termSec></langSec>`;
    }
    await write(`${entry}</conceptEntry>\n`);
  }
  await write('</body></text></tbx>\n');
  out.end();
  await once(out, 'finish');
  return concepts;
}

function sampleRss() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const name = `polyterm_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${name}`;
  const file = path.join(tmpdir(), `${name}.tbx`);
  const config = loadConfig({
    DATABASE_URL: databaseUrl.toString(),
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    MAX_FILE_SIZE: String(2 * 1024 * 1024 * 1024),
  });
  const orm = await openOrm(config.DATABASE_URL!);
  try {
    await migrate(orm);
    await ensureDefaultClient(orm, config);
    const app = await buildApp({ config, orm });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const api = (p: string) => `http://127.0.0.1:${address.port}/api/v4${p}`;

    let started = Date.now();
    const concepts = await writeFile(file, TERMS);
    const size = (await stat(file)).size;
    console.log(
      `file: ${TERMS} terms, ${concepts} concepts, ${mb(size)} written in ${(Date.now() - started) / 1000} s`,
    );

    const login = await fetch(api('/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { token: { token: string } }).token.token;
    const headers = { 'X-Auth-Token': token };

    const memory = sampleRss();
    started = Date.now();
    const form = new FormData();
    form.append('file', await openAsBlob(file), 'bench.tbx');
    const answer = await fetch(api('/dictionaries/import-tbx?name=Bench&merge=NONE'), {
      method: 'POST',
      headers,
      body: form,
    });
    const body = (await answer.json()) as { jobTaskId?: number; result?: { dictionaryId: number } };
    if (!answer.ok) throw new Error(`import: ${answer.status} ${JSON.stringify(body)}`);
    let result = body.result;
    while (body.jobTaskId !== undefined && !result) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const job = (await (await fetch(api(`/jobs/${body.jobTaskId}`), { headers })).json()) as {
        status: string;
        result: { dictionaryId: number };
        message: string | null;
      };
      if (job.status === 'FAILED') throw new Error(`import failed: ${job.message}`);
      if (job.status === 'DONE') result = job.result;
    }
    const importSeconds = (Date.now() - started) / 1000;
    const importPeak = memory.stop();
    console.log(
      `import: ${importSeconds.toFixed(1)} s, ${Math.round(TERMS / importSeconds)} terms/s, peak RSS ${mb(importPeak)}`,
    );

    const exportMemory = sampleRss();
    started = Date.now();
    const download = await fetch(api(`/dictionaries/export-tbx/${result!.dictionaryId}`), { headers });
    if (!download.ok || !download.body) throw new Error(`export: ${download.status}`);
    let bytes = 0;
    for await (const chunk of Readable.fromWeb(download.body as never)) bytes += (chunk as Buffer).byteLength;
    const exportSeconds = (Date.now() - started) / 1000;
    console.log(
      `export: ${exportSeconds.toFixed(1)} s, ${Math.round(TERMS / exportSeconds)} terms/s, ${mb(bytes)}, peak RSS ${mb(exportMemory.stop())}`,
    );
    await app.close();
  } finally {
    await orm.close(true);
    await rm(file, { force: true });
    const client = new pg.Client({ connectionString: serverUrl.toString() });
    await client.connect();
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  }
}

await main();
