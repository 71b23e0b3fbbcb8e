/**
 * TBX import and export rates on a synthetic file (not a test: it prints figures).
 *
 *   npm run bench:tbx                      # 1,000,000 terms
 *   BENCH_TERMS=100000 npm run bench:tbx   # smaller run
 *
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * a fresh database is created on it and dropped afterwards. Search runs on a real Elasticsearch (started
 * from the cached Maven Central distribution, or BENCH_ELASTICSEARCH_URL), so the import rate includes
 * indexing; BENCH_ENGINE=postgresql leaves it out. The server runs in a child process on a real socket,
 * so its peak memory (VmHWM) is its own; the import goes through POST /dictionaries/import-tbx and
 * GET /jobs/{id}, the export through GET /dictionaries/export-tbx/{id}.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startElasticsearch } from '../scripts/elasticsearch.js';
import { escapeXmlText } from '../src/modules/tbx/tbx-writer.js';
import { createBenchDatabase } from './bench-database.js';
import { describeCpu, sampleCpu } from './process-cpu.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 1_000_000);
/** elasticsearch (default: a real one is started unless BENCH_ELASTICSEARCH_URL) or postgresql. */
const ENGINE = process.env.BENCH_ENGINE === 'postgresql' ? 'postgresql' : 'elasticsearch';
const LANGUAGES = ['en', 'is', 'de', 'fr'] as const;
const ADMIN_PASSWORD = 'bench-Password-1';

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

/** Peak resident memory of a process (VmHWM from /proc), sampled alone in its own process. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** The server in a child process (its memory measured alone), on the embedded-free settings given. */
async function startServerProcess(
  env: Record<string, string>,
): Promise<{ pid: number; stop(): Promise<void> }> {
  // BENCH_SERVER_NODE_ARGS adds Node flags to the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Server listening')) resolve();
      // BENCH_SERVER_LOG=1 shows the server's own log lines (set LOG_LEVEL through it, e.g. debug).
      if (process.env.BENCH_SERVER_LOG) process.stdout.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen.slice(-2000)}`)));
  });
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const database = await createBenchDatabase();
  const { name, url: databaseUrl } = database;
  const file = path.join(tmpdir(), `${name}.tbx`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  // Indexing is part of the import: with Elasticsearch the job reports DONE once the outbox is applied.
  const elasticsearch =
    ENGINE === 'postgresql'
      ? null
      : process.env.BENCH_ELASTICSEARCH_URL
        ? { url: process.env.BENCH_ELASTICSEARCH_URL, stop: async () => {} }
        : await startElasticsearch();
  let server: { pid: number; stop(): Promise<void> } | null = null;
  try {
    server = await startServerProcess({
      DATABASE_URL: databaseUrl.toString(),
      ADMIN_PASSWORD,
      LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'debug' : 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      MAX_FILE_SIZE: String(2 * 1024 * 1024 * 1024),
      ...(elasticsearch ? { ELASTICSEARCH_URL: elasticsearch.url, ELASTICSEARCH_INDEX: name } : {}),
    });
    console.log(`engine: ${elasticsearch ? `elasticsearch (${elasticsearch.url})` : 'postgresql'}`);
    const api = (p: string) => `http://127.0.0.1:${port}/api/v4${p}`;

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

    started = Date.now();
    const cpuBefore = sampleCpu(server.pid);
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
    console.log(
      `import${elasticsearch ? ' (including indexing)' : ''}: ${importSeconds.toFixed(1)} s, ${Math.round(TERMS / importSeconds)} terms/s, server peak RSS ${mb(await peakRss(server.pid))}`,
    );
    console.log(
      `import CPU: ${describeCpu(cpuBefore, sampleCpu(server.pid), importSeconds, availableParallelism())}`,
    );

    started = Date.now();
    const download = await fetch(api(`/dictionaries/export-tbx/${result!.dictionaryId}`), { headers });
    if (!download.ok || !download.body) throw new Error(`export: ${download.status}`);
    let bytes = 0;
    for await (const chunk of Readable.fromWeb(download.body as never)) bytes += (chunk as Buffer).byteLength;
    const exportSeconds = (Date.now() - started) / 1000;
    console.log(
      `export: ${exportSeconds.toFixed(1)} s, ${Math.round(TERMS / exportSeconds)} terms/s, ${mb(bytes)}, server peak RSS so far ${mb(await peakRss(server.pid))}`,
    );
  } finally {
    await server?.stop();
    await elasticsearch?.stop();
    await rm(file, { force: true });
    await database.drop();
  }
}

await main();
