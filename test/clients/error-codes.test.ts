import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';

/** One refusal, one code on every surface (docs/api-conventions.md names them). */
let t: TestApp;
let sysadmin: RestClient;
let taken: string;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  taken = `taken${uniqueSuffix()}`;
  const created = await sysadmin.post('/users', { username: taken, password: 'taken-password' });
  expect(created.status, created.text).toBe(201);
});
afterAll(() => t?.close());

const headers = () => ({ 'content-type': 'application/json', 'x-auth-token': sysadmin.token! });

describe('a duplicate user name', () => {
  it('is UNPROCESSABLE (422) on REST, tRPC and GraphQL alike', async () => {
    const rest = await sysadmin.post<{ code: string }>('/users', {
      username: taken,
      password: 'other-password',
    });
    expect(rest.status).toBe(422);
    expect(rest.body.code).toBe('UNPROCESSABLE');

    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/users.create',
      headers: headers(),
      payload: { username: taken, password: 'other-password' },
    });
    expect(trpc.statusCode).toBe(422);
    const { error } = trpc.json() as { error: { data: { code: string; httpStatus: number } } };
    expect(error.data).toMatchObject({ code: 'UNPROCESSABLE', httpStatus: 422 });

    const graphql = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: headers(),
      payload: {
        query:
          'mutation ($u: String!) { createUser(input: { username: $u, password: "other-password" }) { id } }',
        variables: { u: taken },
      },
    });
    const { errors } = graphql.json() as { errors: Array<{ extensions: { code: string } }> };
    expect(errors[0]?.extensions.code).toBe('UNPROCESSABLE');
  });
});
