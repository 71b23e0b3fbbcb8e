// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  type ErrorBody,
  expectError,
  getDictionary,
  grant,
  groupWith,
  type InvocationResultBody,
  insertBareConcepts,
  insertTerm,
  insertView,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  rows,
  type SectionBody,
  uniqueSuffix,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const tenant = () => newTenant(t, sysadmin);

async function addSection(caller: RestClient, dictionaryId: number, body: Record<string, unknown> = {}) {
  const response = await caller.post<SectionBody>('/sections', {
    name: `Section ${uniqueSuffix()}`,
    dictionaryId,
    ...body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const getSection = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.get<SectionBody & ErrorBody>(`/sections/${id}${query(params)}`);

const listSections = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<SectionBody> & ErrorBody>(`/sections${query(params)}`);

async function patchSection(caller: RestClient, id: number, body: Record<string, unknown>) {
  const current = await getSection(caller, id);
  expect(current.status, current.text).toBe(200);
  return caller.put<SectionBody & ErrorBody>(`/sections/partial/${id}`, {
    ...body,
    version: current.body.version,
  });
}

const targetOf = (dictionary: DictionaryBody, sectionId: number) => ({
  clientId: dictionary.clientId,
  dictionaryId: dictionary.id,
  sectionId,
});

const countConcepts = async (sectionId: number) =>
  (
    await rows<{ n: number }>(t, 'select count(*)::int as n from concepts where section_id = ?', [sectionId])
  )[0]!.n;

describe('generic calls', () => {
  it('create (201), get, list with dictionary-id, rownum, update, partial update, delete (204 text/plain)', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin, { name: `Dict ${uniqueSuffix()}` });
    const other = await createDictionary(admin);
    const first = dictionary.allSections[0]!;

    const created = await admin.post<SectionBody>('/sections', {
      name: 'Beta section',
      dictionaryId: dictionary.id,
      sortIndex: 5,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Beta section',
      dictionaryId: dictionary.id,
      clientId: client.id,
      sortIndex: 5,
      viewId: null,
      permissionSchemeId: null,
      numberOfConcepts: 0,
      deletable: true,
      deleted: false,
      version: expect.any(Number),
    });
    expect(created.body.oid).toMatch(/\S+/);
    const beta = created.body;
    expect((await getSection(admin, beta.id)).body).toEqual(beta);

    // With two sections, both are deletable now.
    expect((await getSection(admin, first.id)).body.deletable).toBe(true);

    const mine = await listSections(admin, { 'dictionary-id': dictionary.id, sort: 'name,DESC' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.content.map((s) => s.id)).toEqual([first.id, beta.id]);
    expect(mine.body.totalElements).toBe(2);
    const all = await listSections(admin, { size: 100 });
    expect(all.body.content.map((s) => s.id).sort()).toEqual(
      [first.id, beta.id, other.allSections[0]!.id].sort(),
    );
    expect(
      (await listSections(admin, { 'dictionary-id': dictionary.id, name: 'beta' })).body.content.map(
        (s) => s.id,
      ),
    ).toEqual([beta.id]);
    expect((await listSections(admin, { 'name-eq': 'BETA SECTION' })).body.content.map((s) => s.id)).toEqual([
      beta.id,
    ]);
    expect(
      (await admin.get<number>(`/sections/rownum/${beta.id}?dictionary-id=${dictionary.id}&sort=name,ASC`))
        .body,
    ).toBe(1);
    expect((await admin.get<number>(`/sections/rownum/${beta.id}?dictionary-id=${other.id}`)).body).toBe(0);

    // Full update: the version is required, missing attributes are reset.
    expectError(await admin.put(`/sections/${beta.id}`, { name: 'x', dictionaryId: dictionary.id }), 409);
    expectError(
      await admin.put(`/sections/${beta.id}`, {
        name: 'x',
        dictionaryId: dictionary.id,
        version: beta.version + 1,
      }),
      409,
    );
    const updated = await admin.put<SectionBody>(`/sections/${beta.id}`, {
      name: 'Gamma section',
      dictionaryId: dictionary.id,
      version: beta.version,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Gamma section', sortIndex: 0 });
    expect(updated.body.version).toBeGreaterThan(beta.version);

    // Partial update: only what is sent changes.
    expectError(
      await admin.put(`/sections/partial/${beta.id}`, { sortIndex: 3, version: beta.version }),
      409,
    );
    const patched = await patchSection(admin, beta.id, { sortIndex: 3 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Gamma section', sortIndex: 3, dictionaryId: dictionary.id });

    const deleted = await admin.delete(`/sections/${beta.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(String(deleted.headers['content-type'])).toMatch(/^text\/plain/);
    expectError(await getSection(admin, beta.id), 404);
    expect((await getSection(admin, beta.id, { 'include-deleted': true })).body).toMatchObject({
      id: beta.id,
      deleted: true,
      deletable: false,
    });
    expect(
      (await listSections(admin, { 'dictionary-id': dictionary.id })).body.content.map((s) => s.id),
    ).toEqual([first.id]);
    expect((await getDictionary(admin, dictionary.id)).allSections.map((s) => s.id)).toEqual([first.id]);
  });

  it('the dictionary lists its sections in sortIndex order', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const late = await addSection(admin, dictionary.id, { sortIndex: 9 });
    const early = await addSection(admin, dictionary.id, { sortIndex: -1 });
    expect((await getDictionary(admin, dictionary.id)).allSections.map((s) => s.id)).toEqual([
      early.id,
      dictionary.allSections[0]!.id,
      late.id,
    ]);
  });
});

describe('who creates and changes sections', () => {
  it('administrators and the dictionary administrator create sections; others get 403, or 404 when they cannot read', async () => {
    const { admin, tenant: client } = await tenant();
    const dictionary = await createDictionary(admin);
    const neighbour = await createDictionary(admin);
    const dictionaryAdmin = await loggedInUser(t, client, { roles: [`DICTIONARY_ADMIN@${dictionary.oid}`] });
    const user = await loggedInUser(t, client);
    const stranger = await tenant();

    const byDictionaryAdmin = await dictionaryAdmin.rest.post<SectionBody>('/sections', {
      name: 'By its admin',
      dictionaryId: dictionary.id,
    });
    expect(byDictionaryAdmin.status, byDictionaryAdmin.text).toBe(201);
    expectError(await dictionaryAdmin.rest.post('/sections', { name: 'x', dictionaryId: neighbour.id }), 403);
    expectError(await user.rest.post('/sections', { name: 'x', dictionaryId: dictionary.id }), 403);
    expectError(await stranger.admin.post('/sections', { name: 'x', dictionaryId: dictionary.id }), 404);
    expectError(await admin.post('/sections', { name: 'x', dictionaryId: 2_000_000_000 }), 404);
    // A deleted dictionary takes no new sections.
    const deletedDictionary = await createDictionary(admin);
    expect((await admin.delete(`/dictionaries/${deletedDictionary.id}`)).status).toBe(204);
    expectError(await admin.post('/sections', { name: 'x', dictionaryId: deletedDictionary.id }), 404);

    // Update and delete follow the same rule.
    const section = byDictionaryAdmin.body;
    expectError(
      await user.rest.put(`/sections/partial/${section.id}`, { name: 'y', version: section.version }),
      403,
    );
    expectError(await user.rest.delete(`/sections/${section.id}`), 403);
    expectError(
      await stranger.admin.put(`/sections/partial/${section.id}`, { name: 'y', version: section.version }),
      404,
    );
    expectError(await stranger.admin.delete(`/sections/${section.id}`), 404);
    expectError(await stranger.admin.get(`/sections/${section.id}`), 404);
    expect((await listSections(stranger.admin, { 'dictionary-id': dictionary.id })).body.totalElements).toBe(
      0,
    );

    const renamed = await dictionaryAdmin.rest.put<SectionBody>(`/sections/partial/${section.id}`, {
      name: 'Renamed by its admin',
      version: section.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await getDictionary(admin, dictionary.id)).allSections.map((s) => s.name)).toEqual([
      dictionary.name,
      'Renamed by its admin',
    ]);
  });

  it('a user sees only the sections they may read (list and get)', async () => {
    const { admin, tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    const readers = await groupWith(admin, [user.id]);
    const others = await groupWith(admin, []);
    const open = await createScheme(admin, [grant(readers.id, ['DICT_READ'])]);
    const closed = await createScheme(admin, [grant(others.id, ['DICT_READ'])]);
    const dictionary = await createDictionary(admin, { permissionSchemeId: open.id });
    const hidden = await addSection(admin, dictionary.id, { permissionSchemeId: closed.id });
    const visible = dictionary.allSections[0]!;
    expect(hidden.permissionSchemeId).toBe(closed.id);

    const listed = await listSections(user.rest, { 'dictionary-id': dictionary.id });
    expect(listed.body.content.map((s) => s.id)).toEqual([visible.id]);
    expect((await getSection(user.rest, visible.id)).status).toBe(200);
    expectError(await getSection(user.rest, hidden.id), 404);
    expect((await user.rest.get<number>(`/sections/rownum/${hidden.id}`)).body).toBe(0);
  });
});

describe('references and moves', () => {
  it('viewId must be a view of the same dictionary (400 otherwise); a scheme of another client is 400', async () => {
    const { admin, tenant: client } = await tenant();
    const stranger = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    const ownView = await insertView(t, client.id, dictionary.id);
    const otherView = await insertView(t, client.id, other.id);
    const foreignScheme = await createScheme(stranger.admin, []);

    const withView = await addSection(admin, dictionary.id, { viewId: ownView });
    expect(withView.viewId).toBe(ownView);

    expectError(
      await admin.post('/sections', { name: 'x', dictionaryId: dictionary.id, viewId: 2_000_000_000 }),
      400,
    );
    expectError(
      await admin.post('/sections', { name: 'x', dictionaryId: dictionary.id, viewId: otherView }),
      400,
    );
    expectError(
      await admin.post('/sections', {
        name: 'x',
        dictionaryId: dictionary.id,
        permissionSchemeId: foreignScheme.id,
      }),
      400,
    );
    expectError(await patchSection(admin, withView.id, { viewId: otherView }), 400);
    expectError(await patchSection(admin, withView.id, { viewId: 123_456_789 }), 400);
    // Id 0 is no view and no scheme either (once a 500 on update).
    expectError(await patchSection(admin, withView.id, { viewId: 0 }), 400);
    expectError(await patchSection(admin, withView.id, { permissionSchemeId: 0 }), 400);
    expectError(await admin.post('/sections', { name: 'x', dictionaryId: dictionary.id, viewId: 0 }), 400);
    expect((await getSection(admin, withView.id)).body.viewId).toBe(ownView);
    expect((await getDictionary(admin, dictionary.id)).allSections).toHaveLength(2);

    // Cleared with null.
    const cleared = await patchSection(admin, withView.id, { viewId: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.viewId).toBeNull();
  });

  it('a section cannot move to another dictionary (400); sending its own dictionary is fine', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const other = await createDictionary(admin);
    const section = await addSection(admin, dictionary.id);

    expectError(await patchSection(admin, section.id, { dictionaryId: other.id }), 400);
    expectError(
      await admin.put(`/sections/${section.id}`, {
        name: section.name,
        dictionaryId: other.id,
        version: section.version,
      }),
      400,
    );
    expect((await getSection(admin, section.id)).body).toMatchObject({
      dictionaryId: dictionary.id,
      version: section.version,
    });
    const same = await patchSection(admin, section.id, { dictionaryId: dictionary.id, name: 'Same place' });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ dictionaryId: dictionary.id, name: 'Same place' });
  });
});

describe('deleting sections', () => {
  it('the last section of a dictionary is not deletable and its delete is 400', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const only = dictionary.allSections[0]!;
    expect(only.deletable).toBe(false);
    const refused = await admin.delete(`/sections/${only.id}`);
    expectError(refused, 400);
    expect((await getSection(admin, only.id)).body.deleted).toBe(false);

    const second = await addSection(admin, dictionary.id);
    expect((await getSection(admin, only.id)).body.deletable).toBe(true);
    expect((await admin.delete(`/sections/${only.id}`)).status).toBe(204);
    const remaining = await getSection(admin, second.id);
    expect(remaining.body.deletable).toBe(false);
    expectError(await admin.delete(`/sections/${second.id}`), 400);
    expect((await getDictionary(admin, dictionary.id)).allSections.map((s) => s.id)).toEqual([second.id]);
  });

  it('a section holding live concepts is not deletable (400); deleted concepts do not count', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const section = await addSection(admin, dictionary.id);
    const [concept] = await insertBareConcepts(t, targetOf(dictionary, section.id), 1);

    const read = await getSection(admin, section.id);
    expect(read.body).toMatchObject({ numberOfConcepts: 1, deletable: false });
    expectError(await admin.delete(`/sections/${section.id}`), 400);
    expect((await getSection(admin, section.id)).body.deleted).toBe(false);

    await rows(t, 'update concepts set deleted = true where id = ?', [concept]);
    expect((await getSection(admin, section.id)).body).toMatchObject({
      numberOfConcepts: 0,
      deletable: true,
    });
    expect((await admin.delete(`/sections/${section.id}`)).status).toBe(204);
  });

  it('DELETE /sections/async/{ids} deletes each section on its own and reports each result', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    const first = dictionary.allSections[0]!;
    const empty = await addSection(admin, dictionary.id);
    const full = await addSection(admin, dictionary.id);
    await insertBareConcepts(t, targetOf(dictionary, full.id), 2);

    const response = await admin.delete<InvocationResultBody>(`/sections/async/${empty.id},${full.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: { [empty.id]: true, [full.id]: false } });
    expectError(await getSection(admin, empty.id), 404);
    expect((await getSection(admin, full.id)).body.deleted).toBe(false);

    // The last section cannot go: of the two left (now both empty), only the first in the list is deleted.
    await rows(t, 'update concepts set deleted = true where section_id = ?', [full.id]);
    const last = await admin.delete<InvocationResultBody>(`/sections/async/${first.id},${full.id}`);
    expect(last.status, last.text).toBe(200);
    expect(last.body).toEqual({ result: { [first.id]: true, [full.id]: false } });
    expect((await getDictionary(admin, dictionary.id)).allSections.map((s) => s.id)).toEqual([full.id]);

    // Other clients' and unknown sections report false.
    const stranger = await tenant();
    const foreign = await stranger.admin.delete<InvocationResultBody>(`/sections/async/${full.id}`);
    expect(foreign.status, foreign.text).toBe(200);
    expect(foreign.body).toEqual({ result: { [full.id]: false } });
    const unknown = await admin.delete<InvocationResultBody>('/sections/async/2000000000');
    expect(unknown.body).toEqual({ result: { 2000000000: false } });
    expect((await getSection(admin, full.id)).body.deleted).toBe(false);
  });
});

describe('POST /sections/clear', () => {
  it('removes the concepts and terms of the sections and answers {result: {id: true}}', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin, { languages: [{ code: 'en' }] });
    const cleared = dictionary.allSections[0]!;
    const second = await addSection(admin, dictionary.id);
    const kept = await addSection(admin, dictionary.id);
    const concepts = await insertBareConcepts(t, targetOf(dictionary, cleared.id), 3);
    await insertBareConcepts(t, targetOf(dictionary, second.id), 1);
    const [keptConcept] = await insertBareConcepts(t, targetOf(dictionary, kept.id), 1);
    const term = await insertTerm(
      t,
      { clientId: dictionary.clientId, dictionaryId: dictionary.id, conceptId: concepts[0]! },
      { languageCode: 'eng' },
    );
    const keptTerm = await insertTerm(
      t,
      { clientId: dictionary.clientId, dictionaryId: dictionary.id, conceptId: keptConcept! },
      { languageCode: 'eng' },
    );

    const response = await admin.post<InvocationResultBody>(`/sections/clear?section-id=${cleared.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: { [cleared.id]: true } });
    expect(await countConcepts(cleared.id)).toBe(0);
    expect(await rows(t, 'select id from terms where id = ?', [term])).toEqual([]);
    expect(await countConcepts(kept.id)).toBe(1);
    expect(await rows(t, 'select id from terms where id = ?', [keptTerm])).toEqual([{ id: keptTerm }]);

    const read = await getDictionary(admin, dictionary.id);
    expect(read.concepts).toBe(2);
    expect(read.allSections.find((s) => s.id === cleared.id)!.numberOfConcepts).toBe(0);

    // Several sections at once: repeated or comma-separated.
    await insertBareConcepts(t, targetOf(dictionary, cleared.id), 2);
    const both = await admin.post<InvocationResultBody>(
      `/sections/clear?section-id=${cleared.id}&section-id=${second.id}`,
    );
    expect(both.status, both.text).toBe(200);
    expect(both.body).toEqual({ result: { [cleared.id]: true, [second.id]: true } });
    expect(await countConcepts(cleared.id)).toBe(0);
    expect(await countConcepts(second.id)).toBe(0);
    expect(await countConcepts(kept.id)).toBe(1);

    await insertBareConcepts(t, targetOf(dictionary, kept.id), 1);
    const commaSeparated = await admin.post<InvocationResultBody>(
      `/sections/clear?section-id=${kept.id},${second.id}`,
    );
    expect(commaSeparated.body).toEqual({ result: { [kept.id]: true, [second.id]: true } });
    expect(await countConcepts(kept.id)).toBe(0);
    expect((await getDictionary(admin, dictionary.id)).concepts).toBe(0);
  });

  it('a caller without rights gets 403 (readable) or 404 (not readable, other client, unknown); nothing is removed', async () => {
    const { admin, tenant: client } = await tenant();
    const stranger = await tenant();
    const user = await loggedInUser(t, client);
    const dictionary = await createDictionary(admin);
    const section = dictionary.allSections[0]!;
    await insertBareConcepts(t, targetOf(dictionary, section.id), 2);

    expectError(await user.rest.post(`/sections/clear?section-id=${section.id}`), 403);
    expectError(await stranger.admin.post(`/sections/clear?section-id=${section.id}`), 404);
    expectError(await admin.post('/sections/clear?section-id=2000000000'), 404);
    // One forbidden section spoils the whole call.
    const own = await createDictionary(stranger.admin);
    expectError(
      await stranger.admin.post(`/sections/clear?section-id=${own.allSections[0]!.id},${section.id}`),
      404,
    );

    const others = await groupWith(admin, []);
    const closed = await createScheme(admin, [grant(others.id, ['DICT_READ'])]);
    const patched = await patchSection(admin, section.id, { permissionSchemeId: closed.id });
    expect(patched.status, patched.text).toBe(200);
    expectError(await user.rest.post(`/sections/clear?section-id=${section.id}`), 404);
    expect(await countConcepts(section.id)).toBe(2);

    expectError(await admin.post('/sections/clear'), 400);
    expectError(await admin.post('/sections/clear?section-id=abc'), 400);
  });
});

describe('asynchronous answers', () => {
  let quick: TestApp;
  let quickSysadmin: RestClient;
  let blocker: pg.Client;

  beforeAll(async () => {
    // A threshold of 0 ms: any job still working after the first timer tick answers with its jobTaskId.
    quick = await buildTestApp({ ASYNC_THRESHOLD_MS: '0' });
    quickSysadmin = await loginSysadmin(quick.app);
    blocker = new pg.Client({ connectionString: quick.config.DATABASE_URL! });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker.end();
    await quick.close();
  });

  const jobRow = async (id: number) =>
    (
      await rows<{ status: string; result: unknown; type: string }>(
        t,
        'select status, result, type from job_tasks where id = ?',
        [id],
      )
    )[0];

  async function waitForJob(id: number) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const job = await jobRow(id);
      if (job && job.status !== 'RUNNING') return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`job ${id} did not finish`);
  }

  it('clear answers 202 with jobTaskId while the job waits (row lock held elsewhere), and the job finishes afterwards', async () => {
    const { admin } = await newTenant(quick, quickSysadmin);
    const dictionary = await createDictionary(admin);
    const section = dictionary.allSections[0]!;
    const [concept] = await insertBareConcepts(quick, targetOf(dictionary, section.id), 3);

    // Hold a lock on one of the section's concepts, so the job's delete waits for it: deterministic.
    await blocker.query('begin');
    await blocker.query('select id from concepts where id = $1 for update', [concept]);
    let response: Awaited<ReturnType<typeof admin.post<InvocationResultBody>>>;
    try {
      response = await admin.post<InvocationResultBody>(`/sections/clear?section-id=${section.id}`);
      expect(response.status, response.text).toBe(202);
      expect(response.body).toEqual({ jobTaskId: expect.any(Number) });
      expect((await jobRow(response.body.jobTaskId!))?.status).toBe('RUNNING');
      expect(await countConcepts(section.id)).toBe(3);
    } finally {
      await blocker.query('rollback');
    }
    const job = await waitForJob(response.body.jobTaskId!);
    expect(job).toMatchObject({ status: 'DONE', type: 'sections.clear', result: { [section.id]: true } });
    expect(await countConcepts(section.id)).toBe(0);
  });

  it('the async delete answers 202 with jobTaskId while the job waits, then the section is deleted', async () => {
    const { admin } = await newTenant(quick, quickSysadmin);
    const dictionary = await createDictionary(admin);
    const section = await addSection(admin, dictionary.id);

    await blocker.query('begin');
    await blocker.query('select id from sections where id = $1 for update', [section.id]);
    let response: Awaited<ReturnType<typeof admin.delete<InvocationResultBody>>>;
    try {
      response = await admin.delete<InvocationResultBody>(`/sections/async/${section.id}`);
      expect(response.status, response.text).toBe(202);
      expect(response.body).toEqual({ jobTaskId: expect.any(Number) });
    } finally {
      await blocker.query('rollback');
    }
    const job = await waitForJob(response.body.jobTaskId!);
    expect(job).toMatchObject({ status: 'DONE', result: { [section.id]: true } });
    expectError(await getSection(admin, section.id), 404);
  });
});
