// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createDomain,
  createSection,
  createView,
  type DictionaryBody,
  type DomainBody,
  type ErrorBody,
  expectError,
  type FieldBody,
  getDictionary,
  groupWith,
  type InvocationResultBody,
  insertConcepts,
  insertTerm,
  type LanguageBody,
  linkConceptsToDomain,
  loggedInUser,
  newTenant,
  type PageBody,
  patchAtCurrentVersion,
  query,
  rows,
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

/**
 * A tenant with a fully furnished dictionary: languages with variants, concept and term fields (one a
 * picklist), two sections (the second shown through a view), a domain with a child domain.
 */
async function furnished() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const name = `Source ${uniqueSuffix()}`;
  const dictionary = await createDictionary(admin, {
    name,
    description: 'The original',
    sortIndex: 3,
    domainPresentation: 'HIERARCHICAL',
    languages: [
      {
        code: 'eng',
        variants: [
          { type: 0, code: 'US' },
          { type: 0, code: 'GB' },
          { type: 1, code: 'Latn' },
        ],
      },
      { code: 'fra', sortIndex: 2 },
      { code: 'ara', rtl: true, sortIndex: 3 },
    ],
    conceptFields: [
      { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE', model: { maxLen: 500 } },
      {
        name: 'Status',
        fieldType: 'PICKLIST',
        model: { picklistItems: [{ name: 'New' }, { name: 'Approved', sortIndex: 1 }] },
      },
    ],
    termFields: [{ name: 'Note', fieldType: 'SINGLELINE', model: { required: false, regExp: '^[a-z ]*$' } }],
  });
  const second = await createSection(admin, dictionary.id, 'Second part');
  const parent = await createDomain(admin, dictionary.id, 'Science');
  const child = await createDomain(admin, dictionary.id, 'Chemistry', parent.id);
  const definition = dictionary.conceptFields.find((f) => f.name === 'Definition')!;
  const status = dictionary.conceptFields.find((f) => f.name === 'Status')!;
  const note = dictionary.termFields[0]!;
  const view = await createView(admin, dictionary.id, [definition.oid!, note.oid!, 'DOM'], 'Editors');
  const assigned = await patchAtCurrentVersion<SectionBody>(admin, 'sections', second.id, {
    viewId: view.id,
  });
  expect(assigned.status, assigned.text).toBe(200);
  return {
    admin,
    tenant,
    dictionary: await getDictionary(admin, dictionary.id),
    first: dictionary.allSections[0]!,
    second,
    parent,
    child,
    definition,
    status,
    note,
    view,
  };
}

const copy = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.post<InvocationResultBody & ErrorBody>(`/dictionaries/copy/${id}${query(params)}`);

async function copied(caller: RestClient, id: number, params: Record<string, string | boolean> = {}) {
  const response = await copy(caller, id, params);
  expect(response.status, response.text).toBe(200);
  expect(response.body.jobTaskId).toBeUndefined();
  expect(response.body.result).toEqual(expect.any(Number));
  return getDictionary(caller, response.body.result as number);
}

const domainsOf = async (caller: RestClient, dictionaryId: number) => {
  const response = await caller.get<PageBody<DomainBody>>(`/domains?dictionary-id=${dictionaryId}&size=500`);
  expect(response.status, response.text).toBe(200);
  return response.body.content;
};

const viewsOf = async (caller: RestClient, dictionaryId: number) => {
  const response = await caller.get<PageBody<ViewBody>>(`/views?dictionary_id=${dictionaryId}&size=500`);
  expect(response.status, response.text).toBe(200);
  return response.body.content;
};

/** What a language is, apart from its ids. */
const languageShape = (language: LanguageBody) => ({
  name: language.name,
  code: language.code,
  code2: language.code2,
  code3: language.code3,
  isIso: language.isIso,
  custom: language.custom,
  rtl: language.rtl,
  sortIndex: language.sortIndex,
  variants: language.variants.map((v) => ({
    name: v.name,
    type: v.type,
    code: v.code,
    predefined: v.predefined,
    sortIndex: v.sortIndex,
  })),
});

/** What a field is, apart from ids and oids. */
const fieldShape = (field: FieldBody) => ({
  name: field.name,
  specifiedName: field.specifiedName,
  dataCategory: field.dataCategory,
  fieldType: field.fieldType,
  level: field.level,
  sortIndex: field.sortIndex,
  model: {
    required: field.model.required,
    minLen: field.model.minLen,
    maxLen: field.model.maxLen,
    regExp: field.model.regExp,
    number: field.model.number,
    unicode: field.model.unicode,
    picklistItems: field.model.picklistItems.map((i) => ({
      name: i.name,
      tbxName: i.tbxName,
      sortIndex: i.sortIndex,
    })),
  },
});

describe('copy', () => {
  it('copies the structure: languages, variants, fields with new oids, picklists, sections, domains, views', async () => {
    const { admin, dictionary, definition, status, note, second, parent, child, view } = await furnished();
    // The TBX element a custom category came in with (TBX import), kept so exports write it back.
    const sql = t.orm.em.getConnection();
    await sql.execute(`update fields set tbx_element = 'admin' where oid = ?`, [note.oid]);
    const target = await copied(admin, dictionary.id);

    expect(target.id).not.toBe(dictionary.id);
    expect(target).toMatchObject({
      name: `Copy of ${dictionary.name}`,
      description: 'The original',
      sortIndex: 3,
      domainPresentation: 'HIERARCHICAL',
      clientId: dictionary.clientId,
      concepts: 0,
      hasDomains: true,
    });
    expect(target.oid).toBeTruthy();
    expect(target.oid).not.toBe(dictionary.oid);

    // Languages and variants: equal, but rows of their own.
    expect(target.languages.map(languageShape)).toEqual(dictionary.languages.map(languageShape));
    const sourceLanguageIds = new Set(dictionary.languages.map((l) => l.id));
    for (const language of target.languages) {
      expect(sourceLanguageIds.has(language.id)).toBe(false);
      expect(language.dictionaryId).toBe(target.id);
    }

    // Fields: equal, with new oids; picklist items with new oids pointing at the new field.
    expect(target.conceptFields.map(fieldShape)).toEqual(dictionary.conceptFields.map(fieldShape));
    expect(target.termFields.map(fieldShape)).toEqual(dictionary.termFields.map(fieldShape));
    const sourceOids = new Set([...dictionary.conceptFields, ...dictionary.termFields].map((f) => f.oid));
    for (const field of [...target.conceptFields, ...target.termFields]) {
      expect(field.oid).toBeTruthy();
      expect(sourceOids.has(field.oid)).toBe(false);
      expect(field.dictionaryId).toBe(target.id);
      for (const item of field.model.picklistItems) {
        expect(item.fieldOid).toBe(field.oid);
        expect(status.model.picklistItems.map((i) => i.oid)).not.toContain(item.oid);
      }
    }
    const copiedNote = target.termFields.find((f) => f.name === note.name)!;
    const [elementRow] = await sql.execute(`select tbx_element from fields where oid = ?`, [copiedNote.oid]);
    expect(elementRow).toEqual({ tbx_element: 'admin' });
    const newStatus = target.conceptFields.find((f) => f.name === 'Status')!;
    expect(newStatus.model.picklistItems.map((i) => i.name)).toEqual(['New', 'Approved']);

    // Sections: same names, new rows; the second shows the copied view.
    const sectionShape = (s: SectionBody) => [s.name, s.sortIndex, s.permissionSchemeId];
    expect(target.allSections.map(sectionShape).sort()).toEqual(
      dictionary.allSections.map(sectionShape).sort(),
    );
    for (const section of target.allSections) {
      expect(dictionary.allSections.map((s) => s.id)).not.toContain(section.id);
      expect(section.dictionaryId).toBe(target.id);
    }
    const copiedViews = await viewsOf(admin, target.id);
    expect(copiedViews).toHaveLength(1);
    const copiedView = copiedViews[0]!;
    expect(copiedView.id).not.toBe(view.id);
    expect(copiedView.name).toBe('Editors');
    const newDefinition = target.conceptFields.find((f) => f.name === 'Definition')!;
    const newNote = target.termFields.find((f) => f.name === 'Note')!;
    expect([...copiedView.fields].sort()).toEqual(
      ['DOM', 'LANG', 'TERM', newDefinition.oid, newNote.oid].sort(),
    );
    expect(copiedView.fields).not.toContain(definition.oid);
    expect(copiedView.fields).not.toContain(note.oid);
    const newSecond = target.allSections.find((s) => s.name === second.name)!;
    expect(newSecond.viewId).toBe(copiedView.id);
    expect(target.allSections.find((s) => s.name !== second.name)!.viewId).toBeNull();

    // Domains: same tree, new rows.
    const domains = await domainsOf(admin, target.id);
    expect(domains).toHaveLength(2);
    const newParent = domains.find((d) => d.name === 'Science')!;
    const newChild = domains.find((d) => d.name === 'Chemistry')!;
    expect([newParent.id, newChild.id]).not.toContain(parent.id);
    expect([newParent.id, newChild.id]).not.toContain(child.id);
    expect(newParent.parentDomainId).toBeNull();
    expect(newChild.parentDomainId).toBe(newParent.id);
    expect(newParent.children).toEqual([newChild.id]);

    // The source is unchanged.
    const after = await getDictionary(admin, dictionary.id);
    expect(after).toEqual(dictionary);
    expect((await viewsOf(admin, dictionary.id)).map((v) => v.id)).toEqual([view.id]);
  });

  it('the generated name is "Copy of X", then "Copy of X (2)"; an explicit name is used as given', async () => {
    const { admin, dictionary } = await furnished();
    const one = await copied(admin, dictionary.id);
    expect(one.name).toBe(`Copy of ${dictionary.name}`);
    const two = await copied(admin, dictionary.id);
    expect(two.name).toBe(`Copy of ${dictionary.name} (2)`);
    const three = await copied(admin, dictionary.id);
    expect(three.name).toBe(`Copy of ${dictionary.name} (3)`);
    const named = await copied(admin, dictionary.id, { name: 'My own copy' });
    expect(named.name).toBe('My own copy');
    // A blank name is the same as none.
    const blank = await copied(admin, dictionary.id, { name: '  ' });
    expect(blank.name).toBe(`Copy of ${dictionary.name} (4)`);
  });

  it('an explicit name that a dictionary of the client already has is 422, ignoring case; nothing is created', async () => {
    const { admin, dictionary } = await furnished();
    const other = await createDictionary(admin, { name: `Taken ${uniqueSuffix()}` });
    const before = (await admin.get<PageBody<DictionaryBody>>('/dictionaries?size=500')).body.totalElements;

    expectError(await copy(admin, dictionary.id, { name: dictionary.name }), 422);
    expectError(await copy(admin, dictionary.id, { name: other.name.toUpperCase() }), 422);
    expect((await admin.get<PageBody<DictionaryBody>>('/dictionaries?size=500')).body.totalElements).toBe(
      before,
    );

    // Another client's names do not count.
    const elsewhere = await furnished();
    const sameName = await copied(elsewhere.admin, elsewhere.dictionary.id, { name: dictionary.name });
    expect(sameName.name).toBe(dictionary.name);
  });

  it('copy-data=true copies the live concepts, their domains and their live terms, field values re-keyed', async () => {
    const { admin, tenant, dictionary, first, second, child, parent, definition, status, note } =
      await furnished();
    const base = { clientId: tenant.id, dictionaryId: dictionary.id };
    const [c1, c2] = await insertConcepts(t, { ...base, sectionId: first.id }, [
      { fieldMap: { [definition.oid!]: ['A liquid'], [status.oid!]: ['Approved'] } },
      { fieldMap: {} },
    ]);
    const [c3] = await insertConcepts(t, { ...base, sectionId: second.id }, [
      { fieldMap: { [definition.oid!]: ['In part two'] } },
    ]);
    const [gone] = await insertConcepts(t, { ...base, sectionId: first.id }, [
      { fieldMap: { [definition.oid!]: ['Deleted concept'] }, deleted: true },
    ]);
    await linkConceptsToDomain(t, [c1!], child.id);
    await linkConceptsToDomain(t, [c1!, c3!], parent.id);
    await insertTerm(
      t,
      { ...base, conceptId: c1! },
      {
        name: 'water',
        languageCode: 'eng',
        regionCode: 'US',
        fieldMap: { [note.oid!]: ['plain note'] },
      },
    );
    await insertTerm(t, { ...base, conceptId: c1! }, { name: 'eau', languageCode: 'fra' });
    await insertTerm(
      t,
      { ...base, conceptId: c1! },
      { name: 'deleted term', languageCode: 'eng', deleted: true },
    );
    await insertTerm(
      t,
      { ...base, conceptId: c2! },
      { name: 'steam', languageCode: 'eng', scriptCode: 'latn' },
    );
    await insertTerm(t, { ...base, conceptId: gone! }, { name: 'of a deleted concept', languageCode: 'eng' });

    const target = await copied(admin, dictionary.id, { 'copy-data': 'true' });
    expect(target.concepts).toBe(3);
    const newDefinition = target.conceptFields.find((f) => f.name === 'Definition')!.oid!;
    const newStatus = target.conceptFields.find((f) => f.name === 'Status')!.oid!;
    const newNote = target.termFields[0]!.oid!;
    const sectionByName = new Map(target.allSections.map((s) => [s.id, s.name]));
    const domains = await domainsOf(admin, target.id);
    const domainName = new Map(domains.map((d) => [d.id, d.name]));

    const concepts = await rows<{
      id: number;
      section_id: number;
      cid: string;
      field_map: Record<string, string[]>;
      client_id: number;
      deleted: boolean;
    }>(t, 'select * from concepts where dictionary_id = ? order by id', [target.id]);
    expect(concepts).toHaveLength(3);
    const sourceConcepts = await rows<{ id: number; cid: string }>(
      t,
      'select id, cid from concepts where id in (?, ?, ?) order by id',
      [c1, c2, c3],
    );
    expect(concepts.map((c) => c.cid)).toEqual(sourceConcepts.map((c) => c.cid));
    for (const concept of concepts) {
      expect(concept.client_id).toBe(tenant.id);
      expect(concept.deleted).toBe(false);
      expect([c1, c2, c3, gone]).not.toContain(concept.id);
    }
    const [n1, n2, n3] = concepts;
    expect(n1!.field_map).toEqual({ [newDefinition]: ['A liquid'], [newStatus]: ['Approved'] });
    expect(n2!.field_map).toEqual({});
    expect(n3!.field_map).toEqual({ [newDefinition]: ['In part two'] });
    expect(sectionByName.get(n1!.section_id)).toBe(first.name);
    expect(sectionByName.get(n3!.section_id)).toBe('Second part');

    const links = await rows<{ concept_id: number; domain_id: number }>(
      t,
      'select concept_id, domain_id from concept_domains where concept_id in (?, ?, ?) order by concept_id, domain_id',
      [n1!.id, n2!.id, n3!.id],
    );
    expect(links.map((l) => [l.concept_id, domainName.get(l.domain_id)]).sort()).toEqual(
      [
        [n1!.id, 'Chemistry'],
        [n1!.id, 'Science'],
        [n3!.id, 'Science'],
      ].sort(),
    );
    expect(domains.find((d) => d.name === 'Science')!.numberOfConcepts).toBe(2);

    const terms = await rows<{
      concept_id: number;
      name: string;
      language_code: string;
      region_code: string | null;
      script_code: string | null;
      field_map: Record<string, string[]>;
      deleted: boolean;
    }>(t, 'select * from terms where dictionary_id = ? order by name', [target.id]);
    expect(
      terms.map((term) => [
        term.name,
        term.concept_id,
        term.language_code,
        term.region_code,
        term.script_code,
      ]),
    ).toEqual([
      ['eau', n1!.id, 'fra', null, null],
      ['steam', n2!.id, 'eng', null, 'latn'],
      ['water', n1!.id, 'eng', 'US', null],
    ]);
    expect(terms.find((term) => term.name === 'water')!.field_map).toEqual({ [newNote]: ['plain note'] });
    expect(terms.every((term) => !term.deleted)).toBe(true);

    // The source keeps everything, deleted rows included.
    expect(await rows(t, 'select id from concepts where dictionary_id = ?', [dictionary.id])).toHaveLength(4);
    expect(await rows(t, 'select id from terms where dictionary_id = ?', [dictionary.id])).toHaveLength(5);
    expect((await getDictionary(admin, dictionary.id)).concepts).toBe(3);
  });

  it('copies the stemming settings per language; the copied terms get their stem keys under them', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
    const settings = [
      { langCode: 'deu', algorithm: 'none', protectedWords: [], overrides: {} },
      { langCode: 'eng', algorithm: null, protectedWords: ['pumps'], overrides: { mice: 'mouse' } },
    ];
    for (const setting of settings) {
      const saved = await admin.put(`/dictionaries/${dictionary.id}/stemming`, setting);
      expect(saved.status, saved.text).toBe(200);
    }
    const base = { clientId: tenant.id, dictionaryId: dictionary.id };
    const [concept] = await insertConcepts(t, { ...base, sectionId: dictionary.sections[0]!.id }, [{}]);
    for (const [name, languageCode] of [
      ['fuel pumps', 'eng'],
      ['mice', 'eng'],
      ['Häuser', 'deu'],
    ] as const) {
      await insertTerm(t, { ...base, conceptId: concept! }, { name, languageCode });
    }
    const keysOf = async (dictionaryId: number) =>
      Object.fromEntries(
        (
          await rows<{ name: string; stem_key: string }>(
            t,
            'select name, stem_key from terms where dictionary_id = ?',
            [dictionaryId],
          )
        ).map((row) => [row.name, row.stem_key]),
      );
    // Under the defaults these would be `fuel pump`, `mice` and `haus`.
    const expected = { 'fuel pumps': 'fuel pumps', mice: 'mous', Häuser: 'hauser' };
    expect(await keysOf(dictionary.id)).toEqual(expected);

    const target = await copied(admin, dictionary.id, { 'copy-data': 'true' });
    const stemming = await admin.get<Record<string, unknown>[]>(`/dictionaries/${target.id}/stemming`);
    expect(stemming.status, stemming.text).toBe(200);
    expect(stemming.body).toEqual(settings.map((setting) => expect.objectContaining(setting)));
    expect(await keysOf(target.id)).toEqual(expected);
    // The structure alone carries them too.
    const bare = await copied(admin, dictionary.id);
    const bareStemming = await admin.get<Record<string, unknown>[]>(`/dictionaries/${bare.id}/stemming`);
    expect(bareStemming.body).toEqual(settings.map((setting) => expect.objectContaining(setting)));
  });

  it('without copy-data (or copy-data=false) no concept or term is copied', async () => {
    const { admin, tenant, dictionary, first } = await furnished();
    const [concept] = await insertConcepts(
      t,
      { clientId: tenant.id, dictionaryId: dictionary.id, sectionId: first.id },
      [{}],
    );
    await insertTerm(
      t,
      { clientId: tenant.id, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng' },
    );
    for (const params of [{}, { 'copy-data': 'false' }] as Record<string, string>[]) {
      const target = await copied(admin, dictionary.id, params);
      expect(target.concepts).toBe(0);
      expect(await rows(t, 'select id from terms where dictionary_id = ?', [target.id])).toHaveLength(0);
    }
  });

  it('only administrators copy: 403 for readers and dictionary administrators, 404 for another client', async () => {
    const { admin, tenant, dictionary } = await furnished();
    const before = (await admin.get<PageBody<DictionaryBody>>('/dictionaries?size=500')).body.totalElements;
    const { rest: user } = await loggedInUser(t, tenant);
    expectError(await copy(user, dictionary.id), 403);
    const { rest: dictAdmin } = await loggedInUser(t, tenant, {
      roles: [`DICTIONARY_ADMIN@${dictionary.oid}`],
    });
    expectError(await copy(dictAdmin, dictionary.id, { 'copy-data': 'true' }), 403);
    const other = await newTenant(t, sysadmin);
    expectError(await copy(other.admin, dictionary.id), 404);
    expectError(await copy(admin, 999999999), 404);
    expect((await admin.get<PageBody<DictionaryBody>>('/dictionaries?size=500')).body.totalElements).toBe(
      before,
    );
  });
});

describe('empty', () => {
  it('removes every concept and term (and domain links); the structure stays; result true', async () => {
    const { admin, tenant, dictionary, first, second, child } = await furnished();
    const base = { clientId: tenant.id, dictionaryId: dictionary.id };
    const ids = [
      ...(await insertConcepts(t, { ...base, sectionId: first.id }, [{}, {}, { deleted: true }])),
      ...(await insertConcepts(t, { ...base, sectionId: second.id }, [{}])),
    ];
    await linkConceptsToDomain(t, ids.slice(0, 2), child.id);
    for (const conceptId of ids) await insertTerm(t, { ...base, conceptId }, { languageCode: 'eng' });
    // Another dictionary of the client keeps its content.
    const other = await createDictionary(admin);
    const [kept] = await insertConcepts(
      t,
      { ...base, dictionaryId: other.id, sectionId: other.allSections[0]!.id },
      [{}],
    );
    await insertTerm(t, { ...base, dictionaryId: other.id, conceptId: kept! }, { languageCode: 'eng' });

    const before = await getDictionary(admin, dictionary.id);
    expect(before.concepts).toBe(3);
    const domainsBefore = await domainsOf(admin, dictionary.id);

    const response = await admin.post<InvocationResultBody>(`/dictionaries/empty/${dictionary.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: true });

    expect(await rows(t, 'select id from concepts where dictionary_id = ?', [dictionary.id])).toEqual([]);
    expect(await rows(t, 'select id from terms where dictionary_id = ?', [dictionary.id])).toEqual([]);
    expect(await rows(t, 'select * from concept_domains where domain_id = ?', [child.id])).toEqual([]);
    const after = await getDictionary(admin, dictionary.id);
    expect(after.concepts).toBe(0);
    const unchanged = (d: DictionaryBody) => ({
      name: d.name,
      languages: d.languages,
      conceptFields: d.conceptFields,
      termFields: d.termFields,
      allSections: d.allSections.map(({ numberOfConcepts: _n, deletable: _d, ...rest }) => rest),
    });
    expect(unchanged(after)).toEqual(unchanged(before));
    expect((await domainsOf(admin, dictionary.id)).map((d) => ({ ...d, numberOfConcepts: 0 }))).toEqual(
      domainsBefore.map((d) => ({ ...d, numberOfConcepts: 0 })),
    );

    expect(await rows(t, 'select id from concepts where dictionary_id = ?', [other.id])).toHaveLength(1);
    expect(await rows(t, 'select id from terms where dictionary_id = ?', [other.id])).toHaveLength(1);
  });

  it('needs DICT_DELETE: 403 for a reader, allowed by a grant; 404 for another client', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const reader = await loggedInUser(t, tenant);
    const deleter = await loggedInUser(t, tenant);
    const readers = await groupWith(admin, [reader.id, deleter.id]);
    const deleters = await groupWith(admin, [deleter.id]);
    const grant = (groupId: number, dictionaryPermissions: string[]) => ({
      groupId,
      dictionaryPermissions,
      conceptPermissions: [],
      termPermissions: [],
      languages: [],
    });
    const scheme = await admin.post<{ id: number }>('/permissionschemes', {
      name: `Scheme ${uniqueSuffix()}`,
      grants: [
        grant(readers.id, ['DICT_READ', 'DICT_UPDATE']),
        grant(deleters.id, ['DICT_READ', 'DICT_DELETE']),
      ],
    });
    expect(scheme.status, scheme.text).toBe(201);
    const dictionary = await createDictionary(admin, { permissionSchemeId: scheme.body.id });
    await insertConcepts(
      t,
      { clientId: tenant.id, dictionaryId: dictionary.id, sectionId: dictionary.allSections[0]!.id },
      [{}, {}],
    );

    // DICT_UPDATE (structure) is not enough.
    expectError(await reader.rest.post(`/dictionaries/empty/${dictionary.id}`), 403);
    const other = await newTenant(t, sysadmin);
    expectError(await other.admin.post(`/dictionaries/empty/${dictionary.id}`), 404);
    expectError(await admin.post('/dictionaries/empty/999999999'), 404);
    expect((await getDictionary(admin, dictionary.id)).concepts).toBe(2);

    const done = await deleter.rest.post<InvocationResultBody>(`/dictionaries/empty/${dictionary.id}`);
    expect(done.status, done.text).toBe(200);
    expect(done.body.result).toBe(true);
    expect((await getDictionary(admin, dictionary.id)).concepts).toBe(0);
  });
});

describe('language replace', () => {
  async function replaceWorld() {
    const w = await furnished();
    const base = { clientId: w.tenant.id, dictionaryId: w.dictionary.id };
    const [c1, c2] = await insertConcepts(t, { ...base, sectionId: w.first.id }, [{}, {}]);
    const term = (
      conceptId: number,
      name: string,
      languageCode: string,
      extra: Record<string, unknown> = {},
    ) => insertTerm(t, { ...base, conceptId }, { name, languageCode, ...extra });
    const ids = {
      us1: await term(c1!, 'color', 'eng', { regionCode: 'US' }),
      us2: await term(c2!, 'center', 'eng', { regionCode: 'US' }),
      usLatn: await term(c2!, 'centre-latn', 'eng', { regionCode: 'US', scriptCode: 'latn' }),
      plain: await term(c1!, 'colour', 'eng'),
      gb: await term(c2!, 'centre', 'eng', { regionCode: 'GB' }),
      deleted: await term(c1!, 'old color', 'eng', { regionCode: 'US', deleted: true }),
      fra: await term(c1!, 'couleur', 'fra'),
    };
    // The same variant in another dictionary of the client.
    const other = await createDictionary(w.admin, {
      languages: [{ code: 'eng', variants: [{ type: 0, code: 'US' }] }],
    });
    const [oc] = await insertConcepts(
      t,
      { ...base, dictionaryId: other.id, sectionId: other.allSections[0]!.id },
      [{}],
    );
    const elsewhere = await insertTerm(
      t,
      { ...base, dictionaryId: other.id, conceptId: oc! },
      { languageCode: 'eng', regionCode: 'US' },
    );
    return { ...w, ids, other, elsewhere };
  }

  const replace = (caller: RestClient, dictionaryId: number, from: string, to: string) =>
    caller.post<InvocationResultBody & ErrorBody>(
      `/dictionaries/language-replace${query({ 'dictionary-id': dictionaryId, 'from-id': from, 'to-id': to })}`,
    );

  const termRows = (ids: number[]) =>
    rows<{ id: number; language_code: string; region_code: string | null; script_code: string | null }>(
      t,
      `select id, language_code, region_code, script_code from terms where id in (${ids.map(() => '?').join(', ')}) order by id`,
      ids,
    );

  it('eng;US -> fra moves exactly the live terms of that variant; the result is their count', async () => {
    const { admin, dictionary, ids, elsewhere } = await replaceWorld();
    const before = await termRows([...Object.values(ids), elsewhere]);

    const response = await replace(admin, dictionary.id, 'eng;US', 'fra');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: 2 });

    const after = await termRows([...Object.values(ids), elsewhere]);
    const moved = new Set([ids.us1, ids.us2]);
    for (const row of after) {
      const was = before.find((b) => b.id === row.id)!;
      if (moved.has(row.id)) {
        expect(row).toEqual({ id: row.id, language_code: 'fra', region_code: null, script_code: null });
      } else {
        expect(row).toEqual(was);
      }
    }
    // Nothing of eng;US is left to move.
    expect((await replace(admin, dictionary.id, 'eng;US', 'fra')).body).toEqual({ result: 0 });
  });

  it('moves to a variant and from a script; selectors are matched ignoring case, terms get the stored codes', async () => {
    const { admin, dictionary, ids } = await replaceWorld();
    const toVariant = await replace(admin, dictionary.id, 'ENG', 'eng;gb');
    expect(toVariant.status, toVariant.text).toBe(200);
    expect(toVariant.body.result).toBe(1);
    expect((await termRows([ids.plain]))[0]).toMatchObject({
      language_code: 'eng',
      region_code: 'GB',
      script_code: null,
    });

    const fromScript = await replace(admin, dictionary.id, 'eng;US;Latn', 'eng;;Latn');
    expect(fromScript.status, fromScript.text).toBe(200);
    expect(fromScript.body.result).toBe(1);
    expect((await termRows([ids.usLatn]))[0]).toMatchObject({
      language_code: 'eng',
      region_code: null,
      script_code: 'latn',
    });
  });

  it('a language or variant the dictionary does not have is 400; a malformed selector is 400; nothing moves', async () => {
    const { admin, dictionary, ids, other } = await replaceWorld();
    const before = await termRows(Object.values(ids));
    const cases: [string, string][] = [
      ['deu', 'fra'],
      ['eng', 'deu'],
      ['xyz', 'eng'],
      ['eng;CA', 'fra'],
      ['eng;US', 'fra;US'],
      ['eng;;Cyrl', 'fra'],
      ['eng;Latn', 'fra'],
      ['eng;;US', 'fra'],
      ['eng;US;Latn;x', 'fra'],
      [';US', 'fra'],
      ['eng', ';;Latn'],
      ['', 'fra'],
      ['eng', ''],
    ];
    for (const [from, to] of cases) {
      const response = await replace(admin, dictionary.id, from, to);
      expect(response.status, `${from} -> ${to}: ${response.text}`).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    // The languages of another dictionary do not count.
    expect((await replace(admin, other.id, 'eng;US', 'fra')).status).toBe(400);
    expect(await termRows(Object.values(ids))).toEqual(before);
  });

  it('needs the structure permission: 403 for a reader, 404 for another client', async () => {
    const { admin, tenant, dictionary, ids } = await replaceWorld();
    const before = await termRows(Object.values(ids));
    const { rest: reader } = await loggedInUser(t, tenant);
    expectError(await replace(reader, dictionary.id, 'eng;US', 'fra'), 403);
    const other = await newTenant(t, sysadmin);
    expectError(await replace(other.admin, dictionary.id, 'eng;US', 'fra'), 404);
    expect(await termRows(Object.values(ids))).toEqual(before);
    // The dictionary's own administrator may.
    const { rest: dictAdmin } = await loggedInUser(t, tenant, {
      roles: [`DICTIONARY_ADMIN@${dictionary.oid}`],
    });
    expect((await replace(dictAdmin, dictionary.id, 'eng;US', 'fra')).body).toEqual({ result: 2 });
    expect((await replace(admin, dictionary.id, 'fra', 'eng;US')).body).toEqual({ result: 3 });
  });
});

describe('reindex', () => {
  it('answers 200 with result true; readers get 403, another client 404', async () => {
    const { admin, tenant, dictionary, first } = await furnished();
    const [concept] = await insertConcepts(
      t,
      { clientId: tenant.id, dictionaryId: dictionary.id, sectionId: first.id },
      [{}],
    );
    await insertTerm(
      t,
      { clientId: tenant.id, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng' },
    );
    const response = await admin.post<InvocationResultBody>(`/dictionaries/reindex/${dictionary.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ result: true });

    const { rest: reader } = await loggedInUser(t, tenant);
    expectError(await reader.post(`/dictionaries/reindex/${dictionary.id}`), 403);
    const other = await newTenant(t, sysadmin);
    expectError(await other.admin.post(`/dictionaries/reindex/${dictionary.id}`), 404);
    expectError(await admin.post('/dictionaries/reindex/999999999'), 404);
  });
});
