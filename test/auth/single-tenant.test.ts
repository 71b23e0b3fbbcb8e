import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, type TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { type LoginBody, loginSysadmin, RestClient } from '../helpers/rest.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

interface Setup {
  t: TestApp;
  anonymous: RestClient;
  tenant: TestTenant;
  defaultClientId: number;
}

/** An app in the given mode with a tenant created by its system administrator. */
async function setUp(multiTenant: 'true' | 'false'): Promise<Setup> {
  const t = await buildTestApp({ MULTI_TENANT: multiTenant });
  const sysadmin = await loginSysadmin(t.app);
  const tenant = await createTenant(sysadmin);
  const [row] = (await t.orm.em
    .fork()
    .getConnection()
    .execute("select id from clients where login_name = 'admin' and not deleted")) as { id: number }[];
  return { t, anonymous: new RestClient(t.app), tenant, defaultClientId: row!.id };
}

const login = (setup: Setup, form: Record<string, string>) =>
  setup.anonymous.call<LoginBody>('POST', '/login', { form });

/** The client the session of a token belongs to. */
async function sessionClientId(setup: Setup, token: string): Promise<number | undefined> {
  const [row] = (await setup.t.orm.em
    .fork()
    .getConnection()
    .execute('select client_id from sessions where token_hash = ?', [sha256(token)])) as {
    client_id: number;
  }[];
  return row?.client_id;
}

describe('single-tenant installation (MULTI_TENANT=false)', () => {
  let single: Setup;
  beforeAll(async () => {
    single = await setUp('false');
  });
  afterAll(() => single.t.close());

  it("ignores the named client: the tenant administrator's credentials fail (401)", async () => {
    const response = await login(single, {
      client: single.tenant.loginName,
      username: 'admin',
      password: single.tenant.adminPassword,
    });
    expect(response.status).toBe(401);
    expect(response.body.token).toBeNull();
    expect(response.body.errorMessage).toEqual(expect.any(String));

    const user = await createUser(single.t.orm, single.tenant.id);
    const tenantUser = await login(single, {
      client: single.tenant.loginName,
      username: user.username,
      password: user.password,
    });
    expect(tenantUser.status).toBe(401);
  });

  it("logs the default client's users in whatever client is named", async () => {
    for (const client of [single.tenant.loginName, 'whatever']) {
      const response = await login(single, { client, username: 'admin', password: TEST_ADMIN_PASSWORD });
      expect(response.status, `client ${client}: ${response.text}`).toBe(200);
      const token = response.body.token!.token;
      expect(await sessionClientId(single, token)).toBe(single.defaultClientId);
    }
  });

  it('reports MULTIPLE_CLIENT false', async () => {
    const response = await single.anonymous.get<{ MULTIPLE_CLIENT: boolean }>('/system/features');
    expect(response.status).toBe(200);
    expect(response.body.MULTIPLE_CLIENT).toBe(false);
  });
});

describe('multi-tenant installation (MULTI_TENANT=true), for contrast', () => {
  let multi: Setup;
  beforeAll(async () => {
    multi = await setUp('true');
  });
  afterAll(() => multi.t.close());

  it("logs the tenant administrator into the tenant's client", async () => {
    const response = await login(multi, {
      client: multi.tenant.loginName,
      username: 'admin',
      password: multi.tenant.adminPassword,
    });
    expect(response.status, response.text).toBe(200);
    expect(await sessionClientId(multi, response.body.token!.token)).toBe(multi.tenant.id);
  });

  it('refuses the system administrator in a client that does not exist (401)', async () => {
    const response = await login(multi, {
      client: 'whatever',
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(response.status).toBe(401);
  });

  it('reports MULTIPLE_CLIENT true', async () => {
    const response = await multi.anonymous.get<{ MULTIPLE_CLIENT: boolean }>('/system/features');
    expect(response.body.MULTIPLE_CLIENT).toBe(true);
  });
});
