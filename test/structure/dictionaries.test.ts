// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261130090000 } from '../../src/db/migrations/Migration20261130090000_dictionary_names.js';
import { SystemDataCategories, TbxDataCategories } from '../../src/modules/field/field.entity.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  dictionaryInput,
  type ErrorBody,
  expectError,
  getDictionary,
  grant,
  groupWith,
  insertBareConcepts,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  rows,
  type SectionBody,
  uniqueSuffix,
  updateDictionary,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const tenant = () => newTenant(t, sysadmin);

const list = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<DictionaryBody> & ErrorBody>(`/dictionaries${query(params)}`);

/** A second section in a dictionary (administrator). */
async function addSection(admin: RestClient, dictionaryId: number, name = `Section ${uniqueSuffix()}`) {
  const response = await admin.post<SectionBody>('/sections', { name, dictionaryId });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Assigns a permission scheme to a section through the partial update. */
async function assignSectionScheme(admin: RestClient, section: SectionBody, schemeId: number | null) {
  const current = await admin.get<SectionBody>(`/sections/${section.id}`);
  expect(current.status, current.text).toBe(200);
  const response = await admin.put<SectionBody>(`/sections/partial/${section.id}`, {
    permissionSchemeId: schemeId,
    version: current.body.version,
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.permissionSchemeId).toBe(schemeId);
  return response.body;
}

describe('create and get', () => {
  it('POST answers 201 with the dictionary and one section named like it; GET returns the same', async () => {
    const { admin, tenant: client } = await tenant();
    const name = `Glossary ${uniqueSuffix()}`;
    const response = await admin.post<DictionaryBody>('/dictionaries', {
      name,
      description: 'Words of the trade',
      sortIndex: 7,
    });
    expect(response.status, response.text).toBe(201);
    const dictionary = response.body;
    expect(dictionary).toMatchObject({
      name,
      description: 'Words of the trade',
      clientId: client.id,
      deleted: false,
      sortIndex: 7,
      emailRecipientId: null,
      languages: [],
      conceptFields: [],
      termFields: [],
      concepts: 0,
      hasDomains: false,
      domainPresentation: 'FLAT',
      layoutId: null,
      permissionSchemeId: null,
    });
    expect(dictionary.id).toEqual(expect.any(Number));
    expect(dictionary.version).toEqual(expect.any(Number));
    // The oid is always set: DICTIONARY_ADMIN@<oid> names the dictionary.
    expect(dictionary.oid).toMatch(/\S+/);
    expect(dictionary.created).toMatchObject({ name: 'admin', time: expect.any(Number) });
    expect(dictionary.changed).toMatchObject({ name: 'admin', time: expect.any(Number) });

    expect(dictionary.allSections).toHaveLength(1);
    const [section] = dictionary.allSections;
    expect(section).toMatchObject({
      name,
      dictionaryId: dictionary.id,
      clientId: client.id,
      numberOfConcepts: 0,
      deletable: false,
      deleted: false,
      viewId: null,
      permissionSchemeId: null,
    });
    expect(section!.oid).toMatch(/\S+/);
    expect(dictionary.sections).toEqual(dictionary.allSections);

    const read = await admin.get<DictionaryBody>(`/dictionaries/${dictionary.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(dictionary);

    // The section is a real section of the dictionary.
    const sections = await admin.get<PageBody<SectionBody>>(
      `/sections${query({ 'dictionary-id': dictionary.id })}`,
    );
    expect(sections.body.content.map((s) => [s.id, s.name])).toEqual([[section!.id, name]]);

    // The role that administers it names its oid.
    const roles = await admin.get<{ systemname: string }[]>('/roles');
    expect(roles.body.map((role) => role.systemname)).toContain(`DICTIONARY_ADMIN@${dictionary.oid}`);
  });

  it('format ID, SHORT and FULL on create and get', async () => {
    const { admin } = await tenant();
    const asId = await admin.post<DictionaryBody>(`/dictionaries?format=ID`, {
      name: `Id ${uniqueSuffix()}`,
      description: 'd',
    });
    expect(asId.status, asId.text).toBe(201);
    expect(asId.body).toEqual({ id: expect.any(Number) });

    const short = await admin.get<DictionaryBody>(`/dictionaries/${asId.body.id}?format=SHORT`);
    expect(short.status).toBe(200);
    expect(short.body).toEqual({ id: asId.body.id, name: expect.stringMatching(/^Id /), description: 'd' });

    const full = await admin.get<DictionaryBody>(`/dictionaries/${asId.body.id}?format=FULL`);
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
        'description',
        'sections',
        'allSections',
        'languages',
        'conceptFields',
        'termFields',
        'emailRecipientId',
        'sortIndex',
        'concepts',
        'hasDomains',
        'domainPresentation',
        'layoutId',
        'permissionSchemeId',
      ].sort(),
    );
    const byDefault = await admin.get<DictionaryBody>(`/dictionaries/${asId.body.id}`);
    expect(byDefault.body).toEqual(full.body);

    const listed = await list(admin, { format: 'ID' });
    expect(listed.body.content).toEqual([{ id: asId.body.id }]);
  });

  it('a missing or empty name is 400 and creates nothing; an unknown id is 404', async () => {
    const { admin } = await tenant();
    expectError(await admin.post('/dictionaries', { description: 'no name' }), 400);
    expectError(await admin.post('/dictionaries', { name: '   ' }), 400);
    expectError(await admin.get('/dictionaries/2000000000'), 404);
    const stored = await rows(t, 'select count(*)::int as n from dictionaries where description = ?', [
      'no name',
    ]);
    expect(stored).toEqual([{ n: 0 }]);
  });

  it('domainPresentation and emailRecipientId are kept; a user of another client is no recipient (400)', async () => {
    const { admin, tenant: client } = await tenant();
    const other = await tenant();
    const recipient = await loggedInUser(t, client);
    const stranger = await loggedInUser(t, other.tenant);

    const dictionary = await createDictionary(admin, {
      domainPresentation: 'HORIZONTAL',
      emailRecipientId: recipient.id,
    });
    expect(dictionary.domainPresentation).toBe('HORIZONTAL');
    expect(dictionary.emailRecipientId).toBe(recipient.id);

    expectError(
      await admin.post('/dictionaries', { name: `X ${uniqueSuffix()}`, emailRecipientId: stranger.id }),
      400,
    );
    expectError(
      await admin.post('/dictionaries', { name: `Y ${uniqueSuffix()}`, domainPresentation: 'ROUND' }),
      400,
    );
    expect((await list(admin)).body.totalElements).toBe(1);
  });

  it('permissionSchemeId must be a scheme of the client (400 on create and update)', async () => {
    const { admin } = await tenant();
    const other = await tenant();
    const foreign = await createScheme(other.admin, []);
    const own = await createScheme(admin, []);
    expectError(
      await admin.post('/dictionaries', { name: `S ${uniqueSuffix()}`, permissionSchemeId: foreign.id }),
      400,
    );
    expectError(
      await admin.post('/dictionaries', { name: `S ${uniqueSuffix()}`, permissionSchemeId: 2_000_000_000 }),
      400,
    );
    const dictionary = await createDictionary(admin, { permissionSchemeId: own.id });
    expect(dictionary.permissionSchemeId).toBe(own.id);
    expectError(await updateDictionary(admin, dictionary, { permissionSchemeId: foreign.id }), 400);
    expect(await getDictionary(admin, dictionary.id)).toEqual(dictionary);
    const cleared = await updateDictionary(admin, dictionary, { permissionSchemeId: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.permissionSchemeId).toBeNull();
  });

  it('dictionaries offer no partial update and no async delete', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const partial = await admin.put(`/dictionaries/partial/${dictionary.id}`, {
      description: 'patched',
      version: dictionary.version,
    });
    expect([404, 405]).toContain(partial.status);
    const asyncDelete = await admin.delete(`/dictionaries/async/${dictionary.id}`);
    expect([404, 405]).toContain(asyncDelete.status);
    expect(await getDictionary(admin, dictionary.id)).toEqual(dictionary);
  });

  it('names are unique per client ignoring case (422); another client may use the same name', async () => {
    const { admin } = await tenant();
    const other = await tenant();
    const name = `Shared ${uniqueSuffix()}`;
    const first = await createDictionary(admin, { name });

    expectError(await admin.post('/dictionaries', { name: name.toUpperCase() }), 422);
    expect((await list(admin)).body.totalElements).toBe(1);
    expect((await other.admin.post('/dictionaries', { name })).status).toBe(201);

    // On update as well, but a dictionary may keep its own name in another case.
    const second = await createDictionary(admin, { name: `Second ${uniqueSuffix()}` });
    expectError(await updateDictionary(admin, second, { name: name.toLowerCase() }), 422);
    const renamed = await updateDictionary(admin, first, { name: name.toLowerCase() });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe(name.toLowerCase());
  });
});

describe('list and rownum', () => {
  it('a client without dictionaries gets an empty Page (not an error)', async () => {
    const { admin } = await tenant();
    const empty = await list(admin);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({
      content: [],
      last: true,
      first: true,
      totalElements: 0,
      totalPages: 0,
      sort: 'sortIndex,ASC',
      numberOfElements: 0,
      size: 20,
      number: 0,
    });
    // A page past the end is empty as well.
    await createDictionary(admin);
    const past = await list(admin, { page: 3 });
    expect(past.status, past.text).toBe(200);
    expect(past.body).toMatchObject({ content: [], totalElements: 1, number: 3, numberOfElements: 0 });
  });

  it('answers a Page, filters by name (starts-with) and name-eq (ignoring case), sorts and pages', async () => {
    const { admin } = await tenant();
    const alpha = await createDictionary(admin, { name: 'Alpha', sortIndex: 3 });
    const alphabet = await createDictionary(admin, { name: 'Alphabet', sortIndex: 1 });
    const beta = await createDictionary(admin, { name: 'Beta', sortIndex: 2 });

    const all = await list(admin);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      totalElements: 3,
      totalPages: 1,
      numberOfElements: 3,
      size: 20,
      number: 0,
      first: true,
      last: true,
    });
    // Default order: sortIndex.
    expect(all.body.content.map((d) => d.id)).toEqual([alphabet.id, beta.id, alpha.id]);
    expect(all.body.content[0]).toEqual(await getDictionary(admin, alphabet.id));

    const startsWith = await list(admin, { name: 'ALP', sort: 'name,ASC' });
    expect(startsWith.body.content.map((d) => d.name)).toEqual(['Alpha', 'Alphabet']);
    expect(startsWith.body.totalElements).toBe(2);
    expect(startsWith.body.sort).toBe('name,ASC');

    const equals = await list(admin, { 'name-eq': 'ALPHA' });
    expect(equals.body.content.map((d) => d.id)).toEqual([alpha.id]);

    const desc = await list(admin, { sort: 'name,DESC' });
    expect(desc.body.content.map((d) => d.name)).toEqual(['Beta', 'Alphabet', 'Alpha']);
    expect(desc.body.sort).toBe('name,DESC');

    const page = await list(admin, { sort: 'name,ASC', size: 2, page: 1 });
    expect(page.body).toMatchObject({
      totalElements: 3,
      totalPages: 2,
      numberOfElements: 1,
      size: 2,
      number: 1,
      first: false,
      last: true,
    });
    expect(page.body.content.map((d) => d.name)).toEqual(['Beta']);

    expectError(await list(admin, { sort: 'nonsense' }), 400);
  });

  it('rownum is the 1-based position under the same filters and sort; 0 when not listed', async () => {
    const { admin } = await tenant();
    const a = await createDictionary(admin, { name: 'A dictionary' });
    const b = await createDictionary(admin, { name: 'B dictionary' });
    const c = await createDictionary(admin, { name: 'C dictionary' });

    const rownum = (id: number, params: Record<string, string>) =>
      admin.get<number>(`/dictionaries/rownum/${id}${query(params)}`);
    expect((await rownum(c.id, { sort: 'name,ASC' })).body).toBe(3);
    expect((await rownum(c.id, { sort: 'name,DESC' })).body).toBe(1);
    expect((await rownum(b.id, { sort: 'name,DESC' })).body).toBe(2);
    expect((await rownum(a.id, { sort: 'name,ASC', name: 'b' })).body).toBe(0);
    expect((await rownum(b.id, { sort: 'name,ASC', name: 'b' })).body).toBe(1);
    const missing = await rownum(2_000_000_000, {});
    expect(missing.status).toBe(200);
    expect(missing.body).toBe(0);
  });

  it('client_id: a system administrator lists another client; a client administrator gets nothing', async () => {
    const a = await tenant();
    const b = await tenant();
    const ofA = await createDictionary(a.admin, { name: `Of A ${uniqueSuffix()}` });
    const ofB = await createDictionary(b.admin, { name: `Of B ${uniqueSuffix()}` });

    const own = await list(a.admin);
    expect(own.body.content.map((d) => d.id)).toEqual([ofA.id]);

    const foreign = await list(a.admin, { client_id: b.tenant.id });
    expect(foreign.status).toBe(200);
    expect(foreign.body.totalElements).toBe(0);
    expect(foreign.body.content).toEqual([]);
    expect((await a.admin.get<number>(`/dictionaries/rownum/${ofB.id}?client_id=${b.tenant.id}`)).body).toBe(
      0,
    );

    const asSysadmin = await list(sysadmin, { client_id: b.tenant.id });
    expect(asSysadmin.status).toBe(200);
    expect(asSysadmin.body.content.map((d) => d.id)).toEqual([ofB.id]);
    expect(asSysadmin.body.content[0]).toMatchObject({ clientId: b.tenant.id, name: ofB.name });
    expect((await sysadmin.get<number>(`/dictionaries/rownum/${ofB.id}?client_id=${b.tenant.id}`)).body).toBe(
      1,
    );

    // Without client_id the system administrator lists its own client's dictionaries, not B's.
    const sysadminOwn = await list(sysadmin, { size: 500 });
    expect(sysadminOwn.status, sysadminOwn.text).toBe(200);
    expect(sysadminOwn.body.content.map((d) => d.id)).not.toContain(ofB.id);
    expect(sysadminOwn.body.content.map((d) => d.id)).not.toContain(ofA.id);
  });
});

/** Carries what a transaction read out of it, so that it rolls back. */
class RolledBack {
  constructor(readonly rows: { id: number; name: string; version: number }[]) {}
}

describe('unique names', () => {
  it('30 concurrent creates of one name (in any case) store one dictionary: one 201, the rest 422', async () => {
    const { admin, tenant: client } = await tenant();
    const name = `Raced ${uniqueSuffix()}`;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        admin.post<DictionaryBody>('/dictionaries', { name: i % 2 ? name.toUpperCase() : name }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(
      statuses.filter((status) => status === 201),
      statuses.join(),
    ).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) expectError(response, 422);
    const stored = await rows(
      t,
      'select id from dictionaries where client_id = ? and lower(name) = lower(?) and not deleted',
      [client.id, name],
    );
    expect(stored).toHaveLength(1);
  });

  it('a name is free again once its dictionary is deleted; renaming onto a live name is 422', async () => {
    const { admin } = await tenant();
    const first = await createDictionary(admin);
    const second = await createDictionary(admin);
    expectError(await updateDictionary(admin, second, { name: first.name.toLowerCase() }), 422);
    expect((await admin.delete(`/dictionaries/${first.id}`)).status).toBe(204);
    const again = await admin.post<DictionaryBody>('/dictionaries', { name: first.name });
    expect(again.status, again.text).toBe(201);
  });

  it('the migration keeps the oldest of live duplicates and numbers the later ones', async () => {
    const { tenant: client } = await tenant();
    const migration = new Migration20261130090000(t.orm.em.getDriver(), t.orm.config);
    await migration.up();
    const outcome = await t.orm.em
      .fork()
      .transactional(async (em) => {
        // A temporary table named like the real one comes first on the search path: the migration runs
        // on these rows only, and the transaction is rolled back.
        await em.execute(
          'create temporary table dictionaries (like public.dictionaries including defaults) on commit drop',
        );
        const long = 'L'.repeat(255);
        await em.execute(
          `insert into dictionaries (id, client_id, name, deleted, created_at, changed_at) values
             (1, ?, 'Alpha', false, now() - interval '3 days', now()),
             (2, ?, 'ALPHA', false, now() - interval '2 days', now()),
             (3, ?, 'alpha', false, now() - interval '1 day', now()),
             (4, ?, 'Alpha (2)', false, now(), now()),
             (5, ?, 'Alpha', true, now(), now()),
             (6, ?, ?, false, now(), now()),
             (7, ?, ?, false, now(), now())`,
          [client.id, client.id, client.id, client.id, client.id, client.id, long, client.id, long],
        );
        for (const sql of migration.getQueries()) await em.execute(String(sql));
        throw new RolledBack(
          await em.execute<{ id: number; name: string; version: number }[]>(
            'select id, name, version from dictionaries order by id',
          ),
        );
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(RolledBack);
    const renamed = (outcome as RolledBack).rows;
    expect(renamed).toEqual([
      { id: 1, name: 'Alpha', version: 1 },
      { id: 2, name: 'ALPHA (3)', version: 2 },
      { id: 3, name: 'alpha (4)', version: 2 },
      { id: 4, name: 'Alpha (2)', version: 1 },
      { id: 5, name: 'Alpha', version: 1 },
      { id: 6, name: 'L'.repeat(255), version: 1 },
      { id: 7, name: `${'L'.repeat(251)} (2)`, version: 2 },
    ]);
  });
});

describe('update', () => {
  it('PUT with the current version replaces the attributes and moves the version; stale or missing version is 409', async () => {
    const { admin, tenant: client } = await tenant();
    const recipient = await loggedInUser(t, client);
    const dictionary = await createDictionary(admin, { description: 'before', sortIndex: 4 });

    const updated = await updateDictionary(admin, dictionary, {
      name: `Renamed ${uniqueSuffix()}`,
      description: 'after',
      emailRecipientId: recipient.id,
      domainPresentation: 'HIERARCHICAL',
      sortIndex: 9,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      id: dictionary.id,
      oid: dictionary.oid,
      description: 'after',
      emailRecipientId: recipient.id,
      domainPresentation: 'HIERARCHICAL',
      sortIndex: 9,
    });
    expect(updated.body.name).toMatch(/^Renamed /);
    expect(updated.body.version).toBeGreaterThan(dictionary.version);
    expect(await getDictionary(admin, dictionary.id)).toEqual(updated.body);
    // The section keeps its own name: only a new dictionary's section is named like it.
    expect(updated.body.allSections.map((s) => s.name)).toEqual([dictionary.name]);

    // Stale version: 409 and nothing changes.
    const stale = await updateDictionary(admin, dictionary, { name: 'Stale', description: 'stale' });
    expectError(stale, 409);
    const { version: _omit, ...withoutVersion } = dictionaryInput(updated.body);
    expectError(
      await admin.put(`/dictionaries/${dictionary.id}`, { ...withoutVersion, description: 'no version' }),
      409,
    );
    expect(await getDictionary(admin, dictionary.id)).toEqual(updated.body);

    // Full update: attributes left out are erased (description, recipient) or reset (sortIndex, FLAT).
    const minimal = await admin.put<DictionaryBody>(`/dictionaries/${dictionary.id}`, {
      name: updated.body.name,
      version: updated.body.version,
    });
    expect(minimal.status, minimal.text).toBe(200);
    expect(minimal.body).toMatchObject({
      description: null,
      emailRecipientId: null,
      sortIndex: 0,
      domainPresentation: 'FLAT',
    });
  });

  it('every update raises the version by exactly one, with or without languages and fields', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });

    const attributes = await updateDictionary(admin, dictionary, { description: 'only an attribute' });
    expect(attributes.status, attributes.text).toBe(200);
    expect(attributes.body.version).toBe(dictionary.version + 1);

    const structure = await updateDictionary(admin, attributes.body, {
      description: 'and the structure',
      languages: [...dictionaryInput(attributes.body).languages, { code: 'isl' }],
      conceptFields: [{ name: 'Note', fieldType: 'SINGLELINE' }],
      termFields: [{ name: 'Usage', fieldType: 'MULTILINE' }],
    });
    expect(structure.status, structure.text).toBe(200);
    expect(structure.body.languages.map((l) => l.code)).toEqual(['eng', 'isl']);
    expect(structure.body.version).toBe(attributes.body.version + 1);

    const unchanged = await updateDictionary(admin, structure.body, {});
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.body.version).toBe(structure.body.version + 1);
    const [stored] = await rows<{ version: number }>(t, 'select version from dictionaries where id = ?', [
      dictionary.id,
    ]);
    expect(stored!.version).toBe(unchanged.body.version);
  });

  it('an unknown dictionary is 404 on update', async () => {
    const { admin } = await tenant();
    expectError(await admin.put('/dictionaries/2000000000', { name: 'Nothing', version: 1 }), 404);
  });
});

describe('delete', () => {
  it('DELETE answers 204 text/plain; afterwards 404, not listed, and include-deleted shows it to administrators only', async () => {
    const { admin, tenant: client } = await tenant();
    const reader = await loggedInUser(t, client);
    const keep = await createDictionary(admin, { name: `Keep ${uniqueSuffix()}` });
    const dictionary = await createDictionary(admin, { name: `Gone ${uniqueSuffix()}` });
    // Readable by named users before the delete (no scheme: all users read).
    expect((await reader.rest.get(`/dictionaries/${dictionary.id}`)).status).toBe(200);

    const deleted = await admin.delete(`/dictionaries/${dictionary.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(String(deleted.headers['content-type'])).toMatch(/^text\/plain/);
    expect(deleted.text).toBe('');

    expectError(await admin.get(`/dictionaries/${dictionary.id}`), 404);
    expect((await list(admin)).body.content.map((d) => d.id)).toEqual([keep.id]);
    expectError(await admin.delete(`/dictionaries/${dictionary.id}`), 404);
    expectError(await updateDictionary(admin, dictionary, { description: 'x' }), 404);

    const withDeleted = await admin.get<DictionaryBody>(
      `/dictionaries/${dictionary.id}?include-deleted=true`,
    );
    expect(withDeleted.status, withDeleted.text).toBe(200);
    expect(withDeleted.body).toMatchObject({ id: dictionary.id, deleted: true, name: dictionary.name });
    const listedWithDeleted = await list(admin, { 'include-deleted': true, sort: 'name,ASC' });
    expect(listedWithDeleted.body.content.map((d) => [d.id, d.deleted])).toEqual([
      [dictionary.id, true],
      [keep.id, false],
    ]);

    // include-deleted is honoured for administrators only.
    expectError(await reader.rest.get(`/dictionaries/${dictionary.id}?include-deleted=true`), 404);
    const readerList = await list(reader.rest, { 'include-deleted': true });
    expect(readerList.body.content.map((d) => d.id)).toEqual([keep.id]);

    // The name of a deleted dictionary stays stored.
    const stored = await rows<{ deleted: boolean }>(t, 'select deleted from dictionaries where id = ?', [
      dictionary.id,
    ]);
    expect(stored).toEqual([{ deleted: true }]);
  });
});

describe('concept counts, hasDomains', () => {
  it('concepts counts the live concepts of all sections; each section has its numberOfConcepts', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin);
    const first = dictionary.allSections[0]!;
    const second = await addSection(admin, dictionary.id, 'Second');

    await insertBareConcepts(t, { clientId: client.id, dictionaryId: dictionary.id, sectionId: first.id }, 3);
    const inSecond = await insertBareConcepts(
      t,
      { clientId: client.id, dictionaryId: dictionary.id, sectionId: second.id },
      2,
    );
    // A soft-deleted concept does not count.
    await rows(t, 'update concepts set deleted = true where id = ?', [inSecond[0]]);

    const read = await getDictionary(admin, dictionary.id);
    expect(read.concepts).toBe(4);
    const counts = Object.fromEntries(read.allSections.map((s) => [s.id, [s.numberOfConcepts, s.deletable]]));
    expect(counts).toEqual({ [first.id]: [3, false], [second.id]: [1, false] });

    // Another dictionary's concepts do not count.
    const other = await createDictionary(admin);
    expect(other.concepts).toBe(0);
    expect((await getDictionary(admin, other.id)).concepts).toBe(0);

    // Listed the same way.
    const listed = await list(admin, { 'name-eq': dictionary.name });
    expect(listed.body.content[0]!.concepts).toBe(4);
  });

  it('hasDomains is true while the dictionary has a live domain', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    expect(dictionary.hasDomains).toBe(false);

    const domain = await admin.post<{ id: number }>('/domains', {
      name: 'Physics',
      dictionaryId: dictionary.id,
    });
    expect(domain.status, domain.text).toBe(201);
    expect((await getDictionary(admin, dictionary.id)).hasDomains).toBe(true);
    expect((await getDictionary(admin, other.id)).hasDomains).toBe(false);

    expect((await admin.delete(`/domains/${domain.body.id}`)).status).toBe(204);
    expect((await getDictionary(admin, dictionary.id)).hasDomains).toBe(false);
  });
});

describe('who sees and changes a dictionary', () => {
  it('sections lists the sections the caller may read; allSections lists them all', async () => {
    const { admin, tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    const readers = await groupWith(admin, [user.id]);
    const outsiders = await groupWith(admin, []);
    const readScheme = await createScheme(admin, [grant(readers.id, ['DICT_READ'])]);
    const closedScheme = await createScheme(admin, [grant(outsiders.id, ['DICT_READ'])]);

    const dictionary = await createDictionary(admin);
    const open = dictionary.allSections[0]!;
    const closed = await addSection(admin, dictionary.id, 'Closed');
    await assignSectionScheme(admin, open, readScheme.id);
    await assignSectionScheme(admin, closed, closedScheme.id);

    const seen = await user.rest.get<DictionaryBody>(`/dictionaries/${dictionary.id}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.sections.map((s) => s.id)).toEqual([open.id]);
    expect(seen.body.allSections.map((s) => s.id).sort()).toEqual([open.id, closed.id].sort());
    expect(seen.body.sections[0]).toEqual(seen.body.allSections.find((s) => s.id === open.id));

    // Listed the same way.
    const listed = await list(user.rest);
    expect(listed.body.content.map((d) => d.id)).toEqual([dictionary.id]);
    expect(listed.body.content[0]!.sections.map((s) => s.id)).toEqual([open.id]);

    // The administrator reads every section.
    const asAdmin = await getDictionary(admin, dictionary.id);
    expect(asAdmin.sections.map((s) => s.id).sort()).toEqual([open.id, closed.id].sort());

    // Taking away the read grant of the open section hides the dictionary.
    await assignSectionScheme(admin, open, closedScheme.id);
    expectError(await user.rest.get(`/dictionaries/${dictionary.id}`), 404);
  });

  it('a user who may read no section gets 404 and does not see the dictionary in the list or rownum', async () => {
    const { admin, tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    const others = await groupWith(admin, []);
    const closed = await createScheme(admin, [grant(others.id, ['DICT_READ', 'DICT_UPDATE', 'DICT_DELETE'])]);
    const hidden = await createDictionary(admin, {
      name: `Hidden ${uniqueSuffix()}`,
      permissionSchemeId: closed.id,
    });
    const visible = await createDictionary(admin, { name: `Visible ${uniqueSuffix()}` });
    expect(hidden.permissionSchemeId).toBe(closed.id);

    expectError(await user.rest.get(`/dictionaries/${hidden.id}`), 404);
    const listed = await list(user.rest);
    expect(listed.body.content.map((d) => d.id)).toEqual([visible.id]);
    expect(listed.body.totalElements).toBe(1);
    expect((await user.rest.get<number>(`/dictionaries/rownum/${hidden.id}`)).body).toBe(0);
    expect((await user.rest.get<number>(`/dictionaries/rownum/${visible.id}`)).body).toBe(1);
    // Writes do not reveal it either.
    expectError(await updateDictionary(user.rest, hidden, { description: 'x' }), 404);
    expectError(await user.rest.delete(`/dictionaries/${hidden.id}`), 404);
    expect((await getDictionary(admin, hidden.id)).version).toBe(hidden.version);
  });

  it('ordinary users may read but not create, update or delete (403); DICT_UPDATE and DICT_DELETE grants allow it', async () => {
    const { admin, tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    const dictionary = await createDictionary(admin);

    expect((await user.rest.get(`/dictionaries/${dictionary.id}`)).status).toBe(200);
    expectError(await user.rest.post('/dictionaries', { name: `Mine ${uniqueSuffix()}` }), 403);
    expectError(await updateDictionary(user.rest, dictionary, { description: 'changed' }), 403);
    expectError(await user.rest.delete(`/dictionaries/${dictionary.id}`), 403);
    expect(await getDictionary(admin, dictionary.id)).toEqual(dictionary);
    expect((await list(admin)).body.totalElements).toBe(1);

    const editors = await groupWith(admin, [user.id]);
    const updating = await createScheme(admin, [grant(editors.id, ['DICT_READ', 'DICT_UPDATE'])]);
    const withScheme = await updateDictionary(admin, dictionary, { permissionSchemeId: updating.id });
    expect(withScheme.status, withScheme.text).toBe(200);

    const byEditor = await updateDictionary(user.rest, withScheme.body, { description: 'by the editor' });
    expect(byEditor.status, byEditor.text).toBe(200);
    expect(byEditor.body.description).toBe('by the editor');
    // DICT_UPDATE is not DICT_DELETE.
    expectError(await user.rest.delete(`/dictionaries/${dictionary.id}`), 403);

    const deleting = await createScheme(admin, [grant(editors.id, ['DICT_READ', 'DICT_DELETE'])]);
    const current = await getDictionary(admin, dictionary.id);
    expect((await updateDictionary(admin, current, { permissionSchemeId: deleting.id })).status).toBe(200);
    expect((await user.rest.delete(`/dictionaries/${dictionary.id}`)).status).toBe(204);
    expectError(await admin.get(`/dictionaries/${dictionary.id}`), 404);
  });

  it('DICTIONARY_ADMIN@<oid> reads every section and updates that dictionary, but creates none (403) and changes no other', async () => {
    const { admin, tenant: client } = await tenant();
    const others = await groupWith(admin, []);
    const closed = await createScheme(admin, [grant(others.id, ['DICT_READ'])]);
    const dictionary = await createDictionary(admin, { permissionSchemeId: closed.id });
    const second = await addSection(admin, dictionary.id, 'Second');
    const neighbour = await createDictionary(admin);
    const dictionaryAdmin = await loggedInUser(t, client, { roles: [`DICTIONARY_ADMIN@${dictionary.oid}`] });

    const read = await dictionaryAdmin.rest.get<DictionaryBody>(`/dictionaries/${dictionary.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.sections.map((s) => s.id).sort()).toEqual(
      [dictionary.allSections[0]!.id, second.id].sort(),
    );
    const updated = await updateDictionary(dictionaryAdmin.rest, read.body, {
      description: 'by its administrator',
      languages: [{ code: 'en' }],
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.description).toBe('by its administrator');
    expect(updated.body.languages.map((l) => l.code)).toEqual(['eng']);

    // Listed for its administrator although the scheme grants nothing to them.
    const listed = await list(dictionaryAdmin.rest);
    expect(listed.body.content.map((d) => d.id).sort()).toEqual([dictionary.id, neighbour.id].sort());

    expectError(await dictionaryAdmin.rest.post('/dictionaries', { name: `New ${uniqueSuffix()}` }), 403);
    // The neighbour is readable (no scheme) but not administered by this role.
    expectError(await updateDictionary(dictionaryAdmin.rest, neighbour, { description: 'x' }), 403);
    expect(await getDictionary(admin, neighbour.id)).toEqual(neighbour);
  });

  it('another client gets 404 everywhere, even with include-deleted; a system administrator reads it', async () => {
    const { admin } = await tenant();
    const stranger = await tenant();
    const dictionary = await createDictionary(admin);

    expectError(await stranger.admin.get(`/dictionaries/${dictionary.id}`), 404);
    expectError(await stranger.admin.get(`/dictionaries/${dictionary.id}?include-deleted=true`), 404);
    expectError(await updateDictionary(stranger.admin, dictionary, { description: 'x' }), 404);
    expectError(await stranger.admin.delete(`/dictionaries/${dictionary.id}`), 404);
    expect((await stranger.admin.get<number>(`/dictionaries/rownum/${dictionary.id}`)).body).toBe(0);
    expect(await getDictionary(admin, dictionary.id)).toEqual(dictionary);

    const asSysadmin = await sysadmin.get<DictionaryBody>(`/dictionaries/${dictionary.id}`);
    expect(asSysadmin.status).toBe(200);
    expect(asSysadmin.body.id).toBe(dictionary.id);

    // The stranger's own (empty) list does not show it.
    const strangerList = await list(stranger.admin);
    expect(strangerList.status, strangerList.text).toBe(200);
    expect(strangerList.body.totalElements).toBe(0);
  });

  it('without a token every dictionary call is 401', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const anonymous = new RestClient(t.app);
    expectError(await anonymous.get('/dictionaries'), 401);
    expectError(await anonymous.get(`/dictionaries/${dictionary.id}`), 401);
    expectError(await anonymous.get('/dictionaries/data-categories'), 401);
    expectError(await anonymous.post('/dictionaries', { name: 'x' }), 401);
  });
});

interface DataCategoryBody {
  key: string;
  name: string;
  id: string;
  fieldType: string;
  levels: string[];
  picklistItems: { name: string; tbxName: string; sortIndex: number }[];
}

describe('GET /dictionaries/data-categories', () => {
  it('lists every TBX and system category with levels, fieldType and picklist values', async () => {
    const { admin } = await tenant();
    const response = await admin.get<DataCategoryBody[]>('/dictionaries/data-categories');
    expect(response.status, response.text).toBe(200);
    const keys = response.body.map((category) => category.key);
    expect(keys.sort()).toEqual([...TbxDataCategories, ...SystemDataCategories].sort());
    expect(keys).not.toContain('GENERIC');

    const byKey = new Map(response.body.map((category) => [category.key, category]));
    expect(byKey.get('DEFINITION')).toEqual({
      key: 'DEFINITION',
      name: 'definition',
      id: 'definition',
      fieldType: 'MULTILINE',
      levels: ['CONCEPT', 'TERM'],
      picklistItems: [],
    });
    expect(byKey.get('CONCEPT_ORIGIN')!.levels).toEqual(['CONCEPT']);
    expect(byKey.get('PART_OF_SPEECH')!.levels).toEqual(['TERM']);
    const number = byKey.get('GRAMMATICAL_NUMBER')!;
    expect(number.fieldType).toBe('PICKLIST');
    expect(number.picklistItems.map((item) => item.tbxName)).toEqual([
      'singular',
      'plural',
      'dual',
      'mass',
      'otherNumber',
    ]);
    expect(number.picklistItems.map((item) => item.sortIndex)).toEqual([0, 1, 2, 3, 4]);
    for (const item of number.picklistItems) expect(item.name).toEqual(expect.any(String));
    expect(byKey.get('USAGE_STATUS')!.name).toBe('administrativeStatus');
    expect(byKey.get('CONID')).toMatchObject({ fieldType: 'INCREMENTAL', levels: ['CONCEPT'] });
    expect(byKey.get('TERM_ID')!.levels).toEqual(['TERM']);
    for (const category of response.body) {
      expect(category.levels.length, category.key).toBeGreaterThan(0);
      expect(category.name, category.key).toMatch(/\S/);
      expect(category.id, category.key).toMatch(/\S/);
    }
    // An ordinary user reads them too.
    const { tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    expect((await user.rest.get<DataCategoryBody[]>('/dictionaries/data-categories')).body).toEqual(
      response.body,
    );
  });
});
