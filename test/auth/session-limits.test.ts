/**
 * maxConcurrentUsers counts the users who can still use their sessions: a session left open by an
 * account that was deactivated or has expired since holds no place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type LoginBody, loginSysadmin, RestClient } from '../helpers/rest.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const login = (client: string, user: { username: string; password: string }) =>
  new RestClient(t.app).call<LoginBody>('POST', '/login', {
    form: { client, username: user.username, password: user.password },
  });

describe('maxConcurrentUsers and accounts that can no longer be used', () => {
  it.each([
    ['deactivated', 'update users set active = false where id = ?'],
    ['expired', "update users set exp_date = now() - interval '1 minute' where id = ?"],
    ['deleted', 'update users set deleted = true where id = ?'],
  ])('a session of a %s account frees its place', async (_label, sql) => {
    const tenant = await createTenant(sysadmin, { maxConcurrentUsers: 1 });
    const first = await createUser(t.orm, tenant.id);
    const second = await createUser(t.orm, tenant.id);
    expect((await login(tenant.loginName, first)).status).toBe(200);
    expect((await login(tenant.loginName, second)).status).toBe(403);

    await t.orm.em.fork().getConnection().execute(sql, [first.id]);
    const admitted = await login(tenant.loginName, second);
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.body.token).not.toBeNull();
  });
});
