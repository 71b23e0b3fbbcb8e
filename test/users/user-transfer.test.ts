// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/auth/password.js';
import type { UserDto } from '../../src/modules/user/user.schema.js';
import type { UserImportResult } from '../../src/modules/user/user-transfer.schema.js';
import type { ErrorBody } from '../../src/rest/error-body.js';
import { createDictionary } from '../factories/dictionary.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, loginSysadmin, RestClient, type RestResponse } from '../helpers/rest.js';

/**
 * GET /api/v4/users/export and POST /api/v4/users/import (multipart): the XML file of users, their
 * password hashes, roles, groups and client mappings; a bad file changes nothing.
 */

interface Page<T> {
  content: T[];
  totalElements: number;
}
type UserOut = Partial<UserDto> & { id: number };
interface GroupOut {
  id: number;
  clientId: number;
  name: string;
  description: string | null;
  timeout: number | null;
  pwdChange: number | null;
  langCode3: string | null;
  hasApiAccess: boolean;
  type: string;
  version: number;
  currentUsersNumber?: number;
  groupMembers?: { id: number; username: string; fullName: string | null }[];
}

let t: TestApp;
let anonymous: RestClient;
let sysadmin: RestClient;

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = [], app = t): Promise<T[]> {
  return app.orm.em.fork().getConnection().execute<T[]>(text, params);
}

interface Tenant extends TestTenant {
  admin: RestClient;
  adminId: number;
}

async function newTenant(overrides: Record<string, unknown> = {}, app = t, sys = sysadmin): Promise<Tenant> {
  const tenant = await createTenant(sys, overrides);
  const admin = await loginRest(app.app, 'admin', tenant.adminPassword, tenant.loginName);
  const [row] = await sql<{ id: number }>(
    "select id from users where client_id = ? and username = 'admin'",
    [tenant.id],
    app,
  );
  return { ...tenant, admin, adminId: row!.id };
}

// ---------------------------------------------------------------- multipart

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

const BOUNDARY = '----polyterm-test-boundary-5f3a9c';

/** A multipart/form-data body written by hand. */
function multipartBody(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    head += '\r\n';
    chunks.push(Buffer.from(head), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

type ImportResponse = RestResponse<UserImportResult & ErrorBody>;

/** POST /users/import with the given multipart parts (or any raw body and content type). */
async function postImport(
  caller: RestClient,
  body: { parts: Part[] } | { payload: string | Buffer; contentType: string },
  options: { query?: string; app?: TestApp } = {},
): Promise<ImportResponse> {
  const app = options.app ?? t;
  const headers: Record<string, string> = {};
  if (caller.token) headers['x-auth-token'] = caller.token;
  let payload: string | Buffer;
  if ('parts' in body) {
    headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
    payload = multipartBody(body.parts);
  } else {
    headers['content-type'] = body.contentType;
    payload = body.payload;
  }
  const response = await app.app.inject({
    method: 'POST',
    url: `/api/v4/users/import${options.query ?? ''}`,
    headers,
    payload,
  });
  let parsed: unknown = response.body;
  if (String(response.headers['content-type'] ?? '').includes('json') && response.body !== '') {
    parsed = JSON.parse(response.body);
  }
  return {
    status: response.statusCode,
    headers: response.headers,
    body: parsed as UserImportResult & ErrorBody,
    text: response.body,
  };
}

/** Imports an XML document as the multipart member `file`, with fileName and the given extra fields. */
function importXml(
  caller: RestClient,
  xml: string,
  options: { fields?: Record<string, string>; query?: string; app?: TestApp } = {},
): Promise<ImportResponse> {
  const parts: Part[] = [
    { name: 'fileName', value: 'users.xml' },
    { name: 'file', value: xml, filename: 'users.xml', contentType: 'application/xml' },
    ...Object.entries(options.fields ?? {}).map(([name, value]) => ({ name, value })),
  ];
  return postImport(caller, { parts }, options);
}

async function exportXml(caller: RestClient): Promise<string> {
  const response = await caller.get('/users/export');
  expect(response.status, response.text).toBe(200);
  return response.text;
}

// ---------------------------------------------------------------- XML files

interface FileUser {
  username: string;
  attributes?: Record<string, string>;
  fullName?: string;
  email?: string;
  title?: string;
  passwordHash?: string;
  roles?: string[];
  groups?: string[];
  clients?: string[];
}
interface FileGroup {
  name: string;
  type?: string;
  attributes?: Record<string, string>;
  description?: string;
}

const attrs = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => ` ${key}="${value}"`)
    .join('');
const list = (outer: string, inner: string, items: string[] | undefined) =>
  items === undefined
    ? ''
    : `<${outer}>${items.map((item) => `<${inner}>${item}</${inner}>`).join('')}</${outer}>`;

/** A users file written by hand, one element per line. */
function usersFile(
  users: FileUser[],
  groups: FileGroup[] = [],
  root = '<polyterm-users version="1" client="crafted">',
): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    root,
    '  <groups>',
    ...groups.map(
      (group) =>
        `    <group name="${group.name}" type="${group.type ?? 'NORMAL'}"${attrs(group.attributes ?? {})}>` +
        `${group.description !== undefined ? `<description>${group.description}</description>` : ''}</group>`,
    ),
    '  </groups>',
    '  <users>',
    ...users.map(
      (user) =>
        `    <user username="${user.username}"${attrs(user.attributes ?? {})}>` +
        (user.fullName !== undefined ? `<fullName>${user.fullName}</fullName>` : '') +
        (user.email !== undefined ? `<email>${user.email}</email>` : '') +
        (user.title !== undefined ? `<title>${user.title}</title>` : '') +
        (user.passwordHash !== undefined ? `<passwordHash>${user.passwordHash}</passwordHash>` : '') +
        list('roles', 'role', user.roles) +
        list('groups', 'group', user.groups) +
        list('clients', 'client', user.clients) +
        '</user>',
    ),
    '  </users>',
    '</polyterm-users>',
  ];
  return `${lines.join('\n')}\n`;
}

interface ParsedFile {
  'polyterm-users': {
    '@_version': string;
    '@_client': string;
    groups?: { group: Array<Record<string, string>> };
    users?: {
      user: Array<
        Record<string, unknown> & {
          '@_username': string;
          passwordHash?: string;
          roles?: { role?: string[] } | '';
          groups?: { group?: string[] } | '';
          clients?: { client?: string[] } | '';
        }
      >;
    };
  };
}

function parseExport(xml: string): ParsedFile['polyterm-users'] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => ['group', 'user', 'role', 'client'].includes(name),
  }).parse(xml) as ParsedFile;
  return parsed['polyterm-users'];
}

const items = <K extends string>(value: { [P in K]?: string[] } | '' | undefined, key: K): string[] =>
  value === undefined || value === '' ? [] : (value[key] ?? []);

// ---------------------------------------------------------------- reading back

const login = (username: string, password: string, client: string, app = t) =>
  new RestClient(app.app).call<LoginBody>('POST', '/login', { form: { username, password, client } });

async function expectLogin(username: string, password: string, client: string): Promise<void> {
  const response = await login(username, password, client);
  expect(response.status, `${username}@${client}: ${response.text}`).toBe(200);
  expect(response.body.token?.token, `${username}@${client}`).toBeTruthy();
}

async function expectNoLogin(username: string, password: string, client: string): Promise<void> {
  const response = await login(username, password, client);
  expect(response.body.token ?? null, `${username}@${client} must not log in`).toBeNull();
}

async function usersByName(caller: RestClient): Promise<Map<string, UserOut>> {
  const response = await caller.get<Page<UserOut>>('/users?format=EDIT&size=500');
  expect(response.status, response.text).toBe(200);
  return new Map(response.body.content.map((user) => [user.username!, user]));
}

async function groupsByName(caller: RestClient): Promise<Map<string, GroupOut>> {
  const response = await caller.get<Page<GroupOut>>('/groups?format=EDIT&include-private=true&size=500');
  expect(response.status, response.text).toBe(200);
  return new Map(response.body.content.map((group) => [group.name, group]));
}

/** Everything an import could touch in a client, counted in SQL (deleted rows included). */
async function footprint(clientId: number, app = t) {
  const [row] = await sql<{ users: string; groups: string; members: string; mappings: string }>(
    `select (select count(*) from users where client_id = ?) as users,
            (select count(*) from groups where client_id = ?) as groups,
            (select count(*) from group_members m join groups g on g.id = m.group_id where g.client_id = ?) as members,
            (select count(*) from user_clients m join users u on u.id = m.user_id where u.client_id = ?) as mappings`,
    [clientId, clientId, clientId, clientId],
    app,
  );
  return {
    users: Number(row!.users),
    groups: Number(row!.groups),
    members: Number(row!.members),
    mappings: Number(row!.mappings),
  };
}

const USER_FIELDS = [
  'fullName',
  'email',
  'title',
  'expDate',
  'active',
  'type',
  'originType',
  'forcePasswordChange',
] as const;
const GROUP_FIELDS = ['description', 'timeout', 'pwdChange', 'langCode3', 'hasApiAccess', 'type'] as const;

const futureDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let craftedHash: string;
const CRAFTED_PASSWORD = 'crafted-pass-123';

beforeAll(async () => {
  t = await buildTestApp();
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
  craftedHash = await hashPassword(CRAFTED_PASSWORD);
});
afterAll(() => t.close());

describe('GET /users/export', () => {
  it("answers the client's users, groups and mappings as an XML attachment with exact headers", async () => {
    const a = await newTenant();
    const c = await newTenant();
    const group = await a.admin.post<GroupOut>('/groups', {
      name: 'Translators',
      hasApiAccess: true,
      timeout: 7200,
      langCode3: 'isl',
      description: 'Þýðendur',
    });
    expect(group.status, group.text).toBe(201);
    const bob = await a.admin.post<UserOut>('/users', {
      username: 'bob',
      password: 'bob-pass-1234',
      fullName: 'Bjørn Þórsson',
      email: 'bob@example.org',
      title: 'Translator',
      roles: ['USEREDITOR'],
      groups: [group.body.id],
    });
    expect(bob.status, bob.text).toBe(201);
    const carol = await createUser(t.orm, a.id, { username: 'carol' });
    const mapped = await sysadmin.put('/users/assign-clients', { users: [carol.id], clients: [c.id] });
    expect(mapped.status, mapped.text).toBe(200);

    const response = await a.admin.get('/users/export');
    expect(response.status, response.text).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml;\s*charset=utf-8$/i);
    expect(String(response.headers['content-disposition'])).toMatch(
      /^attachment;\s*filename="?[^"]+\.xml"?$/,
    );
    const bytes = Buffer.byteLength(response.text, 'utf8');
    expect(Number(response.headers['content-length'])).toBe(bytes);
    // The non-ASCII full name makes bytes and characters differ: the header counts bytes.
    expect(bytes).toBeGreaterThan(response.text.length);

    expect(response.text).toMatch(new RegExp(`<polyterm-users version="1" client="${a.loginName}"`));
    const file = parseExport(response.text);
    expect(file['@_version']).toBe('1');
    expect(file['@_client']).toBe(a.loginName);
    const users = file.users!.user;
    expect(users.map((user) => user['@_username']).sort()).toEqual(['admin', 'bob', 'carol']);
    for (const user of users) expect(user.passwordHash).toMatch(/^\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$/);
    const [stored] = await sql<{ password_hash: string }>('select password_hash from users where id = ?', [
      bob.body.id,
    ]);
    const bobEntry = users.find((user) => user['@_username'] === 'bob')!;
    expect(bobEntry.passwordHash).toBe(stored!.password_hash);
    expect(bobEntry).toMatchObject({
      fullName: 'Bjørn Þórsson',
      email: 'bob@example.org',
      title: 'Translator',
      '@_active': 'true',
    });
    expect(items(bobEntry.roles, 'role')).toEqual(['USEREDITOR']);
    expect(items(bobEntry.groups, 'group')).toEqual(['Translators']);
    expect(items(bobEntry.clients, 'client')).toEqual([]);
    const carolEntry = users.find((user) => user['@_username'] === 'carol')!;
    expect(items(carolEntry.clients, 'client')).toEqual([c.loginName]);
    const adminEntry = users.find((user) => user['@_username'] === 'admin')!;
    expect(items(adminEntry.roles, 'role')).toEqual(['ADMIN']);

    const groups = file.groups!.group;
    expect(groups.map((entry) => entry['@_type']).sort()).toEqual(['ALL_USERS', 'GUEST', 'NORMAL', 'OWNER']);
    expect(groups.find((entry) => entry['@_name'] === 'Translators')).toMatchObject({
      '@_type': 'NORMAL',
      '@_hasApiAccess': 'true',
      '@_timeout': '7200',
      '@_langCode3': 'isl',
      description: 'Þýðendur',
    });
    // Only this client's users: c's administrator is not in a's file.
    expect(users.filter((user) => user['@_username'] === 'admin')).toHaveLength(1);
  });

  it('never exports guest accounts or deleted users', async () => {
    const a = await newTenant();
    const guestName = `guest${uniqueSuffix()}`;
    const guest = await a.admin.put('/users/guest', {
      enabled: true,
      username: guestName,
      password: 'guest-pass-1234',
      loginMethod: 'NORMAL',
    });
    expect(guest.status, guest.text).toBe(200);
    const [guestRow] = await sql<{ type: string }>(
      'select type from users where client_id = ? and username = ?',
      [a.id, guestName],
    );
    expect(guestRow?.type).toBe('GUEST');
    const live = await createUser(t.orm, a.id);
    const gone = await createUser(t.orm, a.id);
    const deleted = await a.admin.delete(`/users/${gone.id}`);
    expect(deleted.status, deleted.text).toBe(204);

    const xml = await exportXml(a.admin);
    const names = parseExport(xml).users!.user.map((user) => user['@_username']);
    expect(names.sort()).toEqual(['admin', live.username].sort());
    expect(xml).not.toContain(guestName);
    expect(xml).not.toContain(gone.username);
  });

  it('is refused to user editors and ordinary users (403, import too) and without a token (401)', async () => {
    const a = await newTenant();
    const editor = await createUser(t.orm, a.id, { roles: ['USEREDITOR'] });
    const plain = await createUser(t.orm, a.id);
    const file = usersFile([{ username: 'intruder', passwordHash: craftedHash }]);
    const before = await footprint(a.id);
    for (const user of [editor, plain]) {
      const session = await loginRest(t.app, user.username, user.password, a.loginName);
      const exported = await session.get<ErrorBody>('/users/export');
      expect(exported.status, exported.text).toBe(403);
      expect(exported.body.code).toBe('FORBIDDEN');
      expect(exported.text).not.toContain('argon2');
      const imported = await importXml(session, file);
      expect(imported.status, imported.text).toBe(403);
      expect(imported.body.code).toBe('FORBIDDEN');
    }
    const noToken = await anonymous.get<ErrorBody>('/users/export');
    expect(noToken.status).toBe(401);
    expect(noToken.body.code).toBe('UNAUTHORIZED');
    expect((await importXml(anonymous, file)).status).toBe(401);
    expect(await footprint(a.id)).toEqual(before);
  });
});

describe('round trip', () => {
  it('imports the export of client A into client B: logins, attributes, roles, groups; B keeps its admin', async () => {
    const a = await newTenant();
    const translators = await a.admin.post<GroupOut>('/groups', {
      name: 'Translators',
      hasApiAccess: true,
      timeout: 7200,
      pwdChange: 90,
      langCode3: 'isl',
      description: 'Translators into Icelandic',
    });
    expect(translators.status, translators.text).toBe(201);
    // Characters XML must escape survive the trip.
    const reviewers = await a.admin.post<GroupOut>('/groups', { name: `R&D <"Reviewers">` });
    expect(reviewers.status, reviewers.text).toBe(201);
    const expDate = futureDay(365);
    const created = [
      {
        username: 'bob',
        password: 'bob-pass-1234',
        fullName: 'Bjørn Þórsson',
        email: 'bob@example.org',
        title: 'Senior translator',
        roles: ['USEREDITOR'],
        expDate,
        groups: [translators.body.id, reviewers.body.id],
      },
      {
        username: 'carol',
        password: 'carol-pass-1234',
        fullName: `Carol & "Co" <O'Neil>`,
        forcePasswordChange: true,
        groups: [reviewers.body.id],
      },
    ];
    for (const body of created) {
      const response = await a.admin.post('/users', body);
      expect(response.status, response.text).toBe(201);
    }

    const b = await newTenant();
    const xml = await exportXml(a.admin);
    const imported = await importXml(b.admin, xml);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toEqual({
      userCount: 3,
      groupCount: 2,
      renamedUsers: { admin: 'admin_1' },
      renamedGroups: {},
      skippedRoles: [],
    });

    // Everyone logs in to B with the password they had in A; B's admin keeps B's password.
    await expectLogin('bob', 'bob-pass-1234', b.loginName);
    await expectLogin('carol', 'carol-pass-1234', b.loginName);
    await expectLogin('admin_1', a.adminPassword, b.loginName);
    await expectLogin('admin', b.adminPassword, b.loginName);
    await expectNoLogin('admin', a.adminPassword, b.loginName);

    const inA = await usersByName(a.admin);
    const inB = await usersByName(b.admin);
    expect([...inB.keys()].sort()).toEqual(['admin', 'admin_1', 'bob', 'carol']);
    for (const [nameA, nameB] of [
      ['bob', 'bob'],
      ['carol', 'carol'],
      ['admin', 'admin_1'],
    ] as const) {
      const userA = inA.get(nameA)!;
      const userB = inB.get(nameB)!;
      expect(userB.clientId).toBe(b.id);
      for (const field of USER_FIELDS) expect(userB[field], `${nameB}.${field}`).toEqual(userA[field]);
      expect([...userB.roles!].sort(), `${nameB}.roles`).toEqual([...userA.roles!].sort());
      expect(userB.groups!.map((group) => group.name).sort(), `${nameB}.groups`).toEqual(
        userA.groups!.map((group) => group.name).sort(),
      );
    }
    // The values themselves, so that a round trip losing both sides would still fail.
    expect(inB.get('bob')).toMatchObject({
      fullName: 'Bjørn Þórsson',
      email: 'bob@example.org',
      title: 'Senior translator',
      expDate: new Date(`${expDate}T00:00:00Z`).getTime(),
      roles: ['USEREDITOR'],
    });
    expect(inB.get('carol')).toMatchObject({ fullName: `Carol & "Co" <O'Neil>`, forcePasswordChange: true });
    expect(inB.get('admin')).toMatchObject({ id: b.adminId, fullName: 'Administrator', roles: ['ADMIN'] });

    const groupsA = await groupsByName(a.admin);
    const groupsB = await groupsByName(b.admin);
    for (const name of ['Translators', `R&D <"Reviewers">`]) {
      const groupA = groupsA.get(name)!;
      const groupB = groupsB.get(name);
      expect(groupB, name).toBeDefined();
      expect(groupB!.clientId).toBe(b.id);
      for (const field of GROUP_FIELDS) expect(groupB![field], `${name}.${field}`).toEqual(groupA[field]);
      expect(groupB!.groupMembers!.map((member) => member.username).sort()).toEqual(
        groupA.groupMembers!.map((member) => member.username).sort(),
      );
      expect(groupB!.currentUsersNumber).toBe(groupA.currentUsersNumber);
    }
    expect(groupsB.get('Translators')).toMatchObject({
      description: 'Translators into Icelandic',
      hasApiAccess: true,
      timeout: 7200,
      pwdChange: 90,
      langCode3: 'isl',
    });
    expect(
      groupsB
        .get(`R&D <"Reviewers">`)!
        .groupMembers!.map((member) => member.username)
        .sort(),
    ).toEqual(['bob', 'carol']);
    // The system groups were merged, not duplicated.
    expect([...groupsB.values()].filter((group) => group.type !== 'NORMAL')).toHaveLength(3);
  });

  it('without overwrite-user an existing username gets _1, then _2 on a second import', async () => {
    const b = await newTenant();
    const existing = await createUser(t.orm, b.id, { username: 'dora' });
    const file = usersFile([{ username: 'dora', fullName: 'Dora from file', passwordHash: craftedHash }]);

    const first = await importXml(b.admin, file);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ userCount: 1, renamedUsers: { dora: 'dora_1' } });
    const second = await importXml(b.admin, file, { fields: { 'overwrite-user': 'false' } });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ userCount: 1, renamedUsers: { dora: 'dora_2' } });

    const users = await usersByName(b.admin);
    expect(users.get('dora')).toMatchObject({ id: existing.id, fullName: 'User dora' });
    expect(users.get('dora_1')!.fullName).toBe('Dora from file');
    expect(users.get('dora_2')!.fullName).toBe('Dora from file');
    await expectLogin('dora', existing.password, b.loginName);
    await expectNoLogin('dora', CRAFTED_PASSWORD, b.loginName);
    await expectLogin('dora_1', CRAFTED_PASSWORD, b.loginName);
    await expectLogin('dora_2', CRAFTED_PASSWORD, b.loginName);
  });

  it('with overwrite-user=true (multipart field) the existing user takes the attributes and password of the file', async () => {
    const b = await newTenant();
    const existing = await createUser(t.orm, b.id, { username: 'dora', email: 'old@example.org' });
    const group = await b.admin.post<GroupOut>('/groups', { name: 'Editors' });
    expect(group.status).toBe(201);
    const file = usersFile([
      {
        username: 'dora',
        fullName: 'Dora from file',
        email: 'dora@example.org',
        title: 'Terminologist',
        attributes: { active: 'true', expDate: futureDay(30) },
        passwordHash: craftedHash,
        roles: ['USEREDITOR'],
        groups: ['Editors'],
      },
    ]);
    const before = await footprint(b.id);

    const response = await importXml(b.admin, file, { fields: { 'overwrite-user': 'true' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      userCount: 1,
      groupCount: 0,
      renamedUsers: {},
      renamedGroups: {},
      skippedRoles: [],
    });
    expect((await footprint(b.id)).users).toBe(before.users);
    const dora = (await usersByName(b.admin)).get('dora')!;
    expect(dora).toMatchObject({
      id: existing.id,
      fullName: 'Dora from file',
      email: 'dora@example.org',
      title: 'Terminologist',
      roles: ['USEREDITOR'],
      expDate: new Date(`${futureDay(30)}T00:00:00Z`).getTime(),
    });
    expect(dora.groups!.map((entry) => entry.name)).toEqual(['Editors']);
    await expectLogin('dora', CRAFTED_PASSWORD, b.loginName);
    await expectNoLogin('dora', existing.password, b.loginName);
  });

  it('with overwrite-user=true as a query parameter the existing user is overwritten too; the importer keeps its own roles', async () => {
    const b = await newTenant();
    const existing = await createUser(t.orm, b.id, { username: 'erik', roles: ['USEREDITOR'] });
    const file = usersFile([
      { username: 'erik', fullName: 'Erik from file', passwordHash: craftedHash, roles: [] },
      // The importer itself: attributes change, roles never (nobody changes their own roles).
      { username: 'admin', fullName: 'Renamed administrator', roles: [] },
    ]);
    const response = await importXml(b.admin, file, { query: '?overwrite-user=true' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ userCount: 2, renamedUsers: {} });
    const users = await usersByName(b.admin);
    expect([...users.keys()].sort()).toEqual(['admin', 'erik']);
    expect(users.get('erik')).toMatchObject({ id: existing.id, fullName: 'Erik from file', roles: [] });
    expect(users.get('admin')).toMatchObject({
      id: b.adminId,
      fullName: 'Renamed administrator',
      roles: ['ADMIN'],
    });
    await expectLogin('erik', CRAFTED_PASSWORD, b.loginName);
    // No passwordHash in the file: the administrator's password stays.
    await expectLogin('admin', b.adminPassword, b.loginName);
  });

  it('never overwrites a guest account, even with overwrite-user=true: the file user is renamed', async () => {
    const b = await newTenant();
    const guest = await b.admin.put('/users/guest', {
      enabled: true,
      username: 'visitor',
      password: 'guest-pass-1234',
      loginMethod: 'NORMAL',
    });
    expect(guest.status, guest.text).toBe(200);
    const [before] = await sql<{ id: number; password_hash: string }>(
      "select id, password_hash from users where client_id = ? and username = 'visitor'",
      [b.id],
    );
    const file = usersFile([{ username: 'visitor', passwordHash: craftedHash, roles: ['USEREDITOR'] }]);
    const response = await importXml(b.admin, file, { fields: { 'overwrite-user': 'true' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.renamedUsers).toEqual({ visitor: 'visitor_1' });
    const rows = await sql<{
      id: number;
      username: string;
      type: string;
      roles: string[];
      password_hash: string;
    }>(
      "select id, username, type, roles, password_hash from users where client_id = ? and username like 'visitor%' order by username",
      [b.id],
    );
    expect(rows.map((row) => [row.username, row.type, row.roles])).toEqual([
      ['visitor', 'GUEST', []],
      ['visitor_1', 'NORMAL', ['USEREDITOR']],
    ]);
    expect(rows[0]).toMatchObject({ id: before!.id, password_hash: before!.password_hash });
  });

  it('overwrite-group: Translators becomes Translators_1 without it, and takes the attributes of the file with it', async () => {
    const b = await newTenant();
    const own = await b.admin.post<GroupOut>('/groups', { name: 'Translators', description: 'ours' });
    expect(own.status).toBe(201);
    const file = usersFile(
      [{ username: 'finn', passwordHash: craftedHash, groups: ['Translators'] }],
      [
        {
          name: 'Translators',
          attributes: { hasApiAccess: 'true', timeout: '7200', pwdChange: '30', langCode3: 'isl' },
          description: 'from the file',
        },
      ],
    );

    const renamed = await importXml(b.admin, file);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ groupCount: 1, renamedGroups: { Translators: 'Translators_1' } });
    let groups = await groupsByName(b.admin);
    expect(groups.get('Translators')).toMatchObject({
      id: own.body.id,
      description: 'ours',
      hasApiAccess: false,
      timeout: null,
      groupMembers: [],
    });
    expect(groups.get('Translators_1')).toMatchObject({
      description: 'from the file',
      hasApiAccess: true,
      timeout: 7200,
      pwdChange: 30,
      langCode3: 'isl',
    });
    expect(groups.get('Translators_1')!.groupMembers!.map((member) => member.username)).toEqual(['finn']);

    const groupsBefore = (await footprint(b.id)).groups;
    const overwritten = await importXml(b.admin, file, { fields: { 'overwrite-group': 'true' } });
    expect(overwritten.status, overwritten.text).toBe(200);
    expect(overwritten.body).toMatchObject({ groupCount: 1, renamedGroups: {} });
    expect((await footprint(b.id)).groups).toBe(groupsBefore);
    groups = await groupsByName(b.admin);
    expect(groups.get('Translators')).toMatchObject({
      id: own.body.id,
      description: 'from the file',
      hasApiAccess: true,
      timeout: 7200,
      pwdChange: 30,
      langCode3: 'isl',
    });
    // The second finn (finn_1, no overwrite-user) is a member of the overwritten group.
    expect(groups.get('Translators')!.groupMembers!.map((member) => member.username)).toEqual(['finn_1']);
  });
});

describe('roles and client mappings', () => {
  it("a client administrator's import skips SYSADMIN and DICTIONARY_ADMIN of an unknown dictionary, keeping the others", async () => {
    const b = await newTenant();
    const dictionary = await createDictionary(t.orm, b.id);
    const unknown = `DICTIONARY_ADMIN@no-such-${uniqueSuffix()}`;
    const file = usersFile([
      {
        username: 'sam',
        passwordHash: craftedHash,
        roles: ['SYSADMIN', 'USEREDITOR', unknown, `DICTIONARY_ADMIN@${dictionary.oid}`],
      },
    ]);
    const response = await importXml(b.admin, file);
    expect(response.status, response.text).toBe(200);
    expect(response.body.skippedRoles).toEqual([
      { username: 'sam', role: 'SYSADMIN' },
      { username: 'sam', role: unknown },
    ]);
    const [row] = await sql<{ roles: string[] }>(
      'select roles from users where client_id = ? and username = ?',
      [b.id, 'sam'],
    );
    expect([...row!.roles].sort()).toEqual([`DICTIONARY_ADMIN@${dictionary.oid}`, 'USEREDITOR'].sort());
    const sam = await loginRest(t.app, 'sam', CRAFTED_PASSWORD, b.loginName);
    // Not a system administrator: the client list is refused.
    expect((await sam.get('/users/export')).status).toBe(403);
  });

  it("a system administrator's import keeps SYSADMIN and applies the client mappings of the file", async () => {
    const b = await newTenant();
    const d = await newTenant();
    const c = await newTenant();
    const file = usersFile([
      { username: 'root2', passwordHash: craftedHash, roles: ['SYSADMIN'] },
      { username: 'mia', passwordHash: craftedHash, clients: [c.loginName] },
    ]);

    // A client administrator: SYSADMIN skipped, mappings ignored.
    const byAdmin = await importXml(b.admin, file);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.skippedRoles).toEqual([{ username: 'root2', role: 'SYSADMIN' }]);
    const unmapped = await sql(
      'select m.client_id from user_clients m join users u on u.id = m.user_id where u.client_id = ?',
      [b.id],
    );
    expect(unmapped).toEqual([]);

    // A system administrator acting in client d.
    const root = await loginSysadmin(t.app);
    const switched = await root.post('/switch-client', { client_id: d.id });
    expect(switched.status, switched.text).toBe(200);
    const bySysadmin = await importXml(root, file);
    expect(bySysadmin.status, bySysadmin.text).toBe(200);
    expect(bySysadmin.body.skippedRoles).toEqual([]);
    const rows = await sql<{ username: string; roles: string[]; mapped: number | null }>(
      `select u.username, u.roles, m.client_id as mapped from users u
       left join user_clients m on m.user_id = u.id
       where u.client_id = ? and u.username in ('root2', 'mia') order by u.username`,
      [d.id],
    );
    expect(rows).toEqual([
      { username: 'mia', roles: [], mapped: c.id },
      { username: 'root2', roles: ['SYSADMIN'], mapped: null },
    ]);
    const mia = (await usersByName(root)).get('mia')!;
    expect(mia.clientIds).toEqual([c.id]);
  });
});

describe('bad input changes nothing', () => {
  /** Runs the import and checks that the client's users, groups, memberships and mappings stayed. */
  async function expectRefused(tenant: Tenant, status: number, run: () => Promise<ImportResponse>) {
    const before = await footprint(tenant.id);
    const response = await run();
    expect(response.status, response.text).toBe(status);
    expect(String(response.headers['content-type'])).toContain('application/json');
    expect(typeof response.body.code).toBe('string');
    expect(typeof response.body.message).toBe('string');
    expect(await footprint(tenant.id)).toEqual(before);
    return response.body;
  }

  const group = { name: 'Newcomers', description: 'must not be created' };

  it('malformed XML: 400 naming the line', async () => {
    const b = await newTenant();
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<polyterm-users version="1">',
      '  <users>',
      '    <user username="gary">',
      '      <fullName>Gary</fullNam>',
      '    </user>',
      '  </users>',
      '</polyterm-users>',
    ].join('\n');
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/line 5\b/);
  });

  it('a wrong root element: 400', async () => {
    const b = await newTenant();
    const xml = usersFile(
      [{ username: 'gary', passwordHash: craftedHash }],
      [group],
      '<users-export version="1">',
    ).replace('</polyterm-users>', '</users-export>');
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
  });

  it('version="2": 400 naming the version', async () => {
    const b = await newTenant();
    const xml = usersFile(
      [{ username: 'gary', passwordHash: craftedHash }],
      [group],
      '<polyterm-users version="2">',
    );
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/version/);
  });

  it('a DOCTYPE with an external entity (XXE): 400, and the file it names is never read into anything', async () => {
    const b = await newTenant();
    const xml = usersFile(
      [{ username: 'xxe', fullName: 'x&e;x', passwordHash: craftedHash }],
      [group],
    ).replace(
      '<polyterm-users',
      '<!DOCTYPE polyterm-users [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<polyterm-users',
    );
    expect(xml).toContain('<!DOCTYPE');
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
    expect(passwd.length).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toContain(passwd);
    expect(JSON.stringify(body)).not.toContain('root:');
    const leaked = await sql("select id from users where full_name like '%root:%' or full_name like ?", [
      `%${passwd.slice(0, 20)}%`,
    ]);
    expect(leaked).toEqual([]);
    expect(await sql("select id from users where client_id = ? and username = 'xxe'", [b.id])).toEqual([]);
  });

  it('an invalid username: 400 naming the entry', async () => {
    const b = await newTenant();
    const xml = usersFile([
      { username: 'fine', passwordHash: craftedHash },
      { username: 'has spaces', passwordHash: craftedHash },
    ]);
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/user/);
    expect(body.message).toMatch(/\[2\]/);
    expect(body.message).toMatch(/username/);
  });

  it('a passwordHash that is not argon2: 400', async () => {
    const b = await newTenant();
    const xml = usersFile([
      { username: 'gary', passwordHash: '$2b$10$abcdefghijklmnopqrstuuQ7yXq3W0u1v2w3x4y5z6A7B8C9D0E1F2' },
    ]);
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/passwordHash/);
  });

  it('a 3rd user that is invalid: 400, and the first two are not created', async () => {
    const b = await newTenant();
    const xml = usersFile(
      [
        { username: 'first', passwordHash: craftedHash },
        { username: 'second', passwordHash: craftedHash },
        { username: 'third', email: 'not an e-mail', passwordHash: craftedHash },
      ],
      [group],
    );
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.message).toMatch(/\[3\]/);
    expect(
      await sql("select id from users where client_id = ? and username in ('first', 'second')", [b.id]),
    ).toEqual([]);
  });

  it('a 3rd user refused while writing (maxUsers reached): 400, and nothing of the file is written (one transaction)', async () => {
    const b = await newTenant({ maxUsers: 3 });
    const xml = usersFile(
      [
        { username: 'first', passwordHash: craftedHash, groups: ['Newcomers'] },
        { username: 'second', passwordHash: craftedHash },
        { username: 'third', passwordHash: craftedHash },
      ],
      [group],
    );
    const body = await expectRefused(b, 400, () => importXml(b.admin, xml));
    expect(body.message).toMatch(/maximum of 3/);
    expect(
      await sql("select id from users where client_id = ? and username in ('first', 'second')", [b.id]),
    ).toEqual([]);
    expect(await sql("select id from groups where client_id = ? and name = 'Newcomers'", [b.id])).toEqual([]);
  });

  it('overwriting a system administrator as a client administrator (3rd entry): 403, and nothing is written', async () => {
    const b = await newTenant();
    const root = await createUser(t.orm, b.id, { roles: ['SYSADMIN'] });
    const xml = usersFile(
      [
        { username: 'first', passwordHash: craftedHash },
        { username: 'second', passwordHash: craftedHash },
        { username: root.username, fullName: 'Taken over', passwordHash: craftedHash },
      ],
      [group],
    );
    const body = await expectRefused(b, 403, () =>
      importXml(b.admin, xml, { fields: { 'overwrite-user': 'true' } }),
    );
    expect(body.code).toBe('FORBIDDEN');
    await expectLogin(root.username, root.password, b.loginName);
  });

  it('a taken name at the maximum length cannot get a suffix: no 500; either a shorter free name or 400 changing nothing', async () => {
    const b = await newTenant();
    const longUser = 'u'.repeat(128);
    const longGroup = 'G'.repeat(255);
    await createUser(t.orm, b.id, { username: longUser });
    expect((await b.admin.post('/groups', { name: longGroup })).status).toBe(201);
    for (const file of [
      usersFile([{ username: longUser, passwordHash: craftedHash }]),
      usersFile([], [{ name: longGroup }]),
    ]) {
      const before = await footprint(b.id);
      const response = await importXml(b.admin, file);
      expect(response.status, response.text).toBeLessThan(500);
      if (response.status === 200) {
        const given = Object.values({ ...response.body.renamedUsers, ...response.body.renamedGroups });
        expect(given).toHaveLength(1);
        expect(given[0]!.length).toBeLessThanOrEqual(file.includes(longUser) ? 128 : 255);
      } else {
        expect(response.status).toBe(400);
        expect(await footprint(b.id)).toEqual(before);
      }
    }
  });

  it('a request without the member "file": 400', async () => {
    const b = await newTenant();
    const body = await expectRefused(b, 400, () =>
      postImport(b.admin, {
        parts: [
          { name: 'fileName', value: 'users.xml' },
          { name: 'other', value: usersFile([{ username: 'gary' }]), filename: 'users.xml' },
        ],
      }),
    );
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/file/);
  });

  it('a POST that is not multipart (JSON, form): 400 asking for multipart', async () => {
    const b = await newTenant();
    const xml = usersFile([{ username: 'gary', passwordHash: craftedHash }]);
    for (const request of [
      { payload: JSON.stringify({ file: xml, fileName: 'users.xml' }), contentType: 'application/json' },
      {
        payload: new URLSearchParams({ file: xml }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      },
    ]) {
      const body = await expectRefused(b, 400, () => postImport(b.admin, request));
      expect(body.code, request.contentType).toBe('BAD_REQUEST');
      expect(body.message, request.contentType).toMatch(/multipart/);
    }
  });

  it('a POST of the bare XML document (application/xml, not multipart): 400', async () => {
    const b = await newTenant();
    const xml = usersFile([{ username: 'gary', passwordHash: craftedHash }]);
    const body = await expectRefused(b, 400, () =>
      postImport(b.admin, { payload: xml, contentType: 'application/xml' }),
    );
    expect(body.code).toBe('BAD_REQUEST');
  });

  it('a file larger than MAX_FILE_SIZE: 413; a smaller one is imported', async () => {
    const small = await buildTestApp({ MAX_FILE_SIZE: '2048' });
    try {
      const root = await loginSysadmin(small.app);
      const b = await newTenant({}, small, root);
      const padding = 'x'.repeat(2100);
      const large = usersFile([{ username: 'big', fullName: padding, passwordHash: craftedHash }], [group]);
      expect(Buffer.byteLength(large)).toBeGreaterThan(2048);
      const before = await footprint(b.id, small);
      const response = await importXml(b.admin, large, { app: small });
      expect(response.status, response.text).toBe(413);
      expect(String(response.headers['content-type'])).toContain('application/json');
      expect(response.body.message).toEqual(expect.any(String));
      expect(await footprint(b.id, small)).toEqual(before);

      const fits = usersFile([{ username: 'little', passwordHash: craftedHash }]);
      expect(Buffer.byteLength(fits)).toBeLessThan(2048);
      const accepted = await importXml(b.admin, fits, { app: small });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body.userCount).toBe(1);
    } finally {
      await small.close();
    }
  });
});
