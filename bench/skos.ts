/**
 * UNESCO Thesaurus import and Turtle export times (not a test: it prints figures beside the target).
 *
 *   npm run bench:skos                     # Elasticsearch from BENCH_ELASTICSEARCH_URL or started here
 *   BENCH_ENGINE=postgresql npm run bench:skos
 *   BENCH_RUNS=3 npm run bench:skos        # imports the file three times, each into a new dictionary
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:skos   # the server's V8 CPU profile
 *
 * The server runs in a child process on a real socket; the import goes through POST
 * /dictionaries/import-skos and GET /jobs/{id}, the export through GET /dictionaries/export-skos/{id}.
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { StreamParser } from 'n3';
import pg from 'pg';
import { createBenchDatabase } from './bench-database.js';
import { login, runJob, serverEnv } from './lib/polyterm-api.js';
import { mb } from './lib/report.js';
import { memoryOf, startBenchElasticsearch, startServer, stopServers } from './lib/servers.js';
import { cpuSecondsOf } from './process-cpu.js';

const FILE = process.env.BENCH_SKOS_FILE ?? '/work/shared/datasets/unesco-thesaurus/unesco-thesaurus.ttl';
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const ENGINE = process.env.BENCH_ENGINE === 'postgresql' ? 'postgresql' : 'elasticsearch';
/** The "in seconds". */
const TARGET_SECONDS = 10;

async function main() {
  const database = await createBenchDatabase();
  // BENCH_AUTO_EXPLAIN_MS=<ms>: PostgreSQL logs the plan (with trigger statements) of every slower statement.
  if (process.env.BENCH_AUTO_EXPLAIN_MS) await autoExplain(database.url, process.env.BENCH_AUTO_EXPLAIN_MS);
  const elasticsearch = ENGINE === 'postgresql' ? null : await startBenchElasticsearch();
  try {
    const server = await startServer(
      'server',
      {
        ...serverEnv(database.url),
        ...(elasticsearch
          ? { ELASTICSEARCH_URL: elasticsearch.url, ELASTICSEARCH_INDEX: database.name }
          : {}),
      },
      { showStdout: Boolean(process.env.BENCH_SERVER_LOG) },
    );
    const headers = await login(server);
    console.log(
      `engine: ${elasticsearch ? 'elasticsearch' : 'postgresql'}; load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
    );
    const floor = await parseFloor();
    console.log(
      `floor: N3.js parses the file alone in ${floor.seconds.toFixed(1)} s (${floor.quads} triples, CPU ${floor.cpu.toFixed(1)} s)`,
    );
    let dictionaryId = 0;
    for (let run = 1; run <= RUNS; run++) {
      const form = new FormData();
      form.append('file', await openAsBlob(FILE), 'unesco-thesaurus.ttl');
      const cpuBefore = await cpuOf(database.url, server.process.pid!);
      const started = performance.now();
      const summary = await runJob<{ dictionaryId: number; concepts: number; terms: number }>(
        server,
        headers,
        await fetch(`${server.url}/api/v4/dictionaries/import-skos?name=UNESCO%20${Date.now()}`, {
          method: 'POST',
          headers,
          body: form,
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = await cpuOf(database.url, server.process.pid!);
      dictionaryId = summary.dictionaryId;
      console.log(
        `import ${run}: ${summary.concepts} concepts, ${summary.terms} terms in ${seconds.toFixed(1)} s (floor ${floor.seconds.toFixed(1)} s, target ${TARGET_SECONDS} s), load ${loadavg()[0]!.toFixed(1)}, server peak RSS ${mb(memoryOf(server.process.pid!).hwm)}`,
      );
      console.log(
        `  CPU: server ${(cpuAfter.server - cpuBefore.server).toFixed(1)} s, its PostgreSQL sessions ${(cpuAfter.postgresql - cpuBefore.postgresql).toFixed(1)} s`,
      );
    }
    const started = performance.now();
    const download = await fetch(`${server.url}/api/v4/dictionaries/export-skos/${dictionaryId}`, {
      headers,
    });
    if (!download.ok || !download.body) throw new Error(`export: ${download.status}`);
    let bytes = 0;
    for await (const chunk of Readable.fromWeb(download.body as never)) bytes += (chunk as Buffer).byteLength;
    console.log(`export (Turtle): ${((performance.now() - started) / 1000).toFixed(1)} s, ${mb(bytes)}`);
  } finally {
    await stopServers();
    await elasticsearch?.stop();
    await database.drop();
  }
}

/**
 * The floor: what parsing the file alone takes, with N3.js's streaming parser (the import's own reader
 * for Turtle), here in the bench's process: no SKOS mapping, no database.
 */
async function parseFloor(): Promise<{ seconds: number; cpu: number; quads: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let quads = 0;
  const parser = new StreamParser();
  await new Promise<void>((resolve, reject) => {
    parser.on('data', () => {
      quads++;
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    createReadStream(FILE).pipe(parser);
  });
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6, quads };
}

/**
 * CPU seconds so far of the server and of the PostgreSQL sessions on the bench database (the pool's
 * sessions stay open across an import; other users of the PostgreSQL server are left out, unlike
 * sampleCpu's figure).
 */
async function cpuOf(url: URL, serverPid: number) {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [url.pathname.slice(1)],
    );
    return { server: cpuSecondsOf([serverPid]), postgresql: cpuSecondsOf(rows.map((row) => row.pid)) };
  } finally {
    await client.end();
  }
}

async function autoExplain(url: URL, ms: string) {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const name = url.pathname.slice(1);
  for (const setting of [
    `session_preload_libraries = 'auto_explain'`,
    `auto_explain.log_min_duration = ${Number(ms)}`,
    `auto_explain.log_analyze = ${process.env.BENCH_AUTO_EXPLAIN_ANALYZE === '0' ? 'off' : 'on'}`,
    'auto_explain.log_nested_statements = on',
  ])
    await client.query(`alter database "${name}" set ${setting}`);
  await client.end();
}

await main();
