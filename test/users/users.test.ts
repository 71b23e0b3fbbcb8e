// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserData } from '../../src/modules/auth/user-data.js';
import type { UserDto } from '../../src/modules/user/user.schema.js';
import type { ErrorBody } from '../../src/rest/error-body.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

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
type UserOut = Partial<UserDto> & { id: number };
type UserPage = Page<UserOut>;

let t: TestApp;
let anonymous: RestClient;
let sysadmin: RestClient;

const DEFAULT_PASSWORD_MESSAGE = 'A password needs at least 8 characters.';

const query = (params: Record<string, string | number | boolean>): string =>
  `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`;

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute<T[]>(text, params);
}

interface Tenant extends TestTenant {
  /** The tenant's administrator, logged in. */
  admin: RestClient;
  adminId: number;
}

/** A fresh tenant with its administrator logged in. */
async function newTenant(overrides: Record<string, unknown> = {}): Promise<Tenant> {
  const tenant = await createTenant(sysadmin, overrides);
  const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  const [row] = await sql<{ id: number }>("select id from users where client_id = ? and username = 'admin'", [
    tenant.id,
  ]);
  return { ...tenant, admin, adminId: row!.id };
}

interface UserSetup {
  username?: string;
  fullName?: string;
  roles?: string[];
  active?: boolean;
  createdAt?: string;
  changedAt?: string;
}

/** A user written through the ORM; full name and audit times set in SQL when given. */
async function addUser(clientId: number, setup: UserSetup = {}) {
  const user = await createUser(t.orm, clientId, {
    username: setup.username,
    roles: setup.roles,
    active: setup.active,
  });
  if (setup.fullName !== undefined)
    await sql('update users set full_name = ? where id = ?', [setup.fullName, user.id]);
  if (setup.createdAt) await sql('update users set created_at = ? where id = ?', [setup.createdAt, user.id]);
  if (setup.changedAt) await sql('update users set changed_at = ? where id = ?', [setup.changedAt, user.id]);
  return user;
}

const listUsers = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<UserPage & ErrorBody>(`/users${Object.keys(params).length ? query(params) : ''}`);

const usernames = (page: UserPage) => page.content.map((user) => user.username);

const getUser = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.get<UserOut & ErrorBody>(`/users/${id}${Object.keys(params).length ? query(params) : ''}`);

const login = (username: string, password: string, client: string) =>
  anonymous.call<LoginBody>('POST', '/login', { form: { username, password, client } });

/** Creates a user through the API as the given administrator and checks the 201. */
async function postUser(admin: RestClient, body: Record<string, unknown>) {
  const response = await admin.post<UserOut & ErrorBody>('/users', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

beforeAll(async () => {
  t = await buildTestApp();
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

describe('GET /users', () => {
  it("answers a Page of the client's own users only", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const own = [await addUser(a.id), await addUser(a.id), await addUser(a.id)];
    const foreign = await addUser(b.id);

    const response = await listUsers(a.admin);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      content: expect.any(Array),
      last: true,
      first: true,
      totalElements: 4,
      totalPages: 1,
      sort: 'username,ASC',
      numberOfElements: 4,
      size: 20,
      number: 0,
    });
    expect(usernames(response.body)).toEqual(['admin', ...own.map((user) => user.username)].sort());
    expect(usernames(response.body)).not.toContain(foreign.username);
    for (const user of response.body.content) expect(user.clientId).toBe(a.id);
  });

  it('filters login and name by username prefix ignoring case, name-eq by whole username', async () => {
    const a = await newTenant();
    await addUser(a.id, { username: 'alpha1' });
    await addUser(a.id, { username: 'Alpha2' });
    await addUser(a.id, { username: 'beta' });
    await addUser(a.id, { username: 'xalpha' });

    const prefixQueries: Record<string, string>[] = [{ login: 'ALP' }, { name: 'alp' }, { login: 'aLpHa' }];
    for (const params of prefixQueries) {
      const response = await listUsers(a.admin, params);
      expect(response.status, response.text).toBe(200);
      // Which of the two comes first depends on the database collation, so compare as a set.
      expect(usernames(response.body).sort()).toEqual(['Alpha2', 'alpha1'].sort());
      expect(response.body.totalElements).toBe(2);
    }
    const exact = await listUsers(a.admin, { 'name-eq': 'ALPHA1' });
    expect(usernames(exact.body)).toEqual(['alpha1']);
    // name-eq is equality, not a prefix.
    expect((await listUsers(a.admin, { 'name-eq': 'alp' })).body.totalElements).toBe(0);
    // LIKE wildcards match literally.
    expect((await listUsers(a.admin, { login: '_' })).body.totalElements).toBe(0);
    expect((await listUsers(a.admin, { login: '%' })).body.totalElements).toBe(0);
  });

  it('filters full-name by prefix ignoring case', async () => {
    const a = await newTenant();
    await addUser(a.id, { username: 'js', fullName: 'Smith John' });
    await addUser(a.id, { username: 'ws', fullName: 'smithers Waylon' });
    await addUser(a.id, { username: 'xs', fullName: 'John Smith' });

    const response = await listUsers(a.admin, { 'full-name': 'SMITH' });
    expect(response.status, response.text).toBe(200);
    expect(usernames(response.body)).toEqual(['js', 'ws']);
    expect(response.body.totalElements).toBe(2);
  });

  it("client_id: a client administrator asking for another client gets an empty page; a system administrator gets that client's users", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const bUser = await addUser(b.id);

    const foreign = await listUsers(a.admin, { client_id: b.id });
    expect(foreign.status, foreign.text).toBe(200);
    expect(foreign.body.content).toEqual([]);
    expect(foreign.body.totalElements).toBe(0);

    const own = await listUsers(a.admin, { client_id: a.id });
    expect(usernames(own.body)).toEqual(['admin']);

    const bySysadmin = await listUsers(sysadmin, { client_id: b.id });
    expect(bySysadmin.status, bySysadmin.text).toBe(200);
    expect(usernames(bySysadmin.body)).toEqual(['admin', bUser.username].sort());
    for (const user of bySysadmin.body.content) expect(user.clientId).toBe(b.id);
  });

  describe('sort', () => {
    let a: Tenant;
    // ids ascend in creation order: sa < sb < sc.
    beforeAll(async () => {
      a = await newTenant();
      await addUser(a.id, {
        username: 'sa',
        fullName: 'Zed',
        roles: ['USEREDITOR'],
        createdAt: '2020-01-03T00:00:00Z',
        changedAt: '2020-02-01T00:00:00Z',
      });
      await addUser(a.id, {
        username: 'sb',
        fullName: 'Amy',
        roles: [],
        active: false,
        createdAt: '2020-01-01T00:00:00Z',
        changedAt: '2020-02-03T00:00:00Z',
      });
      await addUser(a.id, {
        username: 'sc',
        fullName: 'Max',
        roles: ['ADMIN'],
        createdAt: '2020-01-02T00:00:00Z',
        changedAt: '2020-02-02T00:00:00Z',
      });
    });

    const cases: [string, string[]][] = [
      ['username', ['sa', 'sb', 'sc']],
      ['fullName', ['sb', 'sc', 'sa']],
      ['roles', ['sb', 'sc', 'sa']],
      // false before true; equal values in id order of the same direction.
      ['active', ['sb', 'sa', 'sc']],
      ['status', ['sb', 'sa', 'sc']],
      ['created', ['sb', 'sc', 'sa']],
      ['changed', ['sa', 'sc', 'sb']],
      ['modified', ['sa', 'sc', 'sb']],
    ];

    it.each(cases)('sorts by %s in both directions', async (attribute, ascending) => {
      const up = await listUsers(a.admin, { login: 's', sort: `${attribute},ASC` });
      expect(up.status, up.text).toBe(200);
      expect(usernames(up.body)).toEqual(ascending);
      expect(up.body.sort).toBe(`${attribute},ASC`);

      const down = await listUsers(a.admin, { login: 's', sort: `${attribute},DESC` });
      expect(down.status, down.text).toBe(200);
      expect(usernames(down.body)).toEqual([...ascending].reverse());
      expect(down.body.sort).toBe(`${attribute},DESC`);

      // Without a direction: ascending.
      const plain = await listUsers(a.admin, { login: 's', sort: attribute });
      expect(usernames(plain.body)).toEqual(ascending);
    });

    it('answers 400 for an unknown sort attribute or direction', async () => {
      for (const sort of ['password', 'email,ASC', 'username,UP']) {
        const response = await listUsers(a.admin, { sort });
        expect(response.status, `${sort}: ${response.text}`).toBe(400);
        expect(response.body.code).toBe('BAD_REQUEST');
      }
    });
  });

  it('pages with size and page: totalElements, totalPages, first and last', async () => {
    const a = await newTenant();
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) await addUser(a.id, { username: name });

    const first = await listUsers(a.admin, { login: 'p', size: 2, page: 0 });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      first: true,
      last: false,
      totalElements: 5,
      totalPages: 3,
      numberOfElements: 2,
      size: 2,
      number: 0,
    });
    expect(usernames(first.body)).toEqual(['p1', 'p2']);

    const middle = await listUsers(a.admin, { login: 'p', size: 2, page: 1 });
    expect(middle.body).toMatchObject({ first: false, last: false, number: 1, numberOfElements: 2 });
    expect(usernames(middle.body)).toEqual(['p3', 'p4']);

    const last = await listUsers(a.admin, { login: 'p', size: 2, page: 2 });
    expect(last.body).toMatchObject({
      first: false,
      last: true,
      totalElements: 5,
      number: 2,
      numberOfElements: 1,
    });
    expect(usernames(last.body)).toEqual(['p5']);

    const beyond = await listUsers(a.admin, { login: 'p', size: 2, page: 5 });
    expect(beyond.body.content).toEqual([]);
    expect(beyond.body.totalElements).toBe(5);
  });
});

describe('GET /users/rownum/{id}', () => {
  it('answers the 1-based position under the filters and sort, 0 when the user is not in the list', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const r1 = await addUser(a.id, { username: 'r1' });
    const r2 = await addUser(a.id, { username: 'r2' });
    const r3 = await addUser(a.id, { username: 'r3' });
    const other = await addUser(a.id, { username: 'zz' });
    const foreign = await addUser(b.id, { username: 'r0' });

    const rownum = (id: number, params: Record<string, string>) =>
      a.admin.get<number>(`/users/rownum/${id}${query(params)}`);

    const ascending = await rownum(r1.id, { login: 'r', sort: 'username,ASC' });
    expect(ascending.status, ascending.text).toBe(200);
    expect(ascending.body).toBe(1);
    expect((await rownum(r3.id, { login: 'r', sort: 'username,ASC' })).body).toBe(3);
    expect((await rownum(r1.id, { login: 'r', sort: 'username,DESC' })).body).toBe(3);
    expect((await rownum(r3.id, { login: 'r', sort: 'username,DESC' })).body).toBe(1);
    expect((await rownum(r2.id, { login: 'r', sort: 'username,DESC' })).body).toBe(2);
    // Filtered out, of another client, or unknown: 0.
    expect((await rownum(other.id, { login: 'r' })).body).toBe(0);
    expect((await rownum(foreign.id, { login: 'r' })).body).toBe(0);
    expect((await rownum(2_000_000_000, { login: 'r' })).body).toBe(0);
    // Without a filter the tenant's admin counts too.
    expect((await rownum(other.id, { sort: 'username,ASC' })).body).toBe(5);
  });
});

describe('formats', () => {
  it('ID answers only the id, SHORT id, username, fullName, active and type', async () => {
    const a = await newTenant();
    const user = await addUser(a.id, { username: 'shorty', fullName: 'Short Y' });

    const id = await getUser(a.admin, user.id, { format: 'ID' });
    expect(id.status, id.text).toBe(200);
    expect(id.body).toEqual({ id: user.id });

    const short = await getUser(a.admin, user.id, { format: 'SHORT' });
    expect(short.body).toEqual({
      id: user.id,
      username: 'shorty',
      fullName: 'Short Y',
      active: true,
      type: 'NORMAL',
    });

    const list = await listUsers(a.admin, { format: 'ID', 'name-eq': 'shorty' });
    expect(list.body.content).toEqual([{ id: user.id }]);
    const shortList = await listUsers(a.admin, { format: 'SHORT', 'name-eq': 'shorty' });
    expect(shortList.body.content).toEqual([short.body]);
  });

  it('FULL answers every attribute and no EDIT extras; EDIT adds password placeholders, roles, clientIds, groups and flags', async () => {
    const a = await newTenant();
    const group = await a.admin.post<{ id: number; name: string }>('/groups', {
      name: `Team ${uniqueSuffix()}`,
    });
    expect(group.status, group.text).toBe(201);
    const created = await postUser(a.admin, {
      username: 'fuller',
      fullName: 'Full Er',
      email: 'full@example.org',
      title: 'Dr',
      expDate: Date.UTC(2040, 0, 2),
      password: 'full-password-1',
      roles: ['USEREDITOR'],
      groups: [group.body.id],
      forcePasswordChange: true,
    });
    const adminRef = {
      id: a.adminId,
      name: 'admin',
      fullName: 'Administrator',
      time: expect.any(Number),
      oid: null,
    };

    const full = await getUser(a.admin, created.id);
    expect(full.status, full.text).toBe(200);
    expect(full.body).toEqual({
      id: created.id,
      oid: null,
      version: expect.any(Number),
      clientId: a.id,
      deleted: false,
      created: adminRef,
      changed: adminRef,
      username: 'fuller',
      fullName: 'Full Er',
      email: 'full@example.org',
      title: 'Dr',
      expDate: Date.UTC(2040, 0, 2),
      type: 'NORMAL',
      active: true,
      originType: 'TERMWEB',
      roles: ['USEREDITOR'],
    });

    const edit = await getUser(a.admin, created.id, { format: 'EDIT' });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toEqual({
      ...full.body,
      password: '******',
      confirmPassword: '******',
      clientIds: [],
      groups: [{ id: group.body.id, name: group.body.name, type: 'NORMAL' }],
      sendNotificationEmail: false,
      forcePasswordChange: true,
      lastLogins: [],
    });
  });

  it('EDIT lists the last logins for administrators: login, client, times, address and apiLogin', async () => {
    const a = await newTenant();
    const user = await addUser(a.id);
    const before = Date.now();
    const first = await loginRest(t.app, user.username, user.password, a.loginName);
    const second = await loginRest(t.app, user.username, user.password, a.loginName);
    expect((await first.post('/logout')).status).toBe(204);
    const after = Date.now();

    const edit = await getUser(a.admin, user.id, { format: 'EDIT' });
    expect(edit.status, edit.text).toBe(200);
    const logins = edit.body.lastLogins!;
    expect(logins).toHaveLength(2);
    const item = {
      userLogin: user.username,
      userId: user.id,
      clientLogin: a.loginName,
      loginTime: expect.any(Number),
      ipAddress: expect.any(String),
      apiLogin: false,
      apiRequests: expect.any(Number),
    };
    // Newest first: the second login is still open, the first one was logged out.
    expect(logins[0]).toEqual({ ...item, logoutTime: null });
    expect(logins[1]).toEqual({ ...item, logoutTime: expect.any(Number) });
    expect(logins[0]!.loginTime).toBeGreaterThanOrEqual(logins[1]!.loginTime);
    for (const entry of logins) {
      expect(entry.loginTime).toBeGreaterThanOrEqual(before - 1000);
      expect(entry.loginTime).toBeLessThanOrEqual(after + 1000);
      expect(entry.ipAddress).not.toBe('');
    }
    expect(logins[1]!.logoutTime!).toBeGreaterThanOrEqual(logins[1]!.loginTime);
    expect(logins[1]!.logoutTime!).toBeLessThanOrEqual(after + 1000);

    // Not for ordinary users, not even on their own account.
    const own = await getUser(second, user.id, { format: 'EDIT' });
    expect(own.status, own.text).toBe(200);
    expect(own.body.password).toBe('******');
    expect(own.body).not.toHaveProperty('lastLogins');
  });
});

describe('POST /users', () => {
  it('answers 201 with the new user, who can log in with the password', async () => {
    const a = await newTenant();
    const created = await a.admin.post<UserOut>('/users', {
      username: 'newbie',
      fullName: 'New Bie',
      email: 'newbie@example.org',
      password: 'newbie-password',
      confirmPassword: 'newbie-password',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      clientId: a.id,
      username: 'newbie',
      fullName: 'New Bie',
      email: 'newbie@example.org',
      active: true,
      type: 'NORMAL',
      roles: [],
    });
    expect((await getUser(a.admin, created.body.id)).body).toEqual(created.body);
    const session = await loginRest(t.app, 'newbie', 'newbie-password', a.loginName);
    expect((await getUser(session, created.body.id)).status).toBe(200);
  });

  it('answers 422 for a username taken in the client, ignoring case; another client may use it', async () => {
    const a = await newTenant();
    const b = await newTenant();
    await postUser(a.admin, { username: 'Taken', password: 'taken-password' });

    for (const username of ['Taken', 'taken', 'TAKEN', ' taken ']) {
      const clash = await a.admin.post<ErrorBody>('/users', { username, password: 'taken-password' });
      expect(clash.status, `${username}: ${clash.text}`).toBe(422);
      expect(clash.body.code).toBe('UNPROCESSABLE');
    }
    // The administrator is a user of the client too.
    expect((await a.admin.post('/users', { username: 'ADMIN', password: 'admin-password' })).status).toBe(
      422,
    );
    await postUser(b.admin, { username: 'taken', password: 'taken-password' });
    expect((await listUsers(a.admin, { login: 'taken' })).body.totalElements).toBe(1);
  });

  it('answers 400 for a username with characters other than Latin letters, digits and _ . @ -', async () => {
    const a = await newTenant();
    for (const username of ['bad name', 'jürgen', 'semi;colon', 'slash/er', '']) {
      const response = await a.admin.post<ErrorBody>('/users', { username, password: 'valid-password' });
      expect(response.status, `${username}: ${response.text}`).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    await postUser(a.admin, { username: 'ok_name.1@x-y', password: 'valid-password' });
    expect((await listUsers(a.admin)).body.totalElements).toBe(2);
  });

  it('answers 400 when password and confirmPassword differ, and creates nothing', async () => {
    const a = await newTenant();
    const response = await a.admin.post<ErrorBody>('/users', {
      username: 'mismatch',
      password: 'first-password',
      confirmPassword: 'other-password',
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await listUsers(a.admin, { 'name-eq': 'mismatch' })).body.totalElements).toBe(0);
  });

  it('answers 400 with the settings message for a password that breaks the password settings', async () => {
    const a = await newTenant();
    const response = await a.admin.post<ErrorBody>('/users', { username: 'weak', password: 'short' });
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST', message: DEFAULT_PASSWORD_MESSAGE });
    expect((await listUsers(a.admin, { 'name-eq': 'weak' })).body.totalElements).toBe(0);
  });

  it('answers 400 for an unknown role, and creates nothing', async () => {
    const a = await newTenant();
    const response = await a.admin.post<ErrorBody>('/users', {
      username: 'roleless',
      password: 'valid-password',
      roles: ['USEREDITOR', 'NO_SUCH_ROLE'],
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect(response.body.message).toContain('NO_SUCH_ROLE');
    expect((await listUsers(a.admin, { 'name-eq': 'roleless' })).body.totalElements).toBe(0);
  });

  it('makes the user a member of the groups given by id', async () => {
    const a = await newTenant();
    const g1 = await a.admin.post<{ id: number; name: string }>('/groups', { name: 'Alpha team' });
    const g2 = await a.admin.post<{ id: number; name: string }>('/groups', { name: 'Beta team' });
    expect(g1.status, g1.text).toBe(201);
    expect(g2.status, g2.text).toBe(201);
    const user = await postUser(a.admin, {
      username: 'member',
      password: 'valid-password',
      groups: [g1.body.id],
    });

    const edit = await getUser(a.admin, user.id, { format: 'EDIT' });
    expect(edit.body.groups).toEqual([{ id: g1.body.id, name: 'Alpha team', type: 'NORMAL' }]);
    const group = await a.admin.get<{ groupMembers: { id: number }[] }>(`/groups/${g1.body.id}?format=EDIT`);
    expect(group.body.groupMembers.map((member) => member.id)).toEqual([user.id]);
  });

  it('accepts expDate as ms epoch and as yyyy-MM-dd', async () => {
    const a = await newTenant();
    const epoch = Date.UTC(2035, 6, 14, 12, 30);
    const byEpoch = await postUser(a.admin, {
      username: 'epoch',
      password: 'valid-password',
      expDate: epoch,
    });
    expect(byEpoch.expDate).toBe(epoch);
    const byDate = await postUser(a.admin, {
      username: 'dated',
      password: 'valid-password',
      expDate: '2031-05-17',
    });
    expect(byDate.expDate).toBe(Date.UTC(2031, 4, 17));
    expect((await getUser(a.admin, byDate.id)).body.expDate).toBe(Date.UTC(2031, 4, 17));
    const bad = await a.admin.post('/users', {
      username: 'baddate',
      password: 'valid-password',
      expDate: '17.05.2031',
    });
    expect(bad.status).toBe(400);
  });
});

describe('GET /users/password-settings', () => {
  it('answers the configured rule and message', async () => {
    const a = await newTenant();
    const response = await a.admin.get('/users/password-settings');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ regExp: t.config.PASSWORD_REGEXP, msg: DEFAULT_PASSWORD_MESSAGE });
    const user = await addUser(a.id);
    const ordinary = await loginRest(t.app, user.username, user.password, a.loginName);
    expect((await ordinary.get('/users/password-settings')).body).toEqual(response.body);
  });

  it('follows PASSWORD_REGEXP and PASSWORD_MESSAGE, and new passwords must match them', async () => {
    const other = await buildTestApp({ PASSWORD_REGEXP: '^\\d{6}$', PASSWORD_MESSAGE: 'six digits' });
    try {
      const root = await loginSysadmin(other.app);
      const tenant = await createTenant(root, { adminUser: { password: '123456' } });
      const admin = await loginRest(other.app, 'admin', '123456', tenant.loginName);
      const settings = await admin.get('/users/password-settings');
      expect(settings.status, settings.text).toBe(200);
      expect(settings.body).toEqual({ regExp: '^\\d{6}$', msg: 'six digits' });

      const refused = await admin.post<ErrorBody>('/users', { username: 'sixer', password: 'abcdefgh' });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.message).toBe('six digits');
      const accepted = await admin.post('/users', { username: 'sixer', password: '654321' });
      expect(accepted.status, accepted.text).toBe(201);
      await loginRest(other.app, 'sixer', '654321', tenant.loginName);
    } finally {
      await other.close();
    }
  });
});

describe('PUT /users/{id} and /users/partial/{id}', () => {
  async function richUser(a: Tenant) {
    return postUser(a.admin, {
      username: 'rich',
      fullName: 'Rich Person',
      email: 'rich@example.org',
      title: 'Dr',
      expDate: Date.UTC(2040, 0, 1),
      password: 'rich-password',
      roles: ['USEREDITOR'],
    });
  }

  it('full update erases missing fullName, email, title and expDate; keeps roles and password when not sent', async () => {
    const a = await newTenant();
    const user = await richUser(a);
    const response = await a.admin.put<UserOut & ErrorBody>(`/users/${user.id}`, {
      username: 'rich',
      version: user.version,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      username: 'rich',
      fullName: null,
      email: null,
      title: null,
      expDate: null,
      roles: ['USEREDITOR'],
      active: true,
    });
    expect(response.body.version).toBeGreaterThan(user.version!);
    expect((await getUser(a.admin, user.id)).body).toEqual(response.body);
    // The password is unchanged: the old one still works.
    await loginRest(t.app, 'rich', 'rich-password', a.loginName);

    // ****** keeps the password too; a real value replaces it.
    const kept = await a.admin.put<UserOut>(`/users/${user.id}`, {
      username: 'rich',
      password: '******',
      confirmPassword: '******',
      version: response.body.version,
    });
    expect(kept.status, kept.text).toBe(200);
    await loginRest(t.app, 'rich', 'rich-password', a.loginName);
    const changed = await a.admin.put<UserOut>(`/users/${user.id}`, {
      username: 'rich',
      password: 'rich-password-2',
      version: kept.body.version,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await login('rich', 'rich-password', a.loginName)).status).toBe(401);
    await loginRest(t.app, 'rich', 'rich-password-2', a.loginName);
  });

  it('answers 409 for a stale or missing version and changes nothing', async () => {
    const a = await newTenant();
    const user = await richUser(a);
    const first = await a.admin.put<UserOut>(`/users/partial/${user.id}`, {
      title: 'Prof',
      version: user.version,
    });
    expect(first.status, first.text).toBe(200);

    for (const [path, body] of [
      [`/users/${user.id}`, { username: 'rich', fullName: 'Stale', version: user.version }],
      [`/users/${user.id}`, { username: 'rich', fullName: 'Missing' }],
      [`/users/partial/${user.id}`, { fullName: 'Stale', version: user.version }],
      [`/users/partial/${user.id}`, { fullName: 'Missing' }],
    ] as const) {
      const response = await a.admin.put<ErrorBody>(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}: ${response.text}`).toBe(409);
      expect(response.body.code).toBe('CONFLICT');
    }
    const stored = await getUser(a.admin, user.id);
    expect(stored.body).toEqual(first.body);
  });

  it('partial update changes only the attributes sent; null clears', async () => {
    const a = await newTenant();
    const user = await richUser(a);
    const titled = await a.admin.put<UserOut & ErrorBody>(`/users/partial/${user.id}`, {
      title: 'Prof',
      version: user.version,
    });
    expect(titled.status, titled.text).toBe(200);
    expect(titled.body).toEqual({
      ...user,
      title: 'Prof',
      version: expect.any(Number),
      changed: expect.any(Object),
    });

    const cleared = await a.admin.put<UserOut>(`/users/partial/${user.id}`, {
      email: null,
      expDate: null,
      version: titled.body.version,
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      username: 'rich',
      fullName: 'Rich Person',
      email: null,
      title: 'Prof',
      expDate: null,
      roles: ['USEREDITOR'],
    });
    const renamed = await a.admin.put<UserOut>(`/users/partial/${user.id}`, {
      username: 'richer',
      version: cleared.body.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'richer', fullName: 'Rich Person', title: 'Prof' });
    await loginRest(t.app, 'richer', 'rich-password', a.loginName);
  });
});

describe('expiry and activity', () => {
  it('a user whose expDate has passed cannot log in', async () => {
    const a = await newTenant();
    const future = await postUser(a.admin, {
      username: 'future',
      password: 'valid-password',
      expDate: Date.now() + 86_400_000,
    });
    await loginRest(t.app, 'future', 'valid-password', a.loginName);
    await postUser(a.admin, { username: 'expired', password: 'valid-password', expDate: '2001-01-01' });
    expect((await login('expired', 'valid-password', a.loginName)).status).toBe(401);
    // Moving the expiry into the past locks out a user who could log in before.
    await a.admin.put(`/users/partial/${future.id}`, { expDate: Date.now() - 1000, version: future.version });
    expect((await login('future', 'valid-password', a.loginName)).status).toBe(401);
  });

  it('an inactive user cannot log in', async () => {
    const a = await newTenant();
    await postUser(a.admin, { username: 'idle', password: 'valid-password', active: false });
    const response = await login('idle', 'valid-password', a.loginName);
    expect(response.status).toBe(401);
    expect(response.body.token).toBeNull();
  });

  it('deactivating a logged-in user ends the session: the token stays dead after reactivation', async () => {
    const a = await newTenant();
    const created = await postUser(a.admin, { username: 'worker', password: 'valid-password' });
    const session = await loginRest(t.app, 'worker', 'valid-password', a.loginName);
    expect((await listUsers(session)).status).toBe(200);

    const off = await a.admin.put<UserOut>(`/users/partial/${created.id}`, {
      active: false,
      version: created.version,
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await listUsers(session)).status).toBe(401);

    const on = await a.admin.put<UserOut>(`/users/partial/${off.body.id}`, {
      active: true,
      version: off.body.version,
    });
    expect(on.status, on.text).toBe(200);
    expect((await listUsers(session)).status).toBe(401);
    const fresh = await loginRest(t.app, 'worker', 'valid-password', a.loginName);
    expect((await listUsers(fresh)).status).toBe(200);
  });
});

describe('DELETE /users', () => {
  it('answers 204; the user is then 404 unless include-deleted, unlisted, and cannot log in', async () => {
    const a = await newTenant();
    const user = await addUser(a.id);
    const session = await loginRest(t.app, user.username, user.password, a.loginName);

    const response = await a.admin.delete(`/users/${user.id}`);
    expect(response.status, response.text).toBe(204);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);

    expect((await getUser(a.admin, user.id)).status).toBe(404);
    const deleted = await getUser(a.admin, user.id, { 'include-deleted': true });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect(usernames((await listUsers(a.admin)).body)).toEqual(['admin']);
    expect((await login(user.username, user.password, a.loginName)).status).toBe(401);
    expect((await listUsers(session)).status).toBe(401);
    // Deleting again: it is gone.
    expect((await a.admin.delete(`/users/${user.id}`)).status).toBe(404);
  });

  it('DELETE /users/async/{ids} answers a result per id, false for an unknown id', async () => {
    const a = await newTenant();
    const u1 = await addUser(a.id);
    const u2 = await addUser(a.id);
    const unknown = 2_000_000_001;
    const response = await a.admin.delete<{ result: Record<string, boolean> }>(
      `/users/async/${u1.id},${unknown},${u2.id}`,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: { [u1.id]: true, [u2.id]: true, [unknown]: false } });
    expect((await getUser(a.admin, u1.id)).status).toBe(404);
    expect((await getUser(a.admin, u2.id)).status).toBe(404);
  });
});

describe('client limit maxUsers', () => {
  it('refuses a user account beyond maxUsers (the administrator counts) with 400 naming the maximum', async () => {
    const a = await newTenant({ maxUsers: 3 });
    await postUser(a.admin, { username: 'second', password: 'valid-password' });
    await postUser(a.admin, { username: 'third', password: 'valid-password' });
    const refused = await a.admin.post<ErrorBody>('/users', {
      username: 'fourth',
      password: 'valid-password',
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect(refused.body.message).toMatch(/\b3\b/);
    expect((await listUsers(a.admin)).body.totalElements).toBe(3);
  });

  it('with maxUsers 2 and maxConcurrentUsers 10: one more user fits, the next answers 400', async () => {
    const a = await newTenant({ maxUsers: 2, maxConcurrentUsers: 10 });
    await postUser(a.admin, { username: 'second', password: 'valid-password' });
    const refused = await a.admin.post<ErrorBody>('/users', {
      username: 'third',
      password: 'valid-password',
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect(refused.body.message).toMatch(/\b2\b/);
    expect((await listUsers(a.admin)).body.totalElements).toBe(2);
  });
});

describe('PUT /users/assign-clients and /users/clients', () => {
  it('maps users to exactly the clients sent, replacing earlier mappings', async () => {
    const home = await newTenant();
    const b = await newTenant();
    const c = await newTenant();
    const u1 = await addUser(home.id);
    const u2 = await addUser(home.id);

    const first = await sysadmin.put<number>('/users/assign-clients/', {
      users: [u1.id, u2.id],
      clients: [b.id],
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toBe(2);
    expect((await getUser(sysadmin, u1.id, { format: 'EDIT' })).body.clientIds).toEqual([b.id]);
    expect((await getUser(sysadmin, u2.id, { format: 'EDIT' })).body.clientIds).toEqual([b.id]);
    // Listed among the users of the other client, for its administrator too.
    expect(usernames((await listUsers(b.admin)).body)).toEqual(['admin', u1.username, u2.username].sort());
    expect((await getUser(b.admin, u1.id)).status).toBe(200);
    // Still listed at home.
    expect(usernames((await listUsers(home.admin)).body)).toContain(u1.username);

    const second = await sysadmin.put<number>('/users/clients', { users: [u1.id], clients: [c.id] });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toBe(1);
    expect((await getUser(sysadmin, u1.id, { format: 'EDIT' })).body.clientIds).toEqual([c.id]);
    expect((await getUser(sysadmin, u2.id, { format: 'EDIT' })).body.clientIds).toEqual([b.id]);
    expect(usernames((await listUsers(b.admin)).body)).toEqual(['admin', u2.username].sort());
    expect(usernames((await listUsers(c.admin)).body)).toEqual(['admin', u1.username].sort());
    expect((await getUser(b.admin, u1.id)).status).toBe(404);

    // No clients: every mapping goes.
    const none = await sysadmin.put<number>('/users/assign-clients', { users: [u1.id], clients: [] });
    expect(none.body).toBe(1);
    expect((await getUser(sysadmin, u1.id, { format: 'EDIT' })).body.clientIds).toEqual([]);
  });

  it('answers 404 for an unknown user and 403 for a client administrator', async () => {
    const home = await newTenant();
    const b = await newTenant();
    const user = await addUser(home.id);
    for (const path of ['/users/assign-clients', '/users/clients']) {
      const unknown = await sysadmin.put<ErrorBody>(path, {
        users: [user.id, 2_000_000_002],
        clients: [b.id],
      });
      expect(unknown.status, unknown.text).toBe(404);
      const byAdmin = await home.admin.put<ErrorBody>(path, { users: [user.id], clients: [b.id] });
      expect(byAdmin.status, byAdmin.text).toBe(403);
    }
    expect((await getUser(sysadmin, user.id, { format: 'EDIT' })).body.clientIds).toEqual([]);
  });
});

describe('POST /switch-client', () => {
  it('moves a mapped user to the other client; the user list is then that client', async () => {
    const home = await newTenant();
    const b = await newTenant();
    const bUser = await addUser(b.id);
    const user = await addUser(home.id, { roles: ['USEREDITOR'] });
    expect((await sysadmin.put('/users/assign-clients', { users: [user.id], clients: [b.id] })).status).toBe(
      200,
    );
    const session = await loginRest(t.app, user.username, user.password, home.loginName);

    const response = await session.post<UserData & ErrorBody>('/switch-client', { client_id: b.id });
    expect(response.status, response.text).toBe(200);
    // Roles hold in the home client: in a mapped client the user acts as an ordinary user.
    expect(response.body).toMatchObject({
      isSystem: false,
      roles: [],
      user: { id: user.id, username: user.username, clientId: home.id },
    });
    expect([...response.body.activeClientIds].sort()).toEqual([home.id, b.id].sort());
    expect(response.body.clients).toEqual(
      expect.arrayContaining([
        { id: home.id, name: home.name, loginName: home.loginName },
        { id: b.id, name: b.name, loginName: b.loginName },
      ]),
    );
    expect(response.body.clients).toHaveLength(2);

    const list = await listUsers(session);
    expect(list.status, list.text).toBe(200);
    expect(usernames(list.body)).toEqual(['admin', bUser.username, user.username].sort());
    for (const listed of list.body.content.filter((entry) => entry.id !== user.id))
      expect(listed.clientId).toBe(b.id);
  });

  it('gives a client administrator of one client no administrator rights in a client they are mapped to', async () => {
    const home = await newTenant();
    const other = await newTenant();
    const otherUser = await addUser(other.id);
    const admin = await addUser(home.id, { roles: ['ADMIN'] });
    expect(
      (await sysadmin.put('/users/assign-clients', { users: [admin.id], clients: [other.id] })).status,
    ).toBe(200);
    const session = await loginRest(t.app, admin.username, admin.password, home.loginName);
    expect((await session.post('/switch-client', { client_id: other.id })).status).toBe(200);

    const created = await session.post<ErrorBody>('/users', {
      username: 'intruder',
      password: 'intruder-pass-1',
    });
    expect(created.status).toBe(403);
    const current = await getUser(session, otherUser.id);
    const edited = await session.put<ErrorBody>(`/users/partial/${otherUser.id}`, {
      version: (current.body as { version: number }).version,
      active: false,
    });
    expect(edited.status).toBe(403);
    expect((await session.delete(`/users/${otherUser.id}`)).status).toBe(403);

    // Back home the administrator is one again.
    expect((await session.post('/switch-client', { client_id: home.id })).status).toBe(200);
    expect((await session.post('/users', { username: 'welcome', password: 'welcome-pass-1' })).status).toBe(
      201,
    );
  });

  it('answers 404 for a client the user is not mapped to and 400 for an extra member', async () => {
    const home = await newTenant();
    const b = await newTenant();
    const user = await addUser(home.id);
    const session = await loginRest(t.app, user.username, user.password, home.loginName);

    const unmapped = await session.post<ErrorBody>('/switch-client', { client_id: b.id });
    expect(unmapped.status, unmapped.text).toBe(404);
    expect(unmapped.body.code).toBe('NOT_FOUND');
    // The session stayed at home.
    expect(usernames((await listUsers(session)).body)).toContain(user.username);

    const extra = await session.post<ErrorBody>('/switch-client', { client_id: home.id, other: 1 });
    expect(extra.status, extra.text).toBe(400);
    expect(extra.body.code).toBe('BAD_REQUEST');
    // Back to the home client is allowed.
    expect((await session.post('/switch-client', { client_id: home.id })).status).toBe(200);
  });

  it('lets a system administrator switch to any client', async () => {
    const b = await newTenant();
    const bUser = await addUser(b.id);
    // A session of its own: switching moves the session, and the shared one must stay in the default client.
    const root = await loginSysadmin(t.app);
    const response = await root.post<UserData>('/switch-client', { client_id: b.id });
    expect(response.status, response.text).toBe(200);
    expect(response.body.isSystem).toBe(true);
    expect(response.body.activeClientIds).toContain(b.id);
    expect(usernames((await listUsers(root)).body)).toEqual(['admin', bUser.username].sort());
  });
});

describe('POST /logout-user', () => {
  it("a client administrator ends a user's sessions: 204, and the user's token is dead", async () => {
    const a = await newTenant();
    const user = await addUser(a.id);
    const session = await loginRest(t.app, user.username, user.password, a.loginName);
    expect((await listUsers(session)).status).toBe(200);

    const response = await a.admin.call('POST', `/logout-user?user-id=${user.id}`);
    expect(response.status, response.text).toBe(204);
    expect((await listUsers(session)).status).toBe(401);
    // The user can log in again.
    const fresh = await loginRest(t.app, user.username, user.password, a.loginName);
    expect((await listUsers(fresh)).status).toBe(200);
  });

  it('answers 403 to an ordinary user and 404 for a user of another client', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const ordinary = await addUser(a.id);
    const victim = await addUser(a.id);
    const foreign = await addUser(b.id);
    const victimSession = await loginRest(t.app, victim.username, victim.password, a.loginName);
    const foreignSession = await loginRest(t.app, foreign.username, foreign.password, b.loginName);
    const caller = await loginRest(t.app, ordinary.username, ordinary.password, a.loginName);

    const refused = await caller.call<ErrorBody>('POST', `/logout-user?user-id=${victim.id}`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await listUsers(victimSession)).status).toBe(200);

    const hidden = await a.admin.call<ErrorBody>('POST', `/logout-user?user-id=${foreign.id}`);
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');
    expect((await listUsers(foreignSession)).status).toBe(200);
  });
});
