// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultClient } from '../../src/modules/system/bootstrap.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { type LoginBody, loginSysadmin, RestClient, type RestResponse } from '../helpers/rest.js';

const SESSION_TIMEOUT_S = 600;

let t: TestApp;
let anonymous: RestClient;
let sysadmin: RestClient;
let tenant: TestTenant;
let defaultClientId: number;

beforeAll(async () => {
  t = await buildTestApp({ SESSION_TIMEOUT: String(SESSION_TIMEOUT_S) });
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
  tenant = await createTenant(sysadmin);
  const [row] = await sql<{ id: number }>(
    "select id from clients where login_name = 'admin' and not deleted",
  );
  defaultClientId = row!.id;
});
afterAll(() => t.close());

interface ErrorBody {
  code: string;
  message: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
}

const login = (form: Record<string, string>) => anonymous.call<LoginBody>('POST', '/login', { form });

/** Logs in and returns the token, the login body and the JSESSIONID value. */
async function loginOk(form: Record<string, string>) {
  const response = await login(form);
  expect(response.status, response.text).toBe(200);
  const body = response.body;
  expect(body.token).not.toBeNull();
  return {
    token: body.token!.token,
    expirationTime: body.token!.expirationTime,
    cookie: sessionCookie(response),
  };
}

/** A fresh user of the test tenant, logged in: its ids and password plus the login's token and cookie. */
async function loginNewUser() {
  const user = await createUser(t.orm, tenant.id);
  const session = await loginOk({
    client: tenant.loginName,
    username: user.username,
    password: user.password,
  });
  return { user, ...session };
}

function setCookies(response: RestResponse): string[] {
  const header = response.headers['set-cookie'];
  if (header === undefined) return [];
  return (Array.isArray(header) ? header : [String(header)]).map(String);
}

function sessionCookie(response: RestResponse): string | undefined {
  const cookie = setCookies(response).find((value) => value.startsWith('JSESSIONID='));
  if (cookie === undefined) return undefined;
  return cookie.split(';')[0]?.slice('JSESSIONID='.length);
}

async function sessionRow(token: string) {
  const [row] = await sql<{
    id: number;
    cookie_hash: string;
    language: string;
    expires_ms: string;
    ended_at: Date | null;
  }>(
    'select id, cookie_hash, language, extract(epoch from expires_at) * 1000 as expires_ms, ended_at from sessions where token_hash = ?',
    [sha256(token)],
  );
  return row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('POST /login', () => {
  it('answers a token valid for SESSION_TIMEOUT seconds and sets an HttpOnly JSESSIONID cookie on path /', async () => {
    const user = await createUser(t.orm, tenant.id);
    const before = Date.now();
    const response = await login({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
      language: 'deu',
    });
    const after = Date.now();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: { token: expect.any(String), expirationTime: expect.any(Number) },
      errorMessage: null,
    });
    const { token, expirationTime } = response.body.token!;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(expirationTime).toBeGreaterThanOrEqual(before + SESSION_TIMEOUT_S * 1000 - 1000);
    expect(expirationTime).toBeLessThanOrEqual(after + SESSION_TIMEOUT_S * 1000 + 1000);

    const cookie = setCookies(response).find((value) => value.startsWith('JSESSIONID='));
    expect(cookie).toBeDefined();
    const attributes = cookie!.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('path=/');
    const cookieValue = sessionCookie(response)!;
    expect(cookieValue.length).toBeGreaterThanOrEqual(32);
    expect(cookieValue).not.toBe(token);

    // The token works, and the requested language is kept with the session.
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    expect((await sessionRow(token))?.language).toBe('deu');
  });

  it('defaults the language to eng', async () => {
    const { token } = await loginNewUser();
    expect((await sessionRow(token))?.language).toBe('eng');
  });

  it('accepts a JSON body as well', async () => {
    const user = await createUser(t.orm, tenant.id);
    const response = await anonymous.call<LoginBody>('POST', '/login', {
      json: { client: tenant.loginName, username: user.username, password: user.password },
    });
    expect(response.status).toBe(200);
    expect(response.body.errorMessage).toBeNull();
    expect(sessionCookie(response)).toBeDefined();
    const token = response.body.token!.token;
    expect((await anonymous.withToken(token).get<{ tokenValid: boolean }>('/validate')).body).toEqual({
      tokenValid: true,
    });
  });

  it('uses the default client "admin" when no client is given', async () => {
    // The sysadmin of the default client.
    await loginOk({ username: 'admin', password: TEST_ADMIN_PASSWORD });
    // A user of the default client logs in without naming it...
    const inDefault = await createUser(t.orm, defaultClientId);
    await loginOk({ username: inDefault.username, password: inDefault.password });
    // ...while a user of another client must name its client.
    const inTenant = await createUser(t.orm, tenant.id);
    expect((await login({ username: inTenant.username, password: inTenant.password })).status).toBe(401);
    expect(
      (await login({ client: '  ', username: inTenant.username, password: inTenant.password })).status,
    ).toBe(401);
  });

  it('matches the client login name and the username ignoring case', async () => {
    const user = await createUser(t.orm, tenant.id, { username: `MixedCase${uniqueSuffix()}` });
    const { token } = await loginOk({
      client: tenant.loginName.toUpperCase(),
      username: user.username.toLowerCase(),
      password: user.password,
    });
    const [row] = await sql<{ user_id: number; client_id: number }>(
      'select user_id, client_id from sessions where token_hash = ?',
      [sha256(token)],
    );
    expect(row).toEqual({ user_id: user.id, client_id: tenant.id });
    await loginOk({
      client: tenant.loginName,
      username: user.username.toUpperCase(),
      password: user.password,
    });
  });

  it('treats LIKE wildcards in client and username literally', async () => {
    const user = await createUser(t.orm, tenant.id);
    const wildClient = `${tenant.loginName.slice(0, -1)}_`;
    const wildUser = `${user.username.slice(0, -1)}_`;
    expect(
      (await login({ client: wildClient, username: user.username, password: user.password })).status,
    ).toBe(401);
    expect(
      (await login({ client: tenant.loginName, username: wildUser, password: user.password })).status,
    ).toBe(401);
    expect((await login({ client: tenant.loginName, username: '%', password: user.password })).status).toBe(
      401,
    );
  });

  it('answers 401 with one message for every failure, without a token or cookie', async () => {
    const good = await createUser(t.orm, tenant.id);
    const inactive = await createUser(t.orm, tenant.id, { active: false });
    const expired = await createUser(t.orm, tenant.id, { expDate: new Date(Date.now() - 60_000) });
    const notYetExpired = await createUser(t.orm, tenant.id, { expDate: new Date(Date.now() + 3_600_000) });
    const deleted = await createUser(t.orm, tenant.id);
    await sql('update users set deleted = true, deleted_at = now() where id = ?', [deleted.id]);

    const closedTenant = await createTenant(sysadmin);
    const inClosed = await createUser(t.orm, closedTenant.id);
    await loginOk({
      client: closedTenant.loginName,
      username: inClosed.username,
      password: inClosed.password,
    });
    const deactivate = await sysadmin.put<{ active: boolean }>(`/clients/partial/${closedTenant.id}`, {
      active: false,
      version: closedTenant.version,
    });
    expect(deactivate.status, deactivate.text).toBe(200);
    expect(deactivate.body.active).toBe(false);

    // Controls: the same users log in when nothing is wrong.
    await loginOk({ client: tenant.loginName, username: good.username, password: good.password });
    await loginOk({
      client: tenant.loginName,
      username: notYetExpired.username,
      password: notYetExpired.password,
    });

    const failures: Record<string, Record<string, string>> = {
      'wrong password': { client: tenant.loginName, username: good.username, password: `${good.password}x` },
      'unknown user': {
        client: tenant.loginName,
        username: `nobody${uniqueSuffix()}`,
        password: good.password,
      },
      'unknown client': {
        client: `noclient${uniqueSuffix()}`,
        username: good.username,
        password: good.password,
      },
      'user of another client': { client: 'admin', username: good.username, password: good.password },
      'inactive user': { client: tenant.loginName, username: inactive.username, password: inactive.password },
      'expired user': { client: tenant.loginName, username: expired.username, password: expired.password },
      'deleted user': { client: tenant.loginName, username: deleted.username, password: deleted.password },
      'user of an inactive client': {
        client: closedTenant.loginName,
        username: inClosed.username,
        password: inClosed.password,
      },
      'administrator of an inactive client': {
        client: closedTenant.loginName,
        username: 'admin',
        password: closedTenant.adminPassword,
      },
    };
    const messages = new Set<string | null>();
    for (const [reason, form] of Object.entries(failures)) {
      const response = await login(form);
      expect(response.status, reason).toBe(401);
      expect(response.body.token, reason).toBeNull();
      expect(typeof response.body.errorMessage, reason).toBe('string');
      expect(response.body.errorMessage!.length, reason).toBeGreaterThan(0);
      expect(setCookies(response), reason).toEqual([]);
      messages.add(response.body.errorMessage);
    }
    expect(messages.size).toBe(1);
  });

  it('ignores spaces around the username', async () => {
    const user = await createUser(t.orm, tenant.id);
    const response = await login({
      client: tenant.loginName,
      username: `  ${user.username} `,
      password: user.password,
    });
    expect(response.status).toBe(200);
    expect(response.body.token).not.toBeNull();
  });

  it('answers 400 with a JSON error when the username is missing', async () => {
    const response = await anonymous.call<ErrorBody>('POST', '/login', {
      form: { client: tenant.loginName, password: 'whatever' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect(response.body.message.length).toBeGreaterThan(0);
    expect(setCookies(response)).toEqual([]);
  });
});

describe('stored secrets', () => {
  it('keeps only SHA-256 hashes of the token and the cookie in the sessions table', async () => {
    const { token, cookie } = await loginNewUser();
    const [row] = await sql<{ token_hash: string; cookie_hash: string; whole: string }>(
      'select token_hash, cookie_hash, to_jsonb(s)::text as whole from sessions s where token_hash = ?',
      [sha256(token)],
    );
    expect(row).toBeDefined();
    expect(row!.token_hash).toBe(sha256(token));
    expect(row!.cookie_hash).toBe(sha256(cookie!));
    expect(row!.whole).not.toContain(token);
    expect(row!.whole).not.toContain(cookie!);
    const [clear] = await sql<{ n: number }>(
      'select count(*)::int as n from sessions s where strpos(to_jsonb(s)::text, ?) > 0 or strpos(to_jsonb(s)::text, ?) > 0',
      [token, cookie],
    );
    expect(clear!.n).toBe(0);
  });

  it('stores passwords as argon2id hashes', async () => {
    const user = await createUser(t.orm, tenant.id);
    const rows = await sql<{ password_hash: string }>(
      "select password_hash from users where id = ? or (client_id = ? and username = 'admin')",
      [user.id, defaultClientId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(row.password_hash).not.toContain(user.password);
      expect(row.password_hash).not.toContain(TEST_ADMIN_PASSWORD);
    }
    // The tenant administrator created through the API is hashed the same way.
    const [admin] = await sql<{ password_hash: string }>(
      "select password_hash from users where client_id = ? and username = 'admin'",
      [tenant.id],
    );
    expect(admin!.password_hash.startsWith('$argon2id$')).toBe(true);
  });
});

describe('token checks on authed calls', () => {
  it('answers 401 with a JSON error without X-Auth-Token', async () => {
    const response = await anonymous.get<ErrorBody>('/clients');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('answers 401 for a garbage token', async () => {
    for (const garbage of ['garbage', sha256('x'), 'a'.repeat(43)]) {
      const response = await anonymous.withToken(garbage).get<ErrorBody>('/clients');
      expect(response.status, garbage).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('does not accept the token hash in place of the token', async () => {
    const { token } = await loginNewUser();
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    expect((await anonymous.withToken(sha256(token)).get('/clients')).status).toBe(401);
  });
});

describe('GET /validate', () => {
  it('says true for a live token and false for an unknown one', async () => {
    const { token } = await loginNewUser();
    const valid = await anonymous.withToken(token).get<{ tokenValid: boolean }>('/validate');
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ tokenValid: true });
    const unknown = await anonymous
      .withToken(`unknown-${uniqueSuffix()}`)
      .get<{ tokenValid: boolean }>('/validate');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ tokenValid: false });
  });

  it('answers 401 without X-Auth-Token', async () => {
    const response = await anonymous.get<ErrorBody>('/validate');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});

describe('POST /extend-session', () => {
  it('pushes the expiry SESSION_TIMEOUT seconds ahead, with no body and no content type', async () => {
    const { token, expirationTime } = await loginNewUser();
    // Pull the expiry close, so that a new one is clearly later.
    await sql("update sessions set expires_at = now() + interval '30 seconds' where token_hash = ?", [
      sha256(token),
    ]);
    const pulled = Number((await sessionRow(token))!.expires_ms);
    expect(pulled).toBeLessThan(expirationTime - 60_000);
    await sleep(20);

    const before = Date.now();
    const response = await anonymous.withToken(token).call<{ expires: number }>('POST', '/extend-session');
    const after = Date.now();
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ expires: expect.any(Number) });
    const { expires } = response.body;
    expect(expires).toBeGreaterThan(expirationTime);
    expect(expires).toBeGreaterThanOrEqual(before + SESSION_TIMEOUT_S * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + SESSION_TIMEOUT_S * 1000 + 1000);
    // The new expiry is stored, not only answered.
    expect(Number((await sessionRow(token))!.expires_ms)).toBe(expires);
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
  });

  // The contract's table says 403 here (rest-api-v4.md, Auth token: "otherwise 403"), unlike other operations.
  it('answers 403 for a token that is not valid, as the contract shows', async () => {
    const response = await anonymous
      .withToken(`unknown-${uniqueSuffix()}`)
      .call<ErrorBody>('POST', '/extend-session');
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
  });

  it('answers 401 without X-Auth-Token', async () => {
    const response = await anonymous.call<ErrorBody>('POST', '/extend-session');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });

  it('does not revive an expired session', async () => {
    const { token } = await loginNewUser();
    await sql("update sessions set expires_at = now() - interval '1 second' where token_hash = ?", [
      sha256(token),
    ]);
    expect((await anonymous.withToken(token).call('POST', '/extend-session')).status).toBe(403);
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(401);
  });
});

describe('POST /logout', () => {
  it('answers 204 text/plain without a body and ends the session', async () => {
    const { token } = await loginNewUser();
    const client = anonymous.withToken(token);
    expect((await client.get('/clients')).status).toBe(200);
    expect((await sessionRow(token))!.ended_at).toBeNull();

    const response = await client.call('POST', '/logout');
    expect(response.status, response.text).toBe(204);
    expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
    expect(response.text).toBe('');

    expect((await client.get<ErrorBody>('/clients')).status).toBe(401);
    expect((await client.get<{ tokenValid: boolean }>('/validate')).body).toEqual({ tokenValid: false });
    expect((await client.call('POST', '/extend-session')).status).toBe(403);
    expect((await sessionRow(token))!.ended_at).not.toBeNull();
    // A second logout with the released token is not authenticated.
    expect((await client.call('POST', '/logout')).status).toBe(401);
  });

  it('clears the JSESSIONID cookie, HttpOnly as it was set', async () => {
    const { token } = await loginOk({ username: 'admin', password: TEST_ADMIN_PASSWORD });
    const response = await anonymous.withToken(token).call('POST', '/logout');
    const cleared = setCookies(response).find((value) => value.startsWith('JSESSIONID='));
    expect(cleared).toMatch(/^JSESSIONID=;/);
    expect(cleared).toMatch(/HttpOnly/i);
    expect(cleared).toMatch(/Path=\//);
  });

  it('ends only the session of the token', async () => {
    const user = await createUser(t.orm, tenant.id);
    const first = await loginOk({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
    });
    const second = await loginOk({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
    });
    expect((await anonymous.withToken(first.token).call('POST', '/logout')).status).toBe(204);
    expect((await anonymous.withToken(first.token).get('/clients')).status).toBe(401);
    expect((await anonymous.withToken(second.token).get('/clients')).status).toBe(200);
  });

  it('answers 401 without X-Auth-Token', async () => {
    const response = await anonymous.call<ErrorBody>('POST', '/logout');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});

describe('session end by time or account state', () => {
  /**
   * A write straight to the database (not through the API) reaches the server's access cache by
   * notification, within a second (docs/identity.md, "The access cache"): wait for it, no longer.
   */
  async function refusedWithinASecond(token: string) {
    const deadline = Date.now() + 1_000;
    while ((await anonymous.withToken(token).get('/clients')).status !== 401) {
      if (Date.now() > deadline) throw new Error('the token was still accepted a second after the change');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('rejects a token whose session has expired', async () => {
    const { token } = await loginNewUser();
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    await sql("update sessions set expires_at = now() - interval '1 second' where token_hash = ?", [
      sha256(token),
    ]);
    await refusedWithinASecond(token);
    const response = await anonymous.withToken(token).get<ErrorBody>('/clients');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
    expect((await anonymous.withToken(token).get('/validate')).body).toEqual({ tokenValid: false });
  });

  it('rejects the live token of a user who is deactivated', async () => {
    const { user, token } = await loginNewUser();
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    await sql('update users set active = false where id = ?', [user.id]);
    await refusedWithinASecond(token);
    expect((await anonymous.withToken(token).get('/validate')).body).toEqual({ tokenValid: false });
    expect((await anonymous.withToken(token).call('POST', '/extend-session')).status).toBe(403);
  });

  it('rejects the live token of a user whose expiry date has passed', async () => {
    const { user, token } = await loginNewUser();
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    await sql("update users set exp_date = now() - interval '1 second' where id = ?", [user.id]);
    await refusedWithinASecond(token);
  });

  it('rejects the live token of a user who is soft-deleted', async () => {
    const { user, token } = await loginNewUser();
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    await sql('update users set deleted = true, deleted_at = now() where id = ?', [user.id]);
    await refusedWithinASecond(token);
    const response = await anonymous.withToken(token).get<ErrorBody>('/clients');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
    expect((await anonymous.withToken(token).get('/validate')).body).toEqual({ tokenValid: false });
  });

  it('rejects the live tokens of a client that is deactivated', async () => {
    const closing = await createTenant(sysadmin);
    const user = await createUser(t.orm, closing.id);
    const { token } = await loginOk({
      client: closing.loginName,
      username: user.username,
      password: user.password,
    });
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(200);
    const patched = await sysadmin.put(`/clients/partial/${closing.id}`, {
      active: false,
      version: closing.version,
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await anonymous.withToken(token).get('/clients')).status).toBe(401);
  });
});

describe('bootstrap', () => {
  it('creates nothing on a database that already has clients', async () => {
    const countAdmins = async () =>
      (
        await sql<{ n: number }>("select count(*)::int as n from clients where lower(login_name) = 'admin'")
      )[0]!.n;
    const countDefaults = async () =>
      (await sql<{ n: number }>("select count(*)::int as n from clients where name = 'Default'"))[0]!.n;
    expect(await countAdmins()).toBe(1);
    const defaultsBefore = await countDefaults();

    expect(await ensureDefaultClient(t.orm, t.config)).toBeUndefined();
    // Without ADMIN_PASSWORD a first start would answer the generated password; here it answers nothing.
    expect(await ensureDefaultClient(t.orm, { ...t.config, ADMIN_PASSWORD: undefined })).toBeUndefined();

    expect(await countAdmins()).toBe(1);
    expect(await countDefaults()).toBe(defaultsBefore);
    // The existing system administrator keeps its password.
    await loginOk({ username: 'admin', password: TEST_ADMIN_PASSWORD });
  });
});
