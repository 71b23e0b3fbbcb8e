/**
 * Project figures (not a test: it prints them beside targets; docs/projects.md).
 *
 *   npm run bench:projects                       # 10,000 candidates and 10,000 concepts
 *   BENCH_ENTRIES=2000 npm run bench:projects    # smaller run
 *
 * A fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), a server
 * in a child process on a real socket. Concepts with an English term each are written by SQL under an
 * enabled workflow; then, over REST: candidates added as JSON and imported from a TBX file, the concepts
 * added to a project by ids, two assignments, and the progress, statistics and "next entries" read; last,
 * a drafting assignment completed (every English entry submitted in one transaction).
 */
import pg from 'pg';
import { createBenchDatabase } from './bench-database.js';
import { type Headers, login, serverEnv } from './lib/polyterm-api.js';
import { startServer, stopServers } from './lib/servers.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const READS = 5;

async function call<T>(url: string, headers: Headers, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const answer = await fetch(`${url}/api/v4${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return { body: (await answer.json()) as T, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const line = (what: string, ms: number, targetMs: number) =>
  console.log(
    `${what.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms   target < ${targetMs} ms ${ms < targetMs ? 'ok' : 'MISSED'}`,
  );

function tbxOf(count: number) {
  const entries = Array.from(
    { length: count },
    (_, i) =>
      `<conceptEntry><langSec xml:lang="en"><termSec><term>imported ${i}</term></termSec></langSec><langSec xml:lang="de"><termSec><term>importiert ${i}</term></termSec></langSec></conceptEntry>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>bench</p></sourceDesc></fileDesc></tbxHeader><text><body>${entries}</body></text></tbx>`;
}

async function main() {
  const database = await createBenchDatabase();
  const db = new pg.Client({ connectionString: database.url.toString() });
  try {
    const server = await startServer('server', serverEnv(database.url), { showStdout: false });
    const headers = await login(server);
    const api = <T>(method: string, path: string, body?: unknown) =>
      call<T>(server.url, headers, method, path, body);
    const { body: dictionary } = await api<{ id: number; clientId: number; sections: { id: number }[] }>(
      'POST',
      '/dictionaries',
      { name: 'Project bench', languages: [{ code: 'eng' }, { code: 'deu' }] },
    );
    await db.connect();
    await db.query(
      `insert into concepts (client_id, dictionary_id, section_id, cid, created_at, changed_at)
       select $1, $2, $3, 'p' || g, now(), now() from generate_series(1, $4) g`,
      [dictionary.clientId, dictionary.id, dictionary.sections[0]!.id, ENTRIES],
    );
    await db.query(
      `insert into terms (client_id, dictionary_id, concept_id, name, language_code, tid, created_at, changed_at)
       select $1, $2, c.id, 'term ' || c.id, 'eng', row_number() over (order by c.id), now(), now()
         from concepts c where c.dictionary_id = $2`,
      [dictionary.clientId, dictionary.id],
    );
    await api('POST', '/workflows', { name: 'Default', dictionaryId: dictionary.id, enabled: true });
    const ids = (
      await db.query<{ id: number }>('select id from concepts where dictionary_id = $1 order by id', [
        dictionary.id,
      ])
    ).rows.map((row) => row.id);
    console.log(`data: ${ENTRIES} concepts with an English term each, the default workflow on`);

    const { body: project } = await api<{ id: number }>('POST', '/projects', {
      name: 'Bench',
      dictionaryIds: [dictionary.id],
      languages: ['eng', 'deu'],
    });
    const candidates = Array.from({ length: ENTRIES }, (_, i) => ({
      terms: [
        { languageCode: 'eng', term: `candidate ${i}` },
        { languageCode: 'deu', term: `Kandidat ${i}` },
      ],
    }));
    const added = await api<{ added: number }>('POST', `/projects/${project.id}/candidates`, { candidates });
    line(`add ${added.body.added} candidates (JSON, one request)`, added.ms, 5_000);
    const tbx = tbxOf(ENTRIES);
    const imported = await api<{ added: number }>('POST', `/projects/${project.id}/candidates/import`, {
      format: 'TBX',
      content: tbx,
      fileName: 'bench.tbx',
    });
    line(
      `import ${imported.body.added} candidates from TBX (${(tbx.length / 1e6).toFixed(1)} MB)`,
      imported.ms,
      10_000,
    );
    const entries = await api<{ added: number }>('POST', `/projects/${project.id}/entries`, {
      conceptIds: ids,
    });
    line(`add ${entries.body.added} concepts by ids`, entries.ms, 5_000);
    const me = (await db.query<{ id: number }>("select id from users where username = 'admin'")).rows[0]!.id;
    const translation = await api<{ id: number }>('POST', `/projects/${project.id}/assignments`, {
      type: 'TRANSLATION',
      languageCode: 'deu',
      assigneeUserId: me,
    });
    line('create an assignment (answers its progress)', translation.ms, 2_000);
    await api('POST', `/projects/${project.id}/assignments`, { type: 'VALIDATION', assigneeUserId: me });

    const times = async (path: string) => {
      const measured: number[] = [];
      for (let i = 0; i < READS; i++) measured.push((await api('GET', path)).ms);
      return median(measured);
    };
    line(
      `progress (${ENTRIES * 2} entry-languages, 2 assignments), median of ${READS}`,
      await times(`/projects/${project.id}/progress`),
      2_000,
    );
    line(
      `statistics (with today's burn-down point), median of ${READS}`,
      await times(`/projects/${project.id}/statistics`),
      2_000,
    );
    line(
      `entries page of 100 with states, median of ${READS}`,
      await times(`/projects/${project.id}/entries?size=100`),
      500,
    );
    line(
      `candidates page of 100, median of ${READS}`,
      await times(`/projects/${project.id}/candidates?size=100`),
      500,
    );
    line(
      `next entries of an assignment (done=false, 20), median of ${READS}`,
      await times(`/assignments/${translation.body.id}/entries?done=false&size=20`),
      2_000,
    );
    line(`my assignments, median of ${READS}`, await times('/assignments'), 2_000);

    // Completing fires "submit" on every English entry in one transaction (no job to follow).
    const { body: current } = await api<{ version: number }>('GET', `/projects/${project.id}`);
    await api('PUT', `/projects/partial/${project.id}`, {
      version: current.version,
      transitions: { DRAFTING: 'submit', VALIDATION: 'approve' },
    });
    const drafting = await api<{ id: number; version: number }>(
      'POST',
      `/projects/${project.id}/assignments`,
      {
        type: 'DRAFTING',
        languageCode: 'eng',
        assigneeUserId: me,
      },
    );
    type Completed = {
      jobTaskId?: number;
      result: { dictionaries: { result?: { moved: number } }[] } | null;
    };
    const started = performance.now();
    const answered = await api<Completed>('POST', `/assignments/${drafting.body.id}/complete`, {
      version: drafting.body.version,
    });
    // Past the async threshold the answer names the job; the assignment is DONE when it ends.
    for (let job = answered.body.jobTaskId; job !== undefined; ) {
      const { body } = await api<{ status: string }>('GET', `/jobs/${job}`);
      if (body.status !== 'RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const completedMs = performance.now() - started;
    const completed = await api<Completed>('GET', `/assignments/${drafting.body.id}`);
    line(
      `complete a drafting assignment (${completed.body.result?.dictionaries[0]?.result?.moved} entries submitted${answered.body.jobTaskId ? ', as a job' : ''})`,
      completedMs,
      20_000,
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
