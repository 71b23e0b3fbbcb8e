import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createDomain,
  type EntityBody,
  type ErrorBody,
  expectError,
  groupWith,
  type InvocationResultBody,
  loggedInUser,
  newTenant,
  type PageBody,
  query,
  uniqueSuffix,
} from '../helpers/structure.js';

interface FilterBody extends EntityBody {
  name: string;
  description: string | null;
  dictionaryId: number;
  ownerId: number;
  visibility: 'PRIVATE' | 'GROUP' | 'PUBLIC';
  groupId: number | null;
  criteria: Record<string, unknown>;
  editable: boolean;
}

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

/**
 * A tenant with a dictionary (no permission scheme: every named user reads it) that has languages with
 * variants, fields, two sections and a domain; three users, A and C in one group, B outside it.
 */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, {
    languages: [
      {
        code: 'eng',
        variants: [
          { type: 0, code: 'US' },
          { type: 1, code: 'Latn' },
        ],
      },
      { code: 'fra' },
    ],
    conceptFields: [{ name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' }],
    termFields: [{ name: 'Checked', fieldType: 'DATE' }],
  });
  const domain = await createDomain(admin, dictionary.id, 'Chemistry');
  const a = await loggedInUser(t, tenant);
  const b = await loggedInUser(t, tenant);
  const c = await loggedInUser(t, tenant);
  const team = await groupWith(admin, [a.id, c.id]);
  return { admin, tenant, dictionary, domain, a, b, c, team };
}

const create = (caller: RestClient, body: Record<string, unknown>) =>
  caller.post<FilterBody & ErrorBody>('/filters', { name: `Filter ${uniqueSuffix()}`, ...body });

async function created(caller: RestClient, body: Record<string, unknown>): Promise<FilterBody> {
  const response = await create(caller, body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const listFilters = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<FilterBody> & ErrorBody>(`/filters${query(params)}`);

const listedIds = async (caller: RestClient, params: Record<string, string | number | boolean> = {}) => {
  const response = await listFilters(caller, params);
  expect(response.status, response.text).toBe(200);
  return response.body.content.map((f) => f.id);
};

describe('generic calls', () => {
  it('POST creates a private filter owned by the caller (201); GET reads it; defaults of the criteria', async () => {
    const { a, tenant, dictionary } = await world();
    const response = await create(a.rest, { name: 'My terms', dictionaryId: dictionary.id });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      name: 'My terms',
      description: null,
      dictionaryId: dictionary.id,
      clientId: tenant.id,
      ownerId: a.id,
      visibility: 'PRIVATE',
      groupId: null,
      editable: true,
      deleted: false,
      criteria: {
        languages: [],
        sectionOids: [],
        domainOids: [],
        includeSubdomains: true,
        fieldConditions: [],
        match: 'ALL',
        createdBy: [],
        changedBy: [],
      },
    });
    const read = await a.rest.get<FilterBody>(`/filters/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('list filters by dictionary_id / dictionary-id and name; rownum; PUT and partial need the version', async () => {
    const { a, admin, dictionary } = await world();
    const other = await createDictionary(admin);
    const second = await created(a.rest, { name: 'Beta', dictionaryId: dictionary.id });
    const first = await created(a.rest, { name: 'Alpha', dictionaryId: dictionary.id });
    const elsewhere = await created(a.rest, { name: 'Gamma', dictionaryId: other.id });

    expect(await listedIds(a.rest)).toEqual([first.id, second.id, elsewhere.id]);
    expect(await listedIds(a.rest, { dictionary_id: dictionary.id })).toEqual([first.id, second.id]);
    expect(await listedIds(a.rest, { 'dictionary-id': other.id })).toEqual([elsewhere.id]);
    expect(await listedIds(a.rest, { name: 'al' })).toEqual([first.id]);
    const rownum = await a.rest.get<number>(`/filters/rownum/${second.id}${query({ sort: 'name,DESC' })}`);
    expect(rownum.status, rownum.text).toBe(200);
    expect(rownum.body).toBe(2);
    expect(
      (await a.rest.get<number>(`/filters/rownum/${elsewhere.id}?dictionary_id=${dictionary.id}`)).body,
    ).toBe(0);

    expectError(await a.rest.put(`/filters/partial/${first.id}`, { name: 'No version' }), 409);
    expectError(
      await a.rest.put(`/filters/${first.id}`, {
        name: 'Stale',
        dictionaryId: dictionary.id,
        version: first.version + 1,
      }),
      409,
    );
    const put = await a.rest.put<FilterBody>(`/filters/${first.id}`, {
      name: 'Alpha 2',
      description: 'Replaced',
      dictionaryId: dictionary.id,
      version: first.version,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ name: 'Alpha 2', description: 'Replaced', visibility: 'PRIVATE' });
    const patched = await a.rest.put<FilterBody>(`/filters/partial/${first.id}`, {
      name: 'Alpha 3',
      version: put.body.version,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Alpha 3', description: 'Replaced' });

    expect((await a.rest.delete(`/filters/${second.id}`)).status).toBe(204);
    expectError(await a.rest.get(`/filters/${second.id}`), 404);
    const bulk = await a.rest.delete<InvocationResultBody>(`/filters/async/${first.id}`);
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.result).toEqual({ [first.id]: true });
    expect(await listedIds(a.rest)).toEqual([elsewhere.id]);
  });
});

describe('visibility', () => {
  it('a private filter is invisible to other users (not listed, GET 404) and visible to administrators', async () => {
    const { a, b, c, admin, dictionary } = await world();
    const filter = await created(a.rest, { dictionaryId: dictionary.id, visibility: 'PRIVATE' });

    for (const other of [b, c]) {
      expect(await listedIds(other.rest)).not.toContain(filter.id);
      expectError(await other.rest.get(`/filters/${filter.id}`), 404);
      expect((await other.rest.get<number>(`/filters/rownum/${filter.id}`)).body).toBe(0);
      expectError(
        await other.rest.put(`/filters/partial/${filter.id}`, { name: 'x', version: filter.version }),
        404,
      );
      expectError(await other.rest.delete(`/filters/${filter.id}`), 404);
    }
    expect(await listedIds(a.rest)).toEqual([filter.id]);
    expect(await listedIds(admin)).toContain(filter.id);
    const asAdmin = await admin.get<FilterBody>(`/filters/${filter.id}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.editable).toBe(true);
  });

  it('a GROUP filter is visible to the members of its group only', async () => {
    const { a, b, c, admin, dictionary, team } = await world();
    const filter = await created(a.rest, {
      dictionaryId: dictionary.id,
      visibility: 'GROUP',
      groupId: team.id,
    });
    expect(filter).toMatchObject({ visibility: 'GROUP', groupId: team.id });

    expect(await listedIds(c.rest)).toEqual([filter.id]);
    const asMember = await c.rest.get<FilterBody>(`/filters/${filter.id}`);
    expect(asMember.status).toBe(200);
    expect(asMember.body.editable).toBe(false);

    expect(await listedIds(b.rest)).toEqual([]);
    expectError(await b.rest.get(`/filters/${filter.id}`), 404);

    // B joins the group: now B sees it.
    const current = await admin.get<{ version: number }>(`/groups/${team.id}`);
    const joined = await admin.put(`/groups/partial/${team.id}`, {
      groupMembers: [a.id, b.id, c.id],
      version: current.body.version,
    });
    expect(joined.status, joined.text).toBe(200);
    expect(await listedIds(b.rest)).toEqual([filter.id]);
  });

  it('a PUBLIC filter is visible to every user of the client, editable only by owner and administrators', async () => {
    const { a, b, c, admin, dictionary } = await world();
    const filter = await created(a.rest, { dictionaryId: dictionary.id, visibility: 'PUBLIC' });
    for (const other of [b, c]) {
      expect(await listedIds(other.rest)).toEqual([filter.id]);
      const read = await other.rest.get<FilterBody>(`/filters/${filter.id}`);
      expect(read.status).toBe(200);
      expect(read.body.editable).toBe(false);
    }
    const listedByOwner = await listFilters(a.rest);
    expect(listedByOwner.body.content[0]!.editable).toBe(true);
    const listedByAdmin = await listFilters(admin);
    expect(listedByAdmin.body.content.find((f) => f.id === filter.id)?.editable).toBe(true);
    const listedByOther = await listFilters(b.rest);
    expect(listedByOther.body.content[0]!.editable).toBe(false);
  });

  it('only the owner or an administrator updates or deletes (403 for a user who sees it)', async () => {
    const { a, b, c, admin, dictionary, team } = await world();
    const shared = await created(a.rest, {
      dictionaryId: dictionary.id,
      visibility: 'PUBLIC',
      name: 'Shared',
    });
    const grouped = await created(a.rest, {
      dictionaryId: dictionary.id,
      visibility: 'GROUP',
      groupId: team.id,
      name: 'Grouped',
    });

    for (const [caller, filter] of [
      [b.rest, shared],
      [c.rest, shared],
      [c.rest, grouped],
    ] as const) {
      expectError(
        await caller.put(`/filters/partial/${filter.id}`, { name: 'Taken', version: filter.version }),
        403,
      );
      expectError(
        await caller.put(`/filters/${filter.id}`, {
          name: 'Taken',
          dictionaryId: dictionary.id,
          version: filter.version,
        }),
        403,
      );
      expectError(await caller.delete(`/filters/${filter.id}`), 403);
      const bulk = await caller.delete<InvocationResultBody>(`/filters/async/${filter.id}`);
      expect(bulk.body.result).toEqual({ [filter.id]: false });
    }
    expect((await a.rest.get<FilterBody>(`/filters/${shared.id}`)).body).toMatchObject({
      name: 'Shared',
      version: shared.version,
    });

    const byAdmin = await admin.put<FilterBody>(`/filters/partial/${shared.id}`, {
      name: 'Renamed by admin',
      version: shared.version,
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.ownerId).toBe(a.id);
    const byOwner = await a.rest.put<FilterBody>(`/filters/partial/${grouped.id}`, {
      name: 'Renamed by owner',
      version: grouped.version,
    });
    expect(byOwner.status, byOwner.text).toBe(200);
    expect((await admin.delete(`/filters/${grouped.id}`)).status).toBe(204);
    expect((await a.rest.delete(`/filters/${shared.id}`)).status).toBe(204);
  });

  it('a filter of another client is 404 and never listed, even with client_id', async () => {
    const one = await world();
    const two = await world();
    const filter = await created(two.a.rest, { dictionaryId: two.dictionary.id, visibility: 'PUBLIC' });
    for (const caller of [one.admin, one.a.rest]) {
      expectError(await caller.get(`/filters/${filter.id}`), 404);
      expectError(
        await caller.put(`/filters/partial/${filter.id}`, { name: 'x', version: filter.version }),
        404,
      );
      expectError(await caller.delete(`/filters/${filter.id}`), 404);
      expect(await listedIds(caller)).toEqual([]);
      expect(await listedIds(caller, { client_id: two.tenant.id })).toEqual([]);
    }
    // Nor may a filter be created in another client's dictionary.
    expectError(await create(one.admin, { dictionaryId: two.dictionary.id }), 404);
  });
});

describe('sharing with a group', () => {
  it('GROUP visibility needs groupId (400), an existing group of the client (400)', async () => {
    const { a, admin, dictionary } = await world();
    const other = await world();
    expectError(await create(a.rest, { dictionaryId: dictionary.id, visibility: 'GROUP' }), 400);
    expectError(
      await create(a.rest, { dictionaryId: dictionary.id, visibility: 'GROUP', groupId: null }),
      400,
    );
    expectError(
      await create(admin, { dictionaryId: dictionary.id, visibility: 'GROUP', groupId: 999999999 }),
      400,
    );
    expectError(
      await create(admin, { dictionaryId: dictionary.id, visibility: 'GROUP', groupId: other.team.id }),
      400,
    );

    // Switching an existing filter to GROUP needs a group as well; switching away clears it.
    const filter = await created(a.rest, { dictionaryId: dictionary.id });
    expectError(
      await a.rest.put(`/filters/partial/${filter.id}`, { visibility: 'GROUP', version: filter.version }),
      400,
    );
    const grouped = await a.rest.put<FilterBody>(`/filters/partial/${filter.id}`, {
      visibility: 'GROUP',
      groupId: (await groupWith(admin, [a.id])).id,
      version: filter.version,
    });
    expect(grouped.status, grouped.text).toBe(200);
    const publicNow = await a.rest.put<FilterBody>(`/filters/partial/${filter.id}`, {
      visibility: 'PUBLIC',
      version: grouped.body.version,
    });
    expect(publicNow.status, publicNow.text).toBe(200);
    expect(publicNow.body).toMatchObject({ visibility: 'PUBLIC', groupId: null });
  });

  it('a non-administrator cannot share with a group they are not in (403); an administrator can', async () => {
    const { b, admin, dictionary, team } = await world();
    const refused = await create(b.rest, {
      dictionaryId: dictionary.id,
      visibility: 'GROUP',
      groupId: team.id,
    });
    expectError(refused, 403);
    expect(await listedIds(b.rest)).toEqual([]);

    const own = await created(b.rest, { dictionaryId: dictionary.id });
    expectError(
      await b.rest.put(`/filters/partial/${own.id}`, {
        visibility: 'GROUP',
        groupId: team.id,
        version: own.version,
      }),
      403,
    );
    expect((await b.rest.get<FilterBody>(`/filters/${own.id}`)).body.visibility).toBe('PRIVATE');

    const byAdmin = await create(admin, {
      dictionaryId: dictionary.id,
      visibility: 'GROUP',
      groupId: team.id,
    });
    expect(byAdmin.status, byAdmin.text).toBe(201);
  });
});

describe('criteria', () => {
  it('accepts the dictionary’s own sections, domains, fields and languages (with variants)', async () => {
    const { a, dictionary, domain } = await world();
    const criteria = {
      languages: ['eng', 'eng;US', 'eng;;Latn', 'eng;US;Latn', 'fra', 'ENG;us'],
      sectionOids: [dictionary.allSections[0]!.oid],
      domainOids: [domain.oid],
      includeSubdomains: false,
      fieldConditions: [
        { fieldOid: dictionary.conceptFields[0]!.oid, operator: 'CONTAINS', value: 'acid' },
        { fieldOid: dictionary.termFields[0]!.oid, operator: 'NOT_EMPTY' },
      ],
      match: 'ANY',
      createdBy: [a.id],
      changedBy: [],
    };
    const filter = await created(a.rest, { dictionaryId: dictionary.id, criteria });
    // The language is read by the one rule of language codes (ENG is eng); variants stay as sent.
    expect(filter.criteria).toMatchObject({
      ...criteria,
      languages: ['eng', 'eng;US', 'eng;;Latn', 'eng;US;Latn', 'fra', 'eng;us'],
    });
  });

  it('unknown sections, domains, fields and languages are 400 and store nothing', async () => {
    const { a, admin, dictionary } = await world();
    const other = await createDictionary(admin, {
      languages: [{ code: 'deu' }],
      conceptFields: [{ name: 'Elsewhere', fieldType: 'SINGLELINE' }],
    });
    const otherDomain = await createDomain(admin, other.id, 'Elsewhere');
    const name = `Rejected ${uniqueSuffix()}`;
    const cases: Record<string, unknown>[] = [
      { sectionOids: ['no-such-section'] },
      { sectionOids: [other.allSections[0]!.oid] },
      { domainOids: ['no-such-domain'] },
      { domainOids: [otherDomain.oid] },
      { fieldConditions: [{ fieldOid: 'no-such-field', operator: 'EMPTY' }] },
      { fieldConditions: [{ fieldOid: other.conceptFields[0]!.oid, operator: 'EMPTY' }] },
      { languages: ['deu'] },
      { languages: ['xyz'] },
      { languages: ['eng;GB'] },
      { languages: ['eng;;Cyrl'] },
      { languages: ['eng;Latn'] },
      { languages: ['fra;US'] },
      { languages: ['eng;US;Latn;x'] },
      { languages: [';US'] },
      { fieldConditions: [{ fieldOid: dictionary.conceptFields[0]!.oid, operator: 'CONTAINS' }] },
      { fieldConditions: [{ fieldOid: dictionary.conceptFields[0]!.oid, operator: 'LIKE', value: 'x' }] },
      { match: 'SOME' },
    ];
    for (const criteria of cases) {
      const response = await create(a.rest, { name, dictionaryId: dictionary.id, criteria });
      expect(response.status, `${JSON.stringify(criteria)}: ${response.text}`).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    expect(await listedIds(a.rest, { 'name-eq': name })).toEqual([]);

    // An update is checked the same way.
    const filter = await created(a.rest, { dictionaryId: dictionary.id });
    expectError(
      await a.rest.put(`/filters/partial/${filter.id}`, {
        criteria: { sectionOids: ['no-such-section'] },
        version: filter.version,
      }),
      400,
    );
    expect((await a.rest.get<FilterBody>(`/filters/${filter.id}`)).body.version).toBe(filter.version);
  });

  it('dates are accepted in all four formats (yyyy-MM-dd HH:mm:ss, yyyy-MM-dd HH:mm, yyyy-MM-dd, yyyyMMdd)', async () => {
    const { a, dictionary } = await world();
    const criteria = {
      created: { from: '2024-01-02 03:04:05', to: '2024-01-31 23:59' },
      changed: { from: '2024-02-29', to: '20241231' },
      fieldConditions: [
        { fieldOid: dictionary.termFields[0]!.oid, operator: 'AFTER', value: '2023-12-31' },
        { fieldOid: dictionary.termFields[0]!.oid, operator: 'BEFORE', value: '20250101' },
      ],
    };
    const filter = await created(a.rest, { dictionaryId: dictionary.id, criteria });
    expect(filter.criteria).toMatchObject(criteria);
    const onlyFrom = await created(a.rest, {
      dictionaryId: dictionary.id,
      criteria: { created: { from: '20240101' } },
    });
    expect(onlyFrom.criteria).toMatchObject({ created: { from: '20240101' } });
  });

  it('bad dates are 400', async () => {
    const { a, dictionary } = await world();
    const bad = [
      '2024-13-01',
      '2024-02-30',
      '2023-02-29',
      '2024-01-02 24:00',
      '2024-01-02 12:60',
      '2024-01-02 12:00:60',
      '2024-01-02T03:04:05',
      '02/01/2024',
      '2024-1-2',
      '202401',
      'yesterday',
      '',
    ];
    for (const date of bad) {
      for (const criteria of [{ created: { from: date } }, { changed: { to: date } }]) {
        const response = await create(a.rest, { dictionaryId: dictionary.id, criteria });
        expect(response.status, `${JSON.stringify(criteria)}: ${response.text}`).toBe(400);
      }
    }
  });

  it('BEFORE and AFTER conditions need a date value (400 otherwise)', async () => {
    const { a, dictionary } = await world();
    const fieldOid = dictionary.termFields[0]!.oid;
    for (const operator of ['BEFORE', 'AFTER']) {
      for (const value of ['yesterday', '2024-13-01', '01.02.2024']) {
        const response = await create(a.rest, {
          dictionaryId: dictionary.id,
          criteria: { fieldConditions: [{ fieldOid, operator, value }] },
        });
        expect(response.status, `${operator} ${value}: ${response.text}`).toBe(400);
      }
    }
  });
});
