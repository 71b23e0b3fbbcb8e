// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Display concepts over REST: concepts prepared for showing and editing (language order, prepared
 * values, classification oids, readOnly from permissions, hidden from views), the stubs for new concepts
 * and terms (never stored), and the print page (escaped HTML, CONCEPT_PRINT, tenant isolation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchGroup, systemGroups } from '../access/access-helpers.js';
import type { TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createDomain,
  createSection,
  createView,
  type DictionaryBody,
  type DomainBody,
  expectError,
  type FieldBody,
  getDictionary,
  groupWith,
  loggedInUser,
  newTenant,
  patchAtCurrentVersion,
  query,
  rows,
  type SectionBody,
} from '../helpers/structure.js';

interface DisplayField {
  id: string;
  label: string;
  value: string | null;
  valueOid: string | null;
  cssClass: string | null;
  cssStyle: string | null;
  readOnly: boolean;
  hidden: boolean;
}

interface DisplayTerm {
  id: number | null;
  dictionary_id: number;
  langCode: string;
  region: string | null;
  script: string | null;
  elementId: string;
  termField: DisplayField;
  metadataFields: DisplayField[];
  fields: DisplayField[];
}

interface DisplayConcept {
  id: number | null;
  dictionary_id: number;
  sectionId: number;
  requestedByUserId: number;
  classificationFields: DisplayField[];
  languageCodes: string[];
  termsPerLanguage: DisplayTerm[][];
  termSelected: DisplayTerm | null;
  concept: { id: number; cid: string; comments: unknown[]; terms: { id: number; name: string }[] } | null;
  metadataFields: DisplayField[];
  fields: DisplayField[];
}

interface ConceptBody {
  id: number;
  cid: string;
  terms: { id: number; name: string; languageCode: string }[];
}

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

/** Languages whose sortIndex order (deu, fra, eng, jpn) differs from their creation order. */
const LANGUAGES = [
  { code: 'eng', sortIndex: 2, variants: [{ type: 0, code: 'US' }] },
  { code: 'deu', sortIndex: 0 },
  { code: 'fra', sortIndex: 1 },
  { code: 'jpn', sortIndex: 3 },
];

const CONCEPT_FIELDS = [
  { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
  {
    name: 'Status',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ name: 'new' }, { name: 'Approved', tbxName: 'approved' }] },
  },
  { name: 'Due', fieldType: 'DATE' },
  { name: 'Tags', fieldType: 'MULTISELECT', model: { picklistItems: [{ name: 'a' }, { name: 'b' }] } },
  { name: 'Remark', fieldType: 'SINGLELINE' },
];

const TERM_FIELDS = [
  {
    name: 'Gender',
    dataCategory: 'GRAMMATICAL_GENDER',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ name: 'female', tbxName: 'feminine' }, { tbxName: 'masculine' }] },
  },
  { name: 'Usage', fieldType: 'SINGLELINE' },
];

interface Grant {
  groupId: number;
  dictionaryPermissions: string[];
  conceptPermissions?: string[];
  termPermissions?: string[];
  languages?: string[];
}

/** POST /permissionschemes with the grants (201 expected). */
async function createScheme(admin: RestClient, grants: Grant[]): Promise<{ id: number }> {
  const response = await admin.post<{ id: number }>('/permissionschemes', {
    name: `Scheme ${Math.random().toString(36).slice(2)}`,
    grants: grants.map((grant) => ({ conceptPermissions: [], termPermissions: [], languages: [], ...grant })),
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const fieldOid = (fields: FieldBody[], name: string): string => {
  const field = fields.find((candidate) => candidate.name === name);
  if (!field?.oid) throw new Error(`no field ${name}`);
  return field.oid;
};

interface World {
  admin: RestClient;
  tenant: TestTenant;
  dictionary: DictionaryBody;
  section: SectionBody;
  domains: DomainBody[];
  cf: Record<string, string>;
  tf: Record<string, string>;
}

/** A tenant with the dictionary above, its first section and two domains (Zoology sorted first). */
async function world(): Promise<World> {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const created = await createDictionary(admin, {
    languages: LANGUAGES,
    conceptFields: CONCEPT_FIELDS,
    termFields: TERM_FIELDS,
  });
  const dictionary = await getDictionary(admin, created.id);
  const botany = await createDomain(admin, dictionary.id, 'Botany');
  const zoology = await createDomain(admin, dictionary.id, 'Zoology');
  const sorted = await patchAtCurrentVersion(admin, 'domains', zoology.id, { sortIndex: -1 });
  expect(sorted.status, sorted.text).toBe(200);
  const sections = await admin.get<{ content: SectionBody[] }>(
    `/sections${query({ 'dictionary-id': dictionary.id })}`,
  );
  const byName = (fields: FieldBody[]) =>
    Object.fromEntries(fields.map((field) => [field.name, fieldOid(fields, field.name)]));
  return {
    admin,
    tenant,
    dictionary,
    section: sections.body.content[0]!,
    domains: [botany, zoology],
    cf: byName(dictionary.conceptFields),
    tf: byName(dictionary.termFields),
  };
}

/** A concept with terms in eng (created first), fra and deu, values in most fields, both domains. */
async function richConcept(w: World, section: SectionBody = w.section): Promise<ConceptBody> {
  const response = await w.admin.post<ConceptBody>('/concepts', {
    dictionaryId: w.dictionary.id,
    sectionOid: section.oid,
    domainList: w.domains.map((domain) => domain.oid),
    fieldMap: {
      [w.cf.Definition!]: 'A small\nanimal',
      [w.cf.Status!]: 'approved',
      [w.cf.Due!]: '2024-05-01',
      [w.cf.Tags!]: ['a', 'b'],
    },
    terms: [
      { name: 'cat', languageCode: 'eng', regionCode: 'US', fieldMap: { [w.tf.Gender!]: 'feminine' } },
      { name: 'chat', languageCode: 'fra', fieldMap: { [w.tf.Usage!]: 'common' } },
      { name: 'Katze', languageCode: 'deu' },
    ],
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const field = (fields: DisplayField[], id: string): DisplayField => {
  const found = fields.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no display field ${id} in ${fields.map((f) => f.id).join(', ')}`);
  return found;
};
const names = (display: DisplayConcept) =>
  display.termsPerLanguage.map((group) => group.map((term) => term.termField.value));
const termNamed = (display: DisplayConcept, name: string): DisplayTerm => {
  const found = display.termsPerLanguage.flat().find((term) => term.termField.value === name);
  if (!found) throw new Error(`no term ${name}`);
  return found;
};
const counts = async (dictionaryId: number) => {
  const [row] = await rows<{ concepts: string; terms: string }>(
    t,
    'select (select count(*) from concepts where dictionary_id = ?) as concepts, (select count(*) from terms where dictionary_id = ?) as terms',
    [dictionaryId, dictionaryId],
  );
  return { concepts: Number(row!.concepts), terms: Number(row!.terms) };
};

/**
 * A user of the world's tenant in a group of their own, granted by a scheme on the section: read,
 * the given concept permissions and TERM_UPDATE limited to `languages`.
 */
async function restrictedUser(
  w: World,
  options: {
    conceptPermissions: string[];
    dictionaryPermissions?: string[];
    termLanguages?: string[];
    section?: SectionBody;
  },
) {
  const user = await loggedInUser(t, w.tenant);
  const group = await groupWith(w.admin, [user.id]);
  const groups = await systemGroups(w.admin);
  const scheme = await createScheme(w.admin, [
    {
      groupId: group.id,
      dictionaryPermissions: ['DICT_READ', ...(options.dictionaryPermissions ?? [])],
      conceptPermissions: options.conceptPermissions,
      termPermissions: options.termLanguages ? ['TERM_UPDATE'] : [],
      languages: options.termLanguages ?? [],
    },
    // All users (every named user) gets nothing, so only the user's own group counts.
    { groupId: groups.ALL_USERS.id, dictionaryPermissions: [] },
  ]);
  const patched = await patchAtCurrentVersion(w.admin, 'sections', (options.section ?? w.section).id, {
    permissionSchemeId: scheme.id,
  });
  expect(patched.status, patched.text).toBe(200);
  return { ...user, group };
}

describe('GET /display-concepts/{id}', () => {
  it('orders languages by sortIndex, lists only languages with terms and prepares every value', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const response = await w.admin.get<DisplayConcept>(`/display-concepts/${concept.id}`);
    expect(response.status, response.text).toBe(200);
    const display = response.body;

    expect(display).toMatchObject({
      id: concept.id,
      dictionary_id: w.dictionary.id,
      sectionId: w.section.id,
      concept: null,
      termSelected: null,
    });
    expect(display.languageCodes).toEqual(['deu', 'fra', 'eng']);
    expect(names(display)).toEqual([['Katze'], ['chat'], ['cat']]);

    // Classification: names shown, oids beside them; domains in their sort order.
    const [dict, sect, dom] = display.classificationFields;
    expect(dict).toMatchObject({
      id: 'DICT',
      label: 'Dictionary',
      value: w.dictionary.name,
      valueOid: w.dictionary.oid,
    });
    expect(sect).toMatchObject({
      id: 'SECT',
      label: 'Section',
      value: w.section.name,
      valueOid: w.section.oid,
    });
    expect(dom).toMatchObject({
      id: 'DOM',
      value: 'Zoology|Botany',
      valueOid: `${w.domains[1]!.oid}|${w.domains[0]!.oid}`,
    });

    // Only fields with values; picklists by item name with item oids, multiselect joined.
    expect(display.fields.map((f) => f.label)).toEqual(['Definition', 'Status', 'Due', 'Tags']);
    const items = (name: string) =>
      w.dictionary.conceptFields.find((f) => f.name === name)!.model.picklistItems;
    expect(field(display.fields, w.cf.Status!)).toMatchObject({
      label: 'Status',
      value: 'Approved',
      valueOid: items('Status').find((item) => item.name === 'Approved')!.oid,
      cssClass: 'field-picklist',
      readOnly: false,
      hidden: false,
    });
    expect(field(display.fields, w.cf.Tags!)).toMatchObject({
      value: 'a|b',
      valueOid: items('Tags')
        .map((item) => item.oid)
        .join('|'),
    });
    expect(field(display.fields, w.cf.Due!).value).toBe('2024-05-01');
    expect(field(display.fields, w.cf.Definition!).value).toBe('A small\r\nanimal');

    const cat = termNamed(display, 'cat');
    expect(cat).toMatchObject({
      langCode: 'eng',
      region: 'US',
      script: null,
      dictionary_id: w.dictionary.id,
      elementId: `term-${cat.id}`,
      termField: { id: 'TERM', label: 'Term', value: 'cat', readOnly: false, hidden: false },
    });
    expect(cat.fields).toEqual([
      expect.objectContaining({ id: w.tf.Gender, value: 'female', label: 'Gender' }),
    ]);
    expect(termNamed(display, 'Katze').fields).toEqual([]);
    expect(cat.metadataFields.map((f) => f.id)).toEqual(['TCREBY', 'TCREDATE', 'TCHGBY', 'TCHGDATE']);
    expect(display.metadataFields.map((f) => [f.id, f.readOnly])).toEqual([
      ['CREBY', true],
      ['CREDATE', true],
      ['CHGBY', true],
      ['CHGDATE', true],
    ]);
    expect(field(display.metadataFields, 'CREDATE').value).toBe(new Date().toISOString().slice(0, 10));
    expect(field(display.metadataFields, 'CREBY').value).toEqual(expect.any(String));
  });

  it('term-id selects a term; without id it finds the concept; load-concept adds the Concept', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const chat = concept.terms.find((term) => term.name === 'chat')!;

    const byTerm = await w.admin.get<DisplayConcept>(`/display-concepts${query({ 'term-id': chat.id })}`);
    expect(byTerm.status, byTerm.text).toBe(200);
    expect(byTerm.body.id).toBe(concept.id);
    expect(byTerm.body.termSelected).toMatchObject({ id: chat.id, termField: { value: 'chat' } });
    expect(byTerm.body.concept).toBeNull();

    const loaded = await w.admin.get<DisplayConcept>(
      `/display-concepts/${concept.id}${query({ 'term-id': chat.id, 'load-concept': true })}`,
    );
    expect(loaded.status, loaded.text).toBe(200);
    expect(loaded.body.termSelected?.id).toBe(chat.id);
    expect(loaded.body.concept).toMatchObject({ id: concept.id, cid: concept.cid });
    expect(loaded.body.concept!.terms.map((term) => term.name).sort()).toEqual(['Katze', 'cat', 'chat']);

    const withComments = await w.admin.get<DisplayConcept>(
      `/display-concepts/${concept.id}${query({ 'with-comments': true })}`,
    );
    expect(withComments.body.concept).toMatchObject({ id: concept.id, comments: [] });

    // A term of another concept is not one of this concept's.
    const other = await richConcept(w);
    expectError(
      await w.admin.get(`/display-concepts/${concept.id}${query({ 'term-id': other.terms[0]!.id })}`),
      404,
    );
    expectError(await w.admin.get(`/display-concepts${query({ 'term-id': 999_999_999 })}`), 404);
    expectError(await w.admin.get('/display-concepts'), 400);
  });

  it('readOnly follows the permissions: fields with CONCEPT_EDIT_FIELDS, terms with TERM_UPDATE per language', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const user = await restrictedUser(w, {
      conceptPermissions: ['CONCEPT_EDIT_FIELDS'],
      termLanguages: ['deu'],
    });

    const display = (await user.rest.get<DisplayConcept>(`/display-concepts/${concept.id}`)).body;
    expect(display.requestedByUserId).toBe(user.id);
    expect(display.classificationFields.map((f) => [f.id, f.readOnly])).toEqual([
      ['DICT', true],
      ['SECT', true],
      ['DOM', true],
    ]);
    expect(display.fields.every((f) => !f.readOnly)).toBe(true);
    expect(termNamed(display, 'Katze').termField.readOnly).toBe(false);
    expect(termNamed(display, 'cat').termField.readOnly).toBe(true);
    expect(termNamed(display, 'cat').fields.every((f) => f.readOnly)).toBe(true);

    // Reading only: nothing is writable.
    const reader = await restrictedUser(w, { conceptPermissions: [] });
    const read = (await reader.rest.get<DisplayConcept>(`/display-concepts/${concept.id}`)).body;
    expect(read.fields.every((f) => f.readOnly)).toBe(true);
    expect(read.termsPerLanguage.flat().every((term) => term.termField.readOnly)).toBe(true);

    // The administrator may change everything but the dictionary.
    const admin = (await w.admin.get<DisplayConcept>(`/display-concepts/${concept.id}`)).body;
    expect(admin.classificationFields.map((f) => f.readOnly)).toEqual([true, false, false]);
    expect(admin.termsPerLanguage.flat().every((term) => !term.termField.readOnly)).toBe(true);
  });

  it("hidden follows the caller's view: the section's view, or the views of the caller's groups", async () => {
    const w = await world();
    const concept = await richConcept(w);
    const sectionView = await createView(w.admin, w.dictionary.id, [w.cf.Definition!, 'DOM', w.tf.Usage!]);
    expect(
      (await patchAtCurrentVersion(w.admin, 'sections', w.section.id, { viewId: sectionView.id })).status,
    ).toBe(200);

    const display = (await w.admin.get<DisplayConcept>(`/display-concepts/${concept.id}`)).body;
    expect(display.fields.map((f) => [f.label, f.hidden])).toEqual([
      ['Definition', false],
      ['Status', true],
      ['Due', true],
      ['Tags', true],
    ]);
    expect(display.classificationFields.map((f) => [f.id, f.hidden])).toEqual([
      ['DICT', true],
      ['SECT', true],
      ['DOM', false],
    ]);
    // The term itself is never hidden.
    expect(termNamed(display, 'cat').termField.hidden).toBe(false);
    expect(termNamed(display, 'cat').fields.map((f) => f.hidden)).toEqual([true]);
    expect(termNamed(display, 'chat').fields.map((f) => f.hidden)).toEqual([false]);
    expect(display.metadataFields.every((f) => f.hidden)).toBe(true);

    // A group's view replaces the section's for its members.
    const user = await restrictedUser(w, { conceptPermissions: [] });
    const groupView = await createView(w.admin, w.dictionary.id, [w.cf.Status!, 'CREBY']);
    const patched = await patchGroup(w.admin, user.group.id, {
      viewsMap: { [w.dictionary.id]: [groupView.id] },
    });
    expect(patched.status, patched.text).toBe(200);
    const members = (await user.rest.get<DisplayConcept>(`/display-concepts/${concept.id}`)).body;
    expect(members.fields.map((f) => [f.label, f.hidden])).toEqual([
      ['Definition', true],
      ['Status', false],
      ['Due', true],
      ['Tags', true],
    ]);
    expect(field(members.metadataFields, 'CREBY').hidden).toBe(false);
    expect(field(members.metadataFields, 'CHGBY').hidden).toBe(true);
  });

  it("another client's concept, and a concept in a section the caller cannot read, answer 404", async () => {
    const w = await world();
    const concept = await richConcept(w);
    const other = await newTenant(t, sysadmin);
    expectError(await other.admin.get(`/display-concepts/${concept.id}`), 404);
    expectError(await other.admin.put(`/display-concepts/edit/${concept.id}`), 404);
    expectError(await other.admin.post(`/display-concepts/copy/${concept.id}`), 404);
    expectError(await other.admin.post(`/display-concepts/add-term/${concept.id}`), 404);
    expectError(await other.admin.post(`/display-concepts/copy-term/${concept.terms[0]!.id}`), 404);
    expectError(await other.admin.post(`/display-concepts/create/${w.dictionary.id}`), 404);

    const hidden = await createSection(w.admin, w.dictionary.id);
    const elsewhere = await richConcept(w, hidden);
    const user = await restrictedUser(w, { conceptPermissions: [], section: w.section });
    const scheme = await createScheme(w.admin, []);
    await patchAtCurrentVersion(w.admin, 'sections', hidden.id, { permissionSchemeId: scheme.id });
    expect((await user.rest.get(`/display-concepts/${concept.id}`)).status).toBe(200);
    expectError(await user.rest.get(`/display-concepts/${elsewhere.id}`), 404);
  });
});

describe('PUT /display-concepts/edit/{conceptId}', () => {
  it('every language and every field, with the concept and the selected term', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const katze = concept.terms.find((term) => term.name === 'Katze')!;
    const response = await w.admin.put<DisplayConcept>(
      `/display-concepts/edit/${concept.id}${query({ 'term-id': katze.id })}`,
    );
    expect(response.status, response.text).toBe(200);
    const display = response.body;
    expect(display.languageCodes).toEqual(['deu', 'fra', 'eng', 'jpn']);
    expect(names(display)).toEqual([['Katze'], ['chat'], ['cat'], []]);
    expect(display.fields.map((f) => [f.label, f.value])).toEqual([
      ['Definition', 'A small\r\nanimal'],
      ['Status', 'Approved'],
      ['Due', '2024-05-01'],
      ['Tags', 'a|b'],
      ['Remark', null],
    ]);
    expect(termNamed(display, 'Katze').fields.map((f) => [f.label, f.value])).toEqual([
      ['Gender', null],
      ['Usage', null],
    ]);
    expect(display.termSelected?.id).toBe(katze.id);
    expect(display.concept).toMatchObject({ id: concept.id, cid: concept.cid });
  });
});

describe('stubs (never stored)', () => {
  it('create: empty fields, the first section with CONCEPT_CREATE, blank terms where the caller may write', async () => {
    const w = await world();
    const second = await createSection(w.admin, w.dictionary.id);
    await patchAtCurrentVersion(w.admin, 'sections', second.id, { sortIndex: 5 });
    const before = await counts(w.dictionary.id);

    const stub = await w.admin.post<DisplayConcept>(`/display-concepts/create/${w.dictionary.id}`);
    expect(stub.status, stub.text).toBe(200);
    expect(stub.body).toMatchObject({ id: null, concept: null, sectionId: w.section.id, metadataFields: [] });
    expect(stub.body.languageCodes).toEqual(['deu', 'fra', 'eng', 'jpn']);
    expect(
      stub.body.termsPerLanguage.map((group) =>
        group.map((term) => [term.id, term.langCode, term.termField.value]),
      ),
    ).toEqual([[[null, 'deu', null]], [[null, 'fra', null]], [[null, 'eng', null]], [[null, 'jpn', null]]]);
    expect(stub.body.fields.map((f) => [f.label, f.value, f.readOnly])).toEqual(
      ['Definition', 'Status', 'Due', 'Tags', 'Remark'].map((label) => [label, null, false]),
    );
    expect(field(stub.body.classificationFields, 'SECT')).toMatchObject({
      valueOid: w.section.oid,
      readOnly: false,
    });

    // A user who may create concepts only in the second section, and write German terms only.
    const user = await restrictedUser(w, {
      conceptPermissions: [],
      dictionaryPermissions: ['CONCEPT_CREATE'],
      termLanguages: ['deu'],
      section: second,
    });
    const readOnlyScheme = await createScheme(w.admin, [
      { groupId: user.group.id, dictionaryPermissions: ['DICT_READ'] },
    ]);
    await patchAtCurrentVersion(w.admin, 'sections', w.section.id, { permissionSchemeId: readOnlyScheme.id });
    const theirs = await user.rest.post<DisplayConcept>(`/display-concepts/create/${w.dictionary.id}`);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.sectionId).toBe(second.id);
    expect(theirs.body.languageCodes).toEqual(['deu', 'fra', 'eng', 'jpn']);
    expect(theirs.body.termsPerLanguage.map((group) => group.length)).toEqual([1, 0, 0, 0]);

    // Without CONCEPT_CREATE anywhere: 403.
    const reader = await restrictedUser(w, { conceptPermissions: [], section: second });
    expectError(await reader.rest.post(`/display-concepts/create/${w.dictionary.id}`), 403);

    expect(await counts(w.dictionary.id)).toEqual(before);
  });

  it('copy: the same section, domains, values and terms, without ids', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const before = await counts(w.dictionary.id);
    const copy = await w.admin.post<DisplayConcept>(`/display-concepts/copy/${concept.id}`);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body).toMatchObject({ id: null, concept: null, sectionId: w.section.id, metadataFields: [] });
    expect(names(copy.body)).toEqual([['Katze'], ['chat'], ['cat'], []]);
    const terms = copy.body.termsPerLanguage.flat();
    expect(terms.every((term) => term.id === null && term.metadataFields.length === 0)).toBe(true);
    expect(new Set(terms.map((term) => term.elementId)).size).toBe(3);
    expect(termNamed(copy.body, 'cat')).toMatchObject({ region: 'US', langCode: 'eng' });
    expect(field(termNamed(copy.body, 'cat').fields, w.tf.Gender!).value).toBe('female');
    expect(field(copy.body.fields, w.cf.Status!).value).toBe('Approved');
    expect(field(copy.body.classificationFields, 'DOM').value).toBe('Zoology|Botany');
    expect(await counts(w.dictionary.id)).toEqual(before);

    const reader = await restrictedUser(w, { conceptPermissions: [] });
    expectError(await reader.rest.post(`/display-concepts/copy/${concept.id}`), 403);
  });

  it('add-term and copy-term: term stubs with TERM_CREATE, in an allowed language', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const before = await counts(w.dictionary.id);

    const blank = await w.admin.post<DisplayTerm>(
      `/display-concepts/add-term/${concept.id}${query({ 'lang-code': 'fra' })}`,
    );
    expect(blank.status, blank.text).toBe(200);
    expect(blank.body).toMatchObject({
      id: null,
      langCode: 'fra',
      dictionary_id: w.dictionary.id,
      termField: { id: 'TERM', value: null, readOnly: false },
      metadataFields: [],
    });
    expect(blank.body.fields.map((f) => [f.label, f.value])).toEqual([
      ['Gender', null],
      ['Usage', null],
    ]);
    const first = await w.admin.post<DisplayTerm>(`/display-concepts/add-term/${concept.id}`);
    expect(first.body.langCode).toBe('deu');
    expectError(
      await w.admin.post(`/display-concepts/add-term/${concept.id}${query({ 'lang-code': 'xyz' })}`),
      400,
    );

    const cat = concept.terms.find((term) => term.name === 'cat')!;
    const copy = await w.admin.post<DisplayTerm>(`/display-concepts/copy-term/${cat.id}`);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body).toMatchObject({ id: null, langCode: 'eng', region: 'US', termField: { value: 'cat' } });
    expect(copy.body.fields.map((f) => [f.label, f.value])).toEqual([
      ['Gender', 'female'],
      ['Usage', null],
    ]);
    expect(await counts(w.dictionary.id)).toEqual(before);

    // TERM_CREATE, and for the term's language.
    const reader = await restrictedUser(w, { conceptPermissions: ['CONCEPT_UPDATE'] });
    expectError(await reader.rest.post(`/display-concepts/add-term/${concept.id}`), 403);
    expectError(await reader.rest.post(`/display-concepts/copy-term/${cat.id}`), 403);
    const german = await restrictedUser(w, { conceptPermissions: ['TERM_CREATE'], termLanguages: ['deu'] });
    expect(
      (await german.rest.post<DisplayTerm>(`/display-concepts/add-term/${concept.id}`)).body.langCode,
    ).toBe('deu');
    expectError(await german.rest.post(`/display-concepts/copy-term/${cat.id}`), 403);
    expectError(
      await german.rest.post(`/display-concepts/add-term/${concept.id}${query({ 'lang-code': 'eng' })}`),
      403,
    );
  });
});

describe('print as HTML', () => {
  it('a standalone page with every value escaped, on both paths', async () => {
    const w = await world();
    const response = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: w.dictionary.id,
      sectionOid: w.section.oid,
      fieldMap: { [w.cf.Definition!]: 'Line "one"\nLine <b>two</b> & more' },
      terms: [
        { name: 'second', languageCode: 'eng' },
        { name: '<script>alert(1)</script>', languageCode: 'deu' },
      ],
    });
    expect(response.status, response.text).toBe(201);
    const id = response.body.id;

    const page = await w.admin.get<string>(`/concepts/${id}/print-as-html`);
    expect(page.status, page.text).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = page.text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="en">');
    // The title is the first term (German sorts first); nothing of the values is markup.
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Line &quot;one&quot;<br>Line &lt;b&gt;two&lt;/b&gt; &amp; more');
    expect(html).toContain('lang="de"');
    expect(html).toContain(w.dictionary.name);

    const old = await w.admin.get<string>(`/concepts/print-as-html/${id}`);
    expect(old.status).toBe(200);
    expect(old.text).toBe(html);
  });

  it('leaves out what the view hides', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const view = await createView(w.admin, w.dictionary.id, [w.cf.Status!]);
    await patchAtCurrentVersion(w.admin, 'sections', w.section.id, { viewId: view.id });
    const html = (await w.admin.get<string>(`/concepts/${concept.id}/print-as-html`)).text;
    expect(html).toContain('Approved');
    expect(html).not.toContain('A small');
    expect(html).toContain('Katze');
  });

  it('403 without CONCEPT_PRINT, 404 for another client or an unknown concept, 401 without token', async () => {
    const w = await world();
    const concept = await richConcept(w);
    const reader = await restrictedUser(w, { conceptPermissions: ['CONCEPT_VIEW_HISTORY'] });
    expect((await reader.rest.get(`/display-concepts/${concept.id}`)).status).toBe(200);
    expectError(await reader.rest.get(`/concepts/${concept.id}/print-as-html`), 403);
    expectError(await reader.rest.get(`/concepts/print-as-html/${concept.id}`), 403);

    const printer = await restrictedUser(w, { conceptPermissions: ['CONCEPT_PRINT'] });
    expect((await printer.rest.get(`/concepts/${concept.id}/print-as-html`)).status).toBe(200);

    const other = await newTenant(t, sysadmin);
    expectError(await other.admin.get(`/concepts/${concept.id}/print-as-html`), 404);
    expectError(await w.admin.get('/concepts/999999999/print-as-html'), 404);
    expectError(await w.admin.get('/concepts/abc/print-as-html'), 400);
    expectError(await new RestClient(t.app).get(`/concepts/${concept.id}/print-as-html`), 401);
  });
});
