// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  type DomainBody,
  expectError,
  getDictionary,
  grant,
  groupWith,
  insertBareConcepts,
  insertView,
  linkConceptsToDomain,
  loggedInUser,
  newTenant,
  rows,
  type SectionBody,
  uniqueSuffix,
} from '../helpers/structure.js';
import {
  asGraphQL,
  DICTIONARY_QUERY,
  DICTIONARY_SELECTION,
  type GqlDictionary,
  gql,
  gqlOk,
  listen,
  names,
  node,
  section,
  sqlCounter,
} from './structure-graphql-helpers.js';

/**
 * Issue 4 over GraphQL on a real socket: a dictionary with its languages, fields, sections and domain
 * tree in one query; tenants, permissions and soft deletion as the REST surface sets them up.
 */

let t: TestApp;
let base: string;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const tenant = () => newTenant(t, sysadmin);

interface DictionaryPage {
  dictionaries: {
    totalElements: number;
    totalPages: number;
    number: number;
    size: number;
    first: boolean;
    last: boolean;
    content: GqlDictionary[];
  };
}

const readDictionary = async (token: string, id: number) =>
  (await gqlOk<{ dictionary: GqlDictionary }>(base, token, DICTIONARY_QUERY, { id })).dictionary;

const listDictionaries = async (token: string, args = '(sort: "name")') =>
  (
    await gqlOk<DictionaryPage>(
      base,
      token,
      `{ dictionaries${args} { totalElements totalPages number size first last
           content { ${DICTIONARY_SELECTION} } } }`,
    )
  ).dictionaries;

async function addDomain(
  admin: RestClient,
  dictionaryId: number,
  name: string,
  sortIndex: number,
  parent?: DomainBody,
): Promise<DomainBody> {
  const response = await admin.post<DomainBody>('/domains', {
    name,
    dictionaryId,
    sortIndex,
    parentDomainId: parent?.id ?? null,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function addSection(admin: RestClient, dictionaryId: number, body: Record<string, unknown>) {
  const response = await admin.post<SectionBody>('/sections', { dictionaryId, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function setSectionScheme(admin: RestClient, sectionId: number, permissionSchemeId: number | null) {
  const current = await admin.get<SectionBody>(`/sections/${sectionId}`);
  expect(current.status, current.text).toBe(200);
  const response = await admin.put<SectionBody>(`/sections/partial/${sectionId}`, {
    permissionSchemeId,
    version: current.body.version,
  });
  expect(response.status, response.text).toBe(200);
}

/** Science (2) > [Chemistry (0), Physics (1) > [Mechanics (0) > Statics, Optics (1)]]; Arts (1). */
async function domainTree(admin: RestClient, dictionaryId: number) {
  const science = await addDomain(admin, dictionaryId, 'Science', 2);
  const physics = await addDomain(admin, dictionaryId, 'Physics', 1, science);
  const optics = await addDomain(admin, dictionaryId, 'Optics', 1, physics);
  const mechanics = await addDomain(admin, dictionaryId, 'Mechanics', 0, physics);
  const statics = await addDomain(admin, dictionaryId, 'Statics', 0, mechanics);
  const chemistry = await addDomain(admin, dictionaryId, 'Chemistry', 0, science);
  const arts = await addDomain(admin, dictionaryId, 'Arts', 1);
  return { science, physics, optics, mechanics, statics, chemistry, arts };
}

describe('dictionary(id): the whole structure in one query', () => {
  it('answers languages with variants and rtl, concept and term fields with their models and picklists, sections and a four-level domain tree', async () => {
    const { admin, tenant: client } = await tenant();
    const [adminRow] = await rows<{ id: number }>(
      t,
      "select id from users where client_id = ? and username = 'admin'",
      [client.id],
    );
    const created = await createDictionary(admin, {
      name: `Glossary ${uniqueSuffix()}`,
      description: 'Words of the trade',
      sortIndex: 3,
      domainPresentation: 'HIERARCHICAL',
      emailRecipientId: adminRow!.id,
      languages: [
        {
          code: 'en',
          variants: [
            { type: 0, code: 'us' },
            { type: 0, code: 'GB', name: 'Britain' },
            { type: 1, code: 'Latn' },
          ],
        },
        { code: 'ar' },
        {
          code: 'qqk',
          custom: true,
          name: 'Klingon',
          rtl: true,
          variants: [{ type: 1, code: 'pqd', name: 'pIqaD' }],
        },
      ],
      conceptFields: [
        {
          name: 'Definition',
          specifiedName: 'Our definition',
          dataCategory: 'DEFINITION',
          fieldType: 'MULTILINE',
          model: { required: true, minLen: 5, maxLen: 500 },
        },
        {
          name: 'Status',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ name: 'new' }, { name: 'Approved', tbxName: 'approved' }] },
        },
        { name: 'Code', fieldType: 'SINGLELINE', model: { regExp: '^[A-Z]{3}$' } },
      ],
      termFields: [
        {
          name: 'Gender',
          dataCategory: 'GRAMMATICAL_GENDER',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ tbxName: 'masculine' }, { tbxName: 'feminine' }] },
        },
        { name: 'Amount', fieldType: 'NUMBER', model: { number: true } },
      ],
    });
    const main = created.allSections[0]!;
    const scheme = await createScheme(admin, []);
    const view = await insertView(t, client.id, created.id);
    // Created out of order: the sections come back by sortIndex.
    const beta = await addSection(admin, created.id, {
      name: 'Beta',
      sortIndex: 2,
      permissionSchemeId: scheme.id,
    });
    const alpha = await addSection(admin, created.id, { name: 'Alpha', sortIndex: 1, viewId: view });
    const d = await domainTree(admin, created.id);

    // Concepts have no API yet: three live ones and a deleted one, linked to domains.
    const concepts = await insertBareConcepts(
      t,
      { clientId: client.id, dictionaryId: created.id, sectionId: main.id },
      4,
    );
    await linkConceptsToDomain(t, [concepts[0]!, concepts[1]!], d.mechanics.id);
    await linkConceptsToDomain(t, [concepts[2]!, concepts[3]!], d.statics.id);
    await rows(t, 'update concepts set deleted = true where id = ?', [concepts[3]]);

    const dictionary = await readDictionary(admin.token!, created.id);

    // Exactly what REST answers for the same dictionary...
    const rest = await getDictionary(admin, created.id);
    const tree = [
      node(d.arts, 0),
      node(d.science, 0, [
        node(d.chemistry, 0),
        node(d.physics, 0, [node(d.mechanics, 2, [node(d.statics, 1)]), node(d.optics, 0)]),
      ]),
    ];
    expect(dictionary).toEqual(asGraphQL(rest, tree));

    // ...and the values set up above, spelled out.
    expect(dictionary).toMatchObject({
      id: created.id,
      clientId: client.id,
      name: created.name,
      description: 'Words of the trade',
      sortIndex: 3,
      domainPresentation: 'HIERARCHICAL',
      emailRecipientId: adminRow!.id,
      permissionSchemeId: null,
      concepts: 3,
      hasDomains: true,
      created: { name: 'admin', time: expect.any(Number) },
    });
    expect(
      dictionary.languages.map((l) => [l.code, l.code2, l.code3, l.name, l.isIso, l.custom, l.rtl]),
    ).toEqual([
      ['eng', 'en', 'eng', 'English', true, false, false],
      ['ara', 'ar', 'ara', 'Arabic', true, false, true],
      ['qqk', null, null, 'Klingon', false, true, true],
    ]);
    const [english, , klingon] = dictionary.languages;
    expect(english!.variants.map((v) => [v.type, v.code, v.predefined])).toEqual([
      [0, 'US', true],
      [0, 'GB', true],
      [1, 'latn', true],
    ]);
    expect(english!.variants.map((v) => v.name).slice(1)).toEqual(['Britain', 'Latin']);
    expect(english!.idStr).toBe([english!.id, ...english!.variants.map((v) => v.id)].join('-'));
    expect(klingon!.variants).toEqual([
      { id: expect.any(Number), name: 'pIqaD', type: 1, code: 'pqd', predefined: false, sortIndex: 0 },
    ]);

    expect(dictionary.conceptFields.map((f) => [f.name, f.fieldType, f.level, f.dataCategory])).toEqual([
      ['Definition', 'MULTILINE', 'CONCEPT', 'DEFINITION'],
      ['Status', 'PICKLIST', 'CONCEPT', 'GENERIC'],
      ['Code', 'SINGLELINE', 'CONCEPT', 'GENERIC'],
    ]);
    expect(dictionary.conceptFields[0]).toMatchObject({
      specifiedName: 'Our definition',
      model: { required: true, minLen: 5, maxLen: 500, regExp: null, number: false, picklistItems: [] },
    });
    expect(
      dictionary.conceptFields[1]!.model.picklistItems.map((i) => [i.name, i.tbxName, i.sortIndex]),
    ).toEqual([
      ['new', null, 0],
      ['Approved', 'approved', 1],
    ]);
    expect(dictionary.conceptFields[2]!.model.regExp).toBe('^[A-Z]{3}$');
    expect(dictionary.termFields.map((f) => [f.name, f.fieldType, f.level])).toEqual([
      ['Gender', 'PICKLIST', 'TERM'],
      ['Amount', 'NUMBER', 'TERM'],
    ]);
    expect(dictionary.termFields[0]!.model.picklistItems.map((i) => [i.name, i.tbxName])).toEqual([
      [null, 'masculine'],
      [null, 'feminine'],
    ]);
    expect(dictionary.termFields[1]!.model.number).toBe(true);

    expect(
      dictionary.allSections.map((s) => [s.id, s.name, s.sortIndex, s.numberOfConcepts, s.deletable]),
    ).toEqual([
      [main.id, created.name, 0, 3, false],
      [alpha.id, 'Alpha', 1, 0, true],
      [beta.id, 'Beta', 2, 0, true],
    ]);
    expect(dictionary.allSections[1]!.viewId).toBe(view);
    expect(dictionary.allSections[2]!.permissionSchemeId).toBe(scheme.id);
    // The administrator reads every section.
    expect(dictionary.sections).toEqual(dictionary.allSections);

    expect(names(dictionary.domains)).toEqual([
      ['Arts', []],
      [
        'Science',
        [
          ['Chemistry', []],
          [
            'Physics',
            [
              ['Mechanics', [['Statics', []]]],
              ['Optics', []],
            ],
          ],
        ],
      ],
    ]);
    const statics = dictionary.domains[1]!.children![1]!.children![0]!.children![0]!;
    expect(statics).toEqual({
      id: d.statics.id,
      oid: d.statics.oid,
      name: 'Statics',
      parentDomainId: d.mechanics.id,
      sortIndex: 0,
      numberOfConcepts: 1,
      children: [],
    });
  });

  it('a dictionary without structure answers empty lists, not nulls', async () => {
    const { admin } = await tenant();
    const created = await createDictionary(admin);
    const dictionary = await readDictionary(admin.token!, created.id);
    expect(dictionary).toMatchObject({
      languages: [],
      conceptFields: [],
      termFields: [],
      domains: [],
      hasDomains: false,
      concepts: 0,
      domainPresentation: 'FLAT',
    });
    expect(dictionary.allSections.map((s) => [s.name, s.deletable])).toEqual([[created.name, false]]);
  });
});

describe('dictionaries: the listing of the caller tenant', () => {
  it("lists only the tenant's dictionaries, each with its own domain tree; another tenant's dictionary is NOT_FOUND", async () => {
    const a = await tenant();
    const b = await tenant();
    const first = await createDictionary(a.admin, { name: 'Alpha glossary', languages: [{ code: 'de' }] });
    const second = await createDictionary(a.admin, { name: 'Beta glossary', languages: [{ code: 'fr' }] });
    const foreign = await createDictionary(b.admin, { name: 'Alpha glossary' });
    await domainTree(a.admin, first.id);
    const root = await addDomain(a.admin, second.id, 'Law', 0);
    const civil = await addDomain(a.admin, second.id, 'Civil law', 0, root);
    await addDomain(a.admin, second.id, 'Contracts', 0, civil);
    await addDomain(b.admin, foreign.id, 'Foreign', 0);

    const page = await listDictionaries(a.admin.token!);
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, first: true, last: true });
    expect(page.content.map((entry) => [entry.id, entry.name, entry.clientId])).toEqual([
      [first.id, 'Alpha glossary', a.tenant.id],
      [second.id, 'Beta glossary', a.tenant.id],
    ]);
    // Batched trees still belong to their own dictionary.
    expect(names(page.content[0]!.domains)).toEqual([
      ['Arts', []],
      [
        'Science',
        [
          ['Chemistry', []],
          [
            'Physics',
            [
              ['Mechanics', [['Statics', []]]],
              ['Optics', []],
            ],
          ],
        ],
      ],
    ]);
    expect(names(page.content[1]!.domains)).toEqual([['Law', [['Civil law', [['Contracts', []]]]]]]);
    expect(page.content.map((entry) => entry.languages.map((l) => l.code))).toEqual([['deu'], ['fra']]);
    // The listing shows the same dictionary as dictionary(id).
    expect(page.content[1]).toEqual(await readDictionary(a.admin.token!, second.id));

    const paged = await listDictionaries(a.admin.token!, '(sort: "name", size: 1, page: 1)');
    expect(paged).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1, last: true });
    expect(paged.content.map((entry) => entry.id)).toEqual([second.id]);
    expect((await listDictionaries(a.admin.token!, '(name: "beta")')).content.map((e) => e.id)).toEqual([
      second.id,
    ]);

    const other = await listDictionaries(b.admin.token!);
    expect(other.totalElements).toBe(1);
    expect(other.content.map((entry) => [entry.id, entry.clientId])).toEqual([[foreign.id, b.tenant.id]]);
    expect(names(other.content[0]!.domains)).toEqual([['Foreign', []]]);

    // Another tenant's dictionary: the non-null field fails with NOT_FOUND, so data is null; an unknown
    // id answers the same, so existence is not revealed.
    const refused = await gql(base, b.admin.token!, DICTIONARY_QUERY, { id: first.id });
    expect(refused.data).toBeNull();
    expect(refused.errors).toEqual([
      {
        message: `Dictionary ${first.id} not found`,
        path: ['dictionary'],
        extensions: { code: 'NOT_FOUND' },
      },
    ]);
    const unknown = await gql(base, b.admin.token!, DICTIONARY_QUERY, { id: 2_000_000_000 });
    expect(unknown.data).toBeNull();
    expect(unknown.errors).toEqual([
      { message: 'Dictionary 2000000000 not found', path: ['dictionary'], extensions: { code: 'NOT_FOUND' } },
    ]);
    // Asked beside one's own dictionary, the foreign one still takes the whole answer down.
    const mixed = await gql(
      base,
      b.admin.token!,
      'query ($own: Int!, $other: Int!) { own: dictionary(id: $own) { id } other: dictionary(id: $other) { id } }',
      { own: foreign.id, other: first.id },
    );
    expect(mixed.data).toBeNull();
    expect(mixed.errors!.map((e) => [e.path, e.extensions.code])).toEqual([[['other'], 'NOT_FOUND']]);

    // A system administrator reads any client's dictionary by id, but lists the client it acts in.
    const asSysadmin = await readDictionary(sysadmin.token!, first.id);
    expect(asSysadmin.clientId).toBe(a.tenant.id);
    expect(names(asSysadmin.domains).map(([name]) => name)).toEqual(['Arts', 'Science']);
    // Ids only: 500 whole dictionaries with their domain trees are over the cost limit.
    const sysadminList = (
      await gqlOk<{ dictionaries: { content: { id: number }[] } }>(
        base,
        sysadmin.token!,
        '{ dictionaries(size: 500) { content { id } } }',
      )
    ).dictionaries;
    expect(sysadminList.content.map((entry) => entry.id)).not.toContain(first.id);
    expect(sysadminList.content.map((entry) => entry.id)).not.toContain(foreign.id);
  });

  it('a client without dictionaries gets an empty page', async () => {
    const { admin } = await tenant();
    const page = await listDictionaries(admin.token!);
    expect(page).toMatchObject({ totalElements: 0, content: [] });
  });
});

describe('who sees what', () => {
  it('sections lists the readable sections only and allSections all of them; an unreadable dictionary is neither listed nor readable', async () => {
    const { admin, tenant: client } = await tenant();
    const user = await loggedInUser(t, client);
    const readers = await groupWith(admin, [user.id]);
    const outsiders = await groupWith(admin, []);
    const readScheme = await createScheme(admin, [grant(readers.id, ['DICT_READ'])]);
    const closedScheme = await createScheme(admin, [grant(outsiders.id, ['DICT_READ'])]);

    const shared = await createDictionary(admin, { name: 'Shared' });
    const open = shared.allSections[0]!;
    const closed = await addSection(admin, shared.id, { name: 'Closed', sortIndex: 1 });
    await setSectionScheme(admin, open.id, readScheme.id);
    await setSectionScheme(admin, closed.id, closedScheme.id);
    await addDomain(admin, shared.id, 'Visible domain', 0);
    const hidden = await createDictionary(admin, { name: 'Hidden', permissionSchemeId: closedScheme.id });
    const token = user.rest.token!;

    const seen = await readDictionary(token, shared.id);
    expect(seen.sections.map((s) => [s.id, s.name])).toEqual([[open.id, 'Shared']]);
    expect(seen.allSections.map((s) => [s.id, s.name])).toEqual([
      [open.id, 'Shared'],
      [closed.id, 'Closed'],
    ]);
    expect(seen.sections[0]).toEqual(seen.allSections[0]);
    expect(names(seen.domains)).toEqual([['Visible domain', []]]);
    // The same as REST shows this user.
    expect(seen).toEqual(asGraphQL(await getDictionary(user.rest, shared.id), seen.domains));

    const listed = await listDictionaries(token);
    expect(listed.totalElements).toBe(1);
    expect(listed.content.map((entry) => entry.id)).toEqual([shared.id]);
    expect(listed.content[0]!.sections.map((s) => s.id)).toEqual([open.id]);

    const refused = await gql(base, token, DICTIONARY_QUERY, { id: hidden.id });
    expect(refused.data).toBeNull();
    expect(refused.errors!.map((e) => [e.path, e.extensions.code, e.message])).toEqual([
      [['dictionary'], 'NOT_FOUND', `Dictionary ${hidden.id} not found`],
    ]);

    // The administrator sees both dictionaries and every section.
    const asAdmin = await listDictionaries(admin.token!);
    expect(asAdmin.content.map((entry) => entry.name)).toEqual(['Hidden', 'Shared']);
    expect(asAdmin.content[1]!.sections.map((s) => s.id)).toEqual([open.id, closed.id]);

    // So does the dictionary's own administrator, whom the closed scheme grants nothing.
    const dictionaryAdmin = await loggedInUser(t, client, { roles: [`DICTIONARY_ADMIN@${hidden.oid}`] });
    expect((await readDictionary(dictionaryAdmin.rest.token!, hidden.id)).sections.map((s) => s.id)).toEqual([
      hidden.allSections[0]!.id,
    ]);

    // Taking the read grant away hides the dictionary from the user.
    await setSectionScheme(admin, open.id, closedScheme.id);
    expect((await gql(base, token, DICTIONARY_QUERY, { id: shared.id })).errors![0]!.extensions.code).toBe(
      'NOT_FOUND',
    );
    expect(await listDictionaries(token)).toMatchObject({ totalElements: 0, content: [] });
  });

  it('without a token, or with an unknown one, both queries answer UNAUTHORIZED and no data', async () => {
    const { admin } = await tenant();
    const dictionary = await createDictionary(admin);
    for (const token of [null, '', 'not-a-token']) {
      const single = await gql(base, token, DICTIONARY_QUERY, { id: dictionary.id });
      expect(single.data).toBeNull();
      expect(single.errors!.map((e) => [e.path, e.extensions.code])).toEqual([
        [['dictionary'], 'UNAUTHORIZED'],
      ]);
      const listing = await gql(base, token, '{ dictionaries { totalElements content { id name } } }');
      expect(listing.data).toBeNull();
      expect(listing.errors!.map((e) => [e.path, e.extensions.code])).toEqual([
        [['dictionaries'], 'UNAUTHORIZED'],
      ]);
    }
  });
});

describe('soft deletion', () => {
  it('deleted domains and sections leave the tree and the section lists; a domain with live subdomains stays', async () => {
    const { admin } = await tenant();
    const created = await createDictionary(admin);
    const main = created.allSections[0]!;
    const extra = await addSection(admin, created.id, { name: 'Extra', sortIndex: 1 });
    const d = await domainTree(admin, created.id);

    // A parent with live subdomains cannot be deleted: the tree keeps it.
    expectError(await admin.delete(`/domains/${d.mechanics.id}`), 400);
    expect((await admin.delete(`/domains/${d.statics.id}`)).status).toBe(204);
    expect((await admin.delete(`/domains/${d.arts.id}`)).status).toBe(204);

    let dictionary = await readDictionary(admin.token!, created.id);
    expect(names(dictionary.domains)).toEqual([
      [
        'Science',
        [
          ['Chemistry', []],
          [
            'Physics',
            [
              ['Mechanics', []],
              ['Optics', []],
            ],
          ],
        ],
      ],
    ]);
    const all = JSON.stringify(dictionary.domains);
    expect(all).not.toContain(`"id":${d.statics.id},`);
    expect(all).not.toContain(`"id":${d.arts.id},`);

    // Now a leaf, Mechanics goes too; deleting the whole branch leaves the Chemistry side.
    expect((await admin.delete(`/domains/${d.mechanics.id}`)).status).toBe(204);
    expect((await admin.delete(`/domains/${d.optics.id}`)).status).toBe(204);
    expect((await admin.delete(`/domains/${d.physics.id}`)).status).toBe(204);
    dictionary = await readDictionary(admin.token!, created.id);
    expect(names(dictionary.domains)).toEqual([['Science', [['Chemistry', []]]]]);
    expect(dictionary.hasDomains).toBe(true);

    expect((await admin.delete(`/sections/${extra.id}`)).status).toBe(204);
    dictionary = await readDictionary(admin.token!, created.id);
    expect(dictionary.allSections.map((s) => s.id)).toEqual([main.id]);
    expect(dictionary.sections.map((s) => s.id)).toEqual([main.id]);
    // The last section is no longer deletable.
    expect(dictionary.allSections[0]!.deletable).toBe(false);
    expect(dictionary.allSections[0]).toEqual(
      section((await getDictionary(admin, created.id)).allSections[0]!),
    );

    // The listing hides them as well.
    const listed = await listDictionaries(admin.token!);
    expect(names(listed.content[0]!.domains)).toEqual([['Science', [['Chemistry', []]]]]);
    expect(listed.content[0]!.allSections.map((s) => s.id)).toEqual([main.id]);

    // With the last domains gone the tree is empty and hasDomains false.
    expect((await admin.delete(`/domains/${d.chemistry.id}`)).status).toBe(204);
    expect((await admin.delete(`/domains/${d.science.id}`)).status).toBe(204);
    dictionary = await readDictionary(admin.token!, created.id);
    expect(dictionary.domains).toEqual([]);
    expect(dictionary.hasDomains).toBe(false);
  });

  it('a deleted dictionary is NOT_FOUND and no longer listed', async () => {
    const { admin } = await tenant();
    const kept = await createDictionary(admin, { name: 'Kept' });
    const gone = await createDictionary(admin, { name: 'Gone' });
    await addDomain(admin, gone.id, 'Orphan', 0);
    expect((await admin.delete(`/dictionaries/${gone.id}`)).status).toBe(204);

    const refused = await gql(base, admin.token!, DICTIONARY_QUERY, { id: gone.id });
    expect(refused.data).toBeNull();
    expect(refused.errors!.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
    const listed = await listDictionaries(admin.token!);
    expect(listed.content.map((entry) => entry.id)).toEqual([kept.id]);
  });
});

describe('N+1 guard', () => {
  /** A dictionary with languages (variants), fields (picklists), three sections and a four-level tree. */
  async function fullDictionary(admin: RestClient, name: string): Promise<DictionaryBody> {
    const dictionary = await createDictionary(admin, {
      name,
      languages: [{ code: 'en', variants: [{ type: 0, code: 'US' }] }, { code: 'ar' }],
      conceptFields: [{ name: 'Status', fieldType: 'PICKLIST', model: { picklistItems: [{ name: 'new' }] } }],
      termFields: [{ name: 'Gender', fieldType: 'PICKLIST', model: { picklistItems: [{ name: 'm' }] } }],
    });
    await addSection(admin, dictionary.id, { name: 'Second', sortIndex: 1 });
    await addSection(admin, dictionary.id, { name: 'Third', sortIndex: 2 });
    await domainTree(admin, dictionary.id);
    return dictionary;
  }

  /** Statements of one GraphQL request, after a first run that warms up the session. */
  async function statementsOf(token: string, query: string, variables: Record<string, unknown> = {}) {
    const counter = sqlCounter(t);
    try {
      await gqlOk(base, token, query, variables);
      const first = await counter.during(() => gqlOk(base, token, query, variables));
      const second = await counter.during(() => gqlOk(base, token, query, variables));
      // Unrelated statements of the server (none expected) would show as a difference here.
      expect(second.length, second.join('\n')).toBe(first.length);
      return first;
    } finally {
      counter.restore();
    }
  }

  const listing = `{ dictionaries(size: 50) { totalElements content { ${DICTIONARY_SELECTION} } } }`;

  it('the listing with every structure member costs as many SQL statements for one dictionary as for four', async () => {
    const one = await tenant();
    await fullDictionary(one.admin, 'Only');
    const four = await tenant();
    for (const name of ['A', 'B', 'C', 'D']) await fullDictionary(four.admin, name);

    const single = await statementsOf(one.admin.token!, listing);
    const many = await statementsOf(four.admin.token!, listing);
    expect(single.length).toBeGreaterThan(0);
    expect(many.length, `${single.join('\n')}\n----\n${many.join('\n')}`).toBe(single.length);
    // The domain trees of all dictionaries come in one statement.
    expect(many.filter((sql) => /from "domains"/.test(sql))).toHaveLength(1);

    // The same for a user who is no administrator (permission checks per request, not per dictionary).
    const readerOne = await loggedInUser(t, one.tenant);
    const readerFour = await loggedInUser(t, four.tenant);
    const readSingle = await statementsOf(readerOne.rest.token!, listing);
    const readMany = await statementsOf(readerFour.rest.token!, listing);
    expect((await listDictionaries(readerFour.rest.token!)).totalElements).toBe(4);
    expect(readMany.length, `${readSingle.join('\n')}\n----\n${readMany.join('\n')}`).toBe(readSingle.length);
  });

  it('dictionary(id): a deeper domain tree costs no more statements', async () => {
    const { admin } = await tenant();
    const flat = await createDictionary(admin, { name: 'Flat' });
    await addDomain(admin, flat.id, 'Alone', 0);
    const deep = await createDictionary(admin, { name: 'Deep' });
    let parent: DomainBody | undefined;
    for (const level of ['L1', 'L2', 'L3', 'L4', 'L5']) {
      await addDomain(admin, deep.id, `${level} leaf`, 1, parent);
      parent = await addDomain(admin, deep.id, level, 0, parent);
    }
    const token = admin.token!;
    const flatStatements = await statementsOf(token, DICTIONARY_QUERY, { id: flat.id });
    const deepStatements = await statementsOf(token, DICTIONARY_QUERY, { id: deep.id });
    expect(deepStatements.length).toBe(flatStatements.length);
    expect(names((await readDictionary(token, deep.id)).domains)).toEqual([
      [
        'L1',
        [
          [
            'L2',
            [
              [
                'L3',
                [
                  [
                    'L4',
                    [
                      ['L5', []],
                      ['L5 leaf', []],
                    ],
                  ],
                  ['L4 leaf', []],
                ],
              ],
              ['L3 leaf', []],
            ],
          ],
          ['L2 leaf', []],
        ],
      ],
      ['L1 leaf', []],
    ]);
  });
});
