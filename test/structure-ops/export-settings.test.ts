import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/modules/client/client.entity.js';
import { Dictionary } from '../../src/modules/dictionary/dictionary.entity.js';
import { ExportSettings } from '../../src/modules/export-settings/export-settings.entity.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  type ErrorBody,
  expectError,
  groupWith,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

interface ExportSettingsBody {
  id: number;
  oid: string | null;
  version: number;
  clientId: number;
  deleted: boolean;
  created: { time: number };
  changed: { time: number };
  name: string;
  dictionaryId: number;
  visibility: 'PRIVATE' | 'PUBLIC';
  userId: number | null;
  fileFormat: string;
  fileName: string | null;
  exportPermalinks: boolean;
  exportAttachments: boolean;
  exportOneSheet: boolean;
  filterId: number | null;
  selectedLanguages: string[];
  selectedConceptFields: string[];
  selectedTermFields: string[];
  orderTermByField: string | null;
  neverLaunched: boolean;
}

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

/** Export settings are recorded by exports, never through the API: rows straight through the ORM. */
async function insertSettings(
  clientId: number,
  dictionaryId: number,
  values: Partial<{
    name: string;
    visibility: 'PRIVATE' | 'PUBLIC';
    userId: number | null;
    fileFormat: 'TBX' | 'TBX_V2' | 'XLSX' | 'CSV';
    fileName: string | null;
    exportPermalinks: boolean;
    exportAttachments: boolean;
    exportOneSheet: boolean;
    selectedLanguages: string[];
    selectedConceptFields: string[];
    selectedTermFields: string[];
    orderTermByField: string | null;
    neverLaunched: boolean;
    deleted: boolean;
  }>,
): Promise<number> {
  const em = t.orm.em.fork();
  const row = em.create(ExportSettings, {
    client: em.getReference(Client, clientId),
    dictionary: em.getReference(Dictionary, dictionaryId),
    name: values.name ?? 'Export',
    ...values,
  });
  await em.flush();
  return row.id;
}

/**
 * A tenant with two dictionaries and two users; each user has a private setting in the first
 * dictionary, A also a public one, B a private one in the second dictionary.
 */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const first = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'fra' }] });
  const second = await createDictionary(admin);
  const a = await loggedInUser(t, tenant);
  const b = await loggedInUser(t, tenant);
  const ids = {
    aPrivate: await insertSettings(tenant.id, first.id, { name: 'A private', userId: a.id }),
    aPublic: await insertSettings(tenant.id, first.id, {
      name: 'A public',
      userId: a.id,
      visibility: 'PUBLIC',
    }),
    bPrivate: await insertSettings(tenant.id, first.id, { name: 'B private', userId: b.id }),
    bSecond: await insertSettings(tenant.id, second.id, { name: 'B second', userId: b.id }),
  };
  return { admin, tenant, first, second, a, b, ids };
}

const list = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<ExportSettingsBody> & ErrorBody>(`/export-settings${query(params)}`);

const listedNames = async (caller: RestClient, params: Record<string, string | number | boolean> = {}) => {
  const response = await list(caller, params);
  expect(response.status, response.text).toBe(200);
  return response.body.content.map((row) => row.name);
};

describe('find, rownum, get', () => {
  it('GET by id answers every attribute; arrays are never null', async () => {
    const { admin, tenant, first, a } = await world();
    const id = await insertSettings(tenant.id, first.id, {
      name: 'Full',
      userId: a.id,
      visibility: 'PUBLIC',
      fileFormat: 'XLSX',
      fileName: 'terms.xlsx',
      exportPermalinks: true,
      exportAttachments: true,
      exportOneSheet: true,
      selectedLanguages: ['eng', 'fra'],
      selectedConceptFields: ['field-1'],
      selectedTermFields: ['field-2', 'field-3'],
      orderTermByField: 'field-2',
      neverLaunched: false,
    });
    const response = await admin.get<ExportSettingsBody>(`/export-settings/${id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id,
      clientId: tenant.id,
      deleted: false,
      name: 'Full',
      dictionaryId: first.id,
      visibility: 'PUBLIC',
      userId: a.id,
      fileFormat: 'XLSX',
      fileName: 'terms.xlsx',
      exportPermalinks: true,
      exportAttachments: true,
      exportOneSheet: true,
      filterId: null,
      selectedLanguages: ['eng', 'fra'],
      selectedConceptFields: ['field-1'],
      selectedTermFields: ['field-2', 'field-3'],
      orderTermByField: 'field-2',
      neverLaunched: false,
    });
    expect(response.body.created.time).toEqual(expect.any(Number));

    const defaults = await insertSettings(tenant.id, first.id, { name: 'Defaults', userId: a.id });
    const bare = await admin.get<ExportSettingsBody>(`/export-settings/${defaults}`);
    expect(bare.body).toMatchObject({
      visibility: 'PRIVATE',
      fileFormat: 'TBX',
      fileName: null,
      filterId: null,
      selectedLanguages: [],
      selectedConceptFields: [],
      selectedTermFields: [],
      orderTermByField: null,
      neverLaunched: true,
    });
  });

  it('find lists by name; dictionary-id filters; rownum follows filters and sort', async () => {
    const { admin, first, second, ids } = await world();
    expect(await listedNames(admin)).toEqual(['A private', 'A public', 'B private', 'B second']);
    expect(await listedNames(admin, { 'dictionary-id': first.id })).toEqual([
      'A private',
      'A public',
      'B private',
    ]);
    expect(await listedNames(admin, { 'dictionary-id': second.id })).toEqual(['B second']);
    expect(await listedNames(admin, { name: 'b ' })).toEqual(['B private', 'B second']);
    expect(await listedNames(admin, { 'name-eq': 'a PUBLIC' })).toEqual(['A public']);
    const page = await list(admin, { size: 2, page: 1 });
    expect(page.body).toMatchObject({ totalElements: 4, numberOfElements: 2, number: 1, last: true });

    const rownum = async (id: number, params: Record<string, string | number> = {}) => {
      const response = await admin.get<number>(`/export-settings/rownum/${id}${query(params)}`);
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    expect(await rownum(ids.bPrivate)).toBe(3);
    expect(await rownum(ids.bPrivate, { sort: 'name,DESC' })).toBe(2);
    expect(await rownum(ids.bSecond, { 'dictionary-id': second.id })).toBe(1);
    expect(await rownum(ids.bSecond, { 'dictionary-id': first.id })).toBe(0);
  });
});

describe('visibility', () => {
  it('a user sees own and public settings; private ones of another user are hidden (list, rownum, GET 404)', async () => {
    const { a, b, ids } = await world();
    expect(await listedNames(a.rest)).toEqual(['A private', 'A public']);
    expect(await listedNames(b.rest)).toEqual(['A public', 'B private', 'B second']);

    expectError(await a.rest.get(`/export-settings/${ids.bPrivate}`), 404);
    expectError(await a.rest.get(`/export-settings/${ids.bSecond}`), 404);
    expect((await a.rest.get<number>(`/export-settings/rownum/${ids.bPrivate}`)).body).toBe(0);
    expectError(await b.rest.get(`/export-settings/${ids.aPrivate}`), 404);
    expect((await b.rest.get<ExportSettingsBody>(`/export-settings/${ids.aPublic}`)).status).toBe(200);
    expect((await b.rest.get<ExportSettingsBody>(`/export-settings/${ids.bPrivate}`)).status).toBe(200);
  });

  it('administrators see every setting of their client, private ones included', async () => {
    const { admin, tenant, ids } = await world();
    const { rest: secondAdmin } = await loggedInUser(t, tenant, { roles: ['ADMIN'] });
    for (const caller of [admin, secondAdmin]) {
      expect(await listedNames(caller)).toEqual(['A private', 'A public', 'B private', 'B second']);
      for (const id of Object.values(ids)) {
        expect((await caller.get(`/export-settings/${id}`)).status).toBe(200);
      }
    }
  });

  it('settings of a dictionary the user may not read are hidden, even their own', async () => {
    const { admin, tenant, a, b } = await world();
    // A scheme that grants the dictionary only to a group without A.
    const group = await groupWith(admin, [b.id]);
    const scheme = await admin.post<{ id: number }>('/permissionschemes', {
      name: `Scheme ${uniqueSuffix()}`,
      grants: [
        {
          groupId: group.id,
          dictionaryPermissions: ['DICT_READ'],
          conceptPermissions: [],
          termPermissions: [],
          languages: [],
        },
      ],
    });
    expect(scheme.status, scheme.text).toBe(201);
    const closed = await createDictionary(admin, { permissionSchemeId: scheme.body.id });
    const own = await insertSettings(tenant.id, closed.id, { name: 'A closed', userId: a.id });
    const shared = await insertSettings(tenant.id, closed.id, {
      name: 'Public closed',
      visibility: 'PUBLIC',
    });

    expect(await listedNames(a.rest)).toEqual(['A private', 'A public']);
    expectError(await a.rest.get(`/export-settings/${own}`), 404);
    expectError(await a.rest.get(`/export-settings/${shared}`), 404);
    expect(await listedNames(b.rest, { 'dictionary-id': closed.id })).toEqual(['Public closed']);
  });

  it('deleted settings are hidden; administrators see them with include-deleted', async () => {
    const { admin, tenant, first, a } = await world();
    const id = await insertSettings(tenant.id, first.id, {
      name: 'Deleted',
      userId: a.id,
      deleted: true,
    });
    expectError(await admin.get(`/export-settings/${id}`), 404);
    expect(await listedNames(admin)).not.toContain('Deleted');
    const withDeleted = await admin.get<ExportSettingsBody>(`/export-settings/${id}?include-deleted=true`);
    expect(withDeleted.status).toBe(200);
    expect(withDeleted.body.deleted).toBe(true);
    expect(await listedNames(admin, { 'include-deleted': true })).toContain('Deleted');
    expectError(await a.rest.get(`/export-settings/${id}?include-deleted=true`), 404);
  });

  it('settings of another client are 404 and never listed', async () => {
    const one = await world();
    const two = await world();
    for (const caller of [one.admin, one.a.rest]) {
      expectError(await caller.get(`/export-settings/${two.ids.aPublic}`), 404);
      expect(await listedNames(caller, { client_id: two.tenant.id })).toEqual([]);
      expect(await listedNames(caller, { 'dictionary-id': two.first.id })).toEqual([]);
    }
    // A system administrator may list another client's settings.
    expect(await listedNames(sysadmin, { client_id: two.tenant.id })).toEqual([
      'A private',
      'A public',
      'B private',
      'B second',
    ]);
  });
});

describe('read-only', () => {
  it('no POST, PUT, partial update or DELETE: 405 on the known paths, 404 on the unknown ones; nothing changes', async () => {
    const { admin, first, ids } = await world();
    const before = await rows(t, 'select * from export_settings where id = ?', [ids.aPublic]);
    const body = { name: 'Changed', dictionaryId: first.id, version: 1 };

    const created = await admin.post<ErrorBody>('/export-settings', body);
    expectError(created, 405);
    expect(String(created.headers.allow)).toContain('GET');
    const put = await admin.put<ErrorBody>(`/export-settings/${ids.aPublic}`, body);
    expectError(put, 405);
    expect(String(put.headers.allow)).toBe('GET');
    expectError(await admin.delete(`/export-settings/${ids.aPublic}`), 405);
    expectError(await admin.call('PATCH', `/export-settings/${ids.aPublic}`, { json: body }), 405);
    expectError(await admin.put(`/export-settings/partial/${ids.aPublic}`, body), 404);
    expectError(await admin.delete(`/export-settings/async/${ids.aPublic}`), 404);

    expect(await rows(t, 'select * from export_settings where id = ?', [ids.aPublic])).toEqual(before);
    expect(await listedNames(admin)).toEqual(['A private', 'A public', 'B private', 'B second']);
  });
});
