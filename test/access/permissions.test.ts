// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conceptAccess,
  dictionaryPermissions as dictionaryPermissionsOf,
} from '../../src/modules/access/access.service.js';
import { AppError } from '../../src/shared/errors.js';
import type { Scope } from '../../src/shared/scope.js';
import { createDictionary, type TestDictionary } from '../factories/dictionary.js';
import { createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createGroup,
  type ErrorBody,
  type Page,
  query,
  systemGroups,
  tenantWithAdmin,
} from './access-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Role {
  name: string;
  systemname: string;
}

interface Grant {
  groupId: number;
  dictionaryPermissions: string[];
  conceptPermissions: string[];
  termPermissions: string[];
  languages: string[];
}

interface SchemeBody {
  id: number;
  name: string;
  description: string | null;
  grants: Grant[];
  version: number;
  clientId: number;
  deleted: boolean;
}

type Flags = Record<string, boolean>;
interface DictionaryPermissionsBody {
  dictionaryId: number;
  permissions: Flags;
  sectionPermissions: Record<string, Flags>;
  sectionOidPermissions: Record<string, Flags>;
}

const DICTIONARY_PERMISSIONS = [
  'DICT_READ',
  'DICT_UPDATE',
  'DICT_DELETE',
  'CONCEPT_CREATE',
  'CONCEPT_PRINT',
  'CONCEPT_IMPORT',
  'CONCEPT_EXPORT',
] as const;
const SECTION_PERMISSIONS = ['CONCEPT_CREATE', 'CONCEPT_PRINT', 'CONCEPT_IMPORT', 'CONCEPT_EXPORT'] as const;

/** A flag map over `keys` with exactly `granted` true. */
const only = (keys: readonly string[], granted: readonly string[]): Flags =>
  Object.fromEntries(keys.map((key) => [key, granted.includes(key)]));

const newTenant = () => tenantWithAdmin(t, sysadmin);

async function loggedInUser(tenant: TestTenant, roles: string[] = []) {
  const user = await createUser(t.orm, tenant.id, { roles });
  return { user, rest: await loginRest(t.app, user.username, user.password, tenant.loginName) };
}

const grant = (groupId: number, parts: Partial<Omit<Grant, 'groupId'>> = {}) => ({
  groupId,
  dictionaryPermissions: [],
  conceptPermissions: [],
  termPermissions: [],
  languages: [],
  ...parts,
});

async function createScheme(admin: RestClient, body: Record<string, unknown>): Promise<SchemeBody> {
  const response = await admin.post<SchemeBody>('/permissionschemes', {
    name: `Scheme ${uniqueSuffix()}`,
    ...body,
  });
  if (response.status !== 201) throw new Error(`createScheme failed: ${response.status} ${response.text}`);
  return response.body;
}

/** The section oids of a dictionary made by the factory (sectionOidPermissions is keyed by them). */
async function sectionOids(dictionary: TestDictionary): Promise<string[]> {
  const rows = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ oid: string }[]>('select oid from sections where dictionary_id = ? order by id', [
      dictionary.id,
    ]);
  return rows.map((row) => row.oid);
}

const dictionaryPermissions = (caller: RestClient, ids: string) =>
  caller.get<DictionaryPermissionsBody[] & ErrorBody>(`/access/dictionary-permissions?${ids}`);

async function permissionsOf(caller: RestClient, dictionaryId: number): Promise<DictionaryPermissionsBody> {
  const response = await dictionaryPermissions(caller, `dictionary_id=${dictionaryId}`);
  expect(response.status, response.text).toBe(200);
  expect(response.body).toHaveLength(1);
  return response.body[0]!;
}

describe('roles', () => {
  it('GET /roles lists ADMIN, USEREDITOR and one DICTIONARY_ADMIN@<oid> per dictionary of the client, no SYSADMIN', async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const beta = await createDictionary(t.orm, tenant.id, { name: `Beta ${uniqueSuffix()}` });
    const alpha = await createDictionary(t.orm, tenant.id, { name: `Alpha ${uniqueSuffix()}` });
    const foreign = await createDictionary(t.orm, other.tenant.id);

    const response = await admin.get<Role[]>('/roles');
    expect(response.status).toBe(200);
    const systemnames = response.body.map((role) => role.systemname);
    expect(systemnames).toEqual([
      'ADMIN',
      'USEREDITOR',
      `DICTIONARY_ADMIN@${alpha.oid}`,
      `DICTIONARY_ADMIN@${beta.oid}`,
    ]);
    expect(response.body).toContainEqual({
      name: `Dictionary administrator: ${alpha.name}`,
      systemname: `DICTIONARY_ADMIN@${alpha.oid}`,
    });
    expect(response.body).toContainEqual({
      name: `Dictionary administrator: ${beta.name}`,
      systemname: `DICTIONARY_ADMIN@${beta.oid}`,
    });
    for (const role of response.body) expect(role.name).toEqual(expect.any(String));
    expect(systemnames).not.toContain('SYSADMIN');
    expect(systemnames).not.toContain(`DICTIONARY_ADMIN@${foreign.oid}`);
  });

  it('a system administrator sees SYSADMIN', async () => {
    const response = await sysadmin.get<Role[]>('/roles');
    expect(response.status).toBe(200);
    const systemnames = response.body.map((role) => role.systemname);
    expect(systemnames.slice(0, 3)).toEqual(['SYSADMIN', 'ADMIN', 'USEREDITOR']);
  });

  it('find-roles-for-client: own client 200, another client 404 for a client administrator, 200 for a sysadmin', async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const own = await createDictionary(t.orm, tenant.id);
    const foreign = await createDictionary(t.orm, other.tenant.id);

    const mine = await admin.get<Role[]>(`/roles/find-roles-for-client?client_id=${tenant.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual((await admin.get<Role[]>('/roles')).body);
    expect(mine.body.map((role) => role.systemname)).toContain(`DICTIONARY_ADMIN@${own.oid}`);

    const refused = await admin.get<ErrorBody>(`/roles/find-roles-for-client?client_id=${other.tenant.id}`);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('NOT_FOUND');

    const asSysadmin = await sysadmin.get<Role[]>(
      `/roles/find-roles-for-client?client_id=${other.tenant.id}`,
    );
    expect(asSysadmin.status).toBe(200);
    const names = asSysadmin.body.map((role) => role.systemname);
    expect(names).toContain(`DICTIONARY_ADMIN@${foreign.oid}`);
    expect(names).not.toContain(`DICTIONARY_ADMIN@${own.oid}`);
  });

  it("DICTIONARY_ADMIN@<oid> of the client's dictionary can be assigned; of another client's dictionary it is an unknown role (400)", async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const own = await createDictionary(t.orm, tenant.id);
    const foreign = await createDictionary(t.orm, other.tenant.id);

    const created = await admin.post<{ id: number; roles: string[] }>('/users?format=EDIT', {
      username: `da${uniqueSuffix()}`,
      password: `pw-${uniqueSuffix()}-long`,
      roles: [`DICTIONARY_ADMIN@${own.oid}`],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.roles).toEqual([`DICTIONARY_ADMIN@${own.oid}`]);

    const username = `fd${uniqueSuffix()}`;
    const refused = await admin.post<ErrorBody>('/users', {
      username,
      password: `pw-${uniqueSuffix()}-long`,
      roles: [`DICTIONARY_ADMIN@${foreign.oid}`],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect(refused.body.message).toContain(`DICTIONARY_ADMIN@${foreign.oid}`);
    const listed = await admin.get<Page<unknown>>(`/users${query({ 'name-eq': username })}`);
    expect(listed.body.totalElements).toBe(0);
  });
});

describe('permission schemes', () => {
  it('create, get, list, rownum, update, partial update and delete', async () => {
    const { admin, tenant } = await newTenant();
    const editors = await createGroup(admin, { name: 'Editors' });
    const system = await systemGroups(admin);

    const created = await admin.post<SchemeBody>('/permissionschemes', {
      name: 'Default scheme',
      description: 'for most dictionaries',
      grants: [
        {
          groupId: editors.id,
          dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'],
          conceptPermissions: ['CONCEPT_UPDATE'],
          termPermissions: ['TERM_UPDATE'],
          languages: ['deu'],
        },
        { groupId: system.ALL_USERS.id, dictionaryPermissions: ['DICT_READ'] },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Default scheme',
      description: 'for most dictionaries',
      clientId: tenant.id,
      deleted: false,
      grants: [
        {
          groupId: editors.id,
          dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'],
          conceptPermissions: ['CONCEPT_UPDATE'],
          termPermissions: ['TERM_UPDATE'],
          languages: ['deu'],
        },
        grant(system.ALL_USERS.id, { dictionaryPermissions: ['DICT_READ'] }),
      ],
    });
    const id = created.body.id;
    expect((await admin.get<SchemeBody>(`/permissionschemes/${id}`)).body).toEqual(created.body);

    const second = await createScheme(admin, { name: 'Another scheme' });
    const list = await admin.get<Page<SchemeBody>>('/permissionschemes?sort=name,ASC');
    expect(list.status).toBe(200);
    expect(list.body.content.map((scheme) => scheme.name)).toEqual(['Another scheme', 'Default scheme']);
    expect(list.body.totalElements).toBe(2);
    expect((await admin.get<number>(`/permissionschemes/rownum/${id}?sort=name,ASC`)).body).toBe(2);
    expect((await admin.get<number>(`/permissionschemes/rownum/${second.id}?sort=name,ASC`)).body).toBe(1);

    // Partial update: only what is sent changes; the version is required.
    expect((await admin.put(`/permissionschemes/partial/${id}`, { description: 'x' })).status).toBe(409);
    const patched = await admin.put<SchemeBody>(`/permissionschemes/partial/${id}`, {
      description: 'changed',
      version: created.body.version,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Default scheme', description: 'changed' });
    expect(patched.body.grants).toHaveLength(2);

    // Full update: missing attributes are erased; a stale version is 409.
    expect(
      (await admin.put(`/permissionschemes/${id}`, { name: 'Default scheme', version: created.body.version }))
        .status,
    ).toBe(409);
    const full = await admin.put<SchemeBody>(`/permissionschemes/${id}`, {
      name: 'Renamed scheme',
      version: patched.body.version,
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ name: 'Renamed scheme', description: null, grants: [] });

    const deleted = await admin.delete(`/permissionschemes/${id}`);
    expect(deleted.status).toBe(204);
    expect((await admin.get(`/permissionschemes/${id}`)).status).toBe(404);
    expect((await admin.get<Page<SchemeBody>>('/permissionschemes')).body.content.map((s) => s.id)).toEqual([
      second.id,
    ]);
  });

  it('grants must name groups of the client, each at most once (400)', async () => {
    const { admin } = await newTenant();
    const other = await newTenant();
    const editors = await createGroup(admin, { name: 'Editors' });
    const foreignGroup = await createGroup(other.admin, { name: 'Foreign' });

    const unknown = await admin.post<ErrorBody>('/permissionschemes', {
      name: 'Unknown group',
      grants: [grant(2_000_000_000, { dictionaryPermissions: ['DICT_READ'] })],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('BAD_REQUEST');
    expect(
      (await admin.post('/permissionschemes', { name: 'Foreign group', grants: [grant(foreignGroup.id)] }))
        .status,
    ).toBe(400);

    const twice = await admin.post<ErrorBody>('/permissionschemes', {
      name: 'Twice',
      grants: [grant(editors.id, { dictionaryPermissions: ['DICT_READ'] }), grant(editors.id)],
    });
    expect(twice.status).toBe(400);

    // The same rules on update.
    const scheme = await createScheme(admin, { grants: [grant(editors.id)] });
    expect(
      (
        await admin.put(`/permissionschemes/partial/${scheme.id}`, {
          grants: [grant(editors.id), grant(editors.id)],
          version: scheme.version,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin.put(`/permissionschemes/partial/${scheme.id}`, {
          grants: [grant(foreignGroup.id)],
          version: scheme.version,
        })
      ).status,
    ).toBe(400);
    expect((await admin.get<Page<SchemeBody>>('/permissionschemes')).body.totalElements).toBe(1);
  });

  it('names are unique per client, ignoring case (422)', async () => {
    const { admin } = await newTenant();
    const other = await newTenant();
    await createScheme(admin, { name: 'Shared name' });
    const other2 = await createScheme(admin, { name: 'Other name' });
    const clash = await admin.post<ErrorBody>('/permissionschemes', { name: 'SHARED NAME' });
    expect(clash.status).toBe(422);
    expect(clash.body.code).toBe('UNPROCESSABLE');
    expect((await other.admin.post('/permissionschemes', { name: 'Shared name' })).status).toBe(201);
    expect(
      (
        await admin.put(`/permissionschemes/partial/${other2.id}`, {
          name: 'shared name',
          version: other2.version,
        })
      ).status,
    ).toBe(422);
  });

  it('ordinary users get 403; a dictionary administrator may read but not write', async () => {
    const { admin, tenant } = await newTenant();
    const dictionary = await createDictionary(t.orm, tenant.id);
    const scheme = await createScheme(admin, { name: 'Guarded' });
    const { rest: user } = await loggedInUser(tenant);
    const { rest: dictionaryAdmin } = await loggedInUser(tenant, [`DICTIONARY_ADMIN@${dictionary.oid}`]);

    const calls: [string, (caller: RestClient) => Promise<{ status: number }>][] = [
      ['list', (caller) => caller.get('/permissionschemes')],
      ['get', (caller) => caller.get(`/permissionschemes/${scheme.id}`)],
      ['rownum', (caller) => caller.get(`/permissionschemes/rownum/${scheme.id}`)],
      [
        'by client',
        (caller) => caller.get(`/permissionschemes/find-permissionschemes-by-client?client_id=${tenant.id}`),
      ],
      ['create', (caller) => caller.post('/permissionschemes', { name: `New ${uniqueSuffix()}` })],
      [
        'update',
        (caller) => caller.put(`/permissionschemes/${scheme.id}`, { name: 'x', version: scheme.version }),
      ],
      [
        'partial',
        (caller) =>
          caller.put(`/permissionschemes/partial/${scheme.id}`, { name: 'y', version: scheme.version }),
      ],
      ['delete', (caller) => caller.delete(`/permissionschemes/${scheme.id}`)],
    ];
    for (const [name, call] of calls) expect((await call(user)).status, name).toBe(403);
    for (const [name, call] of calls.slice(0, 4))
      expect((await call(dictionaryAdmin)).status, name).toBe(200);
    for (const [name, call] of calls.slice(4)) expect((await call(dictionaryAdmin)).status, name).toBe(403);
    expect((await admin.get<SchemeBody>(`/permissionschemes/${scheme.id}`)).body).toMatchObject({
      name: 'Guarded',
      version: scheme.version,
      deleted: false,
    });
  });

  it("find-permissionschemes-by-client lists the client's schemes; another client is 404 for a client administrator", async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const a = await createScheme(admin, { name: 'B scheme' });
    const b = await createScheme(admin, { name: 'A scheme' });
    const foreign = await createScheme(other.admin, { name: 'Foreign scheme' });

    const mine = await admin.get<SchemeBody[]>(
      `/permissionschemes/find-permissionschemes-by-client?client_id=${tenant.id}`,
    );
    expect(mine.status).toBe(200);
    expect(mine.body.map((scheme) => scheme.id)).toEqual([b.id, a.id]);
    expect(mine.body[0]).toMatchObject({ name: 'A scheme', grants: [], clientId: tenant.id });

    const refused = await admin.get<ErrorBody>(
      `/permissionschemes/find-permissionschemes-by-client?client_id=${other.tenant.id}`,
    );
    expect(refused.status).toBe(404);

    const asSysadmin = await sysadmin.get<SchemeBody[]>(
      `/permissionschemes/find-permissionschemes-by-client?client_id=${other.tenant.id}`,
    );
    expect(asSysadmin.status).toBe(200);
    expect(asSysadmin.body.map((scheme) => scheme.id)).toEqual([foreign.id]);

    // A single scheme of another client is 404 as well.
    expect((await admin.get(`/permissionschemes/${foreign.id}`)).status).toBe(404);
  });

  it('a scheme assigned to a dictionary or a section cannot be deleted (400)', async () => {
    const { admin, tenant } = await newTenant();
    const forDictionary = await createScheme(admin, {});
    const forSection = await createScheme(admin, {});
    const unused = await createScheme(admin, {});
    await createDictionary(t.orm, tenant.id, { schemeId: forDictionary.id });
    await createDictionary(t.orm, tenant.id, { sections: 2, sectionSchemeIds: [null, forSection.id] });

    const refused = await admin.delete<ErrorBody>(`/permissionschemes/${forDictionary.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect((await admin.delete(`/permissionschemes/${forSection.id}`)).status).toBe(400);
    expect((await admin.get(`/permissionschemes/${forDictionary.id}`)).status).toBe(200);
    expect((await admin.get(`/permissionschemes/${forSection.id}`)).status).toBe(200);
    expect((await admin.delete(`/permissionschemes/${unused.id}`)).status).toBe(204);
  });
});

describe('GET /access/dictionary-permissions', () => {
  it('administrators and the DICTIONARY_ADMIN of the dictionary get every permission', async () => {
    const { admin, tenant } = await newTenant();
    const nobody = await createGroup(admin, { name: 'Nobody' });
    // A scheme that grants nothing to anybody the callers belong to.
    const scheme = await createScheme(admin, { grants: [grant(nobody.id)] });
    const dictionary = await createDictionary(t.orm, tenant.id, { sections: 2, schemeId: scheme.id });
    const otherDictionary = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    const { rest: dictionaryAdmin } = await loggedInUser(tenant, [`DICTIONARY_ADMIN@${dictionary.oid}`]);
    const oids = await sectionOids(dictionary);
    const everything = only(DICTIONARY_PERMISSIONS, DICTIONARY_PERMISSIONS);
    const everythingInSection = only(SECTION_PERMISSIONS, SECTION_PERMISSIONS);

    for (const caller of [admin, dictionaryAdmin]) {
      const body = await permissionsOf(caller, dictionary.id);
      expect(body).toEqual({
        dictionaryId: dictionary.id,
        permissions: everything,
        sectionPermissions: {
          [dictionary.sectionIds[0]!]: everythingInSection,
          [dictionary.sectionIds[1]!]: everythingInSection,
        },
        sectionOidPermissions: { [oids[0]!]: everythingInSection, [oids[1]!]: everythingInSection },
      });
    }
    // The dictionary administrator role is for that dictionary only.
    const elsewhere = await permissionsOf(dictionaryAdmin, otherDictionary.id);
    expect(elsewhere.permissions).toEqual(only(DICTIONARY_PERMISSIONS, []));
    expect((await permissionsOf(admin, otherDictionary.id)).permissions).toEqual(everything);
  });

  it('without a scheme an ordinary user may read, print and export', async () => {
    const { tenant } = await newTenant();
    const dictionary = await createDictionary(t.orm, tenant.id, { sections: 2 });
    const { rest: user } = await loggedInUser(tenant);
    const oids = await sectionOids(dictionary);
    const body = await permissionsOf(user, dictionary.id);
    const sectionMap = only(SECTION_PERMISSIONS, ['CONCEPT_PRINT', 'CONCEPT_EXPORT']);
    expect(body).toEqual({
      dictionaryId: dictionary.id,
      permissions: only(DICTIONARY_PERMISSIONS, ['DICT_READ', 'CONCEPT_PRINT', 'CONCEPT_EXPORT']),
      sectionPermissions: {
        [dictionary.sectionIds[0]!]: sectionMap,
        [dictionary.sectionIds[1]!]: sectionMap,
      },
      sectionOidPermissions: { [oids[0]!]: sectionMap, [oids[1]!]: sectionMap },
    });
  });

  it('with a scheme only the members of the granted group get its permissions', async () => {
    const { admin, tenant } = await newTenant();
    const { user: memberUser, rest: member } = await loggedInUser(tenant);
    const { rest: outsider } = await loggedInUser(tenant);
    const writers = await createGroup(admin, { name: 'Writers' });
    await createGroup(admin, { name: 'Others', groupMembers: [] });
    expect(
      (
        await admin.put(`/groups/partial/${writers.id}`, {
          groupMembers: [memberUser.id],
          version: writers.version,
        })
      ).status,
    ).toBe(200);
    const scheme = await createScheme(admin, {
      grants: [grant(writers.id, { dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'] })],
    });
    const dictionary = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    const section = String(dictionary.sectionIds[0]);

    const forMember = await permissionsOf(member, dictionary.id);
    expect(forMember.permissions).toEqual(only(DICTIONARY_PERMISSIONS, ['DICT_READ', 'CONCEPT_CREATE']));
    expect(forMember.sectionPermissions).toEqual({
      [section]: only(SECTION_PERMISSIONS, ['CONCEPT_CREATE']),
    });

    const forOutsider = await permissionsOf(outsider, dictionary.id);
    expect(forOutsider.permissions).toEqual(only(DICTIONARY_PERMISSIONS, []));
    expect(forOutsider.sectionPermissions).toEqual({ [section]: only(SECTION_PERMISSIONS, []) });
  });

  it("a section's own scheme overrides the dictionary's for that section", async () => {
    const { admin, tenant } = await newTenant();
    const { user: memberUser, rest: member } = await loggedInUser(tenant);
    const writers = await createGroup(admin, { name: 'Writers', groupMembers: [memberUser.id] });
    const dictionaryScheme = await createScheme(admin, {
      grants: [grant(writers.id, { dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'] })],
    });
    const emptyScheme = await createScheme(admin, { grants: [] });
    const dictionary = await createDictionary(t.orm, tenant.id, {
      sections: 2,
      schemeId: dictionaryScheme.id,
      sectionSchemeIds: [null, emptyScheme.id],
    });
    const [first, second] = dictionary.sectionIds.map(String);
    const oids = await sectionOids(dictionary);

    const body = await permissionsOf(member, dictionary.id);
    expect(body.sectionPermissions).toEqual({
      [first!]: only(SECTION_PERMISSIONS, ['CONCEPT_CREATE']),
      [second!]: only(SECTION_PERMISSIONS, []),
    });
    expect(body.sectionOidPermissions).toEqual({
      [oids[0]!]: only(SECTION_PERMISSIONS, ['CONCEPT_CREATE']),
      [oids[1]!]: only(SECTION_PERMISSIONS, []),
    });
    // Top level: true when true in some section.
    expect(body.permissions.CONCEPT_CREATE).toBe(true);
    expect(body.permissions.DICT_READ).toBe(true);
  });

  it('top-level DICT_READ and CONCEPT_* come from the sections: all sections overridden with nothing leaves them false', async () => {
    const { admin, tenant } = await newTenant();
    const { user: memberUser, rest: member } = await loggedInUser(tenant);
    const writers = await createGroup(admin, { name: 'Writers', groupMembers: [memberUser.id] });
    const dictionaryScheme = await createScheme(admin, {
      grants: [grant(writers.id, { dictionaryPermissions: ['DICT_READ', 'DICT_UPDATE', 'CONCEPT_CREATE'] })],
    });
    const emptyScheme = await createScheme(admin, { grants: [] });
    const dictionary = await createDictionary(t.orm, tenant.id, {
      sections: 2,
      schemeId: dictionaryScheme.id,
      sectionSchemeIds: [emptyScheme.id, emptyScheme.id],
    });
    const body = await permissionsOf(member, dictionary.id);
    expect(body.sectionPermissions).toEqual({
      [String(dictionary.sectionIds[0])]: only(SECTION_PERMISSIONS, []),
      [String(dictionary.sectionIds[1])]: only(SECTION_PERMISSIONS, []),
    });
    // No section is readable or lets the user create concepts; DICT_UPDATE is a dictionary-level grant.
    expect(body.permissions).toEqual(only(DICTIONARY_PERMISSIONS, ['DICT_UPDATE']));
  });

  it('a section scheme can grant more than the dictionary, and the top level shows it', async () => {
    const { admin, tenant } = await newTenant();
    const { user: memberUser, rest: member } = await loggedInUser(tenant);
    const importers = await createGroup(admin, { name: 'Importers', groupMembers: [memberUser.id] });
    const nothing = await createScheme(admin, { grants: [] });
    const importing = await createScheme(admin, {
      grants: [grant(importers.id, { dictionaryPermissions: ['DICT_READ', 'CONCEPT_IMPORT'] })],
    });
    const dictionary = await createDictionary(t.orm, tenant.id, {
      sections: 2,
      schemeId: nothing.id,
      sectionSchemeIds: [null, importing.id],
    });
    const [first, second] = dictionary.sectionIds.map(String);
    const body = await permissionsOf(member, dictionary.id);
    expect(body.sectionPermissions).toEqual({
      [first!]: only(SECTION_PERMISSIONS, []),
      [second!]: only(SECTION_PERMISSIONS, ['CONCEPT_IMPORT']),
    });
    expect(body.permissions).toEqual(only(DICTIONARY_PERMISSIONS, ['DICT_READ', 'CONCEPT_IMPORT']));
  });

  it('answers several dictionaries, with dictionary_id repeated or comma-separated, in the order asked', async () => {
    const { admin, tenant } = await newTenant();
    const one = await createDictionary(t.orm, tenant.id);
    const two = await createDictionary(t.orm, tenant.id);
    const repeated = await dictionaryPermissions(admin, `dictionary_id=${two.id}&dictionary_id=${one.id}`);
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body.map((entry) => entry.dictionaryId)).toEqual([two.id, one.id]);
    const commas = await dictionaryPermissions(admin, `dictionary_id=${one.id},${two.id}`);
    expect(commas.status, commas.text).toBe(200);
    expect(commas.body.map((entry) => entry.dictionaryId)).toEqual([one.id, two.id]);
    expect(commas.body[1]!.sectionPermissions).toHaveProperty(String(two.sectionIds[0]));
  });

  it('a dictionary of another client is 404, alone or among own dictionaries', async () => {
    const { admin, tenant } = await newTenant();
    const other = await newTenant();
    const own = await createDictionary(t.orm, tenant.id);
    const foreign = await createDictionary(t.orm, other.tenant.id);
    const alone = await dictionaryPermissions(admin, `dictionary_id=${foreign.id}`);
    expect(alone.status).toBe(404);
    expect(alone.body.code).toBe('NOT_FOUND');
    expect((await dictionaryPermissions(admin, `dictionary_id=${own.id},${foreign.id}`)).status).toBe(404);
    expect((await dictionaryPermissions(admin, 'dictionary_id=2000000000')).status).toBe(404);
  });

  it('an id beyond the database integers is 400, not a database error', async () => {
    const { admin } = await newTenant();
    for (const ids of ['2147483648', '1,9007199254740993', '1e308', '-2147483649']) {
      const response = await dictionaryPermissions(admin, `dictionary_id=${ids}`);
      expect(response.status, `${ids}: ${response.text}`).toBe(400);
      expect(response.body.message).toContain('2147483647');
    }
  });

  it('a guest session gets nothing from the no-scheme default, only what a scheme grants the Guests group', async () => {
    const { admin, tenant } = await newTenant();
    const guestName = `guest${uniqueSuffix()}`;
    const guestPassword = `guest-${uniqueSuffix()}`;
    const settings = await admin.put('/users/guest', {
      enabled: true,
      username: guestName,
      password: guestPassword,
      loginMethod: 'NORMAL',
    });
    expect(settings.status, settings.text).toBe(200);
    const guest = await loginRest(t.app, guestName, guestPassword, tenant.loginName);

    const open = await createDictionary(t.orm, tenant.id);
    const forOpen = await permissionsOf(guest, open.id);
    expect(forOpen.permissions).toEqual(only(DICTIONARY_PERMISSIONS, []));
    expect(forOpen.sectionPermissions).toEqual({
      [String(open.sectionIds[0])]: only(SECTION_PERMISSIONS, []),
    });

    const guests = (await systemGroups(admin)).GUEST;
    const scheme = await createScheme(admin, {
      grants: [grant(guests.id, { dictionaryPermissions: ['DICT_READ', 'CONCEPT_PRINT'] })],
    });
    const forGuests = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    expect((await permissionsOf(guest, forGuests.id)).permissions).toEqual(
      only(DICTIONARY_PERMISSIONS, ['DICT_READ', 'CONCEPT_PRINT']),
    );
    // Named users are not guests.
    const { rest: user } = await loggedInUser(tenant);
    expect((await permissionsOf(user, forGuests.id)).permissions).toEqual(only(DICTIONARY_PERMISSIONS, []));
  });
});

describe('conceptAccess (service)', () => {
  /** A request-like scope acting as the user in the client, as the tRPC context builds it. */
  function scopeOf(user: { id: number; username: string }, clientId: number, roles: string[] = []): Scope {
    const em = t.orm.em.fork();
    em.setFilterParams('tenant', { clientId });
    return {
      em,
      actor: {
        userId: user.id,
        username: user.username,
        fullName: null,
        clientId,
        homeClientId: clientId,
        roles,
        sessionId: 0,
        guest: false,
        apiLogin: false,
      },
      config: t.config,
      log: t.app.log,
    };
  }

  const none = { CONCEPT_EDIT_FIELDS: false, CONCEPT_UPDATE: false, CONCEPT_DELETE: false } as const;

  it('grants to the Owner group apply only when ownerId is the actor', async () => {
    const { admin, tenant } = await newTenant();
    const member = await createUser(t.orm, tenant.id);
    const someoneElse = await createUser(t.orm, tenant.id);
    const readers = await createGroup(admin, { name: 'Readers', groupMembers: [member.id] });
    const owner = (await systemGroups(admin)).OWNER;
    const scheme = await createScheme(admin, {
      grants: [
        grant(readers.id, { dictionaryPermissions: ['DICT_READ'], conceptPermissions: ['CONCEPT_PRINT'] }),
        grant(owner.id, {
          conceptPermissions: ['CONCEPT_UPDATE', 'CONCEPT_DELETE'],
          termPermissions: ['TERM_UPDATE'],
        }),
      ],
    });
    const dictionary = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    const section = dictionary.sectionIds[0]!;

    const own = await conceptAccess(scopeOf(member, tenant.id), section, member.id);
    expect(own.readable).toBe(true);
    expect(own.concept).toMatchObject({ CONCEPT_PRINT: true, CONCEPT_UPDATE: true, CONCEPT_DELETE: true });
    expect(own.term).toEqual({ TERM_UPDATE: true, TERM_DELETE: false });

    for (const ownerId of [someoneElse.id, null]) {
      const notOwn = await conceptAccess(scopeOf(member, tenant.id), section, ownerId);
      expect(notOwn.readable).toBe(true);
      expect(notOwn.concept).toMatchObject({
        CONCEPT_PRINT: true,
        CONCEPT_UPDATE: false,
        CONCEPT_DELETE: false,
      });
      expect(notOwn.term).toEqual({ TERM_UPDATE: false, TERM_DELETE: false });
    }
  });

  it('termLanguages: the languages of the term grants; null when some grant has no language limit', async () => {
    const { admin, tenant } = await newTenant();
    const both = await createUser(t.orm, tenant.id);
    const limitedOnly = await createUser(t.orm, tenant.id);
    const limited = await createGroup(admin, { name: 'Limited', groupMembers: [both.id, limitedOnly.id] });
    const unlimited = await createGroup(admin, { name: 'Unlimited', groupMembers: [both.id] });
    const scheme = await createScheme(admin, {
      grants: [
        grant(limited.id, {
          dictionaryPermissions: ['DICT_READ'],
          termPermissions: ['TERM_UPDATE'],
          languages: ['deu', 'fra'],
        }),
        grant(unlimited.id, { termPermissions: ['TERM_DELETE'] }),
      ],
    });
    const dictionary = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    const section = dictionary.sectionIds[0]!;

    const onlyLimited = await conceptAccess(scopeOf(limitedOnly, tenant.id), section, null);
    expect(onlyLimited.term).toEqual({ TERM_UPDATE: true, TERM_DELETE: false });
    expect([...(onlyLimited.termLanguages ?? ['<null>'])].sort()).toEqual(['deu', 'fra']);

    const inBoth = await conceptAccess(scopeOf(both, tenant.id), section, null);
    expect(inBoth.term).toEqual({ TERM_UPDATE: true, TERM_DELETE: true });
    expect(inBoth.termLanguages).toBeNull();
  });

  it('a section whose scheme grants no DICT_READ is not readable, whatever else it grants', async () => {
    const { admin, tenant } = await newTenant();
    const member = await createUser(t.orm, tenant.id);
    const group = await createGroup(admin, { name: 'Writers', groupMembers: [member.id] });
    const readable = await createScheme(admin, {
      grants: [
        grant(group.id, { dictionaryPermissions: ['DICT_READ'], conceptPermissions: ['CONCEPT_UPDATE'] }),
      ],
    });
    const unreadable = await createScheme(admin, {
      grants: [
        grant(group.id, {
          dictionaryPermissions: ['CONCEPT_CREATE'],
          conceptPermissions: ['CONCEPT_UPDATE', 'CONCEPT_EDIT_FIELDS'],
          termPermissions: ['TERM_UPDATE'],
        }),
      ],
    });
    const dictionary = await createDictionary(t.orm, tenant.id, {
      sections: 2,
      schemeId: readable.id,
      sectionSchemeIds: [null, unreadable.id],
    });
    const [first, second] = dictionary.sectionIds;

    const inFirst = await conceptAccess(scopeOf(member, tenant.id), first!, null);
    expect(inFirst.readable).toBe(true);
    expect(inFirst.concept.CONCEPT_UPDATE).toBe(true);

    const inSecond = await conceptAccess(scopeOf(member, tenant.id), second!, member.id);
    expect(inSecond.readable).toBe(false);
    expect(Object.values(inSecond.concept).every((value) => value === false)).toBe(true);
    expect(inSecond.term).toEqual({ TERM_UPDATE: false, TERM_DELETE: false });
  });

  it('administrators and the dictionary administrator may do everything; without a scheme users read', async () => {
    const { tenant } = await newTenant();
    const dictionary = await createDictionary(t.orm, tenant.id);
    const otherDictionary = await createDictionary(t.orm, tenant.id);
    const user = await createUser(t.orm, tenant.id);
    const section = dictionary.sectionIds[0]!;

    for (const roles of [['ADMIN'], [`DICTIONARY_ADMIN@${dictionary.oid}`]]) {
      const access = await conceptAccess(scopeOf(user, tenant.id, roles), section, null);
      expect(access.readable).toBe(true);
      expect(Object.values(access.concept).every(Boolean)).toBe(true);
      expect(access.term).toEqual({ TERM_UPDATE: true, TERM_DELETE: true });
      expect(access.termLanguages).toBeNull();
    }

    // The no-scheme default: readable, but no editing.
    const plain = await conceptAccess(
      scopeOf(user, tenant.id, [`DICTIONARY_ADMIN@${otherDictionary.oid}`]),
      section,
      user.id,
    );
    expect(plain.readable).toBe(true);
    expect(plain.concept).toMatchObject({ ...none, CONCEPT_PRINT: true });
    expect(plain.term).toEqual({ TERM_UPDATE: false, TERM_DELETE: false });
  });

  it('a guest actor gets nothing from the no-scheme default, only what the Guests group is granted', async () => {
    const { admin, tenant } = await newTenant();
    const guestName = `guest${uniqueSuffix()}`;
    const settings = await admin.put('/users/guest', {
      enabled: true,
      username: guestName,
      password: `guest-${uniqueSuffix()}`,
      loginMethod: 'NORMAL',
    });
    expect(settings.status, settings.text).toBe(200);
    const [row] = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ id: number }[]>('select id from users where client_id = ? and username = ?', [
        tenant.id,
        guestName,
      ]);
    const guestUser = { id: row!.id, username: guestName };
    const guestScope = () => {
      const scope = scopeOf(guestUser, tenant.id);
      return { ...scope, actor: { ...scope.actor, guest: true } };
    };

    const open = await createDictionary(t.orm, tenant.id);
    const inOpen = await conceptAccess(guestScope(), open.sectionIds[0]!, null);
    expect(inOpen.readable).toBe(false);
    expect(Object.values(inOpen.concept).some(Boolean)).toBe(false);
    const [openPermissions] = await dictionaryPermissionsOf(guestScope(), [open.id]);
    expect(openPermissions!.permissions).toEqual(only(DICTIONARY_PERMISSIONS, []));

    const guests = (await systemGroups(admin)).GUEST;
    const scheme = await createScheme(admin, {
      grants: [
        grant(guests.id, { dictionaryPermissions: ['DICT_READ'], conceptPermissions: ['CONCEPT_PRINT'] }),
      ],
    });
    const forGuests = await createDictionary(t.orm, tenant.id, { schemeId: scheme.id });
    const inForGuests = await conceptAccess(guestScope(), forGuests.sectionIds[0]!, null);
    expect(inForGuests.readable).toBe(true);
    expect(inForGuests.concept).toMatchObject({ ...none, CONCEPT_PRINT: true });
    const [guestPermissions] = await dictionaryPermissionsOf(guestScope(), [forGuests.id]);
    expect(guestPermissions!.permissions).toEqual(only(DICTIONARY_PERMISSIONS, ['DICT_READ']));
  });

  it('a section of another client is not found', async () => {
    const { tenant } = await newTenant();
    const other = await newTenant();
    const user = await createUser(t.orm, tenant.id);
    const foreign = await createDictionary(t.orm, other.tenant.id);
    const attempt = conceptAccess(scopeOf(user, tenant.id), foreign.sectionIds[0]!, null);
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(conceptAccess(scopeOf(user, tenant.id), foreign.sectionIds[0]!, null)).rejects.toMatchObject(
      {
        code: 'NOT_FOUND',
      },
    );
  });
});
