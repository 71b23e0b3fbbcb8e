// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { createDictionary } from '../factories/dictionary.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { RestClient } from '../helpers/rest.js';

/** Users, groups, roles and permissions through GraphQL and tRPC, on a real socket. */

let t: TestApp;
let base: string;
let sysadminToken: string;

interface GqlResult<T> {
  data: T | null;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}

async function gql<T>(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GqlResult<T>;
}

/** The data of a call that must succeed. */
async function gqlOk<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await gql<T>(token, query, variables);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data!;
}

/** The error code of a call that must fail. */
async function gqlCode(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const result = await gql(token, query, variables);
  expect(result.errors, JSON.stringify(result.data)).toBeDefined();
  return result.errors![0]!.extensions.code;
}

async function login(username: string, password: string, client?: string) {
  return fetch(`${base}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, ...(client ? { client } : {}) }),
  });
}

/** Logs in over HTTP and answers the token. */
async function loginToken(username: string, password: string, client?: string): Promise<string> {
  const response = await login(username, password, client);
  const body = (await response.json()) as { token: { token: string } | null };
  if (response.status !== 200 || !body.token) throw new Error(`login of ${username} failed`);
  return body.token.token;
}

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute<T[]>(text, params);
}

interface Tenant extends TestTenant {
  /** Token of the tenant's administrator. */
  token: string;
  /** REST through injection, for setup. */
  rest: RestClient;
  adminId: number;
}

async function newTenant(overrides: Record<string, unknown> = {}): Promise<Tenant> {
  const tenant = await createTenant(new RestClient(t.app, sysadminToken), overrides);
  const token = await loginToken('admin', tenant.adminPassword, tenant.loginName);
  const [row] = await sql<{ id: number }>("select id from users where client_id = ? and username = 'admin'", [
    tenant.id,
  ]);
  return { ...tenant, token, rest: new RestClient(t.app, token), adminId: row!.id };
}

interface GqlUser {
  id: number;
  version: number;
  username: string;
  fullName: string | null;
  email: string | null;
  title: string | null;
  roles: string[] | null;
  clientId: number;
  clientIds: number[] | null;
  groups: Array<{ id: number; name: string; type: string }> | null;
  lastLogins: Array<{
    userLogin: string;
    userId: number;
    clientLogin: string;
    loginTime: number;
    logoutTime: number | null;
    apiLogin: boolean;
    apiRequests: number;
  }> | null;
}
interface GqlGroup {
  id: number;
  version: number;
  name: string;
  type: string;
  description: string | null;
  timeout: number | null;
  hasApiAccess: boolean;
  viewsMap: Record<string, number[]>;
  filterMap: Record<string, number>;
  currentUsersNumber: number | null;
  groupMembers: Array<{ id: number; username: string; fullName: string | null }> | null;
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  sysadminToken = await loginToken('admin', TEST_ADMIN_PASSWORD);
});
afterAll(() => t.close());

describe('GraphQL queries', () => {
  it('users(format: EDIT) answers roles, groups and the last logins; user(id) reads one user', async () => {
    const tenant = await newTenant();
    const group = await tenant.rest.post<{ id: number }>('/groups', { name: 'Linguists' });
    expect(group.status, group.text).toBe(201);
    const created = await tenant.rest.post<{ id: number }>('/users', {
      username: 'gina',
      password: 'gina-pass-1234',
      fullName: 'Gina',
      email: 'gina@example.org',
      roles: ['USEREDITOR'],
      groups: [group.body.id],
    });
    expect(created.status, created.text).toBe(201);
    const before = Date.now();
    await loginToken('gina', 'gina-pass-1234', tenant.loginName);

    const { users } = await gqlOk<{ users: { totalElements: number; content: GqlUser[] } }>(
      tenant.token,
      `{ users(format: EDIT) { totalElements content { id username email roles clientId
           groups { id name type }
           lastLogins { userLogin userId clientLogin loginTime logoutTime apiLogin apiRequests } } } }`,
    );
    expect(users.totalElements).toBe(2);
    expect(users.content.map((user) => user.username)).toEqual(['admin', 'gina']);
    const gina = users.content.find((user) => user.username === 'gina')!;
    expect(gina).toMatchObject({
      id: created.body.id,
      email: 'gina@example.org',
      roles: ['USEREDITOR'],
      clientId: tenant.id,
      groups: [{ id: group.body.id, name: 'Linguists', type: 'NORMAL' }],
    });
    expect(gina.lastLogins).toHaveLength(1);
    expect(gina.lastLogins![0]).toMatchObject({
      userLogin: 'gina',
      userId: created.body.id,
      clientLogin: tenant.loginName,
      logoutTime: null,
      apiLogin: false,
    });
    expect(gina.lastLogins![0]!.loginTime).toBeGreaterThanOrEqual(before - 5000);
    const admin = users.content.find((user) => user.username === 'admin')!;
    expect(admin.roles).toEqual(['ADMIN']);
    expect(admin.lastLogins!.length).toBeGreaterThanOrEqual(1);

    // SHORT leaves out what EDIT adds.
    const short = await gqlOk<{ users: { content: GqlUser[] } }>(
      tenant.token,
      '{ users(format: SHORT) { content { username roles groups { id } lastLogins { loginTime } } } }',
    );
    expect(short.users.content.find((user) => user.username === 'gina')).toEqual({
      username: 'gina',
      roles: null,
      groups: null,
      lastLogins: null,
    });

    const { user } = await gqlOk<{ user: GqlUser }>(
      tenant.token,
      'query ($id: Int!) { user(id: $id, format: EDIT) { id version username fullName email roles groups { name } } }',
      { id: created.body.id },
    );
    expect(user).toEqual({
      id: created.body.id,
      version: 1,
      username: 'gina',
      fullName: 'Gina',
      email: 'gina@example.org',
      roles: ['USEREDITOR'],
      groups: [{ name: 'Linguists' }],
    });

    const other = await newTenant();
    expect(
      await gqlCode(tenant.token, 'query ($id: Int!) { user(id: $id) { id } }', { id: other.adminId }),
    ).toBe('NOT_FOUND');
  });

  it('groups(includePrivate: true) adds the Owner group; currentUsersNumber; group(id) lists the members', async () => {
    const tenant = await newTenant();
    const one = await createUser(t.orm, tenant.id, { username: 'one' });
    const two = await createUser(t.orm, tenant.id, { username: 'two' });
    const group = await tenant.rest.post<{ id: number }>('/groups', {
      name: 'Pair',
      groupMembers: [one.id, two.id],
    });
    expect(group.status, group.text).toBe(201);

    const all = await gqlOk<{ groups: { content: GqlGroup[] } }>(
      tenant.token,
      '{ groups(includePrivate: true, format: EDIT) { content { id name type currentUsersNumber } } }',
    );
    expect(all.groups.content.map((entry) => entry.type).sort()).toEqual([
      'ALL_USERS',
      'GUEST',
      'NORMAL',
      'OWNER',
    ]);
    expect(all.groups.content.find((entry) => entry.id === group.body.id)!.currentUsersNumber).toBe(2);
    const publicOnly = await gqlOk<{ groups: { content: GqlGroup[] } }>(
      tenant.token,
      '{ groups { content { type } } }',
    );
    expect(publicOnly.groups.content.map((entry) => entry.type)).not.toContain('OWNER');

    const { group: read } = await gqlOk<{ group: GqlGroup }>(
      tenant.token,
      'query ($id: Int!) { group(id: $id) { name currentUsersNumber groupMembers { id username fullName } } }',
      { id: group.body.id },
    );
    expect(read.name).toBe('Pair');
    expect(read.currentUsersNumber).toBe(2);
    expect([...read.groupMembers!].sort((a, b) => a.id - b.id)).toEqual([
      { id: one.id, username: 'one', fullName: 'User one' },
      { id: two.id, username: 'two', fullName: 'User two' },
    ]);
  });

  it('roles, dictionaryPermissions, permissionSchemes, guestSettings and passwordSettings', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const dictionary = await createDictionary(t.orm, tenant.id, { sections: 2 });
    const foreign = await createDictionary(t.orm, other.id);

    const roles = await gqlOk<{ roles: Array<{ name: string; systemname: string }> }>(
      tenant.token,
      '{ roles { name systemname } }',
    );
    expect(roles.roles.map((role) => role.systemname)).toEqual([
      'ADMIN',
      'USEREDITOR',
      `DICTIONARY_ADMIN@${dictionary.oid}`,
    ]);
    const sysRoles = await gqlOk<{ roles: Array<{ systemname: string }> }>(
      sysadminToken,
      'query ($c: Int) { roles(clientId: $c) { systemname } }',
      { c: tenant.id },
    );
    expect(sysRoles.roles.map((role) => role.systemname)).toContain('SYSADMIN');

    const permissionsQuery =
      'query ($ids: [Int!]!) { dictionaryPermissions(dictionaryIds: $ids) { dictionaryId permissions sectionPermissions sectionOidPermissions } }';
    const asAdmin = await gqlOk<{
      dictionaryPermissions: Array<{
        dictionaryId: number;
        permissions: Record<string, boolean>;
        sectionPermissions: Record<string, Record<string, boolean>>;
      }>;
    }>(tenant.token, permissionsQuery, { ids: [dictionary.id] });
    expect(asAdmin.dictionaryPermissions).toHaveLength(1);
    const adminPermissions = asAdmin.dictionaryPermissions[0]!;
    expect(adminPermissions.dictionaryId).toBe(dictionary.id);
    expect(Object.values(adminPermissions.permissions).every(Boolean)).toBe(true);
    expect(adminPermissions.permissions.DICT_UPDATE).toBe(true);
    expect(Object.keys(adminPermissions.sectionPermissions).sort()).toEqual(
      dictionary.sectionIds.map(String).sort(),
    );
    const plain = await createUser(t.orm, tenant.id);
    const plainToken = await loginToken(plain.username, plain.password, tenant.loginName);
    const asPlain = await gqlOk<{ dictionaryPermissions: Array<{ permissions: Record<string, boolean> }> }>(
      plainToken,
      permissionsQuery,
      { ids: [dictionary.id] },
    );
    expect(asPlain.dictionaryPermissions[0]!.permissions).toMatchObject({
      DICT_READ: true,
      DICT_UPDATE: false,
    });
    expect(await gqlCode(tenant.token, permissionsQuery, { ids: [foreign.id] })).toBe('NOT_FOUND');

    const scheme = await tenant.rest.post<{ id: number }>('/permissionschemes', {
      name: 'Readers',
      description: 'read only',
      grants: [],
    });
    expect(scheme.status, scheme.text).toBe(201);
    const schemesQuery =
      'query ($c: Int!) { permissionSchemes(clientId: $c) { id version name description grants } }';
    const schemes = await gqlOk<{ permissionSchemes: unknown[] }>(tenant.token, schemesQuery, {
      c: tenant.id,
    });
    expect(schemes.permissionSchemes).toEqual([
      { id: scheme.body.id, version: 1, name: 'Readers', description: 'read only', grants: [] },
    ]);
    expect(await gqlCode(tenant.token, schemesQuery, { c: other.id })).toBe('NOT_FOUND');

    const guestQuery =
      '{ guestSettings { enabled username loginMethod autoAlwaysDisabled enableQuickFilters enableSearchModes enableCommenting } }';
    expect((await gqlOk<{ guestSettings: unknown }>(tenant.token, guestQuery)).guestSettings).toEqual({
      enabled: false,
      username: null,
      loginMethod: 'NORMAL',
      autoAlwaysDisabled: true,
      enableQuickFilters: false,
      enableSearchModes: false,
      enableCommenting: false,
    });
    const enabled = await tenant.rest.put('/users/guest', {
      enabled: true,
      username: 'visitor',
      password: 'guest-pass-1234',
      enableCommenting: true,
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect((await gqlOk<{ guestSettings: unknown }>(tenant.token, guestQuery)).guestSettings).toMatchObject({
      enabled: true,
      username: 'visitor',
      enableCommenting: true,
    });
    expect(await gqlCode(plainToken, guestQuery)).toBe('FORBIDDEN');

    const { passwordSettings } = await gqlOk<{ passwordSettings: { regExp: string; msg: string } }>(
      plainToken,
      '{ passwordSettings { regExp msg } }',
    );
    expect(passwordSettings).toEqual({ regExp: t.config.PASSWORD_REGEXP, msg: t.config.PASSWORD_MESSAGE });
  });
});

describe('GraphQL mutations', () => {
  it('createUser, updateUser with the version, deleteUser', async () => {
    const tenant = await newTenant();
    const group = await tenant.rest.post<{ id: number }>('/groups', { name: 'Team' });
    const created = await gqlOk<{ createUser: GqlUser }>(
      tenant.token,
      `mutation ($input: UserInput!) { createUser(input: $input) {
         id version username fullName email roles clientId groups { id name } } }`,
      {
        input: {
          username: 'hank',
          password: 'hank-pass-1234',
          fullName: 'Hank',
          email: 'hank@example.org',
          roles: ['USEREDITOR'],
          groups: [group.body.id],
        },
      },
    );
    const hank = created.createUser;
    expect(hank).toMatchObject({
      version: 1,
      username: 'hank',
      fullName: 'Hank',
      email: 'hank@example.org',
      roles: ['USEREDITOR'],
      clientId: tenant.id,
      groups: [{ id: group.body.id, name: 'Team' }],
    });
    expect((await login('hank', 'hank-pass-1234', tenant.loginName)).status).toBe(200);

    const update = `mutation ($id: Int!, $version: Int!, $input: UserInput!) {
      updateUser(id: $id, version: $version, input: $input) { id version fullName title email } }`;
    const updated = await gqlOk<{ updateUser: GqlUser }>(tenant.token, update, {
      id: hank.id,
      version: 1,
      input: { fullName: 'Henry', title: 'Lead' },
    });
    // Partial: email stays.
    expect(updated.updateUser).toEqual({
      id: hank.id,
      version: 2,
      fullName: 'Henry',
      title: 'Lead',
      email: 'hank@example.org',
    });
    expect(
      await gqlCode(tenant.token, update, { id: hank.id, version: 1, input: { fullName: 'Stale' } }),
    ).toBe('CONFLICT');
    const [row] = await sql<{ full_name: string }>('select full_name from users where id = ?', [hank.id]);
    expect(row!.full_name).toBe('Henry');
    // null clears; expDate is ms epoch.
    const expDate = Date.UTC(2031, 0, 2);
    const cleared = await gqlOk<{ updateUser: GqlUser & { expDate: number | null } }>(
      tenant.token,
      update.replace('email }', 'email expDate }'),
      { id: hank.id, version: 2, input: { email: null, expDate } },
    );
    expect(cleared.updateUser).toMatchObject({ version: 3, email: null, expDate, fullName: 'Henry' });

    const deleted = await gqlOk<{ deleteUser: boolean }>(
      tenant.token,
      'mutation ($id: Int!) { deleteUser(id: $id) }',
      {
        id: hank.id,
      },
    );
    expect(deleted.deleteUser).toBe(true);
    expect(await gqlCode(tenant.token, 'query ($id: Int!) { user(id: $id) { id } }', { id: hank.id })).toBe(
      'NOT_FOUND',
    );
    expect((await login('hank', 'hank-pass-1234', tenant.loginName)).status).not.toBe(200);
  });

  it('createGroup with viewsMap as a JSON variable, updateGroup with groupMembers, deleteGroup', async () => {
    const tenant = await newTenant();
    const member = await createUser(t.orm, tenant.id, { username: 'ivy' });
    const second = await createUser(t.orm, tenant.id, { username: 'jon' });
    const views = { '12': [3, 4], '15': [] };

    const created = await gqlOk<{ createGroup: GqlGroup }>(
      tenant.token,
      `mutation ($name: String!, $views: JSON) {
         createGroup(input: { name: $name, viewsMap: $views, hasApiAccess: true, timeout: 600 }) {
           id version name type viewsMap filterMap hasApiAccess timeout currentUsersNumber groupMembers { id } } }`,
      { name: 'Reviewers', views },
    );
    const group = created.createGroup;
    expect(group).toMatchObject({
      version: 1,
      name: 'Reviewers',
      type: 'NORMAL',
      viewsMap: views,
      filterMap: {},
      hasApiAccess: true,
      timeout: 600,
      currentUsersNumber: 0,
      groupMembers: [],
    });
    const [stored] = await sql<{ views_map: unknown }>('select views_map from groups where id = ?', [
      group.id,
    ]);
    expect(stored!.views_map).toEqual(views);

    const updated = await gqlOk<{ updateGroup: GqlGroup }>(
      tenant.token,
      `mutation ($id: Int!, $version: Int!, $input: GroupInput!) {
         updateGroup(id: $id, version: $version, input: $input) {
           version description viewsMap currentUsersNumber groupMembers { id username } } }`,
      {
        id: group.id,
        version: 1,
        input: { description: 'second look', groupMembers: [member.id, second.id] },
      },
    );
    expect(updated.updateGroup).toMatchObject({
      version: 2,
      description: 'second look',
      viewsMap: views,
      currentUsersNumber: 2,
    });
    expect(updated.updateGroup.groupMembers!.map((entry) => entry.username).sort()).toEqual(['ivy', 'jon']);
    const members = await sql<{ user_id: number }>(
      'select user_id from group_members where group_id = ? order by user_id',
      [group.id],
    );
    expect(members.map((entry) => entry.user_id)).toEqual([member.id, second.id].sort((a, b) => a - b));
    expect(
      await gqlCode(
        tenant.token,
        'mutation ($id: Int!) { updateGroup(id: $id, version: 1, input: { description: "stale" }) { id } }',
        { id: group.id },
      ),
    ).toBe('CONFLICT');

    const deleted = await gqlOk<{ deleteGroup: boolean }>(
      tenant.token,
      'mutation ($id: Int!) { deleteGroup(id: $id) }',
      { id: group.id },
    );
    expect(deleted.deleteGroup).toBe(true);
    expect(await gqlCode(tenant.token, 'query ($id: Int!) { group(id: $id) { id } }', { id: group.id })).toBe(
      'NOT_FOUND',
    );
  });

  it('assignClients maps users to clients (system administrators only); logoutUser ends the sessions of a user', async () => {
    const tenant = await newTenant();
    const target = await newTenant();
    const user = await createUser(t.orm, tenant.id);
    const assign = 'mutation ($u: [Int!]!, $c: [Int!]!) { assignClients(users: $u, clients: $c) }';

    expect(await gqlCode(tenant.token, assign, { u: [user.id], c: [target.id] })).toBe('FORBIDDEN');
    expect(await sql('select client_id from user_clients where user_id = ?', [user.id])).toEqual([]);
    const assigned = await gqlOk<{ assignClients: number }>(sysadminToken, assign, {
      u: [user.id],
      c: [target.id],
    });
    expect(assigned.assignClients).toBe(1);
    const read = await gqlOk<{ user: GqlUser }>(
      sysadminToken,
      'query ($id: Int!) { user(id: $id, format: EDIT) { clientIds } }',
      { id: user.id },
    );
    expect(read.user.clientIds).toEqual([target.id]);

    const userToken = await loginToken(user.username, user.password, tenant.loginName);
    const me = '{ users(format: ID) { totalElements } }';
    expect((await gql(userToken, me)).errors).toBeUndefined();
    const loggedOut = await gqlOk<{ logoutUser: boolean }>(
      tenant.token,
      'mutation ($id: Int!) { logoutUser(userId: $id) }',
      { id: user.id },
    );
    expect(loggedOut.logoutUser).toBe(true);
    expect(await gqlCode(userToken, me)).toBe('UNAUTHORIZED');
    // The administrator's own session is untouched.
    expect((await gql(tenant.token, me)).errors).toBeUndefined();
  });
});

describe('GraphQL keeps the user policies', () => {
  const createUserMutation = 'mutation ($input: UserInput!) { createUser(input: $input) { id } }';

  it("an ordinary user's createUser is FORBIDDEN and creates nothing", async () => {
    const tenant = await newTenant();
    const plain = await createUser(t.orm, tenant.id);
    const token = await loginToken(plain.username, plain.password, tenant.loginName);
    const username = `new${uniqueSuffix()}`;
    expect(
      await gqlCode(token, createUserMutation, { input: { username, password: 'some-pass-1234' } }),
    ).toBe('FORBIDDEN');
    expect(await sql('select id from users where username = ?', [username])).toEqual([]);
  });

  it('a client administrator assigning SYSADMIN (create or update) is FORBIDDEN', async () => {
    const tenant = await newTenant();
    const username = `new${uniqueSuffix()}`;
    expect(
      await gqlCode(tenant.token, createUserMutation, {
        input: { username, password: 'some-pass-1234', roles: ['SYSADMIN'] },
      }),
    ).toBe('FORBIDDEN');
    expect(await sql('select id from users where username = ?', [username])).toEqual([]);
    const user = await createUser(t.orm, tenant.id);
    expect(
      await gqlCode(
        tenant.token,
        'mutation ($id: Int!) { updateUser(id: $id, version: 1, input: { roles: ["SYSADMIN"] }) { id } }',
        { id: user.id },
      ),
    ).toBe('FORBIDDEN');
    const [row] = await sql<{ roles: string[] }>('select roles from users where id = ?', [user.id]);
    expect(row!.roles).toEqual([]);
    // The same update with a role the administrator may assign goes through.
    const allowed = await gqlOk<{ updateUser: GqlUser }>(
      tenant.token,
      'mutation ($id: Int!) { updateUser(id: $id, version: 1, input: { roles: ["USEREDITOR"] }) { roles } }',
      { id: user.id },
    );
    expect(allowed.updateUser.roles).toEqual(['USEREDITOR']);
  });

  it('deleting oneself is BAD_REQUEST; a stale version is CONFLICT; no token is UNAUTHORIZED', async () => {
    const tenant = await newTenant();
    expect(
      await gqlCode(tenant.token, 'mutation ($id: Int!) { deleteUser(id: $id) }', { id: tenant.adminId }),
    ).toBe('BAD_REQUEST');
    const [row] = await sql<{ deleted: boolean }>('select deleted from users where id = ?', [tenant.adminId]);
    expect(row!.deleted).toBe(false);

    const user = await createUser(t.orm, tenant.id);
    expect(
      await gqlCode(
        tenant.token,
        'mutation ($id: Int!) { updateUser(id: $id, version: 7, input: { fullName: "x" }) { id } }',
        { id: user.id },
      ),
    ).toBe('CONFLICT');

    expect(await gqlCode(null, '{ users { totalElements } }')).toBe('UNAUTHORIZED');
    expect(await gqlCode('not-a-token', '{ users { totalElements } }')).toBe('UNAUTHORIZED');
    const username = `anon${uniqueSuffix()}`;
    expect(await gqlCode(null, createUserMutation, { input: { username, password: 'some-pass-1234' } })).toBe(
      'UNAUTHORIZED',
    );
    expect(await sql('select id from users where username = ?', [username])).toEqual([]);
  });
});

describe('tRPC users.exportXml and users.importXml', () => {
  const trpc = (token: string) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token } })],
    });

  it('exports the XML as a string and imports it into another client', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const group = await a.rest.post<{ id: number }>('/groups', { name: 'Exporters' });
    const created = await a.rest.post('/users', {
      username: 'kim',
      password: 'kim-pass-1234',
      roles: ['USEREDITOR'],
      groups: [group.body.id],
    });
    expect(created.status, created.text).toBe(201);

    const xml = await trpc(a.token).users.exportXml.query();
    expect(typeof xml).toBe('string');
    expect(xml).toMatch(new RegExp(`<polyterm-users version="1" client="${a.loginName}"`));
    expect(xml).toContain('<user username="kim"');

    const result = await trpc(b.token).users.importXml.mutate({
      xml,
      'overwrite-user': false,
      'overwrite-group': false,
    });
    expect(result).toEqual({
      userCount: 2,
      groupCount: 1,
      renamedUsers: { admin: 'admin_1' },
      renamedGroups: {},
      skippedRoles: [],
    });
    // kim logs in to b with the password of a (and is a user editor there).
    const editorToken = await loginToken('kim', 'kim-pass-1234', b.loginName);
    const kim = await gqlOk<{ users: { content: GqlUser[] } }>(
      b.token,
      '{ users(login: "kim", format: EDIT) { content { id username roles clientId groups { name } } } }',
    );
    expect(kim.users.content).toEqual([
      expect.objectContaining({
        username: 'kim',
        roles: ['USEREDITOR'],
        clientId: b.id,
        groups: [{ name: 'Exporters' }],
      }),
    ]);

    // A user editor may do neither.
    const refused = await trpc(editorToken)
      .users.exportXml.query()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).data?.code).toBe('FORBIDDEN');
    const refusedImport = await trpc(editorToken)
      .users.importXml.mutate({ xml, 'overwrite-user': false, 'overwrite-group': false })
      .catch((error: unknown) => error);
    expect((refusedImport as TRPCClientError<AppRouter>).data?.code).toBe('FORBIDDEN');

    // A bad document is a BAD_REQUEST through tRPC as well.
    const bad = await trpc(b.token)
      .users.importXml.mutate({
        xml: '<polyterm-users version="2"/>',
        'overwrite-user': false,
        'overwrite-group': false,
      })
      .catch((error: unknown) => error);
    expect((bad as TRPCClientError<AppRouter>).data?.code).toBe('BAD_REQUEST');
  });
});
