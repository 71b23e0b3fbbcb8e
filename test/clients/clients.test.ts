// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261201090000 } from '../../src/db/migrations/Migration20261201090000_client_api_key_hash.js';
import type { ClientDto } from '../../src/modules/client/client.schema.js';
import type { ErrorBody } from '../../src/rest/error-body.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

/** What administrators read of an API key after the answer that generated it: its first characters. */
const KEY_HINT = /^[A-Za-z0-9_-]{6}…$/;

interface Page<T> {
  content: T[];
  last: boolean;
  first: boolean;
  totalElements: number;
  totalPages: number;
  sort: string | null;
  numberOfElements: number;
  size: number;
  number: number;
}
type ClientPage = Page<Partial<ClientDto> & { id: number }>;

let t: TestApp;
let sysadmin: RestClient;
let anonymous: RestClient;
let sysadminId: number;
let defaultClientId: number;

/** Every name and login name this file creates starts with its own prefix, so lists can be narrowed to them. */
const FILE = `cl${uniqueSuffix()}`;

const query = (params: Record<string, string | number | boolean>): string =>
  `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`;

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute<T[]>(text, params);
}

/** A client of this file: name and login name begin with the file prefix unless overridden. */
function tenant(overrides: Record<string, unknown> = {}): Promise<TestTenant> {
  const suffix = uniqueSuffix();
  return createTenant(sysadmin, {
    name: `${FILE} tenant ${suffix}`,
    loginName: `${FILE}t${suffix}`,
    ...overrides,
  });
}

const getClient = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.get<ClientDto & ErrorBody>(`/clients/${id}${Object.keys(params).length ? query(params) : ''}`);

const listClients = (caller: RestClient, params: Record<string, string | number | boolean>) =>
  caller.get<ClientPage & ErrorBody>(`/clients${query(params)}`);

beforeAll(async () => {
  t = await buildTestApp({ MULTI_TENANT: 'true' });
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
  const [row] = await sql<{ user_id: number; client_id: number }>(
    `select u.id as user_id, c.id as client_id from users u join clients c on c.id = u.client_id
      where c.login_name = 'admin' and u.username = 'admin'`,
  );
  sysadminId = row!.user_id;
  defaultClientId = row!.client_id;
});
afterAll(() => t.close());

describe('POST /clients', () => {
  it('answers 201 with the full new client, its audit data and one user (its administrator), without API key', async () => {
    const suffix = uniqueSuffix();
    const body = {
      name: `${FILE} Create ${suffix}`,
      loginName: `${FILE}c${suffix}`,
      maxUsers: 10,
      maxGuests: 3,
      maxConcurrentUsers: 20,
      adminUser: { password: `pw-${suffix}-secret` },
    };
    const before = Date.now();
    const response = await sysadmin.post<ClientDto>('/clients', body);
    const after = Date.now();
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const admin = {
      id: sysadminId,
      name: 'admin',
      fullName: 'Administrator',
      time: expect.any(Number),
      oid: null,
    };
    expect(response.body).toEqual({
      id: expect.any(Number),
      oid: null,
      version: 1,
      clientId: response.body.id,
      deleted: false,
      created: admin,
      changed: admin,
      name: body.name,
      active: true,
      loginName: body.loginName,
      maxUsers: 10,
      maxGuests: 3,
      maxConcurrentUsers: 20,
      currentUsersNumber: 1,
    });
    for (const time of [response.body.created.time, response.body.changed.time]) {
      expect(time).toBeGreaterThanOrEqual(before - 1000);
      expect(time).toBeLessThanOrEqual(after + 1000);
    }
    // The same object is stored: a later read agrees, showing administrators the key's masked hint.
    const read = await getClient(sysadmin, response.body.id);
    expect(read.body).toEqual({ ...response.body, apiKey: expect.stringMatching(KEY_HINT) });
  });

  it('creates an administrator "admin" (full name Administrator) who can log in to the new client', async () => {
    const created = await tenant();
    const admin = await loginRest(t.app, 'admin', created.adminPassword, created.loginName);
    const own = await getClient(admin, created.id);
    expect(own.status).toBe(200);
    expect(own.body.name).toBe(created.name);
    const [user] = await sql<{ full_name: string; roles: string[] }>(
      'select full_name, roles from users where client_id = ? and username = ?',
      [created.id, 'admin'],
    );
    expect(user).toEqual({ full_name: 'Administrator', roles: ['ADMIN'] });
    // The password belongs to the new client only, not to the default one.
    await expect(loginRest(t.app, 'admin', created.adminPassword)).rejects.toThrow(/failed: 401/);
  });

  it('takes the administrator login from adminUser.username', async () => {
    const created = await tenant({ adminUser: { username: 'boss', password: 'boss-password-1' } });
    const boss = await loginRest(t.app, 'boss', 'boss-password-1', created.loginName);
    expect((await getClient(boss, created.id)).status).toBe(200);
    await expect(loginRest(t.app, 'admin', 'boss-password-1', created.loginName)).rejects.toThrow(
      /failed: 401/,
    );
    const users = await sql<{ username: string }>('select username from users where client_id = ?', [
      created.id,
    ]);
    expect(users).toEqual([{ username: 'boss' }]);
  });

  it('answers 422 for a name another client has, ignoring case, and creates nothing', async () => {
    const existing = await tenant();
    const response = await sysadmin.post<ErrorBody>('/clients', {
      name: existing.name.toUpperCase(),
      loginName: `${FILE}dup${uniqueSuffix()}`,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'UNPROCESSABLE', message: expect.any(String) });
    const same = await listClients(sysadmin, { 'name-eq': existing.name });
    expect(same.body.content.map((client) => client.id)).toEqual([existing.id]);
  });

  it('answers 422 for a login name another client has, ignoring case', async () => {
    const existing = await tenant();
    const name = `${FILE} dup login ${uniqueSuffix()}`;
    const response = await sysadmin.post<ErrorBody>('/clients', {
      name,
      loginName: existing.loginName.toUpperCase(),
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'UNPROCESSABLE', message: expect.any(String) });
    expect((await listClients(sysadmin, { 'name-eq': name })).body.totalElements).toBe(0);
  });

  it.each([
    ['a login name with a hyphen', { loginName: 'a-b' }],
    ['a login name with a non-Latin letter', { loginName: 'ábc' }],
    ['an empty login name', { loginName: '' }],
    ['an apiKey', { apiKey: 'chosen-by-the-caller' }],
    ['no name', { name: undefined }],
  ])('answers 400 for %s', async (_label, overrides) => {
    const suffix = uniqueSuffix();
    const name = `${FILE} invalid ${suffix}`;
    const response = await sysadmin.post<ErrorBody>('/clients', {
      name,
      loginName: `${FILE}i${suffix}`,
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect(response.body.message).toEqual(expect.any(String));
    expect((await listClients(sysadmin, { 'name-eq': name })).body.totalElements).toBe(0);
  });

  it('lowers maxUsers to maxConcurrentUsers when more accounts than concurrent users are asked for', async () => {
    const created = await tenant({ maxUsers: 30, maxConcurrentUsers: 20 });
    expect((await getClient(sysadmin, created.id)).body).toMatchObject({
      maxUsers: 20,
      maxConcurrentUsers: 20,
    });
  });

  it('answers 422 to one of two simultaneous creations of the same name', async () => {
    const suffix = uniqueSuffix();
    const name = `${FILE} race ${suffix}`;
    const responses = await Promise.all(
      ['a', 'b'].map((tag) =>
        sysadmin.post<ErrorBody>('/clients', { name, loginName: `${FILE}race${tag}${suffix}` }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
    expect(responses.find((response) => response.status === 422)!.body.code).toBe('UNPROCESSABLE');
    expect((await listClients(sysadmin, { 'name-eq': name })).body.totalElements).toBe(1);
  });

  it('answers 401 without a token', async () => {
    const response = await anonymous.post<ErrorBody>('/clients', {
      name: `${FILE} anon`,
      loginName: `${FILE}anon`,
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});

describe('access of users other than system administrators', () => {
  let home: TestTenant;
  let other: TestTenant;
  let clientAdmin: RestClient;
  let user: RestClient;

  beforeAll(async () => {
    home = await tenant();
    other = await tenant();
    const adminAccount = await createUser(t.orm, home.id, { roles: ['ADMIN'] });
    const userAccount = await createUser(t.orm, home.id, { roles: [] });
    clientAdmin = await loginRest(t.app, adminAccount.username, adminAccount.password, home.loginName);
    user = await loginRest(t.app, userAccount.username, userAccount.password, home.loginName);
  });

  it.each(['client admin', 'user'] as const)(
    'a %s gets 403 on every change and nothing changes',
    async (who) => {
      const caller = who === 'client admin' ? clientAdmin : user;
      const target = (await getClient(sysadmin, other.id)).body;
      const name = `${FILE} forbidden ${uniqueSuffix()}`;
      const attempts = [
        await caller.post<ErrorBody>('/clients', { name, loginName: `${FILE}f${uniqueSuffix()}` }),
        await caller.put<ErrorBody>(`/clients/${other.id}`, { ...target, name: `${name} put`, maxUsers: 1 }),
        await caller.put<ErrorBody>(`/clients/${home.id}`, {
          version: home.version,
          name: `${name} own`,
          active: true,
          loginName: home.loginName,
        }),
        await caller.put<ErrorBody>(`/clients/partial/${other.id}`, { version: target.version, maxUsers: 1 }),
        await caller.delete<ErrorBody>(`/clients/${other.id}`),
        await caller.delete<ErrorBody>(`/clients/async/${other.id}`),
        await caller.post<ErrorBody>(`/clients/generate-new-api-key/${other.id}`),
      ];
      for (const attempt of attempts) {
        expect(attempt.status).toBe(403);
        expect(attempt.body.code).toBe('FORBIDDEN');
      }
      expect((await listClients(sysadmin, { name })).body.totalElements).toBe(0);
      expect((await getClient(sysadmin, other.id)).body).toEqual(target);
      expect((await getClient(sysadmin, home.id)).body.name).toBe(home.name);
    },
  );

  it('a client administrator reads the own client, its API key masked (a hint)', async () => {
    const response = await getClient(clientAdmin, home.id);
    expect(response.status).toBe(200);
    // Its administrator "admin" plus the two users made here.
    expect(response.body.currentUsersNumber).toBe(3);
    const full = (await getClient(sysadmin, home.id)).body;
    expect(response.body).toEqual(full);
    expect(response.body.apiKey).toMatch(KEY_HINT);
  });

  it('an ordinary user reads the own client without the API key', async () => {
    const response = await getClient(user, home.id);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('apiKey');
    const { apiKey: _hidden, ...withoutKey } = (await getClient(sysadmin, home.id)).body;
    expect(response.body).toEqual(withoutKey);
  });

  it.each(['client admin', 'user'] as const)('a %s gets 404 for another client', async (who) => {
    const caller = who === 'client admin' ? clientAdmin : user;
    for (const id of [other.id, defaultClientId]) {
      const response = await getClient(caller, id);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });

  it.each(['client admin', 'user'] as const)('a %s lists and ranks only the own client', async (who) => {
    const caller = who === 'client admin' ? clientAdmin : user;
    const all = await listClients(caller, { size: 100 });
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(1);
    expect(all.body.content.map((client) => client.id)).toEqual([home.id]);
    expect((await listClients(caller, { name: other.name })).body.totalElements).toBe(0);
    expect((await caller.get<number>(`/clients/rownum/${home.id}`)).body).toBe(1);
    expect((await caller.get<number>(`/clients/rownum/${other.id}`)).body).toBe(0);
  });

  it('a client administrator lists the own client with its API key masked, a user without it', async () => {
    expect((await listClients(clientAdmin, {})).body.content[0]!.apiKey).toMatch(KEY_HINT);
    expect((await listClients(user, {})).body.content[0]).not.toHaveProperty('apiKey');
  });
});

describe('GET /clients/{id} formats', () => {
  let client: TestTenant;
  beforeAll(async () => {
    client = await tenant({ maxUsers: 4 });
  });

  it('ID answers the id only', async () => {
    const response = await getClient(sysadmin, client.id, { format: 'ID' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: client.id });
  });

  it('SHORT answers id, name, loginName and active only', async () => {
    const response = await getClient(sysadmin, client.id, { format: 'SHORT' });
    expect(response.body).toEqual({
      id: client.id,
      name: client.name,
      loginName: client.loginName,
      active: true,
    });
  });

  it('FULL (also the default) answers every attribute', async () => {
    const full = await getClient(sysadmin, client.id, { format: 'FULL' });
    expect(Object.keys(full.body).sort()).toEqual(
      [
        'id',
        'oid',
        'version',
        'clientId',
        'deleted',
        'created',
        'changed',
        'name',
        'active',
        'loginName',
        'apiKey',
        'maxUsers',
        'maxGuests',
        'maxConcurrentUsers',
        'currentUsersNumber',
      ].sort(),
    );
    expect(full.body.maxUsers).toBe(4);
    expect((await getClient(sysadmin, client.id)).body).toEqual(full.body);
  });

  it('the list honours the format too', async () => {
    const page = await listClients(sysadmin, { 'name-eq': client.name, format: 'SHORT' });
    expect(page.body.content).toEqual([
      { id: client.id, name: client.name, loginName: client.loginName, active: true },
    ]);
  });

  it('answers 400 for an unknown format and 404 for an unknown id', async () => {
    expect((await getClient(sysadmin, client.id, { format: 'HUGE' })).status).toBe(400);
    const missing = await getClient(sysadmin, 999_999_999);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});

describe('PUT /clients/{id}', () => {
  it('replaces the changeable attributes, erases missing limits and increments the version', async () => {
    const client = await tenant({ maxUsers: 5, maxGuests: 2, maxConcurrentUsers: 9 });
    const name = `${FILE} renamed ${uniqueSuffix()}`;
    const loginName = `${FILE}r${uniqueSuffix()}`;
    const response = await sysadmin.put<ClientDto>(`/clients/${client.id}`, {
      version: client.version,
      name,
      loginName,
      active: false,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: client.id,
      version: client.version + 1,
      name,
      loginName,
      active: false,
      maxUsers: null,
      maxGuests: null,
      maxConcurrentUsers: null,
    });
    expect(response.body.changed.id).toBe(sysadminId);
    expect((await getClient(sysadmin, client.id)).body).toEqual(response.body);
  });

  it('sets limits that are sent', async () => {
    const client = await tenant();
    const response = await sysadmin.put<ClientDto>(`/clients/${client.id}`, {
      version: client.version,
      name: client.name,
      loginName: client.loginName,
      active: true,
      maxUsers: 3,
      maxGuests: 1,
      maxConcurrentUsers: 8,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ maxUsers: 3, maxGuests: 1, maxConcurrentUsers: 8, version: 2 });
  });

  it('answers 409 for a stale version and leaves the stored client unchanged', async () => {
    const client = await tenant({ maxUsers: 5 });
    const body = { name: client.name, loginName: client.loginName, active: true, maxUsers: 6 };
    const first = await sysadmin.put<ClientDto>(`/clients/${client.id}`, {
      ...body,
      version: client.version,
    });
    expect(first.status).toBe(200);
    const stale = await sysadmin.put<ErrorBody>(`/clients/${client.id}`, {
      ...body,
      name: `${FILE} stale ${uniqueSuffix()}`,
      maxUsers: 7,
      version: client.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: 'CONFLICT', message: expect.any(String) });
    expect((await getClient(sysadmin, client.id)).body).toEqual(first.body);
  });

  it('answers 409 without a version', async () => {
    const client = await tenant({ maxUsers: 5 });
    const before = (await getClient(sysadmin, client.id)).body;
    const response = await sysadmin.put<ErrorBody>(`/clients/${client.id}`, {
      name: `${FILE} unversioned ${uniqueSuffix()}`,
      loginName: client.loginName,
      active: true,
    });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('CONFLICT');
    expect((await getClient(sysadmin, client.id)).body).toEqual(before);
  });

  it('takes the id from the path, not from the body', async () => {
    const target = await tenant();
    const bystander = await tenant();
    const name = `${FILE} path id ${uniqueSuffix()}`;
    const response = await sysadmin.put<ClientDto>(`/clients/${target.id}`, {
      id: bystander.id,
      version: 1,
      name,
      loginName: target.loginName,
      active: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(target.id);
    expect((await getClient(sysadmin, target.id)).body.name).toBe(name);
    expect((await getClient(sysadmin, bystander.id)).body.name).toBe(bystander.name);
  });

  it('answers 422 when the new name or login name belongs to another client', async () => {
    const client = await tenant();
    const other = await tenant();
    const base = { version: client.version, active: true };
    const byName = await sysadmin.put<ErrorBody>(`/clients/${client.id}`, {
      ...base,
      name: other.name.toUpperCase(),
      loginName: client.loginName,
    });
    expect(byName.status).toBe(422);
    expect(byName.body.code).toBe('UNPROCESSABLE');
    const byLogin = await sysadmin.put<ErrorBody>(`/clients/${client.id}`, {
      ...base,
      name: client.name,
      loginName: other.loginName.toUpperCase(),
    });
    expect(byLogin.status).toBe(422);
    expect((await getClient(sysadmin, client.id)).body).toMatchObject({
      name: client.name,
      version: client.version,
    });
  });

  it('answers 404 for an unknown client and 400 for an invalid login name', async () => {
    const body = { version: 1, name: `${FILE} ghost`, loginName: `${FILE}ghost`, active: true };
    expect((await sysadmin.put(`/clients/999999999`, body)).status).toBe(404);
    const client = await tenant();
    const invalid = await sysadmin.put<ErrorBody>(`/clients/${client.id}`, {
      ...body,
      loginName: 'no spaces',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('BAD_REQUEST');
  });
});

describe('client status', () => {
  it('an inactive client locks its users out until it is active again', async () => {
    const client = await tenant();
    const session = await loginRest(t.app, 'admin', client.adminPassword, client.loginName);
    const off = await sysadmin.put<ClientDto>(`/clients/partial/${client.id}`, {
      version: client.version,
      active: false,
    });
    expect(off.body.active).toBe(false);
    expect((await session.get('/clients')).status).toBe(401);
    await expect(loginRest(t.app, 'admin', client.adminPassword, client.loginName)).rejects.toThrow(
      /failed: 401/,
    );
    const on = await sysadmin.put<ClientDto>(`/clients/partial/${client.id}`, {
      version: off.body.version,
      active: true,
    });
    expect(on.body.active).toBe(true);
    const again = await loginRest(t.app, 'admin', client.adminPassword, client.loginName);
    expect((await again.get('/clients')).status).toBe(200);
  });
});

describe('PUT /clients/partial/{id}', () => {
  it('changes only the attributes sent; null clears a limit', async () => {
    const client = await tenant({ maxUsers: 5, maxGuests: 2, maxConcurrentUsers: 9 });
    const name = `${FILE} patched ${uniqueSuffix()}`;
    const response = await sysadmin.put<ClientDto>(`/clients/partial/${client.id}`, {
      version: client.version,
      name,
      maxGuests: null,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: client.id,
      version: client.version + 1,
      name,
      loginName: client.loginName,
      active: true,
      maxUsers: 5,
      maxGuests: null,
      maxConcurrentUsers: 9,
    });
    const second = await sysadmin.put<ClientDto>(`/clients/partial/${client.id}`, {
      version: response.body.version,
      active: false,
      maxUsers: 4,
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      name,
      active: false,
      maxUsers: 4,
      maxGuests: null,
      maxConcurrentUsers: 9,
      version: client.version + 2,
    });
    expect((await getClient(sysadmin, client.id)).body).toEqual(second.body);
  });

  it('answers 409 without a version or with a stale one, changing nothing', async () => {
    const client = await tenant({ maxUsers: 5 });
    const before = (await getClient(sysadmin, client.id)).body;
    const missing = await sysadmin.put<ErrorBody>(`/clients/partial/${client.id}`, { maxUsers: 1 });
    expect(missing.status).toBe(409);
    expect(missing.body.code).toBe('CONFLICT');
    const stale = await sysadmin.put<ErrorBody>(`/clients/partial/${client.id}`, {
      version: client.version + 1,
      maxUsers: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('CONFLICT');
    expect((await getClient(sysadmin, client.id)).body).toEqual(before);
  });
});

describe('GET /clients (list) and GET /clients/rownum/{id}', () => {
  /** A family prefix shared by the clients of this block only. */
  const family = `${FILE}f${uniqueSuffix()}`;
  let alpha: TestTenant; // name and login name start with the family
  let beta: TestTenant; // name and login name start with the family
  let delta: TestTenant; // only the name starts with the family
  let xray: TestTenant; // only the login name starts with the family
  let zed: TestTenant; // holds the family in the middle only

  beforeAll(async () => {
    alpha = await tenant({
      name: `${family} alpha`,
      loginName: `${family}alpha`,
      maxUsers: 5,
      maxConcurrentUsers: 50,
    });
    beta = await tenant({
      name: `${family} beta`,
      loginName: `${family}beta`,
      maxUsers: 7,
      maxConcurrentUsers: 50,
    });
    delta = await tenant({
      name: `${family} delta`,
      loginName: `d${family}`,
      maxUsers: 9,
      maxConcurrentUsers: 60,
    });
    xray = await tenant({
      name: `xray ${family}`,
      loginName: `${family}xray`,
      maxUsers: 3,
      maxConcurrentUsers: 60,
    });
    zed = await tenant({
      name: `zed ${family}`,
      loginName: `z${family}`,
      maxUsers: 7,
      maxConcurrentUsers: 50,
    });
  });

  const ids = (page: ClientPage) => page.content.map((client) => client.id);

  it('name filters by the start of the name or of the login name, ignoring case', async () => {
    const page = await listClients(sysadmin, { name: family.toUpperCase() });
    expect(page.status).toBe(200);
    expect(ids(page.body)).toEqual([alpha.id, beta.id, delta.id, xray.id]);
  });

  it('name takes LIKE wildcards literally', async () => {
    expect((await listClients(sysadmin, { name: `${family}%` })).body.totalElements).toBe(0);
    expect((await listClients(sysadmin, { name: `${family.slice(0, -1)}_` })).body.totalElements).toBe(0);
  });

  it('name-eq matches the whole name, ignoring case', async () => {
    expect(ids((await listClients(sysadmin, { 'name-eq': `${family} BETA` })).body)).toEqual([beta.id]);
    expect((await listClients(sysadmin, { 'name-eq': `${family} bet` })).body.totalElements).toBe(0);
  });

  it('login-name filters by the start of the login name only, ignoring case', async () => {
    const page = await listClients(sysadmin, { 'login-name': family.toUpperCase() });
    expect(ids(page.body)).toEqual([alpha.id, beta.id, xray.id]);
  });

  it('login-name-eq matches the whole login name, ignoring case', async () => {
    expect(ids((await listClients(sysadmin, { 'login-name-eq': `${family}XRAY` })).body)).toEqual([xray.id]);
    expect((await listClients(sysadmin, { 'login-name-eq': `${family}xra` })).body.totalElements).toBe(0);
  });

  it('max-user-accounts and max-concurrent-users match the limits exactly', async () => {
    expect(ids((await listClients(sysadmin, { name: family, 'max-user-accounts': 7 })).body)).toEqual([
      beta.id,
    ]);
    expect(ids((await listClients(sysadmin, { name: family, 'max-concurrent-users': 60 })).body)).toEqual([
      delta.id,
      xray.id,
    ]);
    const both = await listClients(sysadmin, {
      'login-name': `z${family}`,
      'max-user-accounts': 7,
      'max-concurrent-users': 50,
    });
    expect(ids(both.body)).toEqual([zed.id]);
    expect(
      (await listClients(sysadmin, { 'login-name': `z${family}`, 'max-user-accounts': 8 })).body
        .totalElements,
    ).toBe(0);
  });

  it('sorts by name descending and by maxUsers, echoing the sort', async () => {
    const byNameDesc = await listClients(sysadmin, { name: family, sort: 'name,DESC' });
    expect(ids(byNameDesc.body)).toEqual([xray.id, delta.id, beta.id, alpha.id]);
    expect(byNameDesc.body.sort).toBe('name,DESC');
    const byMaxUsers = await listClients(sysadmin, { name: family, sort: 'maxUsers' });
    expect(ids(byMaxUsers.body)).toEqual([xray.id, alpha.id, beta.id, delta.id]);
    expect(byMaxUsers.body.sort).toBe('maxUsers,ASC');
    const byLoginDesc = await listClients(sysadmin, { name: family, sort: 'loginName,desc' });
    expect(ids(byLoginDesc.body)).toEqual([delta.id, xray.id, beta.id, alpha.id]);
    const byUsers = await listClients(sysadmin, { name: family, sort: 'usersCount,DESC' });
    expect(byUsers.status).toBe(200);
    expect(byUsers.body.sort).toBe('usersCount,DESC');
    // Every client has one user, so the id (same direction) decides.
    expect(ids(byUsers.body)).toEqual([xray.id, delta.id, beta.id, alpha.id]);
  });

  it('answers 400 for an unknown sort attribute or direction', async () => {
    for (const sort of ['apiKey', 'nosuch,ASC', 'name,SIDEWAYS']) {
      const response = await listClients(sysadmin, { name: family, sort });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
  });

  it('answers the Page object of the spec', async () => {
    const first = await listClients(sysadmin, { name: family, size: 3 });
    expect(first.body).toEqual({
      content: expect.any(Array),
      last: false,
      first: true,
      totalElements: 4,
      totalPages: 2,
      sort: 'name,ASC',
      numberOfElements: 3,
      size: 3,
      number: 0,
    });
    expect(ids(first.body)).toEqual([alpha.id, beta.id, delta.id]);
    const second = await listClients(sysadmin, { name: family, size: 3, page: 1 });
    expect(second.body).toMatchObject({
      last: true,
      first: false,
      totalElements: 4,
      totalPages: 2,
      numberOfElements: 1,
      size: 3,
      number: 1,
    });
    expect(ids(second.body)).toEqual([xray.id]);
    const beyond = await listClients(sysadmin, { name: family, size: 3, page: 5 });
    expect(beyond.body).toMatchObject({ content: [], numberOfElements: 0, totalElements: 4, number: 5 });
  });

  it('answers 400 for a page size below 1 or a negative page', async () => {
    expect((await listClients(sysadmin, { name: family, size: 0 })).status).toBe(400);
    expect((await listClients(sysadmin, { name: family, page: -1 })).status).toBe(400);
    expect((await listClients(sysadmin, { name: family, 'max-user-accounts': 'many' })).status).toBe(400);
  });

  it('defaults to pages of 20', async () => {
    const page = await listClients(sysadmin, {});
    expect(page.body.size).toBe(20);
    expect(page.body.number).toBe(0);
    expect(page.body.numberOfElements).toBeLessThanOrEqual(20);
  });

  it('caps the page size at MAX_PAGE_SIZE', async () => {
    const small = await buildTestApp({ MAX_PAGE_SIZE: '2' });
    try {
      const admin = await loginSysadmin(small.app);
      const page = await listClients(admin, { name: family, size: 50 });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({
        size: 2,
        numberOfElements: 2,
        totalElements: 4,
        totalPages: 2,
        last: false,
      });
      expect(ids(page.body)).toEqual([alpha.id, beta.id]);
      expect((await listClients(admin, { name: family })).body.size).toBe(2);
    } finally {
      await small.close();
    }
  });

  it('rownum gives the 1-based position under the same filters and sort, 0 when filtered out', async () => {
    const rownum = async (id: number, params: Record<string, string | number>) => {
      const response = await sysadmin.get<number>(`/clients/rownum/${id}${query(params)}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    expect(await rownum(beta.id, { name: family })).toBe(2);
    expect(await rownum(beta.id, { name: family, sort: 'name,DESC' })).toBe(3);
    expect(await rownum(xray.id, { name: family })).toBe(4);
    expect(await rownum(xray.id, { name: family, sort: 'maxUsers' })).toBe(1);
    expect(await rownum(delta.id, { 'login-name': family })).toBe(0);
    expect(await rownum(zed.id, { name: family })).toBe(0);
    expect(await rownum(beta.id, { name: family, 'max-user-accounts': 7 })).toBe(1);
    expect(await rownum(999_999_999, { name: family })).toBe(0);
    const badSort = await sysadmin.get<ErrorBody>(`/clients/rownum/${beta.id}${query({ sort: 'nosuch' })}`);
    expect(badSort.status).toBe(400);
  });
});

describe('DELETE /clients/{id}', () => {
  it('soft-deletes: 204 text/plain, then 404 unless include-deleted, and its users are locked out', async () => {
    const client = await tenant();
    const adminSession = await loginRest(t.app, 'admin', client.adminPassword, client.loginName);
    expect((await adminSession.get('/clients')).status).toBe(200);

    const response = await sysadmin.delete(`/clients/${client.id}`);
    expect(response.status).toBe(204);
    expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
    expect(response.text).toBe('');

    const gone = await getClient(sysadmin, client.id);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOT_FOUND');
    expect((await getClient(sysadmin, client.id, { 'include-deleted': 'false' })).status).toBe(404);
    const withDeleted = await getClient(sysadmin, client.id, { 'include-deleted': 'true' });
    expect(withDeleted.status).toBe(200);
    expect(withDeleted.body).toMatchObject({ id: client.id, name: client.name, deleted: true });

    expect((await listClients(sysadmin, { 'name-eq': client.name })).body.totalElements).toBe(0);
    expect(
      (await listClients(sysadmin, { 'name-eq': client.name, 'include-deleted': true })).body.totalElements,
    ).toBe(1);

    await expect(loginRest(t.app, 'admin', client.adminPassword, client.loginName)).rejects.toThrow(
      /failed: 401/,
    );
    const stale = await adminSession.get<ErrorBody>('/clients');
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('UNAUTHORIZED');

    // Deleting it again finds nothing.
    expect((await sysadmin.delete(`/clients/${client.id}`)).status).toBe(404);
  });

  it('frees the name and login name of the deleted client for a new one', async () => {
    const client = await tenant();
    expect((await sysadmin.delete(`/clients/${client.id}`)).status).toBe(204);
    const successor = await createTenant(sysadmin, { name: client.name, loginName: client.loginName });
    expect(successor.id).not.toBe(client.id);
    const admin = await loginRest(t.app, 'admin', successor.adminPassword, client.loginName);
    expect((await listClients(admin, {})).body.content.map((c) => c.id)).toEqual([successor.id]);
  });

  it('refuses to delete the client of the current session with 400 and a JSON body', async () => {
    const response = await sysadmin.delete<ErrorBody>(`/clients/${defaultClientId}`);
    expect(response.status).toBe(400);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.body).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
    expect((await getClient(sysadmin, defaultClientId)).status).toBe(200);
  });

  it('answers 404 for an unknown client', async () => {
    const response = await sysadmin.delete<ErrorBody>('/clients/999999999');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});

describe('DELETE /clients/async/{ids}', () => {
  it('answers 200 with a success flag per id when done in time', async () => {
    const a = await tenant();
    const b = await tenant();
    const response = await sysadmin.delete<{ result: Record<string, boolean> }>(
      `/clients/async/${a.id},${b.id},999999`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: { [a.id]: true, [b.id]: true, '999999': false } });
    expect((await getClient(sysadmin, a.id)).status).toBe(404);
    expect((await getClient(sysadmin, b.id)).status).toBe(404);
  });

  it('never deletes the client of the current session', async () => {
    const response = await sysadmin.delete<{ result: Record<string, boolean> }>(
      `/clients/async/${defaultClientId}`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: { [defaultClientId]: false } });
    expect((await getClient(sysadmin, defaultClientId)).status).toBe(200);
  });

  it('answers 400 for a malformed id list', async () => {
    const response = await sysadmin.delete<ErrorBody>('/clients/async/1,x');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
  });

  describe('past ASYNC_THRESHOLD_MS', () => {
    let eager: TestApp;
    let admin: RestClient;
    beforeAll(async () => {
      eager = await buildTestApp({ ASYNC_THRESHOLD_MS: '0' });
      admin = await loginSysadmin(eager.app);
    });
    afterAll(() => eager.close());

    async function waitForJob(id: number) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const [row] = await sql<{ status: string; result: unknown }>(
          'select status, result from job_tasks where id = ?',
          [id],
        );
        if (row!.status !== 'RUNNING') return row!;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`job task ${id} is still running`);
    }

    it('answers the jobTaskId of a job task that finishes the work', async () => {
      const client = await tenant();
      const response = await admin.delete<{ jobTaskId: number; result?: unknown }>(
        `/clients/async/${client.id}`,
      );
      expect(response.body).toEqual({ jobTaskId: expect.any(Number) });
      const job = await waitForJob(response.body.jobTaskId);
      expect(job).toEqual({ status: 'DONE', result: { [client.id]: true } });
      expect((await getClient(sysadmin, client.id)).status).toBe(404);
    });

    it('reports an id listed twice once, as deleted', async () => {
      const client = await tenant();
      const response = await sysadmin.delete<{ result: Record<string, boolean> }>(
        `/clients/async/${client.id},${client.id}`,
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ result: { [client.id]: true } });
    });

    it('answers 202 Accepted while the job is still running', async () => {
      const client = await tenant();
      const response = await admin.delete<{ jobTaskId: number }>(`/clients/async/${client.id}`);
      await waitForJob(response.body.jobTaskId);
      expect(response.status).toBe(202);
    });
  });
});

/** Carries what a transaction read out of it, so that it rolls back. */
class RolledBack {
  constructor(readonly rows: unknown[]) {}
}

describe('POST /clients/generate-new-api-key/{clientId}', () => {
  it('replaces the API key and increments the version; the key is shown in this answer only', async () => {
    const client = await tenant({ maxUsers: 3 });
    const before = (await getClient(sysadmin, client.id)).body;
    expect(before.apiKey).toMatch(KEY_HINT);
    const response = await sysadmin.post<ClientDto>(`/clients/generate-new-api-key/${client.id}`);
    expect(response.status).toBe(200);
    expect(response.body.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.body).toEqual({
      ...before,
      apiKey: response.body.apiKey,
      version: before.version + 1,
      changed: { ...before.changed, time: expect.any(Number) },
    });
    // Later reads, single and listed, of every format do not reveal it: they show its first characters.
    const read = await getClient(sysadmin, client.id);
    expect(read.body.apiKey).toBe(`${response.body.apiKey!.slice(0, 6)}…`);
    for (const later of [
      read,
      await getClient(sysadmin, client.id, { format: 'EDIT' }),
      await listClients(sysadmin, { 'login-name-eq': client.loginName }),
    ]) {
      expect(later.status).toBe(200);
      expect(later.text).not.toContain(response.body.apiKey);
    }
  });

  it('stores only the SHA-256 of the key; the key logs in, the stored value and the old key do not', async () => {
    const client = await tenant();
    const user = await createUser(t.orm, client.id);
    await sql(`update groups set has_api_access = true where client_id = ? and type = 'ALL_USERS'`, [
      client.id,
    ]);
    const apiLogin = (apiKey: string) =>
      anonymous.call<{ token: unknown }>('POST', '/login', {
        form: { client: client.loginName, username: user.username, password: user.password, apiKey },
      });
    const first = (await sysadmin.post<ClientDto>(`/clients/generate-new-api-key/${client.id}`)).body.apiKey!;
    const [stored] = await sql<{ api_key_hash: string }>('select api_key_hash from clients where id = ?', [
      client.id,
    ]);
    expect(stored!.api_key_hash).not.toContain(first);
    expect(stored!.api_key_hash).toBe(createHash('sha256').update(first).digest('hex'));
    const columns = await sql<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'clients' and column_name like 'api%'
        order by column_name`,
    );
    expect(columns.map((column) => column.column_name)).toEqual(['api_key_hash', 'api_key_hint']);
    // The hint holds the key's first characters only, never enough to log in.
    const [hint] = await sql<{ api_key_hint: string }>('select api_key_hint from clients where id = ?', [
      client.id,
    ]);
    expect(hint!.api_key_hint).toBe(`${first.slice(0, 6)}…`);

    expect((await apiLogin(first)).status).toBe(200);
    expect((await apiLogin(stored!.api_key_hash)).status).toBe(401);
    const second = (await sysadmin.post<ClientDto>(`/clients/generate-new-api-key/${client.id}`)).body
      .apiKey!;
    expect(second).not.toBe(first);
    expect((await apiLogin(first)).status).toBe(401);
    expect((await apiLogin(second)).status).toBe(200);
  });

  it('the migration replaces stored plain keys by their hashes, so the keys in use keep working', async () => {
    const migration = new Migration20261201090000(t.orm.em.getDriver(), t.orm.config);
    await migration.up();
    const outcome = await t.orm.em
      .fork()
      .transactional(async (em) => {
        // A temporary table named like the real one comes first on the search path; rolled back.
        await em.execute('create temporary table clients ("id" int, "api_key" varchar(64)) on commit drop');
        await em.execute(`insert into clients values (1, 'plain-key-1'), (2, 'Ünïcode-key')`);
        for (const statement of migration.getQueries()) await em.execute(String(statement));
        throw new RolledBack(await em.execute('select id, api_key_hash from clients order by id'));
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(RolledBack);
    const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');
    expect((outcome as RolledBack).rows).toEqual([
      { id: 1, api_key_hash: sha256('plain-key-1') },
      { id: 2, api_key_hash: sha256('Ünïcode-key') },
    ]);
  });

  it('answers 404 for an unknown client', async () => {
    const response = await sysadmin.post<ErrorBody>('/clients/generate-new-api-key/999999999');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});
