// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  createGroup,
  type ErrorBody,
  type GroupBody,
  loginForm,
  type Page,
  patchGroup,
  query,
  systemGroups,
  tenantWithAdmin,
} from './access-helpers.js';

const SESSION_TIMEOUT_S = 600;

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp({ SESSION_TIMEOUT: String(SESSION_TIMEOUT_S) });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const newTenant = (overrides: Record<string, unknown> = {}) => tenantWithAdmin(t, sysadmin, overrides);

const listGroups = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<Page<GroupBody> & ErrorBody>(`/groups${query(params)}`);

const getGroup = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.get<GroupBody & ErrorBody>(`/groups/${id}${query(params)}`);

/** A named user of the tenant, logged in. */
async function loggedInUser(tenant: { id: number; loginName: string }) {
  const user = await createUser(t.orm, tenant.id);
  return { user, rest: await loginRest(t.app, user.username, user.password, tenant.loginName) };
}

describe('system groups and the group list', () => {
  it('every client has All users, Guests and Owner; the list shows All users and Guests by default', async () => {
    const { admin, tenant } = await newTenant();
    const byDefault = await listGroups(admin);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.content.map((group) => [group.name, group.type])).toEqual([
      ['All users', 'ALL_USERS'],
      ['Guests', 'GUEST'],
    ]);
    expect(byDefault.body.totalElements).toBe(2);
    for (const group of byDefault.body.content) expect(group.clientId).toBe(tenant.id);

    const all = await listGroups(admin, { 'include-private': true });
    expect(all.body.content.map((group) => [group.name, group.type])).toEqual([
      ['All users', 'ALL_USERS'],
      ['Guests', 'GUEST'],
      ['Owner', 'OWNER'],
    ]);
  });

  it('include-all, include-guest and include-private choose the system groups; NORMAL groups always show', async () => {
    const { admin } = await newTenant();
    const normal = await createGroup(admin, { name: 'Editors' });
    const names = async (params: Record<string, boolean>) =>
      (await listGroups(admin, params)).body.content.map((group) => group.name);

    expect(await names({})).toEqual(['All users', 'Editors', 'Guests']);
    expect(await names({ 'include-all': false })).toEqual(['Editors', 'Guests']);
    expect(await names({ 'include-guest': false })).toEqual(['All users', 'Editors']);
    expect(await names({ 'include-all': false, 'include-guest': false })).toEqual(['Editors']);
    expect(await names({ 'include-private': true })).toEqual(['All users', 'Editors', 'Guests', 'Owner']);
    expect(await names({ 'include-all': false, 'include-guest': false, 'include-private': true })).toEqual([
      'Editors',
      'Owner',
    ]);
    expect(normal.type).toBe('NORMAL');

    // rownum follows the same filters.
    const rownum = async (id: number, params: Record<string, boolean>) =>
      (await admin.get<number>(`/groups/rownum/${id}${query(params)}`)).body;
    const owner = (await systemGroups(admin)).OWNER;
    expect(await rownum(normal.id, {})).toBe(2);
    expect(await rownum(normal.id, { 'include-all': false })).toBe(1);
    expect(await rownum(owner.id, {})).toBe(0);
    expect(await rownum(owner.id, { 'include-private': true })).toBe(4);
  });

  it("client_id of another client: an empty page for a client administrator, that client's groups for a sysadmin", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const bGroup = await createGroup(b.admin, { name: 'Only in B' });

    const asClientAdmin = await listGroups(a.admin, { client_id: b.tenant.id, 'include-private': true });
    expect(asClientAdmin.status).toBe(200);
    expect(asClientAdmin.body.content).toEqual([]);
    expect(asClientAdmin.body.totalElements).toBe(0);

    const own = await listGroups(a.admin, { client_id: a.tenant.id });
    expect(own.body.content.map((group) => group.name)).toEqual(['All users', 'Guests']);

    const asSysadmin = await listGroups(sysadmin, { client_id: b.tenant.id });
    expect(asSysadmin.status).toBe(200);
    expect(asSysadmin.body.content.map((group) => group.name)).toEqual(['All users', 'Guests', 'Only in B']);
    for (const group of asSysadmin.body.content) expect(group.clientId).toBe(b.tenant.id);

    // A single group of another client is 404 for a client administrator, readable for a sysadmin.
    expect((await getGroup(a.admin, bGroup.id)).status).toBe(404);
    expect((await getGroup(sysadmin, bGroup.id)).status).toBe(200);
  });
});

describe('group CRUD', () => {
  it("POST /groups creates a NORMAL group (201) in the caller's client, ignoring a type sent", async () => {
    const { admin, tenant } = await newTenant();
    const response = await admin.post<GroupBody>('/groups', {
      name: 'Translators',
      description: 'They translate',
      type: 'ALL_USERS',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Translators',
      description: 'They translate',
      type: 'NORMAL',
      clientId: tenant.id,
      deleted: false,
      hasApiAccess: false,
      viewsMap: {},
      filterMap: {},
      timeout: null,
      pwdChange: null,
      langCode3: null,
    });
    expect(response.body.version).toEqual(expect.any(Number));
    const read = await getGroup(admin, response.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    // Still exactly one All users group.
    const allUsers = (await listGroups(admin)).body.content.filter((group) => group.type === 'ALL_USERS');
    expect(allUsers).toHaveLength(1);
  });

  it('only administrators create, change and delete groups (403 for an ordinary user)', async () => {
    const { admin, tenant } = await newTenant();
    const group = await createGroup(admin, { name: 'Fixed' });
    const { rest: user } = await loggedInUser(tenant);

    const created = await user.post<ErrorBody>('/groups', { name: 'Mine' });
    expect(created.status).toBe(403);
    expect(created.body.code).toBe('FORBIDDEN');
    expect((await user.put(`/groups/${group.id}`, { name: 'Changed', version: group.version })).status).toBe(
      403,
    );
    expect(
      (await user.put(`/groups/partial/${group.id}`, { description: 'x', version: group.version })).status,
    ).toBe(403);
    expect((await user.delete(`/groups/${group.id}`)).status).toBe(403);
    // The async delete reports each id, as for users: refused ones are false.
    const bulk = await user.delete<{ result: Record<string, boolean> }>(`/groups/async/${group.id}`);
    expect(bulk.status).toBe(200);
    expect(bulk.body.result).toEqual({ [group.id]: false });

    const after = await getGroup(admin, group.id);
    expect(after.body).toMatchObject({ name: 'Fixed', description: null, version: group.version });
    expect((await listGroups(admin, { 'name-eq': 'Mine' })).body.totalElements).toBe(0);
  });

  it('names are unique per client, ignoring case (422)', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const editors = await createGroup(a.admin, { name: 'Editors' });
    const other = await createGroup(a.admin, { name: 'Reviewers' });

    const clash = await a.admin.post<ErrorBody>('/groups', { name: 'EDITORS' });
    expect(clash.status).toBe(422);
    expect(clash.body.code).toBe('UNPROCESSABLE');
    // The system groups' names are taken as well.
    expect((await a.admin.post('/groups', { name: 'all users' })).status).toBe(422);
    // Another client may use the name.
    expect((await b.admin.post('/groups', { name: 'editors' })).status).toBe(201);
    // Renaming onto a taken name is refused; a change of case of the own name is fine.
    expect((await patchGroup(a.admin, other.id, { name: 'editors' })).status).toBe(422);
    expect(
      (await a.admin.put(`/groups/${other.id}`, { name: 'Guests', version: other.version })).status,
    ).toBe(422);
    const recased = await patchGroup(a.admin, editors.id, { name: 'EDITORS' });
    expect(recased.status).toBe(200);
    expect(recased.body.name).toBe('EDITORS');
  });

  it('PUT and partial update need the current version (409); PUT erases missing attributes, partial keeps them', async () => {
    const { admin } = await newTenant();
    const group = await createGroup(admin, {
      name: 'Versioned',
      description: 'first',
      timeout: 3600,
      pwdChange: 30,
      langCode3: 'deu',
      viewsMap: { '1': [2] },
      hasApiAccess: true,
    });

    const noVersion = await admin.put<ErrorBody>(`/groups/${group.id}`, { name: 'Versioned' });
    expect(noVersion.status).toBe(409);
    expect(noVersion.body.code).toBe('CONFLICT');
    expect((await admin.put(`/groups/partial/${group.id}`, { description: 'no version' })).status).toBe(409);

    const patched = await admin.put<GroupBody>(`/groups/partial/${group.id}`, {
      description: 'second',
      version: group.version,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Versioned',
      description: 'second',
      timeout: 3600,
      pwdChange: 30,
      langCode3: 'deu',
      viewsMap: { '1': [2] },
    });
    expect(patched.body.version).toBeGreaterThan(group.version);

    // The version read before the patch is stale now.
    const stale = await admin.put(`/groups/${group.id}`, { name: 'Versioned', version: group.version });
    expect(stale.status).toBe(409);
    expect(
      (await admin.put(`/groups/partial/${group.id}`, { description: 'x', version: group.version })).status,
    ).toBe(409);

    // A null in the partial update clears that attribute only.
    const cleared = await admin.put<GroupBody>(`/groups/partial/${group.id}`, {
      pwdChange: null,
      version: patched.body.version,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ pwdChange: null, timeout: 3600, description: 'second' });

    const full = await admin.put<GroupBody>(`/groups/${group.id}`, {
      name: 'Renamed',
      version: cleared.body.version,
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      name: 'Renamed',
      description: null,
      timeout: null,
      pwdChange: null,
      langCode3: null,
      viewsMap: {},
      filterMap: {},
      hasApiAccess: false,
      type: 'NORMAL',
    });
  });

  it('system groups cannot be deleted (400) but can be renamed and described; the type sent is ignored', async () => {
    const { admin } = await newTenant();
    const system = await systemGroups(admin);
    for (const type of ['ALL_USERS', 'GUEST', 'OWNER'] as const) {
      const group = system[type];
      const deleted = await admin.delete<ErrorBody>(`/groups/${group.id}`);
      expect(deleted.status, type).toBe(400);
      expect(deleted.body.code).toBe('BAD_REQUEST');

      const renamed = await admin.put<GroupBody>(`/groups/partial/${group.id}`, {
        name: `Renamed ${type}`,
        description: `About ${type}`,
        type: 'NORMAL',
        version: group.version,
      });
      expect(renamed.status, type).toBe(200);
      expect(renamed.body).toMatchObject({ name: `Renamed ${type}`, description: `About ${type}`, type });
    }
    const after = await listGroups(admin, { 'include-private': true });
    expect(after.body.content.map((group) => [group.name, group.type])).toEqual([
      ['Renamed ALL_USERS', 'ALL_USERS'],
      ['Renamed GUEST', 'GUEST'],
      ['Renamed OWNER', 'OWNER'],
    ]);
  });

  it('the type of a NORMAL group cannot be changed through an update', async () => {
    const { admin } = await newTenant();
    const group = await createGroup(admin, { name: 'Plain' });
    const full = await admin.put<GroupBody>(`/groups/${group.id}`, {
      name: 'Plain',
      type: 'GUEST',
      version: group.version,
    });
    expect(full.status).toBe(200);
    expect(full.body.type).toBe('NORMAL');
    const system = await systemGroups(admin);
    expect(system.GUEST.id).not.toBe(group.id);
  });

  it('DELETE /groups/{id} answers 204 text/plain and soft-deletes (404 after, include-deleted for admins)', async () => {
    const { admin } = await newTenant();
    const group = await createGroup(admin, { name: 'Short-lived' });
    const response = await admin.delete(`/groups/${group.id}`);
    expect(response.status).toBe(204);
    expect(String(response.headers['content-type'])).toContain('text/plain');
    expect((await getGroup(admin, group.id)).status).toBe(404);
    const withDeleted = await getGroup(admin, group.id, { 'include-deleted': true });
    expect(withDeleted.status).toBe(200);
    expect(withDeleted.body.deleted).toBe(true);
    expect((await listGroups(admin)).body.content.map((g) => g.name)).not.toContain('Short-lived');
    expect((await admin.delete(`/groups/${group.id}`)).status).toBe(404);
  });

  it('DELETE /groups/async/{ids} reports each id: NORMAL groups true, system, unknown and foreign groups false', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const one = await createGroup(a.admin, { name: 'One' });
    const two = await createGroup(a.admin, { name: 'Two' });
    const foreign = await createGroup(b.admin, { name: 'Foreign' });
    const allUsers = (await systemGroups(a.admin)).ALL_USERS;
    const unknown = 2_000_000_000;

    const response = await a.admin.delete<{ result: Record<string, boolean> }>(
      `/groups/async/${one.id},${two.id},${allUsers.id},${foreign.id},${unknown}`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      result: {
        [one.id]: true,
        [two.id]: true,
        [allUsers.id]: false,
        [foreign.id]: false,
        [unknown]: false,
      },
    });
    expect((await getGroup(a.admin, one.id)).status).toBe(404);
    expect((await getGroup(a.admin, two.id)).status).toBe(404);
    expect((await getGroup(a.admin, allUsers.id)).status).toBe(200);
    expect((await getGroup(b.admin, foreign.id)).body.deleted).toBe(false);
  });
});

describe('group members', () => {
  it('groupMembers in the partial update replaces the members; EDIT shows them and their number', async () => {
    const { admin, tenant } = await newTenant();
    const [u1, u2, u3] = await Promise.all([
      createUser(t.orm, tenant.id, { username: `a${uniqueSuffix()}` }),
      createUser(t.orm, tenant.id, { username: `b${uniqueSuffix()}` }),
      createUser(t.orm, tenant.id, { username: `c${uniqueSuffix()}` }),
    ]);
    const group = await createGroup(admin, { name: 'Team' });

    const first = await patchGroup(admin, group.id, { groupMembers: [u1!.id, u2!.id] });
    expect(first.status).toBe(200);
    const edit = await getGroup(admin, group.id, { format: 'EDIT' });
    expect(edit.body.currentUsersNumber).toBe(2);
    expect(edit.body.groupMembers).toEqual([
      { id: u1!.id, username: u1!.username, fullName: `User ${u1!.username}` },
      { id: u2!.id, username: u2!.username, fullName: `User ${u2!.username}` },
    ]);
    // FULL does not carry the EDIT extras.
    const full = await getGroup(admin, group.id);
    expect(full.body).not.toHaveProperty('groupMembers');
    expect(full.body).not.toHaveProperty('currentUsersNumber');

    // A change of another attribute leaves the members as they are.
    expect((await patchGroup(admin, group.id, { description: 'still the same members' })).status).toBe(200);
    expect((await getGroup(admin, group.id, { format: 'EDIT' })).body.currentUsersNumber).toBe(2);

    // Members may also be sent as user objects; the list replaces the previous members.
    const replaced = await patchGroup(admin, group.id, {
      groupMembers: [{ id: u3!.id, username: u3!.username }],
      format: 'EDIT',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.groupMembers?.map((member) => member.id)).toEqual([u3!.id]);
    expect(replaced.body.currentUsersNumber).toBe(1);

    const emptied = await patchGroup(admin, group.id, { groupMembers: [] });
    expect(emptied.status).toBe(200);
    const afterEmpty = await getGroup(admin, group.id, { format: 'EDIT' });
    expect(afterEmpty.body.groupMembers).toEqual([]);
    expect(afterEmpty.body.currentUsersNumber).toBe(0);
  });

  it("All users' currentUsersNumber counts the client's named users (not guests, not other clients, not deleted)", async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const users = await Promise.all([1, 2, 3].map(() => createUser(t.orm, tenant.id)));
    await createUser(t.orm, other.tenant.id);
    // A guest account of the client.
    const guestSettings = await admin.put('/users/guest', {
      enabled: true,
      username: `guest${uniqueSuffix()}`,
      password: `guest-${uniqueSuffix()}`,
      loginMethod: 'NORMAL',
    });
    expect(guestSettings.status, guestSettings.text).toBe(200);

    const count = async (type: 'ALL_USERS' | 'GUEST') => {
      const id = (await systemGroups(admin))[type].id;
      return (await getGroup(admin, id, { format: 'EDIT' })).body.currentUsersNumber;
    };
    // The administrator plus the three users.
    expect(await count('ALL_USERS')).toBe(4);
    expect(await count('GUEST')).toBe(1);

    expect((await admin.delete(`/users/${users[0]!.id}`)).status).toBe(204);
    expect(await count('ALL_USERS')).toBe(3);
  });

  it('members of system groups cannot be set (400)', async () => {
    const { admin, tenant } = await newTenant();
    const user = await createUser(t.orm, tenant.id);
    const system = await systemGroups(admin);
    for (const type of ['ALL_USERS', 'GUEST', 'OWNER'] as const) {
      const response = await admin.put<ErrorBody>(`/groups/partial/${system[type].id}`, {
        groupMembers: [user.id],
        version: system[type].version,
      });
      expect(response.status, type).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
      expect((await getGroup(admin, system[type].id)).body.version).toBe(system[type].version);
    }
  });

  it('a user of another client is not accepted as a member (400) unless mapped to the client', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const own = await createUser(t.orm, a.tenant.id);
    const stranger = await createUser(t.orm, b.tenant.id);
    const group = await createGroup(a.admin, { name: 'Mixed', groupMembers: [own.id] });

    const refused = await patchGroup(a.admin, group.id, { groupMembers: [own.id, stranger.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    const unchanged = await getGroup(a.admin, group.id, { format: 'EDIT' });
    expect(unchanged.body.groupMembers?.map((member) => member.id)).toEqual([own.id]);

    // Refused on create as well.
    expect(
      (await a.admin.post('/groups', { name: 'Foreign members', groupMembers: [stranger.id] })).status,
    ).toBe(400);

    // Once a system administrator maps the user to the client, the user may be a member.
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [stranger.id],
      clients: [a.tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    const accepted = await patchGroup(a.admin, group.id, { groupMembers: [own.id, stranger.id] });
    expect(accepted.status, accepted.text).toBe(200);
  });
});

describe('group attributes', () => {
  it('viewsMap, filterMap, langCode3, timeout, pwdChange and hasApiAccess are stored and returned', async () => {
    const { admin } = await newTenant();
    const attributes = {
      viewsMap: { '12': [3, 4], '13': [] },
      filterMap: { '12': 7 },
      langCode3: 'fra',
      timeout: 5400,
      pwdChange: 90,
      hasApiAccess: true,
    };
    const created = await admin.post<GroupBody>('/groups', { name: 'Attributes', ...attributes });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(attributes);
    const read = await getGroup(admin, created.body.id);
    expect(read.body).toMatchObject(attributes);

    const changed = await patchGroup(admin, created.body.id, {
      viewsMap: { '99': [1] },
      filterMap: {},
      hasApiAccess: false,
      langCode3: null,
    });
    expect(changed.status).toBe(200);
    expect((await getGroup(admin, created.body.id)).body).toMatchObject({
      viewsMap: { '99': [1] },
      filterMap: {},
      hasApiAccess: false,
      langCode3: null,
      timeout: 5400,
      pwdChange: 90,
    });
  });

  it('langCode3 must be three lowercase letters (400)', async () => {
    const { admin } = await newTenant();
    for (const langCode3 of ['en', 'ENG', 'Eng', 'engl', 'e1g', '']) {
      const response = await admin.post<ErrorBody>('/groups', { name: `Lang ${uniqueSuffix()}`, langCode3 });
      expect(response.status, langCode3).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    const group = await createGroup(admin, { langCode3: 'deu' });
    expect(group.langCode3).toBe('deu');
    expect((await patchGroup(admin, group.id, { langCode3: 'DEU' })).status).toBe(400);
    expect((await getGroup(admin, group.id)).body.langCode3).toBe('deu');
  });

  it('the Guests group cannot get API access (400); other groups can', async () => {
    const { admin } = await newTenant();
    const system = await systemGroups(admin);
    const refused = await patchGroup(admin, system.GUEST.id, { hasApiAccess: true });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect((await getGroup(admin, system.GUEST.id)).body.hasApiAccess).toBe(false);
    expect(
      (
        await admin.put(`/groups/${system.GUEST.id}`, {
          name: system.GUEST.name,
          hasApiAccess: true,
          version: system.GUEST.version,
        })
      ).status,
    ).toBe(400);
    expect((await patchGroup(admin, system.GUEST.id, { hasApiAccess: false })).status).toBe(200);

    const allUsers = await patchGroup(admin, system.ALL_USERS.id, { hasApiAccess: true });
    expect(allUsers.status).toBe(200);
    expect(allUsers.body.hasApiAccess).toBe(true);
  });
});

describe('session length from groups', () => {
  const expectAbout = (actual: number, expected: number) => {
    // A few seconds of tolerance for the time the request takes.
    expect(Math.abs(actual - expected)).toBeLessThan(5_000);
  };

  it('a member of a group with timeout 7200 gets a 7200 s token; a non-member gets SESSION_TIMEOUT', async () => {
    const { admin, tenant } = await newTenant();
    const member = await createUser(t.orm, tenant.id);
    const outsider = await createUser(t.orm, tenant.id);
    await createGroup(admin, { name: 'Long sessions', timeout: 7200, groupMembers: [member.id] });

    const memberLogin = await loginForm(t, {
      client: tenant.loginName,
      username: member.username,
      password: member.password,
    });
    expect(memberLogin.status).toBe(200);
    expectAbout(memberLogin.body.token!.expirationTime, Date.now() + 7200 * 1000);

    const outsiderLogin = await loginForm(t, {
      client: tenant.loginName,
      username: outsider.username,
      password: outsider.password,
    });
    expect(outsiderLogin.status).toBe(200);
    expectAbout(outsiderLogin.body.token!.expirationTime, Date.now() + SESSION_TIMEOUT_S * 1000);
  });

  it("POST /extend-session keeps the group's session length", async () => {
    const { admin, tenant } = await newTenant();
    const member = await createUser(t.orm, tenant.id);
    await createGroup(admin, { name: 'Long sessions', timeout: 7200, groupMembers: [member.id] });
    const rest = await loginRest(t.app, member.username, member.password, tenant.loginName);
    const extended = await rest.post<{ expires: number }>('/extend-session');
    expect(extended.status).toBe(200);
    expectAbout(extended.body.expires, Date.now() + 7200 * 1000);
  });
});

describe('API access', () => {
  it('an API login needs the client API key and membership of a group with API access', async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const client = await sysadmin.post<{ apiKey: string }>(`/clients/generate-new-api-key/${tenant.id}`);
    expect(client.status).toBe(200);
    const apiKey = client.body.apiKey;
    expect(apiKey).toEqual(expect.any(String));
    const otherKey = (
      await sysadmin.post<{ apiKey: string }>(`/clients/generate-new-api-key/${other.tenant.id}`)
    ).body.apiKey;

    const user = await createUser(t.orm, tenant.id);
    const form = { client: tenant.loginName, username: user.username, password: user.password };
    // A group with API access the user is not in yet.
    const apiGroup = await createGroup(admin, { name: 'Integrations', hasApiAccess: true });

    const refused = await loginForm(t, { ...form, apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body.token).toBeNull();
    expect(refused.body.errorMessage).toEqual(expect.stringMatching(/API/));

    // A wrong key (or another client's key) is a failed login.
    const wrongKey = await loginForm(t, { ...form, apiKey: `${apiKey}x` });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.token).toBeNull();
    expect(wrongKey.body.errorMessage).toEqual(expect.any(String));
    expect((await loginForm(t, { ...form, apiKey: otherKey })).status).toBe(401);

    // Without a key it is an ordinary login.
    expect((await loginForm(t, form)).status).toBe(200);

    expect((await patchGroup(admin, apiGroup.id, { groupMembers: [user.id] })).status).toBe(200);
    const accepted = await loginForm(t, { ...form, apiKey });
    expect(accepted.status).toBe(200);
    expect(accepted.body.token?.token).toEqual(expect.any(String));
    expect(accepted.body.errorMessage).toBeNull();

    // The login history tells the API login apart from the ordinary one.
    const edit = await admin.get<{
      lastLogins: { apiLogin: boolean; userId: number; clientLogin: string }[];
    }>(`/users/${user.id}?format=EDIT`);
    expect(edit.status).toBe(200);
    expect(edit.body.lastLogins.map((item) => item.apiLogin)).toEqual([true, false]);
    expect(edit.body.lastLogins[0]).toMatchObject({ userId: user.id, clientLogin: tenant.loginName });
  });

  it('API access through the All users group counts for every named user; a wrong key still fails', async () => {
    const { admin, tenant } = await newTenant();
    const apiKey = (await sysadmin.post<{ apiKey: string }>(`/clients/generate-new-api-key/${tenant.id}`))
      .body.apiKey;
    const user = await createUser(t.orm, tenant.id);
    const form = { client: tenant.loginName, username: user.username, password: user.password };
    expect((await loginForm(t, { ...form, apiKey })).status).toBe(403);
    const allUsers = (await systemGroups(admin)).ALL_USERS;
    expect((await patchGroup(admin, allUsers.id, { hasApiAccess: true })).status).toBe(200);
    expect((await loginForm(t, { ...form, apiKey })).status).toBe(200);
    expect((await loginForm(t, { ...form, apiKey: 'not-the-key' })).status).toBe(401);
  });
});

describe('client limits at login', () => {
  it('maxConcurrentUsers refuses a login beyond the limit (403) but not a user already online', async () => {
    const tenant = await createTenant(sysadmin, { maxConcurrentUsers: 2 });
    const user1 = await createUser(t.orm, tenant.id);
    const user2 = await createUser(t.orm, tenant.id);
    const form = (user: { username: string; password: string }) => ({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
    });

    // The administrator is the first user online.
    const adminLogin = await loginForm(t, form({ username: 'admin', password: tenant.adminPassword }));
    expect(adminLogin.status, adminLogin.text).toBe(200);
    const first = await loginForm(t, form(user1));
    expect(first.status).toBe(200);

    const refused = await loginForm(t, form(user2));
    expect(refused.status).toBe(403);
    expect(refused.body.token).toBeNull();
    expect(refused.body.errorMessage).toEqual(expect.stringMatching(/concurrent/i));

    // user1 is online already and takes no second place.
    const again = await loginForm(t, form(user1));
    expect(again.status).toBe(200);

    // Once user1 has logged out everywhere, the place is free.
    for (const session of [first, again]) {
      const rest = new RestClient(t.app, session.body.token!.token);
      expect((await rest.post('/logout')).status).toBe(204);
    }
    const afterLogout = await loginForm(t, form(user2));
    expect(afterLogout.status, afterLogout.text).toBe(200);
  });
});
