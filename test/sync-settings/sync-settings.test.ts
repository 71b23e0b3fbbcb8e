// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { createGroup, systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  type DictionaryBody,
  expectError,
  groupWith,
  type InvocationResultBody,
  languageInput,
  loggedInUser,
  rows,
  uniqueSuffix,
  updateDictionary,
} from '../helpers/structure.js';
import {
  type Answer,
  createFilter,
  createSettings,
  expectRefused,
  listSettings,
  namesOf,
  type SyncSettingsBody,
  syncWorld,
} from './sync-settings-helpers.js';

let t: TestApp;
let sysadmin: RestClient;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t.close());

const world = () => syncWorld(t, sysadmin);

/** A full body for a setting of `w.dictionary`. */
const fullBody = (w: Awaited<ReturnType<typeof world>>, name = `Sync ${uniqueSuffix()}`) => ({
  name,
  description: 'To the CAT tool',
  active: true,
  dictionaryId: w.dictionary.id,
  languages: [
    { langCode: 'eng', regionCode: 'US', scriptCode: null },
    { langCode: 'jpn', regionCode: null, scriptCode: 'hira' },
  ],
  groups: [{ groupId: w.group.id }],
  filterId: w.filter.id,
});

describe('generic calls', () => {
  it('POST creates (201) with every attribute; GET reads the same object, with audit data', async () => {
    const w = await world();
    const created = await w.admin.post<SyncSettingsBody>('/sync-settings', fullBody(w, 'CAT export'));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'CAT export',
      description: 'To the CAT tool',
      active: true,
      dictionaryId: w.dictionary.id,
      clientId: w.tenant.id,
      deleted: false,
      oid: null,
      languages: [
        { langCode: 'eng', regionCode: 'US', scriptCode: null },
        { langCode: 'jpn', regionCode: null, scriptCode: 'hira' },
      ],
      groups: [{ groupId: w.group.id }],
      filter: {
        id: w.filter.id,
        name: w.filter.name,
        description: 'Approved only',
        dictionaryId: w.dictionary.id,
        deleted: false,
      },
    });
    expect(created.body.version).toEqual(expect.any(Number));
    expect(created.body.created).toMatchObject({ name: 'admin', time: expect.any(Number) });
    expect(Math.abs(created.body.changed.time - Date.now())).toBeLessThan(60_000);

    const read = await w.admin.get<SyncSettingsBody>(`/sync-settings/${created.body.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(created.body);

    const [row] = await rows<{ languages: unknown; groups: unknown; filter_id: number }>(
      t,
      'select languages, groups, filter_id from sync_settings where id = ?',
      [created.body.id],
    );
    expect(row).toEqual({
      languages: created.body.languages,
      groups: [{ groupId: w.group.id }],
      filter_id: w.filter.id,
    });
  });

  it('defaults: active true, description null, no languages, groups nor filter', async () => {
    const w = await world();
    const created = await w.admin.post<SyncSettingsBody>('/sync-settings', {
      name: 'Bare',
      dictionaryId: w.dictionary.id,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      active: true,
      description: null,
      languages: [],
      groups: [],
      filter: null,
    });
  });

  it('PUT replaces the whole object: missing attributes take their default', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, { ...fullBody(w), active: false });
    const replaced = await w.admin.put<SyncSettingsBody>(`/sync-settings/${settings.id}`, {
      name: 'Replaced',
      dictionaryId: w.dictionary.id,
      languages: [{ langCode: 'deu' }],
      version: settings.version,
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({
      name: 'Replaced',
      description: null,
      active: true,
      languages: [{ langCode: 'deu', regionCode: null, scriptCode: null }],
      groups: [],
      filter: null,
    });
    expect(replaced.body.version).toBeGreaterThan(settings.version);
    expect((await w.admin.get<SyncSettingsBody>(`/sync-settings/${settings.id}`)).body).toEqual(
      replaced.body,
    );
  });

  it('the object as read can be sent back with PUT (filter as an object): nothing changes, not even the version', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w));
    const again = await w.admin.put<SyncSettingsBody>(`/sync-settings/${settings.id}`, settings);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(settings);
    // The filter object as read, with a changed name, still means only its id.
    const renamed = await w.admin.put<SyncSettingsBody>(`/sync-settings/${settings.id}`, {
      ...settings,
      name: 'Sent back',
      filter: { ...settings.filter, name: 'ignored' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.version).toBeGreaterThan(settings.version);
    expect(renamed.body.filter).toEqual(settings.filter);
  });

  it('partial update changes only what is sent; null clears', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w, 'Partial'));
    const renamed = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
      name: 'Partial renamed',
      version: settings.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    const { name, version, changed, ...others } = renamed.body;
    const { name: n0, version: v0, changed: c0, ...othersBefore } = settings;
    expect(name).toBe('Partial renamed');
    expect(others).toEqual(othersBefore);

    const deactivated = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
      active: false,
      groups: [],
      version,
    });
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body).toMatchObject({
      name: 'Partial renamed',
      active: false,
      groups: [],
      languages: settings.languages,
      filter: { id: w.filter.id },
      description: 'To the CAT tool',
    });

    const cleared = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
      description: null,
      filterId: null,
      languages: null,
      version: deactivated.body.version,
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      name: 'Partial renamed',
      active: false,
      description: null,
      filter: null,
      languages: [],
    });
    const byObject = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
      filter: { id: w.filter.id },
      active: null,
      version: cleared.body.version,
    });
    expect(byObject.status, byObject.text).toBe(200);
    expect(byObject.body.filter).toMatchObject({ id: w.filter.id, name: w.filter.name });
    expect(byObject.body.active).toBe(true);
  });

  it('updates need the current version: missing or stale is 409 and nothing changes', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w, 'Versioned'));
    const path = `/sync-settings/${settings.id}`;
    expectError(await w.admin.put(path, { name: 'No version', dictionaryId: w.dictionary.id }), 409);
    expectError(await w.admin.put(`/sync-settings/partial/${settings.id}`, { name: 'No version' }), 409);
    const first = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
      description: 'first',
      version: settings.version,
    });
    expect(first.status, first.text).toBe(200);
    expectError(
      await w.admin.put(`/sync-settings/partial/${settings.id}`, {
        name: 'Stale',
        version: settings.version,
      }),
      409,
    );
    expectError(
      await w.admin.put(path, { name: 'Stale', dictionaryId: w.dictionary.id, version: settings.version }),
      409,
    );
    expect((await w.admin.get<SyncSettingsBody>(path)).body).toMatchObject({
      name: 'Versioned',
      description: 'first',
      version: first.body.version,
    });
  });

  it('DELETE answers 204 and soft-deletes: 404 after, include-deleted shows it to administrators', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w));
    const { rest: user } = await loggedInUser(t, w.tenant);
    const deleted = await w.admin.delete(`/sync-settings/${settings.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await w.admin.get(`/sync-settings/${settings.id}`), 404);
    expectError(await w.admin.delete(`/sync-settings/${settings.id}`), 404);
    expectError(
      await w.admin.put(`/sync-settings/partial/${settings.id}`, { name: 'x', version: settings.version }),
      404,
    );

    const withDeleted = await w.admin.get<SyncSettingsBody>(
      `/sync-settings/${settings.id}?include-deleted=true`,
    );
    expect(withDeleted.status, withDeleted.text).toBe(200);
    expect(withDeleted.body).toMatchObject({ id: settings.id, deleted: true, name: settings.name });
    expect((await listSettings(w.admin)).body.totalElements).toBe(0);
    const listed = await listSettings(w.admin, { 'include-deleted': true });
    expect(listed.body.content.map((s) => [s.id, s.deleted])).toEqual([[settings.id, true]]);

    // Honoured for administrators only.
    expectError(await user.get(`/sync-settings/${settings.id}?include-deleted=true`), 404);
    expect((await listSettings(user, { 'include-deleted': true })).body.totalElements).toBe(0);

    const [row] = await rows<{ deleted: boolean; deleted_by_id: number | null }>(
      t,
      'select deleted, deleted_by_id from sync_settings where id = ?',
      [settings.id],
    );
    expect(row).toEqual({ deleted: true, deleted_by_id: settings.created.id });
  });

  it('DELETE /async/{ids} answers the InvocationResult: true per deleted id, false for unknown ones', async () => {
    const w = await world();
    const one = await createSettings(w.admin, { dictionaryId: w.dictionary.id });
    const two = await createSettings(w.admin, { dictionaryId: w.dictionary.id });
    const kept = await createSettings(w.admin, { dictionaryId: w.dictionary.id });
    const response = await w.admin.delete<InvocationResultBody>(
      `/sync-settings/async/${one.id},${two.id},99999999`,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: { [one.id]: true, [two.id]: true, 99999999: false } });
    expectError(await w.admin.get(`/sync-settings/${one.id}`), 404);
    expectError(await w.admin.get(`/sync-settings/${two.id}`), 404);
    expect((await listSettings(w.admin)).body.content.map((s) => s.id)).toEqual([kept.id]);
    expectError(await w.admin.delete('/sync-settings/async/1,x'), 400);
  });
});

describe('find, formats and rownum', () => {
  it('answers a Page; filters by dictionary-id, name, name-eq and active; sorts by name, created, changed', async () => {
    const w = await world();
    const b = await createSettings(w.admin, { name: 'Beta', dictionaryId: w.dictionary.id });
    const a = await createSettings(w.admin, { name: 'Alpha', dictionaryId: w.dictionary.id, active: false });
    const c = await createSettings(w.admin, { name: 'Gamma', dictionaryId: w.other.id });

    const all = await listSettings(w.admin);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({
      content: expect.any(Array),
      last: true,
      first: true,
      totalElements: 3,
      totalPages: 1,
      sort: 'name,ASC',
      numberOfElements: 3,
      size: 20,
      number: 0,
    });
    expect(namesOf(all)).toEqual(['Alpha', 'Beta', 'Gamma']);

    const paged = await listSettings(w.admin, { size: 2, page: 1 });
    expect(paged.body).toMatchObject({
      first: false,
      last: true,
      totalPages: 2,
      numberOfElements: 1,
      number: 1,
    });
    expect(namesOf(paged)).toEqual(['Gamma']);

    expect(namesOf(await listSettings(w.admin, { 'dictionary-id': w.dictionary.id }))).toEqual([
      'Alpha',
      'Beta',
    ]);
    expect(namesOf(await listSettings(w.admin, { 'dictionary-id': w.other.id }))).toEqual(['Gamma']);
    expect(namesOf(await listSettings(w.admin, { name: 'al' }))).toEqual(['Alpha']);
    expect(namesOf(await listSettings(w.admin, { 'name-eq': 'BETA' }))).toEqual(['Beta']);
    expect(namesOf(await listSettings(w.admin, { name: '%' }))).toEqual([]);
    expect(namesOf(await listSettings(w.admin, { active: false }))).toEqual(['Alpha']);
    expect(namesOf(await listSettings(w.admin, { active: 'true' }))).toEqual(['Beta', 'Gamma']);

    const desc = await listSettings(w.admin, { sort: 'name,DESC' });
    expect(desc.body.sort).toBe('name,DESC');
    expect(namesOf(desc)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect((await listSettings(w.admin, { sort: 'created' })).body.content.map((s) => s.id)).toEqual([
      b.id,
      a.id,
      c.id,
    ]);
    const touched = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${b.id}`, {
      description: 'touched',
      version: b.version,
    });
    expect(touched.status).toBe(200);
    expect((await listSettings(w.admin, { sort: 'changed,DESC' })).body.content[0]!.id).toBe(b.id);
    expectError(await listSettings(w.admin, { sort: 'dictionaryId' }), 400);
  });

  it('formats: ID is the id, SHORT the basics, FULL and EDIT everything', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w, 'Formatted'));
    const get = (format: string) =>
      w.admin.get<Record<string, unknown>>(`/sync-settings/${settings.id}?format=${format}`);
    expect((await get('ID')).body).toEqual({ id: settings.id });
    expect((await get('SHORT')).body).toEqual({
      id: settings.id,
      name: 'Formatted',
      description: 'To the CAT tool',
      dictionaryId: w.dictionary.id,
      active: true,
    });
    expect((await get('FULL')).body).toEqual(settings);
    expect((await get('EDIT')).body).toEqual(settings);
    expect((await listSettings(w.admin, { format: 'ID' })).body.content).toEqual([{ id: settings.id }]);
    const created = await w.admin.post<Record<string, unknown>>('/sync-settings?format=SHORT', {
      name: 'Short answer',
      dictionaryId: w.dictionary.id,
    });
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['active', 'description', 'dictionaryId', 'id', 'name']);
  });

  it('rownum: 1-based position under the same filters and sort; 0 when not listed', async () => {
    const w = await world();
    const b = await createSettings(w.admin, { name: 'B', dictionaryId: w.dictionary.id });
    const a = await createSettings(w.admin, { name: 'A', dictionaryId: w.dictionary.id });
    const c = await createSettings(w.admin, { name: 'C', dictionaryId: w.other.id });
    const rownum = async (id: number, params = '') => {
      const response = await w.admin.get<number>(`/sync-settings/rownum/${id}${params}`);
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    expect(await rownum(a.id)).toBe(1);
    expect(await rownum(b.id)).toBe(2);
    expect(await rownum(c.id)).toBe(3);
    expect(await rownum(a.id, '?sort=name,DESC')).toBe(3);
    expect(await rownum(c.id, `?dictionary-id=${w.dictionary.id}`)).toBe(0);
    expect(await rownum(b.id, `?dictionary-id=${w.dictionary.id}`)).toBe(2);
    expect(await rownum(99999999)).toBe(0);
  });
});

describe('name', () => {
  it('is required and trimmed', async () => {
    const w = await world();
    expectError(await w.admin.post('/sync-settings', { dictionaryId: w.dictionary.id }), 400);
    expectError(await w.admin.post('/sync-settings', { name: '   ', dictionaryId: w.dictionary.id }), 400);
    const trimmed = await createSettings(w.admin, { name: '  Spaced  ', dictionaryId: w.dictionary.id });
    expect(trimmed.name).toBe('Spaced');
    expectError(
      await w.admin.put(`/sync-settings/partial/${trimmed.id}`, { name: null, version: trimmed.version }),
      400,
    );
  });

  it('is unique per client ignoring case (422), free again after deletion, free in other clients', async () => {
    const w = await world();
    const first = await createSettings(w.admin, { name: 'Nightly', dictionaryId: w.dictionary.id });
    // Another dictionary does not matter: names are unique in the client.
    expectRefused(
      await w.admin.post('/sync-settings', { name: ' NIGHTLY ', dictionaryId: w.other.id }),
      422,
      'UNPROCESSABLE',
      'NIGHTLY',
      'already exist',
    );
    const second = await createSettings(w.admin, { name: 'Weekly', dictionaryId: w.dictionary.id });
    expectRefused(
      await w.admin.put(`/sync-settings/partial/${second.id}`, { name: 'nightly', version: second.version }),
      422,
      'UNPROCESSABLE',
      'nightly',
    );
    expectRefused(
      await w.admin.put(`/sync-settings/${second.id}`, {
        name: 'Nightly',
        dictionaryId: w.dictionary.id,
        version: second.version,
      }),
      422,
      'UNPROCESSABLE',
    );
    // Its own name in another case is no clash.
    const recased = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${first.id}`, {
      name: 'NIGHTLY',
      version: first.version,
    });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body.name).toBe('NIGHTLY');

    expect((await w.admin.delete(`/sync-settings/${first.id}`)).status).toBe(204);
    const reused = await w.admin.post<SyncSettingsBody>('/sync-settings', {
      name: 'nightly',
      dictionaryId: w.dictionary.id,
    });
    expect(reused.status, reused.text).toBe(201);

    const elsewhere = await world();
    expect(
      (
        await elsewhere.admin.post('/sync-settings', {
          name: 'Nightly',
          dictionaryId: elsewhere.dictionary.id,
        })
      ).status,
    ).toBe(201);
  });
});

describe('dictionary', () => {
  it('must be a live dictionary of the client (404 otherwise)', async () => {
    const w = await world();
    const b = await world();
    expectRefused(
      await w.admin.post('/sync-settings', { name: 'Into B', dictionaryId: b.dictionary.id }),
      404,
      'NOT_FOUND',
      'Dictionary',
    );
    expectError(await w.admin.post('/sync-settings', { name: 'Nowhere', dictionaryId: 99999999 }), 404);
    const settings = await createSettings(w.admin, { dictionaryId: w.dictionary.id });
    expectError(
      await w.admin.put(`/sync-settings/partial/${settings.id}`, {
        dictionaryId: b.dictionary.id,
        version: settings.version,
      }),
      404,
    );
    const gone = await createDictionary(w.admin);
    expect((await w.admin.delete(`/dictionaries/${gone.id}`)).status).toBe(204);
    expectError(await w.admin.post('/sync-settings', { name: 'Gone', dictionaryId: gone.id }), 404);
    // A system administrator acting in their own client cannot name another client's dictionary either.
    expectError(await sysadmin.post('/sync-settings', { name: 'Sys', dictionaryId: w.dictionary.id }), 404);
    expect((await listSettings(w.admin)).body.totalElements).toBe(1);
  });

  it('moving to another dictionary re-checks the stored languages and filter', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w));
    const move = (body: Record<string, unknown>) =>
      w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${settings.id}`, {
        dictionaryId: w.other.id,
        version: settings.version,
        ...body,
      });
    expectRefused(await move({}), 400, 'BAD_REQUEST', 'eng');
    expectRefused(
      await move({ languages: [{ langCode: 'fra' }] }),
      400,
      'BAD_REQUEST',
      `Filter ${w.filter.id}`,
    );
    const moved = await move({ languages: [{ langCode: 'FRA' }], filterId: null });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      dictionaryId: w.other.id,
      languages: [{ langCode: 'fra', regionCode: null, scriptCode: null }],
      filter: null,
      groups: [{ groupId: w.group.id }],
    });
  });
});

describe('languages', () => {
  const post = (w: Awaited<ReturnType<typeof world>>, languages: unknown[]) =>
    w.admin.post<SyncSettingsBody>('/sync-settings', {
      name: `L ${uniqueSuffix()}`,
      dictionaryId: w.dictionary.id,
      languages,
    });

  it('are matched ignoring case and stored as the dictionary spells them; empty codes mean no variant', async () => {
    const w = await world();
    const created = await post(w, [
      { langCode: 'ENG', regionCode: 'us', scriptCode: 'LATN' },
      { langCode: 'eng', regionCode: 'gb', scriptCode: '' },
      { langCode: 'eng' },
      { langCode: 'deu', regionCode: null, scriptCode: null },
    ]);
    expect(created.status, created.text).toBe(201);
    expect(created.body.languages).toEqual([
      { langCode: 'eng', regionCode: 'US', scriptCode: 'latn' },
      { langCode: 'eng', regionCode: 'GB', scriptCode: null },
      { langCode: 'eng', regionCode: null, scriptCode: null },
      { langCode: 'deu', regionCode: null, scriptCode: null },
    ]);
  });

  it('a language, region or script the dictionary lacks is 400 naming the entry; nothing is stored', async () => {
    const w = await world();
    expectRefused(await post(w, [{ langCode: 'eng' }, { langCode: 'fra' }]), 400, 'BAD_REQUEST', '"fra"');
    expectRefused(
      await post(w, [{ langCode: 'eng', regionCode: 'CA' }]),
      400,
      'BAD_REQUEST',
      'eng;CA',
      'region',
    );
    // hira is a script of Japanese, not of English; US is a region, not a script.
    expectRefused(
      await post(w, [{ langCode: 'eng', scriptCode: 'hira' }]),
      400,
      'BAD_REQUEST',
      'hira',
      'script',
    );
    expectRefused(await post(w, [{ langCode: 'eng', scriptCode: 'US' }]), 400, 'BAD_REQUEST', '"US"');
    expectRefused(await post(w, [{ langCode: 'jpn', regionCode: 'US' }]), 400, 'BAD_REQUEST', 'jpn;US');
    expectError(await post(w, [{ langCode: '' }]), 400);
    expect((await listSettings(w.admin)).body.totalElements).toBe(0);

    const settings = await createSettings(w.admin, fullBody(w));
    expectRefused(
      await w.admin.put(`/sync-settings/partial/${settings.id}`, {
        languages: [{ langCode: 'ita' }],
        version: settings.version,
      }),
      400,
      'BAD_REQUEST',
      'ita',
    );
    expect((await w.admin.get<SyncSettingsBody>(`/sync-settings/${settings.id}`)).body.languages).toEqual(
      settings.languages,
    );
  });

  it('one language and variant combination is listed once (ignoring case)', async () => {
    const w = await world();
    expectRefused(
      await post(w, [
        { langCode: 'eng', regionCode: 'US' },
        { langCode: 'ENG', regionCode: 'us', scriptCode: '' },
      ]),
      400,
      'BAD_REQUEST',
      'listed twice',
    );
    expectRefused(
      await post(w, [{ langCode: 'deu' }, { langCode: 'deu', regionCode: null }]),
      400,
      'BAD_REQUEST',
      'deu',
    );
  });

  it('a deleted language or variant of the dictionary is refused', async () => {
    const w = await world();
    // Keep English without its GB region, drop German.
    const current = (await w.admin.get<DictionaryBody>(`/dictionaries/${w.dictionary.id}`)).body;
    const [english, japanese] = ['eng', 'jpn'].map((code) =>
      languageInput(current.languages.find((l) => l.code === code)!),
    );
    const changed = await updateDictionary(w.admin, current, {
      languages: [{ ...english!, variants: english!.variants.filter((v) => v.code !== 'GB') }, japanese],
    });
    expect(changed.status, changed.text).toBe(200);
    expectRefused(await post(w, [{ langCode: 'eng', regionCode: 'GB' }]), 400, 'BAD_REQUEST', 'GB');
    expectRefused(await post(w, [{ langCode: 'deu' }]), 400, 'BAD_REQUEST', 'deu');
    expect((await post(w, [{ langCode: 'eng', regionCode: 'US' }])).status).toBe(201);
  });
});

describe('groups', () => {
  const post = (w: Awaited<ReturnType<typeof world>>, groups: unknown[]) =>
    w.admin.post<SyncSettingsBody>('/sync-settings', {
      name: `G ${uniqueSuffix()}`,
      dictionaryId: w.dictionary.id,
      groups,
    });

  it('live groups of the client, system groups All users and Guests included', async () => {
    const w = await world();
    const system = await systemGroups(w.admin);
    const created = await post(w, [
      { groupId: w.group.id },
      { groupId: system.ALL_USERS.id },
      { groupId: system.GUEST.id },
    ]);
    expect(created.status, created.text).toBe(201);
    expect(created.body.groups).toEqual([
      { groupId: w.group.id },
      { groupId: system.ALL_USERS.id },
      { groupId: system.GUEST.id },
    ]);
  });

  it("unknown, deleted, Owner and other clients' groups are 400 naming the id; duplicates are 400", async () => {
    const w = await world();
    const b = await world();
    const system = await systemGroups(w.admin);
    const gone = await createGroup(w.admin);
    expect((await w.admin.delete(`/groups/${gone.id}`)).status).toBe(204);
    for (const bad of [99999999, gone.id, b.group.id, system.OWNER.id]) {
      expectRefused(
        await post(w, [{ groupId: w.group.id }, { groupId: bad }]),
        400,
        'BAD_REQUEST',
        String(bad),
      );
    }
    expectRefused(
      await post(w, [{ groupId: w.group.id }, { groupId: w.group.id }]),
      400,
      'BAD_REQUEST',
      `Group ${w.group.id} is listed twice`,
    );
    expect((await listSettings(w.admin)).body.totalElements).toBe(0);
  });
});

describe('filter', () => {
  it('must be a live filter of the same dictionary of the client (400 otherwise)', async () => {
    const w = await world();
    const b = await world();
    const ofOther = await createFilter(w.admin, w.other.id);
    const gone = await createFilter(w.admin, w.dictionary.id);
    expect((await w.admin.delete(`/filters/${gone.id}`)).status).toBe(204);
    for (const bad of [ofOther.id, b.filter.id, gone.id, 99999999]) {
      expectRefused(
        await w.admin.post('/sync-settings', {
          name: `F ${uniqueSuffix()}`,
          dictionaryId: w.dictionary.id,
          filterId: bad,
        }),
        400,
        'BAD_REQUEST',
        `Filter ${bad}`,
      );
    }
    expectRefused(
      await w.admin.post('/sync-settings', {
        name: 'Both',
        dictionaryId: w.dictionary.id,
        filterId: w.filter.id,
        filter: { id: ofOther.id },
      }),
      400,
      'BAD_REQUEST',
      'filterId',
    );
    expect((await listSettings(w.admin)).body.totalElements).toBe(0);
    const byObject = await createSettings(w.admin, {
      dictionaryId: w.dictionary.id,
      filter: { id: w.filter.id },
    });
    expect(byObject.filter).toMatchObject({ id: w.filter.id, name: w.filter.name });
  });

  it('readers see a filter they may not see only by its id; a later deleted filter is marked deleted', async () => {
    const w = await world();
    const reader = await loggedInUser(t, w.tenant);
    const hidden = await createFilter(w.admin, w.dictionary.id, {
      visibility: 'PRIVATE',
      name: 'Admin only',
    });
    const withHidden = await createSettings(w.admin, { dictionaryId: w.dictionary.id, filterId: hidden.id });
    const withPublic = await createSettings(w.admin, {
      dictionaryId: w.dictionary.id,
      filterId: w.filter.id,
    });

    expect(
      (await w.admin.get<SyncSettingsBody>(`/sync-settings/${withHidden.id}`)).body.filter,
    ).toMatchObject({
      id: hidden.id,
      name: 'Admin only',
    });
    expect((await reader.rest.get<SyncSettingsBody>(`/sync-settings/${withHidden.id}`)).body.filter).toEqual({
      id: hidden.id,
    });
    expect(
      (await reader.rest.get<SyncSettingsBody>(`/sync-settings/${withPublic.id}`)).body.filter,
    ).toMatchObject({
      id: w.filter.id,
      name: w.filter.name,
    });

    expect((await w.admin.delete(`/filters/${w.filter.id}`)).status).toBe(204);
    expect(
      (await w.admin.get<SyncSettingsBody>(`/sync-settings/${withPublic.id}`)).body.filter,
    ).toMatchObject({
      id: w.filter.id,
      deleted: true,
    });
    // A full update must then drop it (or name a live filter).
    const stale = await w.admin.get<SyncSettingsBody>(`/sync-settings/${withPublic.id}`);
    expectRefused(
      await w.admin.put(`/sync-settings/${withPublic.id}`, stale.body),
      400,
      'BAD_REQUEST',
      `Filter ${w.filter.id}`,
    );
    const renamed = await w.admin.put<SyncSettingsBody>(`/sync-settings/partial/${withPublic.id}`, {
      name: 'Still fine',
      version: stale.body.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
  });
});

describe('who may', () => {
  it('other users of the client read but never write (403); dictionary administrators neither', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w, 'Shared'));
    const { rest: user } = await loggedInUser(t, w.tenant);
    const { rest: dictAdmin } = await loggedInUser(t, w.tenant, {
      roles: [`DICTIONARY_ADMIN@${w.dictionary.oid}`],
    });

    const read = await user.get<SyncSettingsBody>(`/sync-settings/${settings.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ name: 'Shared', languages: settings.languages });
    expect(namesOf(await listSettings(user))).toEqual(['Shared']);

    for (const caller of [user, dictAdmin]) {
      expectError(await caller.post('/sync-settings', { name: 'Mine', dictionaryId: w.dictionary.id }), 403);
      expectError(await caller.post('/sync-settings', { name: '' }), 403);
      expectError(await caller.put(`/sync-settings/${settings.id}`, { ...settings, name: 'Changed' }), 403);
      expectError(
        await caller.put(`/sync-settings/partial/${settings.id}`, {
          name: 'Changed',
          version: settings.version,
        }),
        403,
      );
      expectError(await caller.delete(`/sync-settings/${settings.id}`), 403);
      expectError(await caller.delete(`/sync-settings/async/${settings.id}`), 403);
    }
    expect((await w.admin.get<SyncSettingsBody>(`/sync-settings/${settings.id}`)).body).toEqual(settings);
    expect((await listSettings(w.admin)).body.totalElements).toBe(1);
  });

  it('a system administrator acting in the client manages its settings', async () => {
    const w = await world();
    const acting = await loginSysadmin(t.app);
    const switched = await acting.post('/switch-client', { client_id: w.tenant.id });
    expect(switched.status, switched.text).toBe(200);
    const created = await acting.post<SyncSettingsBody>('/sync-settings', fullBody(w, 'By sysadmin'));
    expect(created.status, created.text).toBe(201);
    expect(created.body.clientId).toBe(w.tenant.id);
    expect((await w.admin.get<SyncSettingsBody>(`/sync-settings/${created.body.id}`)).body.name).toBe(
      'By sysadmin',
    );
    expect((await acting.delete(`/sync-settings/${created.body.id}`)).status).toBe(204);
  });

  it('readers see only settings of dictionaries they may read (404, not listed, rownum 0)', async () => {
    const w = await world();
    const insider = await loggedInUser(t, w.tenant);
    const outsider = await loggedInUser(t, w.tenant);
    const group = await groupWith(w.admin, [insider.id]);
    const scheme = await w.admin.post<{ id: number }>('/permissionschemes', {
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
    const closed = await createDictionary(w.admin, {
      permissionSchemeId: scheme.body.id,
      languages: [{ code: 'eng' }],
    });
    const open = await createSettings(w.admin, { name: 'Open', dictionaryId: w.dictionary.id });
    const secret = await createSettings(w.admin, { name: 'Secret', dictionaryId: closed.id });

    expect((await insider.rest.get(`/sync-settings/${secret.id}`)).status).toBe(200);
    expect(namesOf(await listSettings(insider.rest))).toEqual(['Open', 'Secret']);
    expectRefused(
      await outsider.rest.get(`/sync-settings/${secret.id}`),
      404,
      'NOT_FOUND',
      'Synchronization settings',
    );
    expect(namesOf(await listSettings(outsider.rest))).toEqual(['Open']);
    expect((await listSettings(outsider.rest, { 'dictionary-id': closed.id })).body.totalElements).toBe(0);
    expect((await outsider.rest.get<number>(`/sync-settings/rownum/${secret.id}`)).body).toBe(0);
    expect((await outsider.rest.get<number>(`/sync-settings/rownum/${open.id}`)).body).toBe(1);
    expect(namesOf(await listSettings(w.admin))).toEqual(['Open', 'Secret']);
  });

  it('guests read none (403)', async () => {
    const w = await world();
    await createSettings(w.admin, { dictionaryId: w.dictionary.id });
    const enabled = await w.admin.put('/users/guest', {
      enabled: true,
      username: 'guest',
      password: 'guest-pass-1',
      loginMethod: 'NORMAL',
      enableQuickFilters: true,
      enableSearchModes: true,
      enableCommenting: true,
    });
    expect(enabled.status, enabled.text).toBe(200);
    const guest = await loginRest(t.app, 'guest', 'guest-pass-1', w.tenant.loginName);
    expectError(await listSettings(guest), 403);
  });

  it("another client's settings are 404 for every call and never listed", async () => {
    const a = await world();
    const b = await world();
    const settings = await createSettings(b.admin, fullBody(b));
    expectError(await a.admin.get(`/sync-settings/${settings.id}`), 404);
    expectError(await a.admin.get(`/sync-settings/${settings.id}?include-deleted=true`), 404);
    expectError(
      await a.admin.put(`/sync-settings/${settings.id}`, { ...settings, dictionaryId: a.dictionary.id }),
      404,
    );
    expectError(
      await a.admin.put(`/sync-settings/partial/${settings.id}`, { name: 'x', version: settings.version }),
      404,
    );
    expectError(await a.admin.delete(`/sync-settings/${settings.id}`), 404);
    const bulk = await a.admin.delete<InvocationResultBody>(`/sync-settings/async/${settings.id}`);
    expect(bulk.body.result).toEqual({ [settings.id]: false });
    expect((await listSettings(a.admin, { client_id: b.tenant.id })).body.totalElements).toBe(0);
    expect((await listSettings(a.admin, { 'dictionary-id': b.dictionary.id })).body.totalElements).toBe(0);
    expect((await a.admin.get<number>(`/sync-settings/rownum/${settings.id}`)).body).toBe(0);
    expect((await b.admin.get<SyncSettingsBody>(`/sync-settings/${settings.id}`)).body).toEqual(settings);
  });

  it('no token is 401', async () => {
    const w = await world();
    const anonymous = await fetch(`${base}/api/v4/sync-settings/`);
    expect(anonymous.status).toBe(401);
    expect((await w.admin.get('/sync-settings')).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('publishes the generic calls under /sync-settings, tagged "sync settings"', async () => {
    const document = (await (await fetch(`${base}/api/v4/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>;
    };
    const calls = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/sync-settings'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(calls).toEqual([
      'DELETE /sync-settings/async/{ids}',
      'DELETE /sync-settings/{id}',
      'GET /sync-settings',
      'GET /sync-settings/rownum/{id}',
      'GET /sync-settings/{id}',
      'POST /sync-settings',
      'PUT /sync-settings/partial/{id}',
      'PUT /sync-settings/{id}',
    ]);
    expect(document.paths['/sync-settings']!.get!.tags).toEqual(['sync settings']);
    expect(Object.keys(document.paths['/sync-settings']!.post!.responses)).toContain('201');
    expect(Object.keys(document.paths['/sync-settings/{id}']!.delete!.responses)).toContain('204');
  });
});

describe('tRPC', () => {
  it('syncSettings.list at /trpc answers the same page as REST', async () => {
    const w = await world();
    const settings = await createSettings(w.admin, fullBody(w, 'Over tRPC'));
    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': w.admin.token ?? '' } })],
    });
    const page = await trpc.syncSettings.list.query({ 'dictionary-id': w.dictionary.id });
    const rest: Answer<{ content: SyncSettingsBody[] }> = await listSettings(w.admin, {
      'dictionary-id': w.dictionary.id,
    });
    expect(page).toEqual(rest.body);
    expect(page.content).toEqual([settings]);
    const error = await trpc.syncSettings.get.query({ id: 99999999 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('NOT_FOUND');
  });
});
