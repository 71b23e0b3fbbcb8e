// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * The spec's "who may do what with users" matrix (User section, rules 1-8), one `it` per rule of
 * src/modules/user/user.policy.ts. Mostly through REST; a representative subset again through tRPC over
 * a real socket. Every test builds its own tenant.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User, UserClient } from '../../src/modules/user/user.entity.js';
import type { ErrorBody } from '../../src/rest/error-body.js';
import type { AppRouter } from '../../src/trpc/router.js';
import { createDictionary } from '../factories/dictionary.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

interface UserBody {
  id: number;
  version: number;
  username: string;
  fullName: string | null;
  email?: string | null;
  title: string | null;
  expDate: number | null;
  type: string;
  active: boolean;
  roles: string[];
  clientIds?: number[];
  forcePasswordChange?: boolean;
  password?: string;
}
interface Page<T> {
  content: T[];
  totalElements: number;
}
type Answer = UserBody & ErrorBody;

let t: TestApp;
let base: string;
let anonymous: RestClient;
let sysadmin: RestClient;
let defaultClientId: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ id: number }[]>("select id from clients where login_name = 'admin' and not deleted");
  defaultClientId = row!.id;
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------------
// Setup helpers

interface Member {
  id: number;
  username: string;
  password: string;
  rest: RestClient;
}

interface World {
  tenant: TestTenant;
  /** The tenant's administrator `admin` (role ADMIN), logged in. */
  admin: Member;
}

/** A fresh tenant with its administrator logged in. */
async function world(): Promise<World> {
  const tenant = await createTenant(sysadmin);
  const row = await t.orm.em
    .fork()
    .findOneOrFail(User, { client: tenant.id, username: 'admin' }, { filters: false });
  const rest = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  return { tenant, admin: { id: row.id, username: 'admin', password: tenant.adminPassword, rest } };
}

/** A user of the tenant written through the ORM, logged in. */
async function member(
  tenant: TestTenant,
  roles: string[] = [],
  options: { email?: string | null } = {},
): Promise<Member> {
  const user = await createUser(t.orm, tenant.id, { roles, ...options });
  const rest = await loginRest(t.app, user.username, user.password, tenant.loginName);
  return { ...user, rest };
}

/** A user of the tenant that nobody logs in as. */
const account = (tenant: TestTenant, roles: string[] = [], options: { email?: string | null } = {}) =>
  createUser(t.orm, tenant.id, { roles, ...options });

/** A second system administrator of the default client, so that self-edits never touch the real `admin`. */
async function freshSysadmin(): Promise<Member> {
  const user = await createUser(t.orm, defaultClientId, { roles: ['SYSADMIN', 'ADMIN'] });
  const rest = await loginRest(t.app, user.username, user.password);
  return { ...user, rest };
}

/** The stored row, whatever the filters (deleted rows included). */
const stored = (id: number) => t.orm.em.fork().findOneOrFail(User, id, { filters: false });

const mappedClients = async (userId: number) =>
  (await t.orm.em.fork().find(UserClient, { user: userId }, { filters: false })).map((row) => row.client.id);

/** PUT /users/partial/{id} with the stored version. */
async function patch(caller: RestClient, id: number, body: Record<string, unknown>) {
  const { version } = await stored(id);
  return caller.put<Answer>(`/users/partial/${id}`, { ...body, version });
}

const loginStatus = async (username: string, password: string, client?: string, apiKey?: string) =>
  (
    await anonymous.call<LoginBody>('POST', '/login', {
      form: { username, password, ...(client ? { client } : {}), ...(apiKey ? { apiKey } : {}) },
    })
  ).status;

const future = () => Date.UTC(new Date().getUTCFullYear() + 2, 0, 1);

/** The managed attributes (rules 3 and 4) with new values, and how to check them on the stored row. */
function managedChanges() {
  const suffix = uniqueSuffix();
  const expDate = future();
  return {
    body: {
      username: `renamed${suffix}`,
      fullName: `Renamed ${suffix}`,
      email: `renamed-${suffix}@example.org`,
      password: `new-password-${suffix}`,
      expDate,
      active: false,
      forcePasswordChange: true,
    },
    check: async (id: number) => {
      const row = await stored(id);
      expect(row).toMatchObject({
        username: `renamed${suffix}`,
        fullName: `Renamed ${suffix}`,
        email: `renamed-${suffix}@example.org`,
        active: false,
        forcePasswordChange: true,
      });
      expect(row.expDate?.getTime()).toBe(expDate);
    },
  };
}

const expectForbidden = (response: { status: number; body: unknown; text: string }) => {
  expect(response.status, response.text).toBe(403);
  expect((response.body as ErrorBody).code).toBe('FORBIDDEN');
};

// ---------------------------------------------------------------------------------------------------

describe('rule 1: every user edits own username, fullName, email, title, password, forcePasswordChange', () => {
  const suffix = uniqueSuffix();
  const cases: [string, unknown, (row: User) => unknown][] = [
    ['username', `self${suffix}`, (row) => row.username],
    ['fullName', 'My Own Name', (row) => row.fullName],
    ['email', `self-${suffix}@example.org`, (row) => row.email],
    ['title', 'Terminologist', (row) => row.title],
    ['forcePasswordChange', true, (row) => row.forcePasswordChange],
  ];
  it.each(cases)('an ordinary user changes own %s', async (field, value, read) => {
    const { tenant } = await world();
    const user = await member(tenant);
    const response = await patch(user.rest, user.id, { [field]: value });
    expect(response.status, response.text).toBe(200);
    expect(read(await stored(user.id))).toEqual(value);
  });

  it('an ordinary user changes own password and logs in with the new one', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const response = await patch(user.rest, user.id, { password: 'my-new-password-1' });
    expect(response.status, response.text).toBe(200);
    expect(await loginStatus(user.username, 'my-new-password-1', tenant.loginName)).toBe(200);
    expect(await loginStatus(user.username, user.password, tenant.loginName)).toBe(401);
  });

  const refused: [string, unknown][] = [
    ['active', false],
    ['expDate', future()],
    ['roles', ['USEREDITOR']],
  ];
  it.each(refused)('an ordinary user changing own %s gets 403', async (field, value) => {
    const { tenant } = await world();
    const user = await member(tenant);
    expectForbidden(await patch(user.rest, user.id, { [field]: value }));
    expect(await stored(user.id)).toMatchObject({ active: true, expDate: null, roles: [] });
  });

  it('an ordinary user dropping one of own roles gets 403', async () => {
    const { tenant } = await world();
    const role = `DICTIONARY_ADMIN@${(await createDictionary(t.orm, tenant.id)).oid}`;
    const user = await member(tenant, [role]);
    expectForbidden(await patch(user.rest, user.id, { roles: [] }));
    expect((await stored(user.id)).roles).toEqual([role]);
  });

  it('an API user (API-key login, group with API access) changes own password, fullName and email', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const group = await admin.rest.post('/groups', {
      name: `Api ${uniqueSuffix()}`,
      hasApiAccess: true,
      groupMembers: [user.id],
    });
    expect(group.status, group.text).toBe(201);
    const apiKey = (await sysadmin.post<{ apiKey: string }>(`/clients/generate-new-api-key/${tenant.id}`))
      .body.apiKey;
    expect(apiKey).toEqual(expect.any(String));
    const login = await anonymous.call<LoginBody>('POST', '/login', {
      form: { client: tenant.loginName, username: user.username, password: user.password, apiKey },
    });
    expect(login.status, login.text).toBe(200);
    const api = anonymous.withToken(login.body.token!.token);

    const response = await patch(api, user.id, {
      password: 'api-password-22',
      fullName: 'Integration',
      email: 'integration@example.org',
    });
    expect(response.status, response.text).toBe(200);
    expect(await stored(user.id)).toMatchObject({
      fullName: 'Integration',
      email: 'integration@example.org',
    });
    expect(await loginStatus(user.username, 'api-password-22', tenant.loginName, apiKey)).toBe(200);
    expect(await loginStatus(user.username, user.password, tenant.loginName, apiKey)).toBe(401);
  });
});

describe('rule 2: system administrators', () => {
  it('edit every managed attribute of a user of any client', async () => {
    const { tenant } = await world();
    const user = await account(tenant);
    const changes = managedChanges();
    const response = await patch(sysadmin, user.id, { ...changes.body, title: 'Reviewer' });
    expect(response.status, response.text).toBe(200);
    await changes.check(user.id);
    expect((await stored(user.id)).title).toBe('Reviewer');
  });

  it('edit the roles of others, SYSADMIN included', async () => {
    const { tenant } = await world();
    const user = await account(tenant);
    const response = await patch(sysadmin, user.id, { roles: ['SYSADMIN', 'USEREDITOR'] });
    expect(response.status, response.text).toBe(200);
    expect([...(await stored(user.id)).roles].sort()).toEqual(['SYSADMIN', 'USEREDITOR']);
  });

  it('edit the clientIds of others', async () => {
    const { tenant } = await world();
    const other = await createTenant(sysadmin);
    const user = await account(tenant);
    const response = await patch(sysadmin, user.id, { clientIds: [other.id] });
    expect(response.status, response.text).toBe(200);
    expect(await mappedClients(user.id)).toEqual([other.id]);
  });

  it('read back the clientIds they set (EDIT format)', async () => {
    const { tenant } = await world();
    const other = await createTenant(sysadmin);
    const user = await account(tenant);
    const response = await sysadmin.put<Answer>(`/users/partial/${user.id}?format=EDIT`, {
      clientIds: [other.id],
      version: (await stored(user.id)).version,
    });
    expect(response.status, response.text).toBe(200);
    expect(await mappedClients(user.id)).toEqual([other.id]);
    expect(response.body.clientIds).toEqual([other.id]);
    const read = await sysadmin.get<Answer>(`/users/${user.id}?format=EDIT`);
    expect(read.body.clientIds).toEqual([other.id]);
  });

  it('cannot change own roles (403)', async () => {
    const me = await freshSysadmin();
    expectForbidden(await patch(me.rest, me.id, { roles: ['SYSADMIN'] }));
    expect([...(await stored(me.id)).roles].sort()).toEqual(['ADMIN', 'SYSADMIN']);
  });

  it('cannot change own clientIds (403)', async () => {
    const me = await freshSysadmin();
    const { tenant } = await world();
    expectForbidden(await patch(me.rest, me.id, { clientIds: [tenant.id] }));
    expect(await mappedClients(me.id)).toEqual([]);
  });

  it('change own fullName', async () => {
    const me = await freshSysadmin();
    const response = await patch(me.rest, me.id, { fullName: 'Second System Administrator' });
    expect(response.status, response.text).toBe(200);
    expect((await stored(me.id)).fullName).toBe('Second System Administrator');
  });
});

describe('rule 3: client administrators', () => {
  it('edit the managed attributes of a regular user of their client', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const changes = managedChanges();
    const response = await patch(admin.rest, user.id, changes.body);
    expect(response.status, response.text).toBe(200);
    await changes.check(user.id);
    expect(await loginStatus(changes.body.username, changes.body.password, tenant.loginName)).toBe(401);
  });

  it('edit the managed attributes of another administrator of their client', async () => {
    const { tenant, admin } = await world();
    const other = await account(tenant, ['ADMIN']);
    const changes = managedChanges();
    const response = await patch(admin.rest, other.id, changes.body);
    expect(response.status, response.text).toBe(200);
    await changes.check(other.id);
  });

  it('assign ADMIN, USEREDITOR and DICTIONARY_ADMIN@<oid> of their client', async () => {
    const { tenant, admin } = await world();
    const dictionary = await createDictionary(t.orm, tenant.id);
    const user = await account(tenant);
    const roles = ['ADMIN', 'USEREDITOR', `DICTIONARY_ADMIN@${dictionary.oid}`];
    const response = await patch(admin.rest, user.id, { roles });
    expect(response.status, response.text).toBe(200);
    expect([...(await stored(user.id)).roles].sort()).toEqual([...roles].sort());
  });

  it('cannot change own roles (403)', async () => {
    const { tenant, admin } = await world();
    await account(tenant, ['ADMIN']); // not the last administrator: only the own-roles rule refuses
    expectForbidden(await patch(admin.rest, admin.id, { roles: ['ADMIN', 'USEREDITOR'] }));
    expect((await stored(admin.id)).roles).toEqual(['ADMIN']);
  });

  it('cannot assign SYSADMIN on update (403)', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant, ['USEREDITOR']);
    expectForbidden(await patch(admin.rest, user.id, { roles: ['USEREDITOR', 'SYSADMIN'] }));
    expect((await stored(user.id)).roles).toEqual(['USEREDITOR']);
  });

  it('cannot assign SYSADMIN on create (403)', async () => {
    const { tenant, admin } = await world();
    const username = `boss${uniqueSuffix()}`;
    expectForbidden(
      await admin.rest.post('/users', { username, password: 'boss-password-1', roles: ['SYSADMIN'] }),
    );
    expect(await t.orm.em.fork().count(User, { client: tenant.id, username }, { filters: false })).toBe(0);
  });

  it('cannot change the clientIds of a user (403)', async () => {
    const { tenant, admin } = await world();
    const other = await createTenant(sysadmin);
    const user = await account(tenant);
    expectForbidden(await patch(admin.rest, user.id, { clientIds: [other.id] }));
    expect(await mappedClients(user.id)).toEqual([]);
  });

  it('cannot change a system administrator of their client (403)', async () => {
    const { tenant, admin } = await world();
    const boss = await account(tenant, ['SYSADMIN']);
    expectForbidden(await patch(admin.rest, boss.id, { fullName: 'Demoted' }));
    expect((await stored(boss.id)).fullName).not.toBe('Demoted');
  });

  it('cannot delete a system administrator of their client (403)', async () => {
    const { tenant, admin } = await world();
    const boss = await account(tenant, ['SYSADMIN']);
    expectForbidden(await admin.rest.delete(`/users/${boss.id}`));
    expect((await stored(boss.id)).deleted).toBe(false);
  });

  // From the policy module ("administrators of a client manage the accounts whose home is that client").
  it('cannot edit a user of another client that is mapped to their client (403)', async () => {
    const { tenant, admin } = await world();
    const other = await createTenant(sysadmin);
    const stranger = await account(other);
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [stranger.id],
      clients: [tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    expectForbidden(await patch(admin.rest, stranger.id, { fullName: 'Taken over' }));
    expect((await stored(stranger.id)).fullName).not.toBe('Taken over');
  });
});

describe('rule 4: user editors', () => {
  it('edit the managed attributes of a non-administrator user', async () => {
    const { tenant } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    const user = await account(tenant);
    const changes = managedChanges();
    const response = await patch(editor.rest, user.id, changes.body);
    expect(response.status, response.text).toBe(200);
    await changes.check(user.id);
  });

  it('cannot edit a client administrator (403)', async () => {
    const { tenant, admin } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    expectForbidden(await patch(editor.rest, admin.id, { fullName: 'Edited by editor' }));
    expect((await stored(admin.id)).fullName).not.toBe('Edited by editor');
  });

  it('cannot change roles, neither adding nor dropping one (403)', async () => {
    const { tenant } = await world();
    const role = `DICTIONARY_ADMIN@${(await createDictionary(t.orm, tenant.id)).oid}`;
    const editor = await member(tenant, ['USEREDITOR']);
    const user = await account(tenant, [role]);
    expectForbidden(await patch(editor.rest, user.id, { roles: [] }));
    expectForbidden(await patch(editor.rest, user.id, { roles: [role, 'USEREDITOR'] }));
    expect((await stored(user.id)).roles).toEqual([role]);
  });

  it('cannot create users (403)', async () => {
    const { tenant } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    const username = `new${uniqueSuffix()}`;
    expectForbidden(await editor.rest.post('/users', { username, password: 'new-password-1' }));
    expect(await t.orm.em.fork().count(User, { client: tenant.id, username }, { filters: false })).toBe(0);
  });

  it('cannot delete users (403)', async () => {
    const { tenant } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    const user = await account(tenant);
    expectForbidden(await editor.rest.delete(`/users/${user.id}`));
    expect((await stored(user.id)).deleted).toBe(false);
  });

  it('cannot export users (403; an administrator can)', async () => {
    const { tenant, admin } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    expectForbidden(await editor.rest.get('/users/export'));
    const allowed = await admin.rest.get('/users/export');
    expect(allowed.status, allowed.text).toBe(200);
  });

  it('cannot import users (403)', async () => {
    const { tenant } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    const username = `imported${uniqueSuffix()}`;
    const boundary = `----policy${uniqueSuffix()}`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><users><user username="${username}"/></users>`;
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="users.xml"',
      'Content-Type: application/xml',
      '',
      xml,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/users/import',
      headers: {
        'x-auth-token': editor.rest.token!,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(response.statusCode, response.body).toBe(403);
    expect((JSON.parse(response.body) as ErrorBody).code).toBe('FORBIDDEN');
    expect(await t.orm.em.fork().count(User, { client: tenant.id, username }, { filters: false })).toBe(0);
  });

  it('may PUT a user object back unchanged apart from fullName (same roles are no change)', async () => {
    const { tenant } = await world();
    const dictionary = await createDictionary(t.orm, tenant.id);
    const editor = await member(tenant, ['USEREDITOR']);
    const user = await account(tenant, [`DICTIONARY_ADMIN@${dictionary.oid}`], { email: 'x@example.org' });
    const read = await editor.rest.get<Answer>(`/users/${user.id}?format=EDIT`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.roles).toEqual([`DICTIONARY_ADMIN@${dictionary.oid}`]);
    const response = await editor.rest.put<Answer>(`/users/${user.id}`, {
      ...read.body,
      fullName: 'Put back',
    });
    expect(response.status, response.text).toBe(200);
    expect(await stored(user.id)).toMatchObject({
      fullName: 'Put back',
      email: 'x@example.org',
      roles: [`DICTIONARY_ADMIN@${dictionary.oid}`],
    });
    expect(await loginStatus(user.username, user.password, tenant.loginName)).toBe(200);
  });

  it('see the e-mail of other users', async () => {
    const { tenant } = await world();
    const editor = await member(tenant, ['USEREDITOR']);
    const user = await account(tenant, [], { email: 'seen@example.org' });
    const read = await editor.rest.get<Answer>(`/users/${user.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.email).toBe('seen@example.org');
  });
});

describe('rule 5: ordinary users', () => {
  it('cannot create users (403)', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const username = `new${uniqueSuffix()}`;
    expectForbidden(await user.rest.post('/users', { username, password: 'new-password-1' }));
    expect(await t.orm.em.fork().count(User, { client: tenant.id, username }, { filters: false })).toBe(0);
  });

  it('cannot edit other users (403)', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const other = await account(tenant);
    expectForbidden(await patch(user.rest, other.id, { fullName: 'Not yours' }));
    expect((await stored(other.id)).fullName).not.toBe('Not yours');
  });

  it("are refused another user's password as 403 even when the password itself is invalid", async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const other = await account(tenant);
    expectForbidden(await patch(user.rest, other.id, { password: 'short' }));
    expectForbidden(await patch(user.rest, other.id, { password: 'long-enough-password' }));
    expect(await loginStatus(other.username, other.password, tenant.loginName)).toBe(200);
  });

  it("read the user list without other users' e-mail, but with their own", async () => {
    const { tenant } = await world();
    const me = await member(tenant, [], { email: 'me@example.org' });
    const other = await account(tenant, [], { email: 'other@example.org' });
    const list = await me.rest.get<Page<UserBody>>('/users?size=100');
    expect(list.status, list.text).toBe(200);
    const mine = list.body.content.find((user) => user.id === me.id)!;
    const theirs = list.body.content.find((user) => user.id === other.id)!;
    expect(mine.email).toBe('me@example.org');
    expect(theirs).toBeDefined();
    expect(theirs).not.toHaveProperty('email');
    const single = await me.rest.get<UserBody>(`/users/${other.id}`);
    expect(single.status, single.text).toBe(200);
    expect(single.body).not.toHaveProperty('email');
  });

  it("administrators see other users' e-mail in the list", async () => {
    const { tenant, admin } = await world();
    const other = await account(tenant, [], { email: 'listed@example.org' });
    const list = await admin.rest.get<Page<UserBody>>('/users?size=100');
    expect(list.body.content.find((user) => user.id === other.id)?.email).toBe('listed@example.org');
  });
});

describe('rule 6: only system administrators change client mappings', () => {
  it('a client administrator cannot (403)', async () => {
    const { tenant, admin } = await world();
    const other = await createTenant(sysadmin);
    const user = await account(tenant);
    expectForbidden(await admin.rest.put('/users/assign-clients', { users: [user.id], clients: [other.id] }));
    expect(await mappedClients(user.id)).toEqual([]);
  });

  it('a system administrator can: 200 with the number of users', async () => {
    const { tenant } = await world();
    const other = await createTenant(sysadmin);
    const user = await account(tenant);
    const response = await sysadmin.put('/users/assign-clients', { users: [user.id], clients: [other.id] });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toBe(1);
    expect(await mappedClients(user.id)).toEqual([other.id]);
  });
});

describe('rule 7: deleting users', () => {
  it('nobody deletes self (400), even an administrator who is not the last one', async () => {
    const { tenant, admin } = await world();
    await account(tenant, ['ADMIN']);
    const response = await admin.rest.delete<ErrorBody>(`/users/${admin.id}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await stored(admin.id)).deleted).toBe(false);
  });

  it('the last client administrator cannot be deleted (400)', async () => {
    const { tenant, admin } = await world();
    await account(tenant, ['USEREDITOR']);
    const response = await sysadmin.delete<ErrorBody>(`/users/${admin.id}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await stored(admin.id)).deleted).toBe(false);
  });

  it('with a second administrator present the delete succeeds (204)', async () => {
    const { tenant, admin } = await world();
    await account(tenant, ['ADMIN']);
    const response = await sysadmin.delete(`/users/${admin.id}`);
    expect(response.status, response.text).toBe(204);
    expect((await stored(admin.id)).deleted).toBe(true);
  });

  it('a client administrator deletes a regular user of their client (204)', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const response = await admin.rest.delete(`/users/${user.id}`);
    expect(response.status, response.text).toBe(204);
    expect((await stored(user.id)).deleted).toBe(true);
  });
});

describe('rule 8: the user list', () => {
  it('does not list guest users', async () => {
    const { admin } = await world();
    const guest = await admin.rest.put('/users/guest', {
      enabled: true,
      username: 'guest',
      password: 'guest-pass-1',
      loginMethod: 'NORMAL',
    });
    expect(guest.status, guest.text).toBe(200);
    const list = await admin.rest.get<Page<UserBody>>('/users?size=100');
    expect(list.status, list.text).toBe(200);
    expect(list.body.content.map((user) => user.username)).not.toContain('guest');
    expect(list.body.content.map((user) => user.username)).toContain('admin');
  });

  it('lists users of other clients mapped to the client', async () => {
    const { tenant, admin } = await world();
    const other = await createTenant(sysadmin);
    const stranger = await account(other);
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [stranger.id],
      clients: [tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    const list = await admin.rest.get<Page<UserBody>>('/users?size=100');
    expect(list.body.content.map((user) => user.id)).toContain(stranger.id);
  });
});

describe("ending other users' sessions (POST /logout-user)", () => {
  const validate = async (caller: RestClient) =>
    (await caller.get<{ tokenValid: boolean }>('/validate')).body.tokenValid;

  it('an ordinary user cannot (403)', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const other = await member(tenant);
    expectForbidden(await user.rest.post('/logout-user', { 'user-id': other.id }));
    expect(await validate(other.rest)).toBe(true);
  });

  it('a client administrator ends the sessions of a user of their client (204)', async () => {
    const { tenant, admin } = await world();
    const user = await member(tenant);
    const response = await admin.rest.post('/logout-user', { 'user-id': user.id });
    expect(response.status, response.text).toBe(204);
    expect(await validate(user.rest)).toBe(false);
  });

  it('a client administrator cannot end a system administrator’s sessions (403)', async () => {
    const { tenant, admin } = await world();
    const boss = await member(tenant, ['SYSADMIN']);
    expectForbidden(await admin.rest.post('/logout-user', { 'user-id': boss.id }));
    expect(await validate(boss.rest)).toBe(true);
  });
});

describe('passwords, type and unchanged values', () => {
  it('the literal ****** leaves the password unchanged', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const response = await patch(admin.rest, user.id, {
      password: '******',
      confirmPassword: '******',
      fullName: 'Same password',
    });
    expect(response.status, response.text).toBe(200);
    expect(await loginStatus(user.username, user.password, tenant.loginName)).toBe(200);
  });

  it('a password not matching the password settings answers 400 with the configured message', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const settings = await admin.rest.get<{ regExp: string; msg: string }>('/users/password-settings');
    expect(settings.body.regExp).toBe('^.{8,}$');
    const response = await patch(admin.rest, user.id, { password: 'short' });
    expect(response.status, response.text).toBe(400);
    expect(response.body.message).toBe(settings.body.msg);
    expect(await loginStatus(user.username, user.password, tenant.loginName)).toBe(200);
  });

  it('type sent on create is ignored (NORMAL)', async () => {
    const { admin } = await world();
    const response = await admin.rest.post<Answer>('/users', {
      username: `typed${uniqueSuffix()}`,
      password: 'typed-password-1',
      type: 'EXTSYSADMIN',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.type).toBe('NORMAL');
    expect((await stored(response.body.id)).type).toBe('NORMAL');
  });

  it('type sent on update is ignored (NORMAL)', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const response = await patch(admin.rest, user.id, { type: 'GUEST', fullName: 'Typed' });
    expect(response.status, response.text).toBe(200);
    expect((await stored(user.id)).type).toBe('NORMAL');
  });

  it('an ordinary user may send own roles and status unchanged', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const response = await patch(user.rest, user.id, { roles: [], active: true, fullName: 'Unchanged rest' });
    expect(response.status, response.text).toBe(200);
    expect((await stored(user.id)).fullName).toBe('Unchanged rest');
  });
});

describe('tRPC over a socket', () => {
  const trpc = (token: string | undefined) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token ?? '' } })],
    });

  const codeOf = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    return (error as TRPCClientError<AppRouter>).data?.code;
  };

  it('users.patch: an ordinary user cannot edit another user (FORBIDDEN)', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    const other = await account(tenant);
    const { version } = await stored(other.id);
    expect(
      await codeOf(
        trpc(user.rest.token).users.patch.mutate({ id: other.id, version, fullName: 'Over tRPC' }),
      ),
    ).toBe('FORBIDDEN');
    expect((await stored(other.id)).fullName).not.toBe('Over tRPC');
  });

  it('users.update: a client administrator cannot assign SYSADMIN (FORBIDDEN)', async () => {
    const { tenant, admin } = await world();
    const user = await account(tenant);
    const row = await stored(user.id);
    expect(
      await codeOf(
        trpc(admin.rest.token).users.update.mutate({
          id: user.id,
          version: row.version,
          username: row.username,
          fullName: row.fullName,
          roles: ['SYSADMIN'],
        }),
      ),
    ).toBe('FORBIDDEN');
    expect((await stored(user.id)).roles).toEqual([]);
  });

  it('users.create: a client administrator cannot create a SYSADMIN (FORBIDDEN)', async () => {
    const { tenant, admin } = await world();
    const username = `boss${uniqueSuffix()}`;
    expect(
      await codeOf(
        trpc(admin.rest.token).users.create.mutate({
          username,
          password: 'boss-password-1',
          roles: ['SYSADMIN'],
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(await t.orm.em.fork().count(User, { client: tenant.id, username }, { filters: false })).toBe(0);
  });

  it('users.delete: a user cannot delete self (BAD_REQUEST)', async () => {
    const { tenant } = await world();
    const user = await member(tenant);
    expect(await codeOf(trpc(user.rest.token).users.delete.mutate({ id: user.id }))).toBe('BAD_REQUEST');
    expect((await stored(user.id)).deleted).toBe(false);
  });
});
