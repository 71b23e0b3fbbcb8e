// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Dictionary-definition export and import (docs/dictionary-definition.md): the XML download, the
 * start -> process-dictionary -> process-filter state machine, the round trip between two clients,
 * merging into an existing dictionary, mappings, and bad files that change nothing.
 */
import { XMLParser } from 'fast-xml-parser';
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
  expectError,
  getDictionary,
  groupWith,
  loggedInUser,
  newTenant,
  query,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

const MAX_FILE_SIZE = 64 * 1024;

interface StartBody {
  importId: string;
  hasFilters: boolean;
  success: boolean;
  errorMessage: string | null;
  summary?: { name: string; languages: string[]; filters: string[]; sections: string[] };
}
interface ProcessBody {
  importId: string;
  success: boolean;
  dictionaryNew: boolean;
  dictionaryId: number | null;
  addedFiltersCount: number;
  skippedFiltersCount: number;
  errorMessage: string | null;
}
interface Named {
  id: number | null;
  oid: string | null;
  name: string;
  skip?: boolean;
}
interface ValidationBody {
  importId: string;
  success: false;
  errorMessage: string;
  missingUsers: Named[];
  missingGroups: Named[];
  missingConceptFields: Named[];
  missingTermFields: Named[];
  existingUsers: Named[];
  existingGroups: Named[];
  existingConceptFields: Named[];
  existingTermFields: Named[];
}
interface FilterBody {
  id: number;
  name: string;
  ownerId: number;
  visibility: string;
  groupId: number | null;
  description: string | null;
  criteria: {
    languages: string[];
    sectionOids: string[];
    domainOids: string[];
    fieldConditions: { fieldOid: string; operator: string; value?: string }[];
    createdBy: number[];
    changedBy: number[];
  };
}

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp({ MAX_FILE_SIZE: String(MAX_FILE_SIZE) });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const exportDefinition = (caller: RestClient, id: number, params: Record<string, string | boolean> = {}) =>
  caller.call('POST', `/dictionaries/export-definition/${id}${query(params)}`);

async function exportXml(caller: RestClient, id: number, includeFilters = true): Promise<string> {
  const response = await exportDefinition(caller, id, { 'include-filters': includeFilters });
  expect(response.status, response.text).toBe(200);
  return response.text;
}

const start = (caller: RestClient, xml: string) =>
  caller.upload<StartBody>('/dictionaries/import-definition/start', {
    content: xml,
    filename: 'definition.xml',
  });

const processDictionary = (
  caller: RestClient,
  importId: string,
  params: Record<string, string | number | boolean> = {},
) =>
  caller.call<ProcessBody>(
    'PUT',
    `/dictionaries/import-definition/process-dictionary/${query({ 'import-id': importId, ...params })}`,
  );

const processFilter = (
  caller: RestClient,
  importId: string,
  body: Record<string, Record<string, number>> = {},
) =>
  caller.call<ProcessBody & ValidationBody>(
    'PUT',
    `/dictionaries/import-definition/process-filter/${query({ 'import-id': importId })}`,
    { json: body },
  );

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseAttributeValue: false,
});

/** The structure of a definition file without what differs between clients (oids, ids, export stamp). */
function comparable(xml: string) {
  const root = parser.parse(xml)['polyterm-dictionary-definition'];
  delete root['@_exported'];
  delete root['@_client'];
  delete root.filters;
  // Views show fields by oid; compare them by field name instead.
  const fields = [root.fields?.field ?? []].flat() as Record<string, string>[];
  const fieldName = new Map(fields.map((f) => [f['@_oid'], f['@_name']]));
  for (const view of [root.views?.view ?? []].flat() as { show?: string | string[] }[]) {
    view.show = [view.show ?? []].flat().map((oid) => fieldName.get(oid) ?? oid);
  }
  return JSON.parse(
    JSON.stringify(root, (key, value) => (key === '@_oid' || key === '@_parent' ? undefined : value)),
  );
}

/** A dictionary with every kind of structure, and filters owned by two users. */
async function richDictionary() {
  const tenant = await tenantWithAdminId();
  const admin = tenant.admin;
  const alice = await loggedInUser(t, tenant.tenant);
  const translators = await groupWith(admin, [alice.id], `Translators ${uniqueSuffix()}`);
  const dictionary = await createDictionary(admin, {
    name: `Medicine ${uniqueSuffix()}`,
    description: 'Terms of medicine',
    domainPresentation: 'HIERARCHICAL',
    languages: [
      {
        code: 'en',
        variants: [
          { type: 0, code: 'US' },
          { type: 0, code: 'GB', name: 'Britain' },
          { type: 1, code: 'Latn' },
        ],
      },
      { code: 'isl' },
      { code: 'ara' },
      {
        code: 'x-klingon',
        name: 'Klingon',
        custom: true,
        rtl: true,
        variants: [{ type: 1, code: 'pIqaD', name: 'pIqaD script' }],
      },
    ],
    conceptFields: [
      {
        name: 'Definition',
        dataCategory: 'DEFINITION',
        fieldType: 'MULTILINE',
        model: { required: true, maxLen: 2000 },
      },
      { name: 'Reviewed', fieldType: 'DATE' },
      { name: 'Doomed', fieldType: 'SINGLELINE' },
    ],
    termFields: [
      {
        name: 'Gender',
        dataCategory: 'GRAMMATICAL_GENDER',
        fieldType: 'PICKLIST',
        model: {
          picklistItems: [
            { name: 'masculine', tbxName: 'masculine' },
            { name: 'feminine', tbxName: 'feminine', sortIndex: 1 },
          ],
        },
      },
      {
        name: 'Code',
        fieldType: 'SINGLELINE',
        model: { regExp: '^[A-Z]{2}\\d+$', minLen: 3, maxLen: 12, unicode: true },
      },
    ],
  });
  const doomed = dictionary.conceptFields.find((f) => f.name === 'Doomed')!;
  const definitionField = dictionary.conceptFields.find((f) => f.name === 'Definition')!;
  const codeField = dictionary.termFields.find((f) => f.name === 'Code')!;
  const view = await createView(admin, dictionary.id, [definitionField.oid!, 'DOM'], 'Short view');
  const section = await createSection(admin, dictionary.id, 'Anatomy');
  const withView = await admin.put(`/sections/partial/${section.id}`, {
    version: section.version,
    viewId: view.id,
  });
  expect(withView.status, withView.text).toBe(200);
  const body = await createDomain(admin, dictionary.id, 'Body');
  const organs = await createDomain(admin, dictionary.id, 'Organs', body.id);
  const heart = await createDomain(admin, dictionary.id, 'Heart', organs.id);
  await createDomain(admin, dictionary.id, 'Law');

  const criteria = {
    languages: ['eng;US', 'isl'],
    sectionOids: [section.oid],
    domainOids: [heart.oid],
    fieldConditions: [
      { fieldOid: definitionField.oid, operator: 'CONTAINS', value: 'blood' },
      { fieldOid: codeField.oid, operator: 'STARTS_WITH', value: 'AB' },
    ],
    createdBy: [alice.id],
  };
  const publicFilter = await alice.rest.post<FilterBody>('/filters', {
    name: 'Heart terms',
    description: 'Blood and heart',
    dictionaryId: dictionary.id,
    visibility: 'PUBLIC',
    criteria,
  });
  expect(publicFilter.status, publicFilter.text).toBe(201);
  const groupFilter = await alice.rest.post<FilterBody>('/filters', {
    name: 'Team filter',
    dictionaryId: dictionary.id,
    visibility: 'GROUP',
    groupId: translators.id,
    criteria: { languages: ['ara'] },
  });
  expect(groupFilter.status, groupFilter.text).toBe(201);
  const doomedFilter = await admin.post<FilterBody>('/filters', {
    name: 'Doomed field',
    dictionaryId: dictionary.id,
    visibility: 'PRIVATE',
    criteria: { fieldConditions: [{ fieldOid: doomed.oid, operator: 'NOT_EMPTY' }] },
  });
  expect(doomedFilter.status, doomedFilter.text).toBe(201);
  // The field goes; its filter still names it, so the export must describe it for mapping.
  const current = await getDictionary(admin, dictionary.id);
  const dropped = await admin.put(`/dictionaries/${dictionary.id}`, {
    name: current.name,
    description: current.description,
    domainPresentation: current.domainPresentation,
    version: current.version,
    languages: current.languages.map((l) => ({
      id: l.id,
      code: l.code,
      name: l.name,
      custom: l.custom,
      rtl: l.rtl,
      variants: l.variants.map((v) => ({ id: v.id, type: v.type, code: v.code, name: v.name })),
    })),
    conceptFields: current.conceptFields
      .filter((f) => f.name !== 'Doomed')
      .map((f) => ({
        id: f.id,
        name: f.name,
        dataCategory: f.dataCategory,
        fieldType: f.fieldType,
        model: { ...f.model, picklistItems: f.model.picklistItems },
      })),
    termFields: current.termFields.map((f) => ({
      id: f.id,
      name: f.name,
      dataCategory: f.dataCategory,
      fieldType: f.fieldType,
      model: {
        ...f.model,
        picklistItems: f.model.picklistItems.map((i) => ({
          id: i.id,
          name: i.name,
          tbxName: i.tbxName,
          sortIndex: i.sortIndex,
        })),
      },
    })),
  });
  expect(dropped.status, dropped.text).toBe(200);
  return {
    tenant,
    admin,
    alice,
    translators,
    dictionary: await getDictionary(admin, dictionary.id),
    view,
    section,
    heart,
    doomed,
  };
}

async function domainsOf(caller: RestClient, dictionaryId: number) {
  const response = await caller.get<{ content: DomainBody[] }>(
    `/domains${query({ 'dictionary-id': dictionaryId, size: 100 })}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body.content;
}

async function filtersOf(caller: RestClient, dictionaryId: number) {
  const response = await caller.get<{ content: FilterBody[] }>(
    `/filters${query({ 'dictionary-id': dictionaryId, size: 100 })}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body.content;
}

/** A fresh tenant with its administrator (username `admin`, like every test tenant's). */
async function tenantWithAdminId() {
  const { tenant, admin } = await newTenant(t, sysadmin);
  const [row] = await rows<{ id: number }>(
    t,
    "select id from users where client_id = ? and username = 'admin'",
    [tenant.id],
  );
  return { tenant, admin, adminId: row!.id };
}

const openImports = async () =>
  Number((await rows<{ n: string }>(t, 'select count(*) as n from definition_imports'))[0]!.n);

/** Shape of a dictionary's structure without ids and oids, to compare two dictionaries. */
function shapeOf(dictionary: DictionaryBody) {
  return {
    description: dictionary.description,
    domainPresentation: dictionary.domainPresentation,
    languages: dictionary.languages.map((l) => ({
      code: l.code,
      name: l.name,
      custom: l.custom,
      rtl: l.rtl,
      variants: l.variants.map((v) => ({ type: v.type, code: v.code, name: v.name })),
    })),
    fields: [...dictionary.conceptFields, ...dictionary.termFields].map((f) => ({
      name: f.name,
      level: f.level,
      dataCategory: f.dataCategory,
      fieldType: f.fieldType,
      model: {
        ...f.model,
        id: undefined,
        oid: undefined,
        picklistItems: f.model.picklistItems.map((i) => [i.name, i.tbxName, i.sortIndex]),
      },
    })),
    sections: dictionary.allSections.map((s) => s.name).sort(),
  };
}

describe('export-definition', () => {
  it('answers an XML attachment with languages, variants, fields with models and picklists, views, sections, domains and filters', async () => {
    const world = await richDictionary();
    const response = await exportDefinition(world.admin, world.dictionary.id, { 'include-filters': true });
    expect(response.status, response.text).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    expect(String(response.headers['content-disposition'])).toMatch(
      /^attachment; filename\*=UTF-8''Medicine_.+-definition\.xml$/,
    );
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));

    const root = parser.parse(response.text)['polyterm-dictionary-definition'];
    expect(root['@_version']).toBe('1');
    expect(root.dictionary['@_name']).toBe(world.dictionary.name);
    expect(root.dictionary['@_domainPresentation']).toBe('HIERARCHICAL');
    expect(root.dictionary.description).toBe('Terms of medicine');
    const languages = root.languages.language as Record<string, unknown>[];
    expect(languages.map((l) => l['@_code'])).toEqual(['eng', 'isl', 'ara', 'x-klingon']);
    expect(languages[3]).toMatchObject({ '@_custom': 'true', '@_rtl': 'true', '@_name': 'Klingon' });
    expect(languages[0]!.variant).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ '@_type': '0', '@_code': 'GB', '@_name': 'Britain' }),
      ]),
    );
    const fields = root.fields.field as Record<string, unknown>[];
    expect(fields.map((f) => f['@_name']).sort()).toEqual(['Code', 'Definition', 'Gender', 'Reviewed']);
    expect(fields.find((f) => f['@_name'] === 'Code')).toMatchObject({
      '@_level': 'TERM',
      '@_minLen': '3',
      '@_maxLen': '12',
      '@_unicode': 'true',
      regExp: '^[A-Z]{2}\\d+$',
    });
    expect(fields.find((f) => f['@_name'] === 'Definition')).toMatchObject({
      '@_required': 'true',
      '@_dataCategory': 'DEFINITION',
    });
    const gender = fields.find((f) => f['@_name'] === 'Gender') as {
      picklist: { item: Record<string, string>[] };
    };
    expect(gender.picklist.item.map((i) => i['@_name'])).toEqual(['masculine', 'feminine']);
    const views = [root.views.view].flat() as Record<string, unknown>[];
    expect(views.map((v) => v['@_name'])).toContain('Short view');
    const sections = [root.sections.section].flat() as Record<string, string>[];
    expect(sections.find((s) => s['@_name'] === 'Anatomy')?.['@_view']).toBe('Short view');
    const domains = root.domains.domain as Record<string, string>[];
    const byName = new Map(domains.map((d) => [d['@_name'], d]));
    expect(byName.get('Heart')?.['@_parent']).toBe(byName.get('Organs')?.['@_oid']);
    expect(byName.get('Organs')?.['@_parent']).toBe(byName.get('Body')?.['@_oid']);
    expect(byName.get('Body')?.['@_parent']).toBeUndefined();

    const filters = [root.filters.filter].flat() as Record<string, string>[];
    expect(filters.map((f) => f['@_name']).sort()).toEqual(['Doomed field', 'Heart terms', 'Team filter']);
    const users = [root.filters.users.user].flat() as Record<string, string>[];
    expect(users.map((u) => u['@_name']).sort()).toEqual([world.alice.username, 'admin'].sort());
    const refs = [root.filters.fieldRefs.field].flat() as Record<string, string>[];
    expect(refs).toEqual([
      expect.objectContaining({ '@_oid': world.doomed.oid, '@_level': 'CONCEPT', '@_name': 'Doomed' }),
    ]);
  });

  it('leaves filters out unless include-filters=true; only XML; administrators only; other tenants 404; token required', async () => {
    const world = await richDictionary();
    expect(await exportXml(world.admin, world.dictionary.id, false)).not.toContain('<filters>');
    expectError(await exportDefinition(world.admin, world.dictionary.id, { format: 'JSON' }), 400);
    // alice reads the dictionary but does not administer it.
    expectError(await exportDefinition(world.alice.rest, world.dictionary.id), 403);
    const other = await newTenant(t, sysadmin);
    expectError(await exportDefinition(other.admin, world.dictionary.id), 404);
    const anonymous = await world.admin
      .withToken('not-a-token')
      .call('POST', `/dictionaries/export-definition/${world.dictionary.id}`);
    expect(anonymous.status).toBe(401);
  });

  it('is offered over tRPC as dictionaryDefinitions.exportXml', async () => {
    const world = await richDictionary();
    const input = encodeURIComponent(JSON.stringify({ id: world.dictionary.id }));
    const response = await t.app.inject({
      method: 'GET',
      url: `/trpc/dictionaryDefinitions.exportXml?input=${input}`,
      headers: { 'x-auth-token': world.admin.token! },
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = JSON.parse(response.body).result.data as { fileName: string; xml: string };
    expect(data.xml).toContain(`name="${world.dictionary.name}"`);
  });
});

describe('import-definition: round trip between two clients', () => {
  it('start -> process-dictionary (new) -> process-filter re-creates the dictionary and its filters in another client', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id);
    const target = await tenantWithAdminId();
    const bob = await loggedInUser(t, target.tenant);
    const reviewers = await groupWith(target.admin, [bob.id], `Reviewers ${uniqueSuffix()}`);

    const started = await start(target.admin, xml);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ hasFilters: true, success: true, errorMessage: null });
    // What the file holds, by name, for the confirmation step before anything is written.
    expect(started.body.summary?.name).toBe(source.dictionary.name);
    expect(started.body.summary?.languages.length).toBeGreaterThan(0);
    expect(started.body.summary?.filters.length).toBeGreaterThan(0);

    const processed = await processDictionary(target.admin, started.body.importId, {
      'include-filters': true,
    });
    expect(processed.status, processed.text).toBe(200);
    expect(processed.body).toMatchObject({
      success: true,
      dictionaryNew: true,
      addedFiltersCount: 0,
      errorMessage: null,
    });
    const copy = await getDictionary(target.admin, processed.body.dictionaryId!);
    expect(copy.clientId).toBe(target.tenant.id);
    expect(copy.name).toBe(source.dictionary.name);
    expect(shapeOf(copy)).toEqual(shapeOf(source.dictionary));
    const copiedDomains = await domainsOf(target.admin, copy.id);
    const heart = copiedDomains.find((d) => d.name === 'Heart')!;
    const organs = copiedDomains.find((d) => d.name === 'Organs')!;
    expect(heart.parentDomainId).toBe(organs.id);
    expect(copiedDomains.map((d) => d.name).sort()).toEqual(['Body', 'Heart', 'Law', 'Organs']);
    const anatomy = copy.allSections.find((s) => s.name === 'Anatomy')!;
    const views = await target.admin.get<{ content: { id: number; name: string; fields: string[] }[] }>(
      `/views${query({ 'dictionary-id': copy.id })}`,
    );
    const shortView = views.body.content.find((v) => v.name === 'Short view')!;
    expect(anatomy.viewId).toBe(shortView.id);
    const copiedDefinition = copy.conceptFields.find((f) => f.name === 'Definition')!;
    expect(shortView.fields).toEqual(expect.arrayContaining(['TERM', 'LANG', 'DOM', copiedDefinition.oid]));

    // alice, her group and the deleted field do not exist here (an `admin` does): the mapping is asked for.
    const incomplete = await processFilter(target.admin, started.body.importId);
    expect(incomplete.status, incomplete.text).toBe(200);
    expect(incomplete.body.success).toBe(false);
    expect(incomplete.body.errorMessage).toMatch(/missing/);
    expect(incomplete.body.missingUsers.map((u) => u.name)).toEqual([source.alice.username]);
    expect(incomplete.body.missingGroups.map((g) => g.name)).toEqual([source.translators.name]);
    expect(incomplete.body.missingConceptFields).toEqual([
      { id: null, oid: source.doomed.oid, name: 'Doomed' },
    ]);
    expect(incomplete.body.missingTermFields).toEqual([]);
    expect(incomplete.body.existingUsers[0]).toMatchObject({ id: 0, skip: true });
    expect(incomplete.body.existingUsers.map((u) => u.name)).toEqual(
      expect.arrayContaining([bob.username, 'admin']),
    );
    expect(incomplete.body.existingGroups.map((g) => g.name)).toContain(reviewers.name);
    expect(incomplete.body.existingConceptFields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['Definition', 'Reviewed']),
    );

    // Still open: a partial mapping answers what is still missing.
    const aliceOid = incomplete.body.missingUsers[0]!.oid!;
    const groupOid = incomplete.body.missingGroups[0]!.oid!;
    const partial = await processFilter(target.admin, started.body.importId, {
      userMapping: { [aliceOid]: bob.id },
    });
    expect(partial.body.success).toBe(false);
    expect(partial.body.missingUsers).toEqual([]);
    expect(partial.body.missingGroups.map((g) => g.oid)).toEqual([groupOid]);

    const reviewed = copy.conceptFields.find((f) => f.name === 'Reviewed')!;
    const done = await processFilter(target.admin, started.body.importId, {
      userMapping: { [aliceOid]: bob.id },
      groupMapping: { [groupOid]: reviewers.id },
      conceptFieldsMapping: { [source.doomed.oid!]: reviewed.id },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      dictionaryNew: true,
      dictionaryId: copy.id,
      addedFiltersCount: 3,
      skippedFiltersCount: 0,
    });

    const filters = await filtersOf(target.admin, copy.id);
    const heartTerms = filters.find((f) => f.name === 'Heart terms')!;
    expect(heartTerms).toMatchObject({
      ownerId: bob.id,
      visibility: 'PUBLIC',
      description: 'Blood and heart',
    });
    expect(heartTerms.criteria.sectionOids).toEqual([anatomy.oid]);
    expect(heartTerms.criteria.domainOids).toEqual([heart.oid]);
    expect(heartTerms.criteria.createdBy).toEqual([bob.id]);
    expect(heartTerms.criteria.languages).toEqual(['eng;US', 'isl']);
    const copiedCode = copy.termFields.find((f) => f.name === 'Code')!;
    expect(heartTerms.criteria.fieldConditions.map((c) => c.fieldOid)).toEqual([
      copiedDefinition.oid,
      copiedCode.oid,
    ]);
    expect(filters.find((f) => f.name === 'Team filter')).toMatchObject({
      visibility: 'GROUP',
      groupId: reviewers.id,
      ownerId: bob.id,
    });
    expect(filters.find((f) => f.name === 'Doomed field')).toMatchObject({
      ownerId: target.adminId,
      visibility: 'PRIVATE',
    });
    expect(filters.find((f) => f.name === 'Doomed field')?.criteria.fieldConditions[0]?.fieldOid).toBe(
      reviewed.oid,
    );

    // Terminated: the import is gone.
    expectError(await processFilter(target.admin, started.body.importId), 404);

    // Exporting the copy gives the same structure as the original's file.
    expect(comparable(await exportXml(target.admin, copy.id))).toEqual(comparable(xml));
  });

  it('mapping a missing object to 0 skips the filters that need it; an unknown id is 400 and the import stays open', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id);
    const target = await newTenant(t, sysadmin);
    const started = await start(target.admin, xml);
    await processDictionary(target.admin, started.body.importId, { 'include-filters': true });
    const asked = await processFilter(target.admin, started.body.importId);
    const aliceOid = asked.body.missingUsers[0]!.oid!;
    const groupOid = asked.body.missingGroups[0]!.oid!;
    const mapping = {
      userMapping: { [aliceOid]: 0 },
      groupMapping: { [groupOid]: 0 },
      conceptFieldsMapping: { [source.doomed.oid!]: 0 },
    };

    // A user of another client is no candidate.
    const wrong = await processFilter(target.admin, started.body.importId, {
      ...mapping,
      userMapping: { [aliceOid]: source.alice.id },
    });
    expectError(wrong, 400);
    expect(wrong.text).toContain(aliceOid);

    const done = await processFilter(target.admin, started.body.importId, mapping);
    expect(done.body).toMatchObject({ success: true, addedFiltersCount: 0, skippedFiltersCount: 3 });
    expect(await filtersOf(target.admin, done.body.dictionaryId!)).toEqual([]);
  });

  it('users and groups of the same names are found without mapping; filters the owner already has are skipped', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id);
    // The same client imports its own file into a new dictionary of another name.
    const renamed = xml.replace(`name="${source.dictionary.name}"`, `name="Copy ${uniqueSuffix()}"`);
    const started = await start(source.admin, renamed);
    const processed = await processDictionary(source.admin, started.body.importId, {
      'dictionary-id': 'new',
      'include-filters': true,
    });
    expect(processed.body).toMatchObject({ success: true, dictionaryNew: true });
    const asked = await processFilter(source.admin, started.body.importId);
    // Only the deleted field is missing: users and the group exist here.
    expect(asked.body.missingUsers).toEqual([]);
    expect(asked.body.missingGroups).toEqual([]);
    expect(asked.body.missingConceptFields.map((f) => f.oid)).toEqual([source.doomed.oid]);
    const done = await processFilter(source.admin, started.body.importId, {
      conceptFieldsMapping: { [source.doomed.oid!]: 0 },
    });
    expect(done.body).toMatchObject({ success: true, addedFiltersCount: 2, skippedFiltersCount: 1 });
    const filters = await filtersOf(source.admin, processed.body.dictionaryId!);
    expect(filters.find((f) => f.name === 'Team filter')).toMatchObject({
      ownerId: source.alice.id,
      groupId: source.translators.id,
    });

    // Importing the same filters into that dictionary again: each owner has them already.
    const again = await start(source.admin, renamed);
    const merged = await processDictionary(source.admin, again.body.importId, {
      'dictionary-id': processed.body.dictionaryId!,
      'include-filters': true,
    });
    expect(merged.body).toMatchObject({ success: true, dictionaryNew: false });
    const repeated = await processFilter(source.admin, again.body.importId, {
      conceptFieldsMapping: { [source.doomed.oid!]: 0 },
    });
    expect(repeated.body).toMatchObject({ success: true, addedFiltersCount: 0, skippedFiltersCount: 3 });
  });
});

describe('import-definition: process-dictionary', () => {
  it('merges into an existing dictionary: adds what it lacks and keeps what it has', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id, false);
    const target = await newTenant(t, sysadmin);
    const existing = await createDictionary(target.admin, {
      name: `Existing ${uniqueSuffix()}`,
      languages: [{ code: 'eng', variants: [{ type: 0, code: 'CA' }] }, { code: 'deu' }],
      conceptFields: [
        { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE', model: { maxLen: 99 } },
      ],
    });
    const law = await createDomain(target.admin, existing.id, 'Law');

    const started = await start(target.admin, xml);
    expect(started.body.hasFilters).toBe(false);
    const processed = await processDictionary(target.admin, started.body.importId, {
      'dictionary-id': existing.id,
      'include-filters': true,
    });
    expect(processed.status, processed.text).toBe(200);
    expect(processed.body).toMatchObject({ success: true, dictionaryNew: false, dictionaryId: existing.id });

    const merged = await getDictionary(target.admin, existing.id);
    expect(merged.name).toBe(existing.name);
    expect(merged.languages.map((l) => l.code)).toEqual(
      expect.arrayContaining(['eng', 'deu', 'isl', 'ara', 'x-klingon']),
    );
    const english = merged.languages.find((l) => l.code === 'eng')!;
    expect(english.variants.map((v) => v.code).sort()).toEqual(['CA', 'GB', 'US', 'latn']); // script codes are stored lowercase
    const definition = merged.conceptFields.filter((f) => f.name === 'Definition');
    expect(definition).toHaveLength(1);
    expect(definition[0]!.model.maxLen).toBe(99); // kept, not overwritten by the file
    expect(merged.conceptFields.map((f) => f.name).sort()).toEqual(['Definition', 'Reviewed']);
    expect(merged.termFields.map((f) => f.name).sort()).toEqual(['Code', 'Gender']);
    expect(merged.allSections.map((s) => s.name)).toEqual(
      expect.arrayContaining([existing.name, source.dictionary.name, 'Anatomy']),
    );
    const domains = await domainsOf(target.admin, existing.id);
    expect(domains.filter((d) => d.name === 'Law').map((d) => d.id)).toEqual([law.id]); // matched, not doubled
    expect(domains.map((d) => d.name).sort()).toEqual(['Body', 'Heart', 'Law', 'Organs']);
    // No filters follow: the import ended.
    expectError(await processFilter(target.admin, started.body.importId), 404);
  });

  it('include-filters=false ends the import and reports the file filters as skipped', async () => {
    const source = await richDictionary();
    const target = await newTenant(t, sysadmin);
    const started = await start(target.admin, await exportXml(source.admin, source.dictionary.id));
    expect(started.body.hasFilters).toBe(true);
    const processed = await processDictionary(target.admin, started.body.importId);
    expect(processed.body).toMatchObject({ success: true, skippedFiltersCount: 3, addedFiltersCount: 0 });
    expectError(await processFilter(target.admin, started.body.importId), 404);
    expect(await filtersOf(target.admin, processed.body.dictionaryId!)).toEqual([]);
  });

  it('a run that fails changes nothing, answers success=false with the reason and ends the import', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id);
    const target = await newTenant(t, sysadmin);
    await createDictionary(target.admin, { name: source.dictionary.name.toUpperCase() });
    const before = await target.admin.get<{ totalElements: number }>('/dictionaries');
    const started = await start(target.admin, xml);
    const failed = await processDictionary(target.admin, started.body.importId, { 'include-filters': true });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ success: false, dictionaryId: null });
    expect(failed.body.errorMessage).toMatch(/already exists/);
    const after = await target.admin.get<{ totalElements: number }>('/dictionaries');
    expect(after.body.totalElements).toBe(before.body.totalElements);
    expectError(await processDictionary(target.admin, started.body.importId), 404);
  });

  it('an import not continued within its hour expires (404); starting a fourth drops the oldest', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id, false);
    const target = await newTenant(t, sysadmin);
    const expired = await start(target.admin, xml);
    await rows(t, "update definition_imports set expires_at = now() - interval '1 second' where id = ?", [
      expired.body.importId,
    ]);
    expectError(await processDictionary(target.admin, expired.body.importId), 404);

    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push((await start(target.admin, xml)).body.importId);
    expectError(await processDictionary(target.admin, ids[0]!), 404);
    const latest = await processDictionary(target.admin, ids[3]!, { 'dictionary-id': 'new' });
    expect(latest.body.success).toBe(true);
  });

  it('process-filter before process-dictionary is 400 and the import stays open', async () => {
    const source = await richDictionary();
    const target = await newTenant(t, sysadmin);
    const started = await start(target.admin, await exportXml(source.admin, source.dictionary.id));
    expectError(await processFilter(target.admin, started.body.importId), 400);
    const processed = await processDictionary(target.admin, started.body.importId);
    expect(processed.body.success).toBe(true);
  });

  it('who may: a new dictionary needs a client administrator, a merge the administration of the target; refusals keep the import open', async () => {
    const source = await richDictionary();
    const xml = await exportXml(source.admin, source.dictionary.id, false);
    const target = await newTenant(t, sysadmin);
    const carol = await loggedInUser(t, target.tenant);
    const theirs = await createDictionary(target.admin, { name: `Theirs ${uniqueSuffix()}` });
    const started = await start(carol.rest, xml);
    expect(started.status, started.text).toBe(200);
    expectError(await processDictionary(carol.rest, started.body.importId), 403);
    // carol reads theirs (named users do by default) but does not administer it.
    expectError(
      await processDictionary(carol.rest, started.body.importId, { 'dictionary-id': theirs.id }),
      403,
    );
    expectError(
      await processDictionary(carol.rest, started.body.importId, { 'dictionary-id': source.dictionary.id }),
      404,
    );
    // Another user (even an administrator) cannot continue carol's import.
    expectError(await processDictionary(target.admin, started.body.importId), 404);
    // With the dictionary's administration, carol merges.
    const admin = await loggedInUser(t, target.tenant, { roles: [`DICTIONARY_ADMIN@${theirs.oid}`] });
    const own = await start(admin.rest, xml);
    const merged = await processDictionary(admin.rest, own.body.importId, { 'dictionary-id': theirs.id });
    expect(merged.body).toMatchObject({ success: true, dictionaryNew: false, dictionaryId: theirs.id });
    // Unknown or malformed import ids.
    expectError(await processDictionary(target.admin, crypto.randomUUID()), 404);
    expectError(await processDictionary(target.admin, 'not-a-uuid'), 400);
  });
});

describe('import-definition/start: bad files change nothing', () => {
  const valid = `<?xml version="1.0" encoding="UTF-8"?>
<polyterm-dictionary-definition version="1">
  <dictionary name="Tiny"/>
  <languages><language code="eng"/></languages>
  <sections><section oid="s1" name="Tiny" view="Missing view"/></sections>
</polyterm-dictionary-definition>`;

  it.each([
    [
      'malformed XML (with the line)',
      '<polyterm-dictionary-definition version="1">\n<dictionary name="x">\n</polyterm-dictionary-definition>',
      /line 2|line 3/,
    ],
    [
      'a DOCTYPE with an external entity (no XXE)',
      '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<polyterm-dictionary-definition version="1"><dictionary name="&xxe;"/></polyterm-dictionary-definition>',
      /DOCTYPE/,
    ],
    ['a wrong root element', '<martif><dictionary name="x"/></martif>', /polyterm-dictionary-definition/],
    ['another format version', valid.replace('version="1">', 'version="9">'), /version/],
    ['a reference the file does not define', valid, /unknown view "Missing view"/],
    [
      'a field of an unknown type',
      valid
        .replace(
          '<sections>',
          '<fields><field oid="f1" level="CONCEPT" name="X" fieldType="COLOR"/></fields><sections>',
        )
        .replace(' view="Missing view"', ''),
      /fieldType/,
    ],
    ['an empty file', ' ', /./],
  ])('%s: 400 with the reason, no import opened', async (_label, xml, message) => {
    const tenant = await newTenant(t, sysadmin);
    const before = await openImports();
    const response = await start(tenant.admin, xml);
    expectError(response, 400);
    expect((response.body as unknown as { message: string }).message).toMatch(message);
    expect(await openImports()).toBe(before);
  });

  it('a consistent hand-written file is accepted', async () => {
    const tenant = await newTenant(t, sysadmin);
    const started = await start(tenant.admin, valid.replace(' view="Missing view"', ''));
    expect(started.status, started.text).toBe(200);
    const processed = await processDictionary(tenant.admin, started.body.importId);
    expect(processed.body.success).toBe(true);
    const dictionary = await getDictionary(tenant.admin, processed.body.dictionaryId!);
    expect(dictionary.name).toBe('Tiny');
    expect(dictionary.languages.map((l) => l.code)).toEqual(['eng']);
    expect(dictionary.allSections.map((s) => s.name)).toEqual(['Tiny']);
  });

  it('a file over MAX_FILE_SIZE is 413; no file or no token is refused before reading', async () => {
    const tenant = await newTenant(t, sysadmin);
    const big = `<polyterm-dictionary-definition version="1"><dictionary name="x"><description>${'a'.repeat(MAX_FILE_SIZE + 10)}</description></dictionary></polyterm-dictionary-definition>`;
    expect((await start(tenant.admin, big)).status).toBe(413);
    const json = await tenant.admin.post('/dictionaries/import-definition/start', { xml: 'x' });
    expectError(json, 400);
    const anonymous = await start(tenant.admin.withToken('nope'), '<x/>');
    expect(anonymous.status).toBe(401);
  });
});
