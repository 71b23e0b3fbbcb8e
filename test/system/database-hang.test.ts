/**
 * A database that hangs costs a request seconds, not the whole outage (docs/reliability.md). With its
 * server and backends stopped (SIGSTOP), reads and writes answer 503 with Retry-After within the
 * statement timeout, /ready within 2 s, and no write answered 503 commits when the database resumes. A
 * COMMIT that goes unanswered may have happened: that answer is 504, never 503. The tests freeze a
 * PostgreSQL of their own (test/helpers/embedded-postgres.ts), never the shared one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { clusterProcesses, startOwnPostgres } from '../helpers/embedded-postgres.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { uniqueSuffix } from '../helpers/structure.js';

/** The defaults of config.ts: the tests measure what a deployment gets. */
const STATEMENT_TIMEOUT_MS = 5000;
/** Longer than any bounded answer; without bounds the test stops waiting here instead of hanging. */
const GIVE_UP_MS = 12_000;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
}
interface Timed {
  ms: number;
  answer: Answer | 'no answer';
}

async function timed(work: Promise<Answer>): Promise<Timed> {
  const started = performance.now();
  const answer = await Promise.race([work, sleep(GIVE_UP_MS, 'no answer' as const)]);
  return { ms: Math.round(performance.now() - started), answer };
}

const rows = async (client: pg.Client, text: string, values: unknown[] = []) =>
  (await client.query(text, values)).rows;

/** Polls `text` (one row with a boolean `done`) until it holds. */
async function until(client: pg.Client, text: string, what: string): Promise<void> {
  for (const started = Date.now(); ; await sleep(50)) {
    const [row] = await rows(client, text);
    if (row.done) return;
    if (Date.now() - started > 10_000) throw new Error(`waited 10 s for ${what}`);
  }
}

describe('database that hangs', () => {
  let own: Awaited<ReturnType<typeof startOwnPostgres>>;
  let t: TestApp;
  let sysadmin: RestClient;
  let frozen: number[] = [];
  const sessions: pg.Client[] = [];

  const signal = (pids: number[], name: 'SIGSTOP' | 'SIGCONT') => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile
      }
    }
  };
  /** The postmaster first, so that it starts no process after the list is taken. */
  const freeze = async () => {
    const [postmaster] = await clusterProcesses(own.dataDir);
    signal([postmaster!], 'SIGSTOP');
    frozen = await clusterProcesses(own.dataDir);
    signal(frozen, 'SIGSTOP');
  };
  const thaw = () => {
    signal(frozen, 'SIGCONT');
    frozen = [];
  };
  /** A session of the test's own; afterAll ends it, should the test fail first. */
  const session = async () => {
    const client = new pg.Client({ connectionString: own.url });
    client.on('error', () => {}); // the server stopping at the end
    sessions.push(client);
    await client.connect();
    return client;
  };
  const rest = (call: Promise<{ status: number; headers: Answer['headers']; body: unknown }>) =>
    timed(call.then(({ status, headers, body }) => ({ status, headers, body })));
  const inject = (url: string, headers: Record<string, string> = {}) =>
    timed(
      t.app
        .inject({ method: 'GET', url, headers })
        .then((reply) => ({ status: reply.statusCode, headers: reply.headers, body: reply.json() })),
    );
  const dictionariesNamed = async (observer: pg.Client, names: string[]) =>
    (await rows(observer, 'select count(*)::int as n from dictionaries where name = any($1)', [names]))[0].n;
  /** Waits until no session but the observer's is working: whatever was going to commit has. */
  const settled = (observer: pg.Client) =>
    until(
      observer,
      `select count(*) = 0 as done from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid() and state <> 'idle'`,
      'the sessions to finish',
    );

  beforeAll(async () => {
    own = await startOwnPostgres();
    t = await buildTestApp({
      DATABASE_URL: own.url,
      // The product's defaults (src/config.ts), which test/helpers/app.ts raises for the other suites.
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DATABASE_ACQUIRE_TIMEOUT_MS: '3000',
    });
    sysadmin = await loginSysadmin(t.app);
  });
  afterAll(async () => {
    thaw();
    await Promise.all(sessions.map((client) => client.end().catch(() => {})));
    await t?.close();
    await own?.stop();
  });

  it('answers 503 within seconds and /ready within 2 s, commits no write answered 503, and recovers', async () => {
    const suffix = uniqueSuffix();
    const inFlight = `In flight ${suffix}`;
    const duringOutage = `During outage ${suffix}`;
    const observer = await session();
    const holder = await session();
    // Idle pooled connections, as a running server has: requests take them, not new ones.
    for (const reply of await Promise.all(Array.from({ length: 6 }, () => sysadmin.get('/dictionaries')))) {
      expect(reply.status).toBe(200);
    }

    // A write whose INSERT is on the server when it stops: it waits for the holder's lock.
    await rows(holder, 'begin');
    await rows(holder, 'lock table dictionaries in share mode');
    const firstWrite = rest(sysadmin.post('/dictionaries', { name: inFlight, languages: [] }));
    await until(
      observer,
      `select count(*) > 0 as done from pg_stat_activity where wait_event_type = 'Lock'`,
      'the write to wait for its lock',
    );

    await freeze();
    let answers: Record<string, Timed>;
    try {
      const [read, write, trpcRead, ready] = await Promise.all([
        rest(sysadmin.get('/dictionaries')),
        rest(sysadmin.post('/dictionaries', { name: duringOutage, languages: [] })),
        inject('/trpc/dictionaries.list', { 'x-auth-token': sysadmin.token! }),
        inject('/ready'),
      ]);
      answers = { inFlightWrite: await firstWrite, read, write, trpcRead, ready };
    } finally {
      thaw();
    }
    console.info(
      'answers while the database hangs:',
      Object.entries(answers)
        .map(
          ([name, { ms, answer }]) =>
            `${name} ${answer === 'no answer' ? answer : answer.status} in ${ms} ms`,
        )
        .join(', '),
    );

    for (const [name, { ms, answer }] of Object.entries(answers)) {
      expect(answer, name).not.toBe('no answer');
      expect(answer, name).toMatchObject({ status: 503 });
      expect(ms, name).toBeLessThan(name === 'ready' ? 2000 : STATEMENT_TIMEOUT_MS + 2000);
      if (name !== 'ready') expect((answer as Answer).headers['retry-after'], name).toBe('1');
    }
    for (const name of ['inFlightWrite', 'read', 'write']) {
      expect(answers[name]!.answer, name).toMatchObject({ body: { code: 'SERVICE_UNAVAILABLE' } });
    }
    expect(answers.ready!.answer).toMatchObject({
      body: { status: 'unavailable', database: 'timeout', reason: expect.any(String) },
    });

    // The database resumes; the holder lets the first write's INSERT through. Once every session has
    // done what it was going to do, neither write answered 503 has committed.
    await rows(holder, 'rollback');
    await settled(observer);
    expect(await dictionariesNamed(observer, [inFlight, duringOutage])).toBe(0);

    // Served normally again, new connections in place of the closed ones.
    const after = await sysadmin.get('/dictionaries');
    expect(after.status).toBe(200);
    expect(after.text).not.toContain(suffix);
    const created = await sysadmin.post('/dictionaries', { name: `After ${suffix}`, languages: [] });
    expect(created.status).toBe(201);
    expect((await inject('/ready')).answer).toMatchObject({ status: 200, body: { database: 'ok' } });
  }, 60_000);

  it('answers 504, not 503, to a write whose COMMIT went unanswered: that write may have committed', async () => {
    const name = `Unconfirmed ${uniqueSuffix()}`;
    const observer = await session();
    // A fresh session: its first requests write no "last used" time, whose commit would hang first.
    const caller = await loginSysadmin(t.app);
    // Every commit now waits for a synchronous standby that does not exist: the COMMIT of the request is
    // written locally, but never answered, as when the server's storage hangs while committing.
    await rows(observer, `alter system set synchronous_standby_names = 'nobody'`);
    await rows(observer, 'select pg_reload_conf()');
    try {
      await until(
        observer,
        `select current_setting('synchronous_standby_names') = 'nobody' as done`,
        'the reload',
      );
      const { ms, answer } = await rest(caller.post('/dictionaries', { name, languages: [] }));
      expect(answer).toMatchObject({ status: 504, body: { code: 'GATEWAY_TIMEOUT' } });
      expect((answer as Answer).headers['retry-after']).toBeUndefined();
      expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2000);
    } finally {
      await rows(observer, 'alter system reset synchronous_standby_names');
      await rows(observer, 'select pg_reload_conf()');
    }
    // It did commit: the reason a 503 must never answer it.
    await settled(observer);
    expect(await dictionariesNamed(observer, [name])).toBe(1);
    expect((await caller.get('/dictionaries')).status).toBe(200);
  }, 60_000);
});
