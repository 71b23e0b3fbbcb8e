// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failAbandonedJobs, JobHeartbeat } from '../../src/modules/jobs/job-heartbeat.js';
import { runAsJob } from '../../src/modules/jobs/job-runner.js';
import { createTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createView,
  type DictionaryBody,
  type ErrorBody,
  expectError,
  type InvocationResultBody,
  type JobBody,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  rows,
  uniqueSuffix,
  waitForJob,
} from '../helpers/structure.js';

/** Concepts (each with one term) in the big dictionary: enough for a copy to outlast a 1 ms threshold. */
const BIG = 3000;

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  // Every async-capable call waits at most 1 ms before answering with its job task id.
  t = await buildTestApp({ ASYNC_THRESHOLD_MS: '1' });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

/** A dictionary with BIG concepts and BIG eng;US terms, written with set-based INSERTs for speed. */
async function bigDictionary(admin: RestClient, clientId: number): Promise<DictionaryBody> {
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng', variants: [{ type: 0, code: 'US' }] }, { code: 'fra' }],
    conceptFields: [{ name: 'Definition', fieldType: 'MULTILINE' }],
  });
  const fieldOid = dictionary.conceptFields[0]!.oid!;
  await rows(
    t,
    `insert into concepts (client_id, dictionary_id, section_id, cid, field_map, created_at, changed_at)
     select ?, ?, ?, 'c' || g, jsonb_build_object(?::text, jsonb_build_array('definition ' || g)), now(), now()
       from generate_series(1, ?) g`,
    [clientId, dictionary.id, dictionary.allSections[0]!.id, fieldOid, BIG],
  );
  await rows(
    t,
    `insert into terms (client_id, dictionary_id, concept_id, name, language_code, region_code, tid, field_map, created_at, changed_at)
     select client_id, dictionary_id, id, 'term ' || cid, 'eng', 'US', row_number() over (order by id), '{}'::jsonb, now(), now()
       from concepts where dictionary_id = ?`,
    [dictionary.id],
  );
  return dictionary;
}

/** The id of a client's administrator `admin`. */
const adminIdOf = async (app: TestApp, clientId: number) =>
  (
    await app.orm.em
      .fork()
      .getConnection()
      .execute<{ id: number }[]>(`select id from users where client_id = ? and username = 'admin'`, [
        clientId,
      ])
  )[0]!.id;

/** The domain scope of a client's administrator, for calling runAsJob directly. */
async function adminScope(app: TestApp, clientId: number) {
  return {
    em: app.orm.em.fork(),
    actor: {
      userId: await adminIdOf(app, clientId),
      username: 'admin',
      fullName: null,
      clientId,
      homeClientId: clientId,
      roles: ['ADMIN'],
      sessionId: 0,
      guest: false,
      apiLogin: false,
    },
    config: app.config,
    log: app.app.log,
  };
}

const listJobs = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<JobBody> & ErrorBody>(`/jobs${query(params)}`);

/** Expects the 202 answer of a call that went asynchronous and returns its job task id. */
function jobTaskIdOf(response: { status: number; text: string; body: InvocationResultBody }): number {
  expect(response.status, response.text).toBe(202);
  expect(response.body.result).toBeUndefined();
  expect(response.body.jobTaskId).toEqual(expect.any(Number));
  return response.body.jobTaskId!;
}

describe('the async threshold', () => {
  it('a copy with data that outlasts the threshold answers 202 with jobTaskId; the job ends DONE with the new id', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const adminId = await adminIdOf(t, tenant.id);
    const source = await bigDictionary(admin, tenant.id);
    const startedAt = Date.now();

    const response = await admin.post<InvocationResultBody>(`/dictionaries/copy/${source.id}?copy-data=true`);
    const jobId = jobTaskIdOf(response);

    const running = await admin.get<JobBody>(`/jobs/${jobId}`);
    expect(running.status, running.text).toBe(200);
    expect(['RUNNING', 'DONE']).toContain(running.body.status);

    const job = await waitForJob(admin, jobId);
    expect(job).toMatchObject({
      id: jobId,
      type: 'dictionaries.copy',
      status: 'DONE',
      message: null,
      userId: adminId,
      clientId: tenant.id,
    });
    expect(job.result).toEqual(expect.any(Number));
    expect(job.created).toBeGreaterThanOrEqual(startedAt - 5000);
    expect(job.finished).toEqual(expect.any(Number));
    expect(job.finished!).toBeGreaterThanOrEqual(job.created);

    const target = await admin.get<DictionaryBody>(`/dictionaries/${job.result}`);
    expect(target.status, target.text).toBe(200);
    expect(target.body.name).toBe(`Copy of ${source.name}`);
    expect(target.body.concepts).toBe(BIG);
    expect(await rows(t, 'select id from terms where dictionary_id = ?', [job.result])).toHaveLength(BIG);
    const newField = target.body.conceptFields[0]!.oid!;
    const sample = await rows<{ field_map: Record<string, string[]> }>(
      t,
      `select field_map from concepts where dictionary_id = ? and cid = 'c42'`,
      [job.result],
    );
    expect(sample[0]!.field_map).toEqual({ [newField]: ['definition 42'] });

    // The finished job stays readable, unchanged.
    expect((await admin.get<JobBody>(`/jobs/${jobId}`)).body).toEqual(job);
  });

  it('language replace, empty and async delete also answer 202 and report their result through the job', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const dictionary = await bigDictionary(admin, tenant.id);

    const replaced = await admin.post<InvocationResultBody>(
      `/dictionaries/language-replace${query({ 'dictionary-id': dictionary.id, 'from-id': 'eng;US', 'to-id': 'fra' })}`,
    );
    const replaceJob = await waitForJob(admin, jobTaskIdOf(replaced));
    expect(replaceJob).toMatchObject({ type: 'dictionaries.language-replace', status: 'DONE', result: BIG });
    expect(
      await rows(t, `select id from terms where dictionary_id = ? and language_code = 'fra'`, [
        dictionary.id,
      ]),
    ).toHaveLength(BIG);

    const emptied = await admin.post<InvocationResultBody>(`/dictionaries/empty/${dictionary.id}`);
    const emptyJob = await waitForJob(admin, jobTaskIdOf(emptied));
    expect(emptyJob).toMatchObject({ type: 'dictionaries.empty', status: 'DONE', result: true });
    expect(await rows(t, 'select id from concepts where dictionary_id = ?', [dictionary.id])).toHaveLength(0);

    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createView(admin, dictionary.id)).id);
    const deleted = await admin.delete<InvocationResultBody>(`/views/async/${ids.join(',')}`);
    const deleteJob = await waitForJob(admin, jobTaskIdOf(deleted));
    expect(deleteJob).toMatchObject({ type: 'views.delete', status: 'DONE' });
    expect(deleteJob.result).toEqual(Object.fromEntries(ids.map((id) => [String(id), true])));
  });

  it('an explicit copy name that is taken is 422 even when the copy would go asynchronous; no job result, no dictionary', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const source = await bigDictionary(admin, tenant.id);
    const before = await rows(t, 'select id from dictionaries where client_id = ?', [tenant.id]);

    const response = await admin.post<InvocationResultBody & ErrorBody>(
      `/dictionaries/copy/${source.id}${query({ name: source.name.toUpperCase(), 'copy-data': true })}`,
    );
    // Wait for whatever job the call started before looking at the outcome.
    for (const job of (await listJobs(admin)).body.content) await waitForJob(admin, job.id);
    expectError(response, 422);
    expect(await rows(t, 'select id from dictionaries where client_id = ?', [tenant.id])).toEqual(before);
  });

  it('a job whose work fails ends FAILED with its message, finished time and no result', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const adminId = await adminIdOf(t, tenant.id);
    const scope = await adminScope(t, tenant.id);

    // Past the threshold: the caller gets the job id, the job fails later.
    const outcome = await runAsJob(scope, 'test.failing', async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('the disk is full');
    });
    expect(outcome.finished).toBe(false);
    expect(outcome.body).toEqual({ jobTaskId: expect.any(Number) });
    const job = await waitForJob(admin, outcome.body.jobTaskId!);
    expect(job).toMatchObject({
      type: 'test.failing',
      status: 'FAILED',
      message: 'the disk is full',
      result: null,
      userId: adminId,
      clientId: tenant.id,
    });
    expect(job.finished).toEqual(expect.any(Number));
    expect((await listJobs(admin, { status: 'FAILED' })).body.content.map((j) => j.id)).toEqual([job.id]);
    expect((await listJobs(admin, { status: 'DONE' })).body.totalElements).toBe(0);

    // Within the threshold (the default 15 s app): the caller gets the error itself, the job is FAILED too.
    const quick = await buildTestApp();
    try {
      const error = await runAsJob(
        { ...scope, em: quick.orm.em.fork(), config: quick.config },
        'test.quick',
        async () => {
          throw new Error('refused at once');
        },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe('refused at once');
    } finally {
      await quick.close();
    }
    const quickJob = (await listJobs(admin)).body.content.find((j) => j.type === 'test.quick');
    expect(quickJob).toMatchObject({ status: 'FAILED', message: 'refused at once', result: null });
  });
});

describe('who sees which job', () => {
  it('GET /jobs lists the caller’s jobs newest first; other users’ jobs are 404; the client admin sees all with all-users=true', async () => {
    const world = await newTenant(t, sysadmin);
    const { admin, tenant } = world;
    const dictionary = await createDictionary(admin);
    const a = await loggedInUser(t, tenant);
    const b = await loggedInUser(t, tenant);

    // A deletes two of its filters (one job), then one more (a second job).
    const filterIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await a.rest.post<{ id: number }>('/filters', {
        name: `Filter ${uniqueSuffix()}`,
        dictionaryId: dictionary.id,
      });
      expect(created.status, created.text).toBe(201);
      filterIds.push(created.body.id);
    }
    const first = await a.rest.delete<InvocationResultBody>(`/filters/async/${filterIds[0]},${filterIds[1]}`);
    expect([200, 202]).toContain(first.status);
    const second = await a.rest.delete<InvocationResultBody>(`/filters/async/${filterIds[2]}`);
    expect([200, 202]).toContain(second.status);
    // The administrator runs a job of its own.
    const reindex = await admin.post<InvocationResultBody>(`/dictionaries/reindex/${dictionary.id}`);
    expect([200, 202]).toContain(reindex.status);

    const aJobs = await listJobs(a.rest);
    expect(aJobs.status, aJobs.text).toBe(200);
    expect(aJobs.body.totalElements).toBe(2);
    expect(aJobs.body.content.map((job) => job.type)).toEqual(['filters.delete', 'filters.delete']);
    for (const job of aJobs.body.content) expect(job.userId).toBe(a.id);
    const [newer, older] = aJobs.body.content;
    expect(newer!.id).toBeGreaterThan(older!.id);
    const olderDone = await waitForJob(a.rest, older!.id);
    expect(olderDone.result).toEqual({ [filterIds[0]!]: true, [filterIds[1]!]: true });
    const newerDone = await waitForJob(a.rest, newer!.id);
    expect(newerDone.result).toEqual({ [filterIds[2]!]: true });
    const adminJob = (await listJobs(admin)).body.content;
    expect(adminJob.map((job) => job.type)).toEqual(['dictionaries.reindex']);
    await waitForJob(admin, adminJob[0]!.id);

    // Paging and the status filter.
    const page = await listJobs(a.rest, { size: 1, page: 1 });
    expect(page.body).toMatchObject({ totalElements: 2, numberOfElements: 1, number: 1 });
    expect(page.body.content[0]!.id).toBe(older!.id);
    expect((await listJobs(a.rest, { status: 'DONE' })).body.totalElements).toBe(2);
    expect((await listJobs(a.rest, { status: 'FAILED' })).body.totalElements).toBe(0);

    // B sees none of them; all-users changes nothing for a non-administrator.
    expect((await listJobs(b.rest)).body.totalElements).toBe(0);
    expect((await listJobs(b.rest, { 'all-users': true })).body.totalElements).toBe(0);
    expect((await listJobs(a.rest, { 'all-users': true })).body.totalElements).toBe(2);
    expectError(await b.rest.get(`/jobs/${older!.id}`), 404);
    expectError(await a.rest.get(`/jobs/${adminJob[0]!.id}`), 404);

    // The client administrator: own jobs by default, every user's with all-users=true, any by id.
    expect((await listJobs(admin)).body.totalElements).toBe(1);
    const all = await listJobs(admin, { 'all-users': true });
    expect(all.body.totalElements).toBe(3);
    expect(new Set(all.body.content.map((job) => job.userId))).toEqual(new Set([a.id, adminJob[0]!.userId]));
    expect((await admin.get<JobBody>(`/jobs/${older!.id}`)).body).toEqual(olderDone);

    // Another client's administrator sees nothing of this client.
    const other = await newTenant(t, sysadmin);
    expectError(await other.admin.get(`/jobs/${older!.id}`), 404);
    expect((await listJobs(other.admin, { 'all-users': true })).body.totalElements).toBe(0);
    expectError(await admin.get('/jobs/999999999'), 404);
  });
});

describe('jobs whose server stopped', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    // failAbandonedJobs looks at every RUNNING job of the installation: a database of its own.
    db = await isolatedDatabase();
  });
  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await db.drop();
  });

  /**
   * Jobs as servers leave them: `running` lost its server ten minutes ago (no heartbeat since its
   * creation), `stale` had a heartbeat three minutes ago, `alive` belongs to another live instance (an old
   * job with a fresh heartbeat), `done` finished.
   */
  async function seed(app: TestApp) {
    const admin = await loginSysadmin(app.app);
    const tenant = await createTenant(admin);
    const adminId = await adminIdOf(app, tenant.id);
    const insert = async (status: string, heartbeat: string, extra = '') =>
      (
        await app.orm.em
          .fork()
          .getConnection()
          .execute<{ id: number }[]>(
            `insert into job_tasks (client_id, user_id, type, status, created_at, heartbeat_at${extra ? ', result, finished_at' : ''})
             values (?, ?, 'dictionaries.copy', ?, now() - interval '10 minutes', ${heartbeat}${extra}) returning id`,
            [tenant.id, adminId, status],
          )
      )[0]!.id;
    return {
      tenant,
      running: await insert('RUNNING', 'null'),
      stale: await insert('RUNNING', "now() - interval '3 minutes'"),
      alive: await insert('RUNNING', "now() - interval '10 seconds'"),
      done: await insert('DONE', 'null', `, '42'::jsonb, now()`),
    };
  }

  const statusOf = async (app: TestApp, id: number) =>
    (
      await app.orm.em
        .fork()
        .getConnection()
        .execute<
          { status: string; message: string | null; finished_at: Date | null; heartbeat_at: Date | null }[]
        >('select status, message, finished_at, heartbeat_at from job_tasks where id = ?', [id])
    )[0]!;

  it('failAbandonedJobs fails RUNNING jobs whose heartbeat stopped; a job another server keeps alive and finished jobs stay', async () => {
    const app = await buildTestApp({ DATABASE_URL: db.url });
    try {
      const { running, stale, alive, done } = await seed(app);
      expect(await failAbandonedJobs(app.orm.em.fork())).toBe(2);
      for (const id of [running, stale]) {
        const failed = await statusOf(app, id);
        expect(failed.status).toBe('FAILED');
        expect(failed.message).toMatch(/server running it stopped/);
        expect(failed.finished_at).not.toBeNull();
      }
      expect((await statusOf(app, alive)).status).toBe('RUNNING');
      expect((await statusOf(app, done)).status).toBe('DONE');
      // Run again, nothing more is abandoned.
      expect(await failAbandonedJobs(app.orm.em.fork())).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("a server's heartbeat keeps its running job alive however old, until the job ends; then it stops touching it", async () => {
    const app = await buildTestApp({ DATABASE_URL: db.url, ASYNC_THRESHOLD_MS: '1' });
    const heartbeat = new JobHeartbeat(app.orm, app.app.log);
    try {
      const admin = await loginSysadmin(app.app);
      const tenant = await createTenant(admin);
      const scope = await adminScope(app, tenant.id);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const outcome = await runAsJob(scope, 'test.slow', async () => {
        await gate;
        return 7;
      });
      const jobId = outcome.body.jobTaskId!;
      expect(outcome.finished).toBe(false);
      const age = async (minutes: number) =>
        app.orm.em
          .fork()
          .getConnection()
          .execute(
            `update job_tasks set created_at = now() - make_interval(mins => ?), heartbeat_at = now() - make_interval(mins => ?) where id = ?`,
            [minutes, minutes, jobId],
          );
      // As if its last beat were long ago: the next beat refreshes it before looking for abandoned jobs.
      await age(10);
      await heartbeat.beat();
      const beaten = await statusOf(app, jobId);
      expect(beaten.status).toBe('RUNNING');
      expect(Date.now() - new Date(beaten.heartbeat_at!).getTime()).toBeLessThan(60_000);

      release();
      const deadline = Date.now() + 10_000;
      while ((await statusOf(app, jobId)).status === 'RUNNING' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const finished = await statusOf(app, jobId);
      expect(finished.status).toBe('DONE');
      // An ended job is no longer this server's: its heartbeat stays where it was.
      await age(10);
      await heartbeat.beat();
      const after = await statusOf(app, jobId);
      expect(after.status).toBe('DONE');
      expect(Date.now() - new Date(after.heartbeat_at!).getTime()).toBeGreaterThan(9 * 60_000);
    } finally {
      await heartbeat.close();
      await app.close();
    }
  });

  it('a server start fails the jobs a stopped server left RUNNING, not those another server keeps alive; GET /jobs/{id} reports FAILED with the message', async () => {
    let app = await buildTestApp({ DATABASE_URL: db.url });
    const { tenant, running, alive, done } = await seed(app);
    await app.close();

    // The real entry point, as a deployment starts it.
    const root = fileURLToPath(new URL('../..', import.meta.url));
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      // Only what a deployment would set (the test runner's own variables, e.g. BASE_URL=/, stay out).
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: db.url,
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        MULTI_TENANT: 'true',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    server.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows: found } = await probe.query('select status from job_tasks where id = $1', [running]);
        if (found[0]?.status !== 'RUNNING') break;
        if (server.exitCode !== null) throw new Error(`server exited early (${server.exitCode}): ${output}`);
        if (Date.now() > deadline)
          throw new Error(`job still RUNNING 60 s after the server start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await probe.end();
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }

    app = await buildTestApp({ DATABASE_URL: db.url });
    try {
      const clientAdmin = await loginRest(app.app, 'admin', tenant.adminPassword, tenant.loginName);
      const failed = await clientAdmin.get<JobBody>(`/jobs/${running}`);
      expect(failed.status, failed.text).toBe(200);
      expect(failed.body).toMatchObject({ id: running, status: 'FAILED', result: null });
      expect(failed.body.message).toMatch(/restart/i);
      expect(failed.body.finished).toEqual(expect.any(Number));
      expect((await clientAdmin.get<JobBody>(`/jobs/${alive}`)).body).toMatchObject({ status: 'RUNNING' });
      expect((await clientAdmin.get<JobBody>(`/jobs/${done}`)).body).toMatchObject({
        status: 'DONE',
        result: 42,
      });
      const listed = await clientAdmin.get<PageBody<JobBody>>('/jobs?status=FAILED');
      expect(listed.body.content.map((job) => job.id)).toContain(running);
    } finally {
      await app.close();
    }
  }, 120_000); // starts the real entry point through tsx: slow on a loaded machine
});
