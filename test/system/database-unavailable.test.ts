/**
 * A database that cannot take a request answers 503 SERVICE_UNAVAILABLE with Retry-After on every
 * surface, never a 500, and loses nothing. The pool here lends one connection and waits 300 ms for it;
 * the test holds that connection, so every request finds the pool exhausted, as under overload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { openOrm } from '../../src/db/orm.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { uniqueSuffix } from '../helpers/structure.js';

interface PooledConnection {
  query(text: string): Promise<unknown>;
}
interface KnexPool {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
}

const UNAVAILABLE = {
  code: 'SERVICE_UNAVAILABLE',
  message: 'The database is busy or unreachable; retry shortly',
};

describe('database unavailable', () => {
  let t: TestApp;
  let sysadmin: RestClient;
  let pool: KnexPool;
  let held: PooledConnection | null = null;

  beforeAll(async () => {
    t = await buildTestApp({}, { pool: { min: 0, max: 1, acquireTimeoutMillis: 300 } });
    sysadmin = await loginSysadmin(t.app);
    pool = t.orm.em.getConnection().getKnex().client as unknown as KnexPool;
  });
  afterAll(async () => {
    if (held) await pool.releaseConnection(held);
    await t?.close();
  });

  const exhausted = async <T>(work: () => Promise<T>): Promise<T> => {
    held = await pool.acquireConnection();
    try {
      return await work();
    } finally {
      await pool.releaseConnection(held);
      held = null;
    }
  };

  it('answers 503 with Retry-After on REST, the direct search path and raw routes, and recovers', async () => {
    const name = `Unavailable ${uniqueSuffix()}`;
    const [list, create, search, download] = await exhausted(async () => [
      await sysadmin.get('/dictionaries'),
      await sysadmin.post('/dictionaries', { name, languages: [] }),
      await sysadmin.post('/terms/search', {
        dictionaryIds: [1],
        langCode: 'eng',
        sectionOids: [],
        name: 'x',
      }),
      await sysadmin.get('/dictionaries/export-tbx/1'),
    ]);
    for (const response of [list, create, search, download]) {
      expect(response.status).toBe(503);
      expect(response.body).toEqual(UNAVAILABLE);
      expect(response.headers['retry-after']).toBe('1');
    }
    // The connection back, the same calls work, and the refused write left nothing behind.
    const after = await sysadmin.get('/dictionaries');
    expect(after.status).toBe(200);
    expect(after.text).not.toContain(name);
  });

  it('answers 503 on tRPC and SERVICE_UNAVAILABLE in GraphQL errors', async () => {
    const headers = { 'x-auth-token': sysadmin.token! };
    const [trpc, graphql] = await exhausted(async () => [
      await t.app.inject({ method: 'GET', url: '/trpc/dictionaries.list', headers }),
      await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ query: '{ dictionaries { totalElements } }' }),
      }),
    ]);
    expect(trpc.statusCode).toBe(503);
    expect(trpc.json()).toMatchObject({ error: { message: UNAVAILABLE.message } });
    expect(trpc.json().error.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 503 });
    const body = graphql.json() as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(body.errors?.[0]).toMatchObject({
      message: UNAVAILABLE.message,
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
    // GraphQL answers 200 with errors, but a client's retry logic still reads the wait from the header.
    expect(trpc.headers['retry-after']).toBe('1');
    expect(graphql.headers['retry-after']).toBe('1');
  });

  it('recognizes a refused connection and a pool timeout, not other errors', async () => {
    // MikroORM connects on start: the refusal comes from there or from the first statement.
    const refused = await openOrm('postgres://nobody@127.0.0.1:1/none', {
      pool: { min: 0, max: 1, acquireTimeoutMillis: 2000 },
    }).then(
      async (orm) => {
        try {
          await orm.em.fork().execute('select 1');
          return null;
        } catch (error) {
          return error;
        } finally {
          await orm.close(true);
        }
      },
      (error: unknown) => error,
    );
    expect(refused).not.toBeNull();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    const timedOut = await exhausted(() =>
      t.orm.em
        .fork()
        .execute('select 1')
        .then(
          () => null,
          (error: unknown) => error,
        ),
    );
    expect(isDatabaseUnavailable(timedOut)).toBe(true);
    const syntax = await t.orm.em
      .fork()
      .execute('select from nowhere at all')
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(syntax).not.toBeNull();
    expect(isDatabaseUnavailable(syntax)).toBe(false);
  });
});
