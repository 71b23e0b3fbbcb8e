// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchGroup } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createSection,
  createView,
  type ErrorBody,
  expectError,
  groupWith,
  type InvocationResultBody,
  loggedInUser,
  newTenant,
  type PageBody,
  patchAtCurrentVersion,
  query,
  type SectionBody,
  uniqueSuffix,
  type ViewBody,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

/** A tenant with a dictionary holding one concept field and one term field. */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, {
    conceptFields: [{ name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' }],
    termFields: [{ name: 'Note', fieldType: 'SINGLELINE' }],
  });
  const conceptField = dictionary.conceptFields[0]!.oid!;
  const termField = dictionary.termFields[0]!.oid!;
  return { admin, tenant, dictionary, conceptField, termField };
}

const listViews = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<ViewBody> & ErrorBody>(`/views${query(params)}`);

describe('generic calls', () => {
  it('POST creates (201) and GET reads the same view, with audit data', async () => {
    const { admin, tenant, dictionary, conceptField, termField } = await world();
    const created = await admin.post<ViewBody>('/views', {
      name: 'Editors view',
      dictionaryId: dictionary.id,
      fields: [conceptField, termField],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Editors view',
      dictionaryId: dictionary.id,
      clientId: tenant.id,
      deleted: false,
      inUse: false,
      inUseMessage: null,
    });
    expect(created.body.version).toEqual(expect.any(Number));
    expect(created.body.created.name).toBe('admin');
    expect([...created.body.fields].sort()).toEqual(['LANG', 'TERM', conceptField, termField].sort());

    const read = await admin.get<ViewBody>(`/views/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('list filters by dictionary_id and by dictionary-id; rownum follows filters and sort', async () => {
    const { admin, dictionary } = await world();
    const other = await createDictionary(admin);
    const b = await createView(admin, dictionary.id, [], 'B view');
    const a = await createView(admin, dictionary.id, [], 'A view');
    const c = await createView(admin, other.id, [], 'C view');

    const all = await listViews(admin);
    expect(all.status).toBe(200);
    expect(all.body.content.map((v) => v.name)).toEqual(['A view', 'B view', 'C view']);

    for (const key of ['dictionary_id', 'dictionary-id']) {
      const own = await listViews(admin, { [key]: dictionary.id });
      expect(own.status, own.text).toBe(200);
      expect(own.body.content.map((v) => v.id)).toEqual([a.id, b.id]);
      expect(own.body.totalElements).toBe(2);
      const others = await listViews(admin, { [key]: other.id });
      expect(others.body.content.map((v) => v.id)).toEqual([c.id]);
    }

    const rownum = async (id: number, params: Record<string, string | number> = {}) => {
      const response = await admin.get<number>(`/views/rownum/${id}${query(params)}`);
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    expect(await rownum(b.id)).toBe(2);
    expect(await rownum(c.id)).toBe(3);
    expect(await rownum(b.id, { sort: 'name,DESC' })).toBe(2);
    expect(await rownum(a.id, { sort: 'name,DESC' })).toBe(3);
    expect(await rownum(c.id, { dictionary_id: dictionary.id })).toBe(0);
    expect(await rownum(b.id, { 'dictionary-id': dictionary.id })).toBe(2);
  });

  it('PUT needs the current version (409 for a missing or stale one) and replaces name and fields', async () => {
    const { admin, dictionary, conceptField, termField } = await world();
    const view = await createView(admin, dictionary.id, [conceptField], 'Before');

    const stale = await admin.put<ErrorBody>(`/views/${view.id}`, {
      name: 'After',
      dictionaryId: dictionary.id,
      fields: [termField],
      version: view.version - 1,
    });
    expectError(stale, 409);
    const missing = await admin.put<ErrorBody>(`/views/${view.id}`, {
      name: 'After',
      dictionaryId: dictionary.id,
      fields: [termField],
    });
    expectError(missing, 409);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body).toMatchObject({
      name: 'Before',
      version: view.version,
    });

    const updated = await admin.put<ViewBody>(`/views/${view.id}`, {
      name: 'After',
      dictionaryId: dictionary.id,
      fields: [termField],
      version: view.version,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.name).toBe('After');
    expect([...updated.body.fields].sort()).toEqual(['LANG', 'TERM', termField].sort());
    expect(updated.body.version).toBeGreaterThan(view.version);

    // The old version is stale now.
    const again = await admin.put<ErrorBody>(`/views/${view.id}`, {
      name: 'Again',
      dictionaryId: dictionary.id,
      version: view.version,
    });
    expectError(again, 409);

    // PUT without fields leaves only the always-visible ones.
    const emptied = await admin.put<ViewBody>(`/views/${view.id}`, {
      name: 'After',
      dictionaryId: dictionary.id,
      version: updated.body.version,
    });
    expect(emptied.status, emptied.text).toBe(200);
    expect([...emptied.body.fields].sort()).toEqual(['LANG', 'TERM']);
  });

  it('partial update changes only what is sent and needs the version', async () => {
    const { admin, dictionary, conceptField } = await world();
    const view = await createView(admin, dictionary.id, [conceptField], 'Partial');

    expectError(await admin.put(`/views/partial/${view.id}`, { name: 'Renamed' }), 409);
    const renamed = await admin.put<ViewBody>(`/views/partial/${view.id}`, {
      name: 'Renamed',
      version: view.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect([...renamed.body.fields].sort()).toEqual(view.fields.slice().sort());

    const refielded = await admin.put<ViewBody>(`/views/partial/${view.id}`, {
      fields: ['DOM'],
      version: renamed.body.version,
    });
    expect(refielded.status, refielded.text).toBe(200);
    expect(refielded.body.name).toBe('Renamed');
    expect([...refielded.body.fields].sort()).toEqual(['DOM', 'LANG', 'TERM']);
  });

  it('DELETE answers 204 text/plain; the view is gone (404) except for include-deleted', async () => {
    const { admin, dictionary } = await world();
    const view = await createView(admin, dictionary.id);
    const deleted = await admin.delete(`/views/${view.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.headers['content-type']).toMatch(/^text\/plain/);
    expectError(await admin.get(`/views/${view.id}`), 404);
    expect((await listViews(admin, { dictionary_id: dictionary.id })).body.totalElements).toBe(0);
    const withDeleted = await admin.get<ViewBody>(`/views/${view.id}?include-deleted=true`);
    expect(withDeleted.status).toBe(200);
    expect(withDeleted.body.deleted).toBe(true);
  });

  it('async delete reports each id: true when deleted, false when unknown', async () => {
    const { admin, dictionary } = await world();
    const one = await createView(admin, dictionary.id);
    const two = await createView(admin, dictionary.id);
    const response = await admin.delete<InvocationResultBody>(`/views/async/${one.id},${two.id},999999999`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.result).toEqual({ [one.id]: true, [two.id]: true, 999999999: false });
    expect(response.body.jobTaskId).toBeUndefined();
    expectError(await admin.get(`/views/${one.id}`), 404);
    expectError(await admin.get(`/views/${two.id}`), 404);
  });

  it('only administrators of the dictionary create, change and delete views; readers read them', async () => {
    const { admin, tenant, dictionary } = await world();
    const view = await createView(admin, dictionary.id, [], 'Shared');
    const { rest: user } = await loggedInUser(t, tenant);

    // A dictionary without a scheme is readable by named users.
    const read = await user.get<ViewBody>(`/views/${view.id}`);
    expect(read.status, read.text).toBe(200);
    expect((await listViews(user, { dictionary_id: dictionary.id })).body.content.map((v) => v.id)).toEqual([
      view.id,
    ]);

    expectError(await user.post('/views', { name: 'Mine', dictionaryId: dictionary.id }), 403);
    expectError(await user.put(`/views/partial/${view.id}`, { name: 'Changed', version: view.version }), 403);
    expectError(await user.delete(`/views/${view.id}`), 403);
    const bulk = await user.delete<InvocationResultBody>(`/views/async/${view.id}`);
    expect(bulk.status).toBe(200);
    expect(bulk.body.result).toEqual({ [view.id]: false });
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body).toMatchObject({
      name: 'Shared',
      version: view.version,
    });

    // The dictionary's own administrator role may.
    const { rest: dictAdmin } = await loggedInUser(t, tenant, {
      roles: [`DICTIONARY_ADMIN@${dictionary.oid}`],
    });
    const own = await dictAdmin.post<ViewBody>('/views', {
      name: 'By dict admin',
      dictionaryId: dictionary.id,
    });
    expect(own.status, own.text).toBe(201);
  });

  it('views of a dictionary the user may not read are 404 and not listed', async () => {
    const { admin, tenant } = await world();
    const insider = await loggedInUser(t, tenant);
    const outsider = await loggedInUser(t, tenant);
    const group = await groupWith(admin, [insider.id]);
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
    const view = await createView(admin, closed.id);

    expect((await insider.rest.get(`/views/${view.id}`)).status).toBe(200);
    expect((await listViews(insider.rest)).body.content.map((v) => v.id)).toEqual([view.id]);
    expectError(await outsider.rest.get(`/views/${view.id}`), 404);
    expect((await listViews(outsider.rest)).body.totalElements).toBe(0);
    expect((await listViews(outsider.rest, { dictionary_id: closed.id })).body.totalElements).toBe(0);
    expect((await outsider.rest.get<number>(`/views/rownum/${view.id}`)).body).toBe(0);
  });

  it('concurrent creations of views in one dictionary all succeed (no version was sent)', async () => {
    const { admin, dictionary } = await world();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        admin.post<ViewBody>('/views', { name: `Parallel ${i}`, dictionaryId: dictionary.id }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect((await listViews(admin, { dictionary_id: dictionary.id })).body.totalElements).toBe(5);
  });

  it('views of another client are 404 and never listed', async () => {
    const a = await world();
    const b = await world();
    const view = await createView(b.admin, b.dictionary.id);
    expectError(await a.admin.get(`/views/${view.id}`), 404);
    expectError(await a.admin.put(`/views/partial/${view.id}`, { name: 'x', version: view.version }), 404);
    expectError(await a.admin.delete(`/views/${view.id}`), 404);
    expectError(await a.admin.post('/views', { name: 'Into B', dictionaryId: b.dictionary.id }), 404);
    const listed = await listViews(a.admin, { dictionary_id: b.dictionary.id });
    expect(listed.body.totalElements).toBe(0);
    const otherClient = await listViews(a.admin, { client_id: b.tenant.id });
    expect(otherClient.body.totalElements).toBe(0);
    expect((await b.admin.get(`/views/${view.id}`)).status).toBe(200);
  });
});

describe('visible fields', () => {
  it('TERM and LANG are always in fields, even when not sent or sent alone', async () => {
    const { admin, dictionary, conceptField } = await world();
    const bare = await admin.post<ViewBody>('/views', { name: 'Bare', dictionaryId: dictionary.id });
    expect(bare.status, bare.text).toBe(201);
    expect([...bare.body.fields].sort()).toEqual(['LANG', 'TERM']);

    const empty = await createView(admin, dictionary.id, []);
    expect([...empty.fields].sort()).toEqual(['LANG', 'TERM']);

    const some = await createView(admin, dictionary.id, [conceptField, 'TERM']);
    expect([...some.fields].sort()).toEqual(['LANG', 'TERM', conceptField].sort());
    expect(some.fields.filter((f) => f === 'TERM')).toHaveLength(1);

    // An update that drops them gets them back.
    const patched = await admin.put<ViewBody>(`/views/partial/${some.id}`, {
      fields: [conceptField],
      version: some.version,
    });
    expect(patched.status, patched.text).toBe(200);
    expect([...patched.body.fields].sort()).toEqual(['LANG', 'TERM', conceptField].sort());
  });

  it('system data categories are accepted as fields', async () => {
    const { admin, dictionary } = await world();
    const system = ['DOM', 'DICT', 'SECT', 'CONID', 'CREBY', 'CREDATE', 'CHGBY', 'CHGDATE', 'GVAR', 'OVAR'];
    const view = await admin.post<ViewBody>('/views', {
      name: 'System',
      dictionaryId: dictionary.id,
      fields: system,
    });
    expect(view.status, view.text).toBe(201);
    expect([...view.body.fields].sort()).toEqual([...system, 'LANG', 'TERM'].sort());
  });

  it('an unknown field oid, or a field of another dictionary, is 400 and nothing is stored', async () => {
    const { admin, dictionary, conceptField } = await world();
    const other = await createDictionary(admin, {
      conceptFields: [{ name: 'Elsewhere', fieldType: 'SINGLELINE' }],
    });
    const name = `Bad ${uniqueSuffix()}`;
    expectError(
      await admin.post('/views', { name, dictionaryId: dictionary.id, fields: ['no-such-oid'] }),
      400,
    );
    expectError(
      await admin.post('/views', {
        name,
        dictionaryId: dictionary.id,
        fields: [conceptField, other.conceptFields[0]!.oid],
      }),
      400,
    );
    expect((await listViews(admin, { 'name-eq': name })).body.totalElements).toBe(0);

    const view = await createView(admin, dictionary.id, [conceptField]);
    const bad = await admin.put<ErrorBody>(`/views/partial/${view.id}`, {
      fields: ['no-such-oid'],
      version: view.version,
    });
    expectError(bad, 400);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body.fields).toEqual(view.fields);
  });

  it('a view moved to another dictionary keeps only fields of that dictionary (400 otherwise)', async () => {
    const { admin, dictionary, conceptField } = await world();
    const target = await createDictionary(admin, {
      conceptFields: [{ name: 'Target field', fieldType: 'SINGLELINE' }],
    });
    const view = await createView(admin, dictionary.id, [conceptField, 'DOM']);
    const kept = await admin.put<ErrorBody>(`/views/partial/${view.id}`, {
      dictionaryId: target.id,
      version: view.version,
    });
    expectError(kept, 400);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body.dictionaryId).toBe(dictionary.id);

    const targetField = target.conceptFields[0]!.oid!;
    const moved = await admin.put<ViewBody>(`/views/partial/${view.id}`, {
      dictionaryId: target.id,
      fields: [targetField, 'DOM'],
      version: view.version,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.dictionaryId).toBe(target.id);
    expect([...moved.body.fields].sort()).toEqual(['DOM', 'LANG', 'TERM', targetField].sort());
    expect((await listViews(admin, { dictionary_id: target.id })).body.content.map((v) => v.id)).toEqual([
      view.id,
    ]);
  });
});

describe('views in use', () => {
  async function usedWorld() {
    const w = await world();
    const target = await createDictionary(w.admin);
    const view = await createView(w.admin, w.dictionary.id, [], 'Used view');
    return { ...w, target, view };
  }

  const assignToSection = async (admin: RestClient, sectionId: number, viewId: number | null) => {
    const response = await patchAtCurrentVersion<SectionBody>(admin, 'sections', sectionId, { viewId });
    expect(response.status, response.text).toBe(200);
    expect(response.body.viewId).toBe(viewId);
  };

  it('a view used by a section cannot be deleted nor moved (400); inUseMessage names the section', async () => {
    const { admin, dictionary, target, view } = await usedWorld();
    const section = await createSection(admin, dictionary.id, 'Chemistry');
    await assignToSection(admin, section.id, view.id);

    const read = await admin.get<ViewBody>(`/views/${view.id}`);
    expect(read.body.inUse).toBe(true);
    expect(read.body.inUseMessage).toContain('Chemistry');
    expect(read.body.inUseMessage).toMatch(/section/i);
    const listed = await listViews(admin, { dictionary_id: dictionary.id });
    expect(listed.body.content.find((v) => v.id === view.id)).toMatchObject({ inUse: true });

    const deleted = await admin.delete<ErrorBody>(`/views/${view.id}`);
    expectError(deleted, 400);
    expect(deleted.body.message).toContain('Chemistry');
    const bulk = await admin.delete<InvocationResultBody>(`/views/async/${view.id}`);
    expect(bulk.body.result).toEqual({ [view.id]: false });

    const moved = await admin.put<ErrorBody>(`/views/partial/${view.id}`, {
      dictionaryId: target.id,
      version: read.body.version,
    });
    expectError(moved, 400);
    expect(moved.body.message).toContain('Chemistry');
    const movedByPut = await admin.put<ErrorBody>(`/views/${view.id}`, {
      name: view.name,
      dictionaryId: target.id,
      version: read.body.version,
    });
    expectError(movedByPut, 400);
    const after = await admin.get<ViewBody>(`/views/${view.id}`);
    expect(after.body).toMatchObject({
      dictionaryId: dictionary.id,
      deleted: false,
      version: read.body.version,
    });

    // Unassigned, the view is free again: it moves, and then deletes.
    await assignToSection(admin, section.id, null);
    const free = await admin.get<ViewBody>(`/views/${view.id}`);
    expect(free.body).toMatchObject({ inUse: false, inUseMessage: null });
    const movedNow = await admin.put<ViewBody>(`/views/partial/${view.id}`, {
      dictionaryId: target.id,
      version: free.body.version,
    });
    expect(movedNow.status, movedNow.text).toBe(200);
    expect(movedNow.body.dictionaryId).toBe(target.id);
    expect((await admin.delete(`/views/${view.id}`)).status).toBe(204);
  });

  it('a view used by a group (viewsMap) cannot be deleted nor moved (400); inUseMessage names the group', async () => {
    const { admin, dictionary, target, view } = await usedWorld();
    const groupName = `Reviewers ${uniqueSuffix()}`;
    const group = await groupWith(admin, [], groupName);
    const assigned = await patchGroup(admin, group.id, { viewsMap: { [dictionary.id]: [view.id] } });
    expect(assigned.status, assigned.text).toBe(200);

    const read = await admin.get<ViewBody>(`/views/${view.id}`);
    expect(read.body.inUse).toBe(true);
    expect(read.body.inUseMessage).toContain(groupName);
    expect(read.body.inUseMessage).toMatch(/group/i);

    const deleted = await admin.delete<ErrorBody>(`/views/${view.id}`);
    expectError(deleted, 400);
    expect(deleted.body.message).toContain(groupName);
    const moved = await admin.put<ErrorBody>(`/views/partial/${view.id}`, {
      dictionaryId: target.id,
      version: read.body.version,
    });
    expectError(moved, 400);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body.dictionaryId).toBe(dictionary.id);

    // Renaming is still allowed while in use.
    const renamed = await admin.put<ViewBody>(`/views/partial/${view.id}`, {
      name: 'Renamed in use',
      version: read.body.version,
    });
    expect(renamed.status, renamed.text).toBe(200);

    const unassigned = await patchGroup(admin, group.id, { viewsMap: {} });
    expect(unassigned.status, unassigned.text).toBe(200);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body.inUse).toBe(false);
    expect((await admin.delete(`/views/${view.id}`)).status).toBe(204);
  });

  it('inUseMessage names every user: sections and groups together', async () => {
    const { admin, dictionary, view } = await usedWorld();
    const sectionA = await createSection(admin, dictionary.id, 'Section Alpha');
    const sectionB = await createSection(admin, dictionary.id, 'Section Beta');
    await assignToSection(admin, sectionA.id, view.id);
    await assignToSection(admin, sectionB.id, view.id);
    const groupName = `Translators ${uniqueSuffix()}`;
    const group = await groupWith(admin, [], groupName);
    expect((await patchGroup(admin, group.id, { viewsMap: { [dictionary.id]: [view.id] } })).status).toBe(
      200,
    );

    const message = (await admin.get<ViewBody>(`/views/${view.id}`)).body.inUseMessage ?? '';
    for (const name of ['Section Alpha', 'Section Beta', groupName]) expect(message).toContain(name);

    // Removing only one user is not enough.
    await assignToSection(admin, sectionA.id, null);
    await assignToSection(admin, sectionB.id, null);
    expectError(await admin.delete(`/views/${view.id}`), 400);
    expect((await patchGroup(admin, group.id, { viewsMap: {} })).status).toBe(200);
    expect((await admin.delete(`/views/${view.id}`)).status).toBe(204);
  });

  it('a deleted section or group no longer holds the view', async () => {
    const { admin, dictionary, view } = await usedWorld();
    const section = await createSection(admin, dictionary.id, 'Temporary');
    await assignToSection(admin, section.id, view.id);
    const group = await groupWith(admin, []);
    expect((await patchGroup(admin, group.id, { viewsMap: { [dictionary.id]: [view.id] } })).status).toBe(
      200,
    );
    expectError(await admin.delete(`/views/${view.id}`), 400);

    expect((await admin.delete(`/sections/${section.id}`)).status).toBe(204);
    expect((await admin.delete(`/groups/${group.id}`)).status).toBe(204);
    expect((await admin.get<ViewBody>(`/views/${view.id}`)).body.inUse).toBe(false);
    expect((await admin.delete(`/views/${view.id}`)).status).toBe(204);
  });
});
