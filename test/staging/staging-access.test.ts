/**
 * Who may do what with staging areas (docs/staging.md), by role, and tenant isolation: other clients,
 * readers of a closed area and users without the dictionary get 404; users who see but may not review
 * get 403. GraphQL and tRPC answer as REST does, with the same codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
} from '../helpers/structure.js';
import {
  type AreaBody,
  createArea,
  type EntryBody,
  entries,
  gql,
  importIntoArea,
  type PageBody,
  patch,
  tbx,
  trpc,
} from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A dictionary with a scheme: writers (CONCEPT_CREATE), importers, readers, updaters (DICT_UPDATE), and a closed and an open area. */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const user = () => loggedInUser(t, tenant);
  const [writer, importer, reader, updater, outsider] = await Promise.all([
    user(),
    user(),
    user(),
    user(),
    user(),
  ]);
  const group = async (id: number) => (await groupWith(admin, [id])).id;
  const scheme = await createScheme(admin, [
    grant(await group(writer.id), ['DICT_READ', 'CONCEPT_CREATE']),
    grant(await group(importer.id), ['DICT_READ', 'CONCEPT_IMPORT']),
    grant(await group(reader.id), ['DICT_READ']),
    grant(await group(updater.id), ['DICT_READ', 'DICT_UPDATE']),
  ]);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    permissionSchemeId: scheme.id,
  });
  const dictAdmin = await loggedInUser(t, tenant, { roles: [dictionaryAdminRole(dictionary)] });
  const closed = await createArea(admin, dictionary.id, { name: 'Closed' });
  const open = await createArea(admin, dictionary.id, { name: 'Open', openToReaders: true });
  return { admin, tenant, dictionary, dictAdmin, writer, importer, reader, updater, outsider, closed, open };
}
type World = Awaited<ReturnType<typeof world>>;

const suggestion = (term: string) => ({ entry: { languages: [{ lang: 'eng', terms: [{ term }] }] } });

describe('permission table', () => {
  it('answers each role as docs/staging.md says', async () => {
    const w = await world();
    const pending = await w.admin.post<EntryBody>(
      `/staging-areas/${w.closed.id}/entries`,
      suggestion('by admin'),
    );
    expect(pending.status, pending.text).toBe(201);
    type Row = [
      string,
      RestClient,
      { area: number; create: number; suggest: number; accept: number; openArea: number },
    ];
    const table: Row[] = [
      ['client admin', w.admin, { area: 200, create: 201, suggest: 201, accept: 200, openArea: 200 }],
      [
        'DICTIONARY_ADMIN',
        w.dictAdmin.rest,
        { area: 200, create: 201, suggest: 201, accept: 409, openArea: 200 },
      ],
      ['DICT_UPDATE', w.updater.rest, { area: 200, create: 201, suggest: 201, accept: 409, openArea: 200 }],
      ['CONCEPT_CREATE', w.writer.rest, { area: 200, create: 403, suggest: 201, accept: 404, openArea: 200 }],
      [
        'CONCEPT_IMPORT',
        w.importer.rest,
        { area: 200, create: 403, suggest: 201, accept: 404, openArea: 200 },
      ],
      ['DICT_READ', w.reader.rest, { area: 404, create: 403, suggest: 404, accept: 404, openArea: 200 }],
      ['no access', w.outsider.rest, { area: 404, create: 404, suggest: 404, accept: 404, openArea: 404 }],
    ];
    for (const [who, caller, expected] of table) {
      const got = {
        area: (await caller.get(`/staging-areas/${w.closed.id}`)).status,
        create: (await caller.post(`/dictionaries/${w.dictionary.id}/staging-areas`, { name: `by ${who}` }))
          .status,
        suggest: (await caller.post(`/staging-areas/${w.closed.id}/entries`, suggestion(`from ${who}`)))
          .status,
        accept: (await caller.post(`/staged-entries/${pending.body.id}/accept`, {})).status,
        openArea: (await caller.get(`/staging-areas/${w.open.id}`)).status,
      };
      expect(got, who).toEqual(expected);
    }
  });

  it('non-reviewers see and change only their own entries, and may not accept them', async () => {
    const w = await world();
    const mine = await w.writer.rest.post<EntryBody>(
      `/staging-areas/${w.closed.id}/entries`,
      suggestion('mine'),
    );
    const theirs = await w.importer.rest.post<EntryBody>(
      `/staging-areas/${w.closed.id}/entries`,
      suggestion('theirs'),
    );
    expect((await entries(w.writer.rest, w.closed.id)).map((e) => e.id)).toEqual([mine.body.id]);
    expect((await entries(w.admin, w.closed.id)).map((e) => e.id).sort()).toEqual(
      [mine.body.id, theirs.body.id].sort(),
    );
    expect((await w.writer.rest.get(`/staged-entries/${theirs.body.id}`)).status).toBe(404);
    expect(mine.body).toMatchObject({ mayEdit: true, mayReview: false });
    const edited = await patch<EntryBody>(w.writer.rest, `/staged-entries/${mine.body.id}`, {
      version: mine.body.version,
      comment: 'please',
    });
    expect(edited.status, edited.text).toBe(200);
    expect((await w.writer.rest.post(`/staged-entries/${mine.body.id}/accept`, {})).status).toBe(403);
    expect(
      (await w.writer.rest.post(`/staging-areas/${w.closed.id}/entries/accept`, { ids: [mine.body.id] }))
        .status,
    ).toBe(403);
    expect((await w.writer.rest.get(`/staging-areas/${w.closed.id}/decisions`)).status).toBe(403);
    const withdrawn = await w.writer.rest.post<EntryBody>(`/staged-entries/${mine.body.id}/reject`, {
      reason: 'withdrawn',
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    // Area management is the administrators'.
    expect(
      (await patch(w.writer.rest, `/staging-areas/${w.closed.id}`, { version: 1, name: 'x' })).status,
    ).toBe(403);
    expect((await w.writer.rest.delete(`/staging-areas/${w.closed.id}`)).status).toBe(403);
  });

  it('imports into an area need CONCEPT_IMPORT; user data lists the areas each may use', async () => {
    const w = await world();
    const file = tbx([['x1', [['en', 'widget']]]]);
    const imported = await importIntoArea(w.importer.rest, w.closed.id, file);
    expect([200, 202], imported.response.text).toContain(imported.response.status);
    expect((await importIntoArea(w.writer.rest, w.closed.id, file)).response.status).toBe(403);
    expect((await importIntoArea(w.reader.rest, w.closed.id, file)).response.status).toBe(404);
    const other = await createDictionary(w.admin, { languages: [{ code: 'eng' }] });
    const mismatch = await w.admin.upload(
      '/dictionaries/import-tbx',
      { content: file, filename: 'a.tbx' },
      {
        'staging-area-id': String(w.closed.id),
        'dictionary-id': String(other.id),
      },
    );
    expect(mismatch.status, mismatch.text).toBe(400);
    const areasOf = async (caller: RestClient) => {
      const data = await caller.post<{ stagingAreas: { id: number; dictionaryId: number }[] }>(
        '/switch-client',
        {
          client_id: w.tenant.id,
        },
      );
      expect(data.status, data.text).toBe(200);
      return data.body.stagingAreas.map((a) => a.id).sort();
    };
    expect(await areasOf(w.writer.rest)).toEqual([w.closed.id, w.open.id].sort());
    expect(await areasOf(w.reader.rest)).toEqual([w.open.id]);
    expect(await areasOf(w.outsider.rest)).toEqual([]);
    // Readers list only the open area.
    const listed = await w.reader.rest.get<PageBody<AreaBody>>(
      `/dictionaries/${w.dictionary.id}/staging-areas`,
    );
    expect(listed.body.content.map((a) => a.name)).toEqual(['Open']);
  });
});

describe('tenant isolation', () => {
  it("another client's administrator finds nothing: 404 everywhere", async () => {
    const w = await world();
    const entry = await w.admin.post<EntryBody>(
      `/staging-areas/${w.closed.id}/entries`,
      suggestion('secret'),
    );
    const other = await newTenant(t, sysadmin);
    const calls = [
      other.admin.get(`/staging-areas/${w.closed.id}`),
      other.admin.get(`/staging-areas/${w.closed.id}/entries`),
      other.admin.get(`/dictionaries/${w.dictionary.id}/staging-areas`),
      other.admin.post(`/dictionaries/${w.dictionary.id}/staging-areas`, { name: 'intruder' }),
      other.admin.post(`/staging-areas/${w.closed.id}/entries`, suggestion('intruder')),
      other.admin.get(`/staged-entries/${entry.body.id}`),
      other.admin.post(`/staged-entries/${entry.body.id}/accept`, {}),
      other.admin.post(`/staged-entries/${entry.body.id}/reject`, {}),
      other.admin.post(`/staging-areas/${w.closed.id}/entries/accept`, { ids: [entry.body.id] }),
      other.admin.delete(`/staging-areas/${w.closed.id}`),
    ];
    for (const response of await Promise.all(calls)) expect(response.status, response.text).toBe(404);
    expect(
      (await importIntoArea(other.admin, w.closed.id, tbx([['z', [['en', 'zed']]]]))).response.status,
    ).toBe(404);
    // A deleted area is gone for its own client too.
    expect((await w.admin.delete(`/staging-areas/${w.open.id}`)).status).toBe(204);
    expect((await w.admin.get(`/staging-areas/${w.open.id}`)).status).toBe(404);
  });
});

describe('GraphQL and tRPC', () => {
  it('answer as REST does', async () => {
    const w: World = await world();
    const rest = await w.admin.post<EntryBody>(`/staging-areas/${w.closed.id}/entries`, suggestion('gamma'));
    const token = w.admin.token!;
    const page = await gql<{
      stagedEntries: {
        totalElements: number;
        content: { id: number; label: string; stagingArea: { name: string } }[];
      };
    }>(
      t,
      token,
      'query($a: Int!) { stagedEntries(stagingAreaId: $a, status: PENDING) { totalElements content { id label stagingArea { name } } } }',
      {
        a: w.closed.id,
      },
    );
    expect(page.errors).toBeUndefined();
    expect(page.data.stagedEntries.content).toEqual([
      { id: rest.body.id, label: 'eng: gamma', stagingArea: { name: 'Closed' } },
    ]);
    const detail = await gql<{
      stagedEntry: { changes: { kind: string; subject: string; term: string | null }[] };
    }>(t, token, 'query($id: Int!) { stagedEntry(id: $id) { id changes { kind subject term } } }', {
      id: rest.body.id,
    });
    expect(detail.data.stagedEntry.changes).toContainEqual({ kind: 'ADDED', subject: 'TERM', term: 'gamma' });
    const denied = await gql(t, w.outsider.rest.token!, 'query($id: Int!) { stagingArea(id: $id) { id } }', {
      id: w.closed.id,
    });
    expect(denied.errors?.[0]?.extensions.code).toBe('NOT_FOUND');

    const viaTrpc = await trpc<{ id: number; status: string }>(t, token, 'staging.getEntry', {
      id: rest.body.id,
    });
    expect(viaTrpc.data).toMatchObject({ id: rest.body.id, status: 'PENDING' });
    const accepted = await trpc<{ result: { accepted: number } }>(
      t,
      token,
      'staging.acceptEntry',
      { id: rest.body.id },
      true,
    );
    expect(accepted.data?.result.accepted).toBe(1);
    const twice = await gql(t, token, 'mutation($id: Int!) { acceptStagedEntry(id: $id) { accepted } }', {
      id: rest.body.id,
    });
    expect(twice.errors?.[0]?.extensions.code).toBe('CONFLICT');
    const outsider = await trpc(t, w.outsider.rest.token!, 'staging.getArea', { id: w.closed.id });
    expect(outsider.code).toBe('NOT_FOUND');
  });
});
