/**
 * Workflow figures (not a test: it prints them; docs/workflows.md).
 *
 *   npx tsx bench/workflow.ts                      # 100,000 entries
 *   BENCH_ENTRIES=10000 npx tsx bench/workflow.ts  # smaller run
 *
 * A fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), a server
 * in a child process on a real socket, search on PostgreSQL. Concepts with one English term each are
 * written by SQL; then one bulk transition moves every entry (POST /workflows/bulk-transitions, polled
 * through GET /jobs/{id}), and a term search page is timed with the workflow switched on and off.
 */
import pg from 'pg';
import { createBenchDatabase } from './bench-database.js';
import { type Headers, login, runJob, serverEnv } from './lib/polyterm-api.js';
import { startServer, stopServers } from './lib/servers.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 50);

async function call<T>(
  url: string,
  headers: Headers,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await fetch(`${url}/api/v4${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function searchTimes(url: string, headers: Headers, dictionaryId: number) {
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const started = performance.now();
    await call(url, headers, 'POST', '/terms/search', {
      dictionaryIds: [dictionaryId],
      langCode: 'eng',
      sectionOids: [],
      name: `term ${i % 10}`,
    });
    times.push(performance.now() - started);
  }
  return times;
}

async function main() {
  const database = await createBenchDatabase();
  const db = new pg.Client({ connectionString: database.url.toString() });
  try {
    const server = await startServer('server', serverEnv(database.url), { showStdout: false });
    const headers = await login(server);
    const dictionary = await call<{ id: number; clientId: number; sections: { id: number }[] }>(
      server.url,
      headers,
      'POST',
      '/dictionaries',
      { name: 'Workflow bench', languages: [{ code: 'eng' }] },
    );
    await db.connect();
    let started = Date.now();
    await db.query(
      `insert into concepts (client_id, dictionary_id, section_id, cid, created_at, changed_at)
       select $1, $2, $3, 'w' || g, now(), now() from generate_series(1, $4) g`,
      [dictionary.clientId, dictionary.id, dictionary.sections[0]!.id, ENTRIES],
    );
    await db.query(
      `insert into terms (client_id, dictionary_id, concept_id, name, language_code, tid, created_at, changed_at)
       select $1, $2, c.id, 'term ' || c.id, 'eng', row_number() over (order by c.id), now(), now()
         from concepts c where c.dictionary_id = $2`,
      [dictionary.clientId, dictionary.id],
    );
    console.log(
      `data: ${ENTRIES} concepts with one English term each, written in ${(Date.now() - started) / 1000} s`,
    );

    const off = await searchTimes(server.url, headers, dictionary.id);
    const definition = {
      states: [
        { key: 'draft', name: 'Draft', category: 'DRAFT', style: 'font-style: italic' },
        { key: 'ok', name: 'Approved', category: 'APPROVED' },
      ],
      transitions: [{ key: 'approve', name: 'Approve', from: ['draft'], to: 'ok', roles: ['SYSADMIN'] }],
      initialState: 'draft',
    };
    const workflow = await call<{ id: number; version: number }>(server.url, headers, 'POST', '/workflows', {
      name: 'Bench',
      dictionaryId: dictionary.id,
      enabled: true,
      definition,
    });
    started = Date.now();
    const { moved } = await runJob<{ moved: number }>(
      server,
      headers,
      await fetch(`${server.url}/api/v4/workflows/bulk-transitions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ dictionaryId: dictionary.id, transition: 'approve', comment: 'bench' }),
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `bulk transition: ${moved} entries in ${seconds.toFixed(1)} s, ${Math.round(moved / seconds)} entries/s`,
    );
    const on = await searchTimes(server.url, headers, dictionary.id);
    // The bulk move updated every concept row: compare with the workflow switched off on the same tables.
    // Switching on recomputes the terms' state copies of the whole dictionary, writing those that differ:
    // none when the same workflow comes back, every moved entry's term when another one (no states) does.
    const timed = async (path: string, method: string, body: unknown) => {
      const begun = Date.now();
      const answer = await call<{ id: number; version: number }>(server.url, headers, method, path, body);
      return { ...answer, seconds: (Date.now() - begun) / 1000 };
    };
    const partial = (id: number, version: number, enabled: boolean) =>
      timed(`/workflows/partial/${id}`, 'PUT', { version, enabled });
    const off1 = await partial(workflow.id, workflow.version, false);
    const on1 = await partial(workflow.id, off1.version, true);
    const off2 = await partial(workflow.id, on1.version, false);
    const other = await timed('/workflows', 'POST', {
      name: 'Other',
      dictionaryId: dictionary.id,
      enabled: true,
      definition,
    });
    await partial(other.id, other.version, false);
    console.log(
      `switching: off ${off1.seconds.toFixed(1)} s, the same on again ${on1.seconds.toFixed(1)} s (no copy differs), off ${off2.seconds.toFixed(1)} s, another workflow on ${other.seconds.toFixed(1)} s (rewrites the ${moved} moved entries' term copies)`,
    );
    const offAfter = await searchTimes(server.url, headers, dictionary.id);
    console.log(
      `term search (PostgreSQL engine, ${SEARCHES} pages, median): ${median(off).toFixed(1)} ms before any workflow, ${median(on).toFixed(1)} ms with the workflow on, ${median(offAfter).toFixed(1)} ms with it switched off again`,
    );
  } finally {
    await db.end().catch(() => {});
    await stopServers();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
