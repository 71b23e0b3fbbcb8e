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

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { escapeXmlText } from '../src/modules/tbx/tbx-writer.js';
import { createBenchDatabase } from './bench-database.js';
import { backendCpu, backendCpuBetween, CopyFloor } from './lib/copy-floor.js';
import { importTbx, login, serverEnv } from './lib/polyterm-api.js';
import { mb, percent, verdict } from './lib/report.js';
import { memoryOf, startBenchElasticsearch, startServer, stopServers } from './lib/servers.js';
import { describeCpu, sampleCpu } from './process-cpu.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 1_000_000);
/** elasticsearch (default: a real one is started unless BENCH_ELASTICSEARCH_URL) or postgresql. */
const ENGINE = process.env.BENCH_ENGINE === 'postgresql' ? 'postgresql' : 'elasticsearch';
const LANGUAGES = ['en', 'is', 'de', 'fr'] as const;
/** The issue's targets: the import at least half PostgreSQL's COPY rate; the server under 300 MB. */
const TARGETS = { shareOfCopy: 0.5, peakRssMb: 300 };
/**
 * Terms the trigger costs are measured on (the first concepts' terms; 0: none): each trigger takes four
 * COPY runs of them, and the per-row stem trigger is slow.
 */
const TRIGGER_TERMS = Number(process.env.BENCH_TRIGGER_TERMS ?? 20_000);
const FUNCTION_STATS = process.env.BENCH_FUNCTION_STATS === '1';

async function onDatabase<T extends pg.QueryResultRow>(url: URL, statement: string) {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<T>(statement)).rows;
  } finally {
    await client.end();
  }
}

/** The functions the import spent most time in (total includes what they call; self does not). */
async function printFunctionStats(url: URL) {
  // Statistics reach the shared counters once a backend idles for a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const rows = await onDatabase<{ funcname: string; calls: string; total: number; self: number }>(
    url,
    `select funcname, calls, round(total_time)::int as total, round(self_time)::int as self
       from pg_stat_user_functions order by total_time desc limit 12`,
  );
  for (const row of rows)
    console.log(`  function ${row.funcname}: ${row.calls} calls, total ${row.total} ms, self ${row.self} ms`);
}
const load = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;

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

/** What the stem, workflow, outbox and event triggers cost per 100,000 terms (COPY with and without). */
async function triggerCosts(databaseUrl: URL, dictionaryId: number) {
  const sample = await CopyFloor.prepare(
    databaseUrl,
    dictionaryId,
    Math.ceil(TRIGGER_TERMS / LANGUAGES.length),
  );
  try {
    const costs: [string, () => Promise<number>][] = [
      [
        'stem (terms_stem_key_insert, per row, on terms without their keys)',
        () =>
          sample.triggerCost('terms', 'terms_stem_key_insert', {
            omit: ['stem_key', 'stem_words', 'lemma_key', 'citation_key'],
          }),
      ],
      [
        'workflow (terms_workflow_state_insert, per statement; the dictionary has no workflow)',
        () => sample.triggerCost('terms', 'terms_workflow_state_insert'),
      ],
      [
        'search outbox (terms_search_outbox_insert)',
        () => sample.triggerCost('terms', 'terms_search_outbox_insert'),
      ],
      [
        'events (concept_history_events, and their publication at the commit)',
        () => sample.triggerCost('concept_history', 'concept_history_events', { withDeferred: true }),
      ],
    ];
    for (const [name, measure] of costs)
      console.log(
        `trigger cost per 100,000 terms (measured on ${sample.terms}), ${name}: ${(await measure()).toFixed(2)} s (COPY with it minus without, best of 2 each), ${load()}`,
      );
  } finally {
    await sample.close();
  }
}

async function main() {
  const database = await createBenchDatabase();
  const { name, url: databaseUrl } = database;
  // BENCH_FUNCTION_STATS=1: PostgreSQL times its functions (triggers, key functions) in this database,
  // and the import's top ones are printed: where its time goes beyond the COPY floor's.
  if (FUNCTION_STATS) await onDatabase(databaseUrl, `alter database "${name}" set track_functions = 'all'`);
  const file = path.join(tmpdir(), `${name}.tbx`);
  // Indexing is part of the import: with Elasticsearch the job reports DONE once the outbox is applied.
  const elasticsearch = ENGINE === 'postgresql' ? null : await startBenchElasticsearch();
  try {
    const server = await startServer(
      'server',
      {
        ...serverEnv(databaseUrl),
        LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'debug' : 'info',
        ...(elasticsearch ? { ELASTICSEARCH_URL: elasticsearch.url, ELASTICSEARCH_INDEX: name } : {}),
      },
      {
        // BENCH_SERVER_NODE_ARGS adds Node flags to the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
        nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
        // BENCH_SERVER_LOG=1 shows the server's own log lines (set LOG_LEVEL through it, e.g. debug).
        showStdout: Boolean(process.env.BENCH_SERVER_LOG),
      },
    );
    const pid = server.process.pid!;
    console.log(
      `engine: ${elasticsearch ? `elasticsearch (${elasticsearch.url})` : 'postgresql'}; server RSS after start ${mb(memoryOf(pid).rss)}`,
    );

    let started = Date.now();
    const concepts = await writeFile(file, TERMS);
    const size = (await stat(file)).size;
    console.log(
      `file: ${TERMS} terms, ${concepts} concepts, ${mb(size)} written in ${(Date.now() - started) / 1000} s`,
    );

    const headers = await login(server);
    started = Date.now();
    const cpuBefore = sampleCpu(pid);
    const backendsBefore = await backendCpu(databaseUrl);
    const dictionaryId = await importTbx(server, headers, file);
    const importSeconds = (Date.now() - started) / 1000;
    const cpuAfter = sampleCpu(pid);
    const importBackendCpu = backendCpuBetween(backendsBefore, await backendCpu(databaseUrl));
    if (FUNCTION_STATS) await printFunctionStats(databaseUrl);
    const importPeak = memoryOf(pid).hwm;
    console.log(
      `import${elasticsearch ? ' (including indexing)' : ''}: ${importSeconds.toFixed(1)} s, ${Math.round(TERMS / importSeconds)} terms/s, server peak RSS ${mb(importPeak)} (target <= ${TARGETS.peakRssMb} MB: ${verdict(importPeak <= TARGETS.peakRssMb * 1024 * 1024)}), ${load()}`,
    );
    console.log(
      `import CPU: ${describeCpu(cpuBefore, cpuAfter, importSeconds, availableParallelism())}; the bench database's own backends ${importBackendCpu.toFixed(1)} s`,
    );

    started = Date.now();
    const download = await fetch(`${server.url}/api/v4/dictionaries/export-tbx/${dictionaryId}`, { headers });
    if (!download.ok || !download.body) throw new Error(`export: ${download.status}`);
    let bytes = 0;
    for await (const chunk of Readable.fromWeb(download.body as never)) bytes += (chunk as Buffer).byteLength;
    const exportSeconds = (Date.now() - started) / 1000;
    console.log(
      `export: ${exportSeconds.toFixed(1)} s, ${Math.round(TERMS / exportSeconds)} terms/s, ${mb(bytes)}, server peak RSS so far ${mb(memoryOf(pid).hwm)}`,
    );

    // PostgreSQL's own speed on the same rows, while the server idles.
    const floor = await CopyFloor.prepare(databaseUrl, dictionaryId);
    try {
      const { seconds, cpuSeconds, rows } = await floor.floor();
      const serverCpu = cpuAfter.server - cpuBefore.server;
      const importCpu = serverCpu + importBackendCpu;
      const tables = Object.entries(rows).map(([table, n]) => `${table} ${n}`);
      console.log(
        `COPY floor: ${seconds.toFixed(1)} s, ${Math.round(floor.terms / seconds)} terms/s (${tables.join(', ')}); import rate / COPY rate ${percent(seconds, importSeconds)} (target >= ${percent(TARGETS.shareOfCopy, 1)}: ${verdict(seconds / importSeconds >= TARGETS.shareOfCopy)}), ${load()}`,
      );
      // Wall times swing with the shared machine's load; CPU seconds much less: the same share in CPU.
      console.log(
        `COPY floor CPU: its backend ${cpuSeconds.toFixed(1)} s; the import's server ${serverCpu.toFixed(1)} s + its backends ${importBackendCpu.toFixed(1)} s; COPY CPU / import CPU ${percent(cpuSeconds, importCpu)} (target >= ${percent(TARGETS.shareOfCopy, 1)}: ${verdict(cpuSeconds / importCpu >= TARGETS.shareOfCopy)})`,
      );
    } finally {
      await floor.close();
    }
    if (TRIGGER_TERMS > 0) await triggerCosts(databaseUrl, dictionaryId);
  } finally {
    await stopServers();
    await elasticsearch?.stop();
    await rm(file, { force: true });
    await database.drop();
  }
}

await main();
