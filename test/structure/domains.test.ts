import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  type DomainBody,
  type ErrorBody,
  expectError,
  getDictionary,
  grant,
  groupWith,
  type InvocationResultBody,
  insertBareConcepts,
  linkConceptsToDomain,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  rows,
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

async function addDomain(
  caller: RestClient,
  dictionaryId: number,
  name: string,
  parentDomainId?: number,
  extra: Record<string, unknown> = {},
) {
  const response = await caller.post<DomainBody>('/domains', {
    name,
    dictionaryId,
    parentDomainId,
    ...extra,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const getDomain = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.get<DomainBody & ErrorBody>(`/domains/${id}${query(params)}`);

const listDomains = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<DomainBody> & ErrorBody>(`/domains${query(params)}`);

async function patchDomain(caller: RestClient, id: number, body: Record<string, unknown>) {
  const current = await getDomain(caller, id);
  expect(current.status, current.text).toBe(200);
  return caller.put<DomainBody & ErrorBody>(`/domains/partial/${id}`, {
    ...body,
    version: current.body.version,
  });
}

/** A tree: Science > Physics > Optics, Science > Chemistry; and Art. */
async function tree(caller: RestClient, dictionary: DictionaryBody) {
  const science = await addDomain(caller, dictionary.id, 'Science');
  const physics = await addDomain(caller, dictionary.id, 'Physics', science.id);
  const optics = await addDomain(caller, dictionary.id, 'Optics', physics.id);
  const chemistry = await addDomain(caller, dictionary.id, 'Chemistry', science.id);
  const art = await addDomain(caller, dictionary.id, 'Art');
  return { science, physics, optics, chemistry, art };
}

describe('generic calls', () => {
  it('dictionary-id is required for the list and rownum (400)', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const domain = await addDomain(admin, dictionary.id, 'Science');
    expectError(await listDomains(admin), 400);
    expectError(await admin.get(`/domains/rownum/${domain.id}`), 400);
    expectError(await listDomains(admin, { 'dictionary-id': 'abc' }), 400);
    const listed = await listDomains(admin, { 'dictionary-id': dictionary.id });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.content.map((d) => d.id)).toEqual([domain.id]);
  });

  it('create with parentDomainId; parents list their children; list, name filters, parent-id, rownum', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    const { science, physics, optics, chemistry, art } = await tree(admin, dictionary);
    await addDomain(admin, other.id, 'Elsewhere');

    expect(science).toMatchObject({
      name: 'Science',
      dictionaryId: dictionary.id,
      clientId: client.id,
      parentDomainId: null,
      numberOfConcepts: 0,
      children: [],
      deleted: false,
      sortIndex: 0,
      version: expect.any(Number),
    });
    expect(science.oid).toMatch(/\S+/);
    expect(physics.parentDomainId).toBe(science.id);
    expect(optics.parentDomainId).toBe(physics.id);

    expect((await getDomain(admin, science.id)).body.children.sort()).toEqual(
      [physics.id, chemistry.id].sort(),
    );
    expect((await getDomain(admin, physics.id)).body.children).toEqual([optics.id]);
    expect((await getDomain(admin, optics.id)).body.children).toEqual([]);

    const all = await listDomains(admin, { 'dictionary-id': dictionary.id });
    expect(all.status, all.text).toBe(200);
    // Default order: name.
    expect(all.body.content.map((d) => d.name)).toEqual(['Art', 'Chemistry', 'Optics', 'Physics', 'Science']);
    expect(all.body.totalElements).toBe(5);
    expect(all.body.content.find((d) => d.id === science.id)!.children.sort()).toEqual(
      [physics.id, chemistry.id].sort(),
    );
    const children = await listDomains(admin, { 'dictionary-id': dictionary.id, 'parent-id': science.id });
    expect(children.body.content.map((d) => d.id)).toEqual([chemistry.id, physics.id]);
    expect(
      (await listDomains(admin, { 'dictionary-id': dictionary.id, name: 'p' })).body.content.map((d) => d.id),
    ).toEqual([physics.id]);
    expect(
      (await listDomains(admin, { 'dictionary-id': dictionary.id, 'name-eq': 'ART' })).body.content.map(
        (d) => d.id,
      ),
    ).toEqual([art.id]);
    expect(
      (await admin.get<number>(`/domains/rownum/${physics.id}?dictionary-id=${dictionary.id}`)).body,
    ).toBe(4);
    expect((await admin.get<number>(`/domains/rownum/${physics.id}?dictionary-id=${other.id}`)).body).toBe(0);
  });

  it('update and partial update need the version (409); a domain cannot move to another dictionary (400)', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    const { science, physics } = await tree(admin, dictionary);

    expectError(await admin.put(`/domains/${physics.id}`, { name: 'x', dictionaryId: dictionary.id }), 409);
    expectError(
      await admin.put(`/domains/partial/${physics.id}`, { name: 'x', version: physics.version + 5 }),
      409,
    );
    const renamed = await patchDomain(admin, physics.id, { name: 'Physical sciences' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Physical sciences', parentDomainId: science.id });
    expect(renamed.body.version).toBeGreaterThan(physics.version);

    // The full update erases a parent left out.
    const full = await admin.put<DomainBody>(`/domains/${physics.id}`, {
      name: 'Physics',
      dictionaryId: dictionary.id,
      version: renamed.body.version,
    });
    expect(full.status, full.text).toBe(200);
    expect(full.body.parentDomainId).toBeNull();
    expect((await getDomain(admin, science.id)).body.children).not.toContain(physics.id);

    expectError(await patchDomain(admin, physics.id, { dictionaryId: other.id }), 400);
    expect((await getDomain(admin, physics.id)).body.dictionaryId).toBe(dictionary.id);
  });
});

describe('the tree', () => {
  it('no cycles: a domain cannot be its own parent or be placed below one of its descendants (400)', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const { science, physics, optics, art } = await tree(admin, dictionary);

    expectError(await patchDomain(admin, science.id, { parentDomainId: science.id }), 400);
    expectError(await patchDomain(admin, science.id, { parentDomainId: physics.id }), 400);
    expectError(await patchDomain(admin, science.id, { parentDomainId: optics.id }), 400);
    expectError(await patchDomain(admin, physics.id, { parentDomainId: optics.id }), 400);
    expect((await getDomain(admin, science.id)).body.parentDomainId).toBeNull();
    expect((await getDomain(admin, physics.id)).body.parentDomainId).toBe(science.id);

    // Moving within the tree is fine.
    const moved = await patchDomain(admin, physics.id, { parentDomainId: art.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.parentDomainId).toBe(art.id);
    expect((await getDomain(admin, art.id)).body.children).toEqual([physics.id]);
    expect((await getDomain(admin, science.id)).body.children).not.toContain(physics.id);
    // Now science may go below optics? No: optics is below physics, below art; science is not an ancestor.
    const deep = await patchDomain(admin, science.id, { parentDomainId: optics.id });
    expect(deep.status, deep.text).toBe(200);
  });

  it('a parent from another dictionary or an unknown parent is 400', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    const foreign = await addDomain(admin, other.id, 'Foreign');
    const own = await addDomain(admin, dictionary.id, 'Own');

    expectError(
      await admin.post('/domains', { name: 'x', dictionaryId: dictionary.id, parentDomainId: foreign.id }),
      400,
    );
    expectError(
      await admin.post('/domains', { name: 'x', dictionaryId: dictionary.id, parentDomainId: 2_000_000_000 }),
      400,
    );
    expectError(await patchDomain(admin, own.id, { parentDomainId: foreign.id }), 400);
    expect((await listDomains(admin, { 'dictionary-id': dictionary.id })).body.totalElements).toBe(1);
    expect((await getDomain(admin, own.id)).body.parentDomainId).toBeNull();

    // A deleted domain is no parent either.
    const gone = await addDomain(admin, dictionary.id, 'Gone');
    expect((await admin.delete(`/domains/${gone.id}`)).status).toBe(204);
    expectError(
      await admin.post('/domains', { name: 'x', dictionaryId: dictionary.id, parentDomainId: gone.id }),
      400,
    );
  });

  it('a domain with subdomains cannot be deleted (400); a leaf can (204 text/plain)', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const { science, physics, optics, chemistry } = await tree(admin, dictionary);

    expectError(await admin.delete(`/domains/${science.id}`), 400);
    expectError(await admin.delete(`/domains/${physics.id}`), 400);
    const leaf = await admin.delete(`/domains/${optics.id}`);
    expect(leaf.status, leaf.text).toBe(204);
    expect(String(leaf.headers['content-type'])).toMatch(/^text\/plain/);
    expectError(await getDomain(admin, optics.id), 404);
    expect((await getDomain(admin, optics.id, { 'include-deleted': true })).body).toMatchObject({
      deleted: true,
    });
    expect((await getDomain(admin, physics.id)).body.children).toEqual([]);

    // Deleted children do not block the parent.
    expect((await admin.delete(`/domains/${physics.id}`)).status).toBe(204);
    expectError(await admin.delete(`/domains/${science.id}`), 400);
    expect((await admin.delete(`/domains/${chemistry.id}`)).status).toBe(204);
    expect((await admin.delete(`/domains/${science.id}`)).status).toBe(204);
    expect(
      (await listDomains(admin, { 'dictionary-id': dictionary.id })).body.content.map((d) => d.name),
    ).toEqual(['Art']);
  });

  it('DELETE /domains/async/{ids} reports each domain', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const { science, art, optics } = await tree(admin, dictionary);
    const response = await admin.delete<InvocationResultBody>(
      `/domains/async/${science.id},${art.id},${optics.id}`,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: { [science.id]: false, [art.id]: true, [optics.id]: true } });
    expect(
      (await listDomains(admin, { 'dictionary-id': dictionary.id })).body.content.map((d) => d.name),
    ).toEqual(['Chemistry', 'Physics', 'Science']);
  });

  it('numberOfConcepts counts the live concepts linked to the domain', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const { science, physics } = await tree(admin, dictionary);
    const concepts = await insertBareConcepts(
      t,
      {
        clientId: dictionary.clientId,
        dictionaryId: dictionary.id,
        sectionId: dictionary.allSections[0]!.id,
      },
      3,
    );
    await linkConceptsToDomain(t, concepts, physics.id);
    await linkConceptsToDomain(t, [concepts[0]!], science.id);
    await rows(t, 'update concepts set deleted = true where id = ?', [concepts[2]]);

    expect((await getDomain(admin, physics.id)).body.numberOfConcepts).toBe(2);
    expect((await getDomain(admin, science.id)).body.numberOfConcepts).toBe(1);
    const listed = await listDomains(admin, { 'dictionary-id': dictionary.id });
    expect(Object.fromEntries(listed.body.content.map((d) => [d.name, d.numberOfConcepts]))).toEqual({
      Art: 0,
      Chemistry: 0,
      Optics: 0,
      Physics: 2,
      Science: 1,
    });
  });
});

describe('domain config', () => {
  it('GET is FLAT by default; POST HIERARCHICAL then GET answers it, and the dictionary shows it', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const initial = await admin.get<{ presentation: string }>(`/domains/${dictionary.id}/config`);
    expect(initial.status, initial.text).toBe(200);
    expect(initial.body).toEqual({ presentation: 'FLAT' });

    const set = await admin.post<{ presentation: string }>(`/domains/${dictionary.id}/config`, {
      presentation: 'HIERARCHICAL',
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ presentation: 'HIERARCHICAL' });
    expect((await admin.get(`/domains/${dictionary.id}/config`)).body).toEqual({
      presentation: 'HIERARCHICAL',
    });
    expect((await getDictionary(admin, dictionary.id)).domainPresentation).toBe('HIERARCHICAL');

    expect(
      (await admin.post(`/domains/${dictionary.id}/config`, { presentation: 'HORIZONTAL' })).body,
    ).toEqual({
      presentation: 'HORIZONTAL',
    });
    expectError(await admin.post(`/domains/${dictionary.id}/config`, { presentation: 'DIAGONAL' }), 400);
    expectError(await admin.post(`/domains/${dictionary.id}/config`, {}), 400);
    expect((await admin.get(`/domains/${dictionary.id}/config`)).body).toEqual({
      presentation: 'HORIZONTAL',
    });
    expectError(await admin.get('/domains/2000000000/config'), 404);
  });

  it('the dictionary has hasDomains once a domain exists', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    expect(dictionary.hasDomains).toBe(false);
    await addDomain(admin, dictionary.id, 'First');
    expect((await getDictionary(admin, dictionary.id)).hasDomains).toBe(true);
  });
});

describe('who may read and change domains', () => {
  it('readers read domains and the config; writes without administration are 403; unreadable and other clients 404', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin);
    const domain = await addDomain(admin, dictionary.id, 'Science');
    const user = await loggedInUser(t, client);
    const stranger = await tenant();

    // Named users read a dictionary without scheme.
    expect((await listDomains(user.rest, { 'dictionary-id': dictionary.id })).body.totalElements).toBe(1);
    expect((await getDomain(user.rest, domain.id)).status).toBe(200);
    expect((await user.rest.get(`/domains/${dictionary.id}/config`)).body).toEqual({ presentation: 'FLAT' });

    expectError(await user.rest.post('/domains', { name: 'x', dictionaryId: dictionary.id }), 403);
    expectError(
      await user.rest.put(`/domains/partial/${domain.id}`, { name: 'x', version: domain.version }),
      403,
    );
    expectError(
      await user.rest.put(`/domains/${domain.id}`, {
        name: 'x',
        dictionaryId: dictionary.id,
        version: domain.version,
      }),
      403,
    );
    expectError(await user.rest.delete(`/domains/${domain.id}`), 403);
    expectError(
      await user.rest.post(`/domains/${dictionary.id}/config`, { presentation: 'HORIZONTAL' }),
      403,
    );
    const asyncDelete = await user.rest.delete<InvocationResultBody>(`/domains/async/${domain.id}`);
    expect(asyncDelete.body).toEqual({ result: { [domain.id]: false } });

    for (const caller of [stranger.admin]) {
      expectError(await listDomains(caller, { 'dictionary-id': dictionary.id }), 404);
      expectError(await getDomain(caller, domain.id), 404);
      expectError(await caller.get(`/domains/${dictionary.id}/config`), 404);
      expectError(await caller.post('/domains', { name: 'x', dictionaryId: dictionary.id }), 404);
      expectError(
        await caller.put(`/domains/partial/${domain.id}`, { name: 'x', version: domain.version }),
        404,
      );
      expectError(await caller.delete(`/domains/${domain.id}`), 404);
      expectError(await caller.post(`/domains/${dictionary.id}/config`, { presentation: 'HORIZONTAL' }), 404);
    }

    // Nothing changed.
    expect((await getDomain(admin, domain.id)).body).toEqual(domain);
    expect((await admin.get(`/domains/${dictionary.id}/config`)).body).toEqual({ presentation: 'FLAT' });

    // Closing the dictionary makes its domains unreadable for the user: 404.
    const others = await groupWith(admin, []);
    const closed = await createScheme(admin, [grant(others.id, ['DICT_READ'])]);
    const current = await getDictionary(admin, dictionary.id);
    expect((await updateDictionary(admin, current, { permissionSchemeId: closed.id })).status).toBe(200);
    expectError(await listDomains(user.rest, { 'dictionary-id': dictionary.id }), 404);
    expectError(await getDomain(user.rest, domain.id), 404);
    expectError(await user.rest.get(`/domains/${dictionary.id}/config`), 404);
    expectError(await user.rest.post('/domains', { name: 'x', dictionaryId: dictionary.id }), 404);
  });

  it('the dictionary administrator (DICTIONARY_ADMIN@<oid>) and DICT_UPDATE grants may write', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin);
    const dictionaryAdmin = await loggedInUser(t, client, { roles: [`DICTIONARY_ADMIN@${dictionary.oid}`] });
    const created = await dictionaryAdmin.rest.post<DomainBody>('/domains', {
      name: 'By its admin',
      dictionaryId: dictionary.id,
    });
    expect(created.status, created.text).toBe(201);
    const config = await dictionaryAdmin.rest.post(`/domains/${dictionary.id}/config`, {
      presentation: 'HORIZONTAL',
    });
    expect(config.status, config.text).toBe(200);

    const editor = await loggedInUser(t, client);
    const editors = await groupWith(admin, [editor.id]);
    const scheme = await createScheme(admin, [grant(editors.id, ['DICT_READ', 'DICT_UPDATE'])]);
    const current = await getDictionary(admin, dictionary.id);
    expect((await updateDictionary(admin, current, { permissionSchemeId: scheme.id })).status).toBe(200);
    const byEditor = await editor.rest.post<DomainBody>('/domains', {
      name: 'By an editor',
      dictionaryId: dictionary.id,
    });
    expect(byEditor.status, byEditor.text).toBe(201);
    expect((await editor.rest.delete(`/domains/${byEditor.body.id}`)).status).toBe(204);
  });
});
