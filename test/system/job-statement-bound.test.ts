/**
 * Job tasks run statements far longer than a request may (TBX import, copy, reindex): they get their own
 * bound per statement (DATABASE_JOB_STATEMENT_TIMEOUT_MS), whatever request started them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_TIMEOUT } from '../../src/db/timeouts.js';
import { runAsJob } from '../../src/modules/jobs/job-runner.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('statement bounds of job tasks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      DATABASE_STATEMENT_TIMEOUT_MS: '200',
      DATABASE_JOB_STATEMENT_TIMEOUT_MS: '400',
    });
  });
  afterAll(() => t?.close());

  it('bounds a job statement by the job timeout, not the request one', async () => {
    const sleep = (em: TestApp['orm']['em'], seconds: number) => em.execute(`select pg_sleep(${seconds})`);
    await expect(sleep(t.orm.em.fork(), 0.3)).rejects.toMatchObject({ code: STATEMENT_TIMEOUT });

    const [admin] = await t.orm.em
      .fork()
      .execute<{ id: number; client_id: number }[]>(
        `select id, client_id from users where username = 'admin' order by id limit 1`,
      );
    const scope = {
      em: t.orm.em.fork(),
      actor: {
        userId: admin!.id,
        username: 'admin',
        fullName: null,
        clientId: admin!.client_id,
        homeClientId: admin!.client_id,
        roles: ['SYSADMIN'],
        sessionId: 0,
        guest: false,
        apiLogin: false,
      },
      config: t.config,
      log: t.app.log,
    };
    const slept = await runAsJob(scope, 'test.long-statement', async (em) => {
      await sleep(em, 0.3);
      return true;
    });
    expect(slept).toEqual({ body: { result: true }, finished: true });
    await expect(
      runAsJob(scope, 'test.too-long-statement', async (em) => {
        await sleep(em, 0.6);
        return true;
      }),
    ).rejects.toMatchObject({ code: STATEMENT_TIMEOUT });
  });
});
