/**
 * Concept permissions: the concept and term permission maps and languageCodesEditable filled from roles
 * and permission schemes, the permission view for another section, 404 for unreadable sections and other
 * tenants, 403 for writes the caller's grants do not cover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemGroups } from '../access/access-helpers.js';
import {
  expectError,
  getDictionary,
  groupWith,
  patchAtCurrentVersion,
  uniqueSuffix,
  updateDictionary,
} from '../helpers/structure.js';
import {
  type Api,
  type ConceptBody,
  conceptBody,
  conceptWorld,
  countRows,
  createConcept,
  getConcept,
  patchConcept,
  putConcept,
  type Server,
  setOid,
  startServer,
  termInput,
  userOf,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const CONCEPT_PERMISSIONS = [
  'CONCEPT_EDIT_FIELDS',
  'CONCEPT_UPDATE',
  'CONCEPT_DELETE',
  'CONCEPT_PRINT',
  'CONCEPT_VIEW_HISTORY',
  'RESTORE_STATE',
  'TERM_CREATE',
] as const;

/** A concept permission map with exactly `granted` true. */
const conceptMap = (...granted: string[]) =>
  Object.fromEntries(CONCEPT_PERMISSIONS.map((key) => [key, granted.includes(key)]));
const termMap = (update: boolean, remove: boolean) => ({ TERM_UPDATE: update, TERM_DELETE: remove });

interface Grant {
  groupId: number;
  dictionaryPermissions: string[];
  conceptPermissions?: string[];
  termPermissions?: string[];
  languages?: string[];
}

async function scheme(admin: Api, grants: Grant[]): Promise<number> {
  const response = await admin.post<{ id: number }>('/permissionschemes', {
    name: `Scheme ${uniqueSuffix()}`,
    grants: grants.map((grant) => ({
      conceptPermissions: [],
      termPermissions: [],
      languages: [],
      ...grant,
    })),
  });
  if (response.status !== 201) throw new Error(`scheme: ${response.status} ${response.text}`);
  return response.body.id;
}

/**
 * The world's dictionary under a scheme, its second section under another:
 * - editor: first section DICT_READ, CONCEPT_CREATE; CONCEPT_UPDATE, CONCEPT_PRINT, TERM_CREATE;
 *   TERM_UPDATE in German only. Second section: DICT_READ; CONCEPT_DELETE, CONCEPT_VIEW_HISTORY;
 *   TERM_DELETE in every language.
 * - reader: DICT_READ in the first section only.
 * - fielder: first section DICT_READ, CONCEPT_EDIT_FIELDS.
 * - deleter: first section DICT_READ; CONCEPT_DELETE; TERM_DELETE in every language.
 * - the Owner group: CONCEPT_DELETE in the first section (for the creator of a concept).
 */
async function permissionWorld() {
  const w = await conceptWorld(s);
  const [editor, reader, fielder, deleter] = await Promise.all([
    userOf(s, w),
    userOf(s, w),
    userOf(s, w),
    userOf(s, w),
  ]);
  const group = async (userId: number) => (await groupWith(w.adminRest, [userId])).id;
  const editors = await group(editor.id);
  const readers = await group(reader.id);
  const fielders = await group(fielder.id);
  const deleters = await group(deleter.id);
  const owner = (await systemGroups(w.adminRest)).OWNER.id;
  const main = await scheme(w.admin, [
    {
      groupId: editors,
      dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'],
      conceptPermissions: ['CONCEPT_UPDATE', 'CONCEPT_PRINT', 'TERM_CREATE'],
      termPermissions: ['TERM_UPDATE'],
      languages: ['deu'],
    },
    { groupId: readers, dictionaryPermissions: ['DICT_READ'] },
    { groupId: fielders, dictionaryPermissions: ['DICT_READ'], conceptPermissions: ['CONCEPT_EDIT_FIELDS'] },
    {
      groupId: deleters,
      dictionaryPermissions: ['DICT_READ'],
      conceptPermissions: ['CONCEPT_DELETE'],
      termPermissions: ['TERM_DELETE'],
    },
    { groupId: owner, dictionaryPermissions: [], conceptPermissions: ['CONCEPT_DELETE'] },
  ]);
  const second = await scheme(w.admin, [
    {
      groupId: editors,
      dictionaryPermissions: ['DICT_READ'],
      conceptPermissions: ['CONCEPT_DELETE', 'CONCEPT_VIEW_HISTORY'],
      termPermissions: ['TERM_DELETE'],
    },
  ]);
  const updated = await updateDictionary(w.adminRest, await getDictionary(w.adminRest, w.dictionary.id), {
    permissionSchemeId: main,
  });
  if (updated.status !== 200) throw new Error(`scheme on dictionary: ${updated.status} ${updated.text}`);
  const sectionPatch = await patchAtCurrentVersion(w.adminRest, 'sections', w.section2.id, {
    permissionSchemeId: second,
  });
  if (sectionPatch.status !== 200)
    throw new Error(`scheme on section: ${sectionPatch.status} ${sectionPatch.text}`);
  /** An English and a German term, made by the administrator in the first section. */
  const concept = () =>
    createConcept(w.admin, w, {
      terms: [
        { name: 'cat', languageCode: 'eng' },
        { name: 'Katze', languageCode: 'deu' },
      ],
    });
  /** The same, in the second section. */
  const secondConcept = () =>
    createConcept(w.admin, w, {
      sectionOid: w.section2.oid,
      terms: [
        { name: 'dog', languageCode: 'eng' },
        { name: 'Hund', languageCode: 'deu' },
      ],
    });
  return { w, editor, reader, fielder, deleter, concept, secondConcept };
}

describe('permission maps', () => {
  it('concept and term maps and languageCodesEditable follow the grants of the section', async () => {
    const p = await permissionWorld();
    const created = await p.concept();

    const asEditor = await getConcept(p.editor.api, created.id);
    expect(asEditor.permissions).toEqual(conceptMap('CONCEPT_UPDATE', 'CONCEPT_PRINT', 'TERM_CREATE'));
    expect(asEditor.terms.map((term) => [term.languageCode, term.permissions])).toEqual([
      ['eng', termMap(false, false)],
      ['deu', termMap(true, false)],
    ]);
    expect(asEditor.languageCodesEditable).toEqual(['deu']);

    const asReader = await getConcept(p.reader.api, created.id);
    expect(asReader.permissions).toEqual(conceptMap());
    expect(asReader.terms.map((term) => term.permissions)).toEqual([
      termMap(false, false),
      termMap(false, false),
    ]);
    expect(asReader.languageCodesEditable).toEqual([]);

    const asDeleter = await getConcept(p.deleter.api, created.id);
    expect(asDeleter.permissions).toEqual(conceptMap('CONCEPT_DELETE'));
    expect(asDeleter.terms.map((term) => term.permissions)).toEqual([
      termMap(false, true),
      termMap(false, true),
    ]);
    expect(asDeleter.languageCodesEditable).toEqual([]);

    const asAdmin = await getConcept(p.w.admin, created.id);
    expect(asAdmin.permissions).toEqual(conceptMap(...CONCEPT_PERMISSIONS));
    expect(asAdmin.terms.map((term) => term.permissions)).toEqual([termMap(true, true), termMap(true, true)]);
    expect(asAdmin.languageCodesEditable).toEqual(['eng', 'deu', 'fra']);

    const dictionaryAdmin = await userOf(s, p.w, [`DICTIONARY_ADMIN@${p.w.dictionary.oid}`]);
    const asDictionaryAdmin = await getConcept(dictionaryAdmin.api, created.id);
    expect(asDictionaryAdmin.permissions).toEqual(conceptMap(...CONCEPT_PERMISSIONS));
    expect(asDictionaryAdmin.languageCodesEditable).toEqual(['eng', 'deu', 'fra']);
  });

  it("languageCodesEditable follows the languages' sortIndex", async () => {
    const w = await conceptWorld(s);
    const sorted = await w.adminRest.post<{ id: number; sections: { oid: string }[] }>('/dictionaries', {
      name: `Sorted ${uniqueSuffix()}`,
      languages: [
        { code: 'eng', sortIndex: 2 },
        { code: 'deu', sortIndex: 0 },
        { code: 'fra', sortIndex: 1 },
      ],
    });
    expect(sorted.status, sorted.text).toBe(201);
    const created = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: sorted.body.id,
      sectionOid: sorted.body.sections[0]!.oid,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.languageCodesEditable).toEqual(['deu', 'fra', 'eng']);
  });

  it('grants of the Owner group reach the creator of the concept only', async () => {
    const p = await permissionWorld();
    const own = await createConcept(p.editor.api, p.w, { terms: [{ name: 'Maus', languageCode: 'deu' }] });
    expect(own.permissions.CONCEPT_DELETE).toBe(true);
    const others = await p.concept();
    expect((await getConcept(p.editor.api, others.id)).permissions.CONCEPT_DELETE).toBe(false);
    expectError(await p.editor.api.delete(`/concepts/${others.id}`), 403);
    expect((await p.editor.api.delete(`/concepts/${own.id}`)).status).toBe(204);
  });

  it('GET /concepts/{id}/permissions and /concepts/permissions/{id}: as in its section, or as in section-oid', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    for (const path of [`/concepts/${created.id}/permissions`, `/concepts/permissions/${created.id}`]) {
      const here = await p.editor.api.get<ConceptBody>(path);
      expect(here.status, here.text).toBe(200);
      expect(here.body.id).toBe(created.id);
      expect(here.body.permissions).toEqual(conceptMap('CONCEPT_UPDATE', 'CONCEPT_PRINT', 'TERM_CREATE'));
      expect(here.body.languageCodesEditable).toEqual(['deu']);

      const there = await p.editor.api.get<ConceptBody>(`${path}?section-oid=${p.w.section2.oid}`);
      expect(there.status, there.text).toBe(200);
      expect(there.body.permissions).toEqual(conceptMap('CONCEPT_DELETE', 'CONCEPT_VIEW_HISTORY'));
      expect(there.body.terms.map((term) => term.permissions)).toEqual([
        termMap(false, true),
        termMap(false, true),
      ]);
      expect(there.body.languageCodesEditable).toEqual([]);
      // The concept itself stays where it is.
      expect(there.body.sectionOid).toBe(p.w.section.oid);

      // A section the caller cannot read, or of another dictionary: 404.
      expectError(await p.reader.api.get(`${path}?section-oid=${p.w.section2.oid}`), 404);
      expectError(await p.editor.api.get(`${path}?section-oid=${p.w.other.sectionOid}`), 404);
      expectError(await p.editor.api.get(`${path}?section-oid=no-such-section`), 404);
    }
    expect((await getConcept(p.editor.api, created.id)).permissions).toEqual(
      conceptMap('CONCEPT_UPDATE', 'CONCEPT_PRINT', 'TERM_CREATE'),
    );
  });
});

describe('hidden concepts (404)', () => {
  it('a concept in a section the caller cannot read answers 404 to every call', async () => {
    const p = await permissionWorld();
    const hidden = await p.secondConcept();
    const oid = `H-${hidden.id}-${uniqueSuffix()}`;
    await setOid(s.t, 'concepts', hidden.id, oid);
    const termId = hidden.terms[0]!.id;
    expect((await getConcept(p.editor.api, hidden.id)).id).toBe(hidden.id);

    const api = p.reader.api;
    for (const path of [
      `/concepts/${hidden.id}`,
      `/concepts/oid/${oid}`,
      `/concepts?oid=${oid}`,
      `/concepts/find-by-term-id?term-id=${termId}`,
      `/concepts/find-by-term-ids?term-ids=${termId}`,
      `/concepts?term-id=${termId}`,
      `/concepts/${hidden.id}/permissions`,
      `/concepts/permissions/${hidden.id}`,
    ]) {
      expectError(await api.get(path), 404);
    }
    expectError(await putConcept(api, hidden, { fieldMap: {} }), 404);
    expectError(await patchConcept(api, hidden, { fieldMap: {} }), 404);
    expectError(await api.delete(`/concepts/${hidden.id}`), 404);
    expectError(await api.put(`/concepts/${hidden.id}/acquire-lock`), 404);
    expectError(await api.put(`/concepts/acquire-lock?concept-id=${hidden.id}`), 404);
    expectError(await api.put(`/concepts/${hidden.id}/release-lock`), 404);
    // Nor may the reader create concepts there.
    expectError(await api.post('/concepts', conceptBody(p.w, { sectionOid: p.w.section2.oid })), 404);
    expect(await getConcept(p.w.admin, hidden.id)).toMatchObject({ version: hidden.version, deleted: false });
  });

  it("another tenant's concept answers 404, even to its administrator", async () => {
    const w = await conceptWorld(s);
    const created = await createConcept(w.admin, w);
    const oid = `X-${created.id}-${uniqueSuffix()}`;
    await setOid(s.t, 'concepts', created.id, oid);
    const stranger = (await conceptWorld(s)).admin;
    const termId = created.terms[0]!.id;
    for (const path of [
      `/concepts/${created.id}`,
      `/concepts/oid/${oid}`,
      `/concepts/find-by-term-id?term-id=${termId}`,
      `/concepts/find-by-term-ids?term-ids=${termId}`,
      `/concepts?term-id=${termId}`,
      `/concepts/${created.id}/permissions`,
    ]) {
      expectError(await stranger.get(path), 404);
    }
    expectError(await putConcept(stranger, created, { fieldMap: {} }), 404);
    expectError(await patchConcept(stranger, created, { fieldMap: {} }), 404);
    expectError(await stranger.delete(`/concepts/${created.id}`), 404);
    expectError(await stranger.put(`/concepts/${created.id}/acquire-lock`), 404);
    expectError(await stranger.put(`/concepts/${created.id}/release-lock`), 404);
    // Nor can it create concepts in the other tenant's dictionary.
    expectError(await stranger.post('/concepts', conceptBody(w)), 404);
    expect(await getConcept(w.admin, created.id)).toMatchObject({
      version: created.version,
      deleted: false,
      fieldMap: created.fieldMap,
    });
  });
});

describe('refused writes (403)', () => {
  it('create needs CONCEPT_CREATE in the section, and term grants for the languages of its terms', async () => {
    const p = await permissionWorld();
    const before = await countRows(s.t, p.w.dictionary.id);
    expectError(await p.reader.api.post('/concepts', conceptBody(p.w)), 403);
    expectError(
      await p.editor.api.post(
        '/concepts',
        conceptBody(p.w, { sectionOid: p.w.section2.oid, terms: [{ name: 'Hund', languageCode: 'deu' }] }),
      ),
      403,
    );
    const english = await p.editor.api.post(
      '/concepts',
      conceptBody(p.w, { terms: [{ name: 'dog', languageCode: 'eng' }] }),
    );
    expectError(english, 403);
    expect(english.body.message).toContain('eng');
    expect(await countRows(s.t, p.w.dictionary.id)).toEqual(before);

    const german = await p.editor.api.post<ConceptBody>(
      '/concepts',
      conceptBody(p.w, { terms: [{ name: 'Hund', languageCode: 'deu' }] }),
    );
    expect(german.status, german.text).toBe(201);
  });

  it('concept attributes need CONCEPT_UPDATE; field values CONCEPT_EDIT_FIELDS or CONCEPT_UPDATE', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    const refused = await patchConcept(p.reader.api, created, { domainList: [p.w.domain.oid] });
    expectError(refused, 403);
    expect(refused.body.message).toContain('CONCEPT_UPDATE');
    expectError(await patchConcept(p.reader.api, created, { fieldMap: { [p.w.cf.Note]: 'x' } }), 403);
    expectError(await patchConcept(p.fielder.api, created, { domainList: [p.w.domain.oid] }), 403);
    expectError(
      await patchConcept(p.fielder.api, created, {
        conceptRelations: [{ targetConceptId: (await p.concept()).id, type: 0, attribute: 0 }],
      }),
      403,
    );
    expect(await getConcept(p.w.admin, created.id)).toMatchObject({
      version: created.version,
      domainList: [],
    });

    const fields = await patchConcept(p.fielder.api, created, { fieldMap: { [p.w.cf.Note]: 'by fielder' } });
    expect(fields.status, fields.text).toBe(200);
    const domains = await patchConcept(p.editor.api, fields.body, {
      domainList: [p.w.domain.oid],
      fieldMap: { [p.w.cf.Note]: 'by editor' },
    });
    expect(domains.status, domains.text).toBe(200);
    expect(domains.body).toMatchObject({
      domainList: [p.w.domain.oid],
      fieldMap: { [p.w.cf.Note]: ['by editor'] },
    });
  });

  it('moving a concept needs CONCEPT_CREATE in the target section', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    expectError(await patchConcept(p.editor.api, created, { sectionOid: p.w.section2.oid }), 403);
    expect((await getConcept(p.w.admin, created.id)).sectionOid).toBe(p.w.section.oid);
  });

  it('terms: changing or adding one in a language not granted is 403; granted languages pass', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    const [cat, katze] = created.terms;
    const api = p.editor.api;

    const renameEnglish = await patchConcept(api, created, {
      terms: [{ ...termInput(cat!), name: 'kitty' }, termInput(katze!)],
    });
    expectError(renameEnglish, 403);
    expect(renameEnglish.body.message).toContain('eng');
    expectError(
      await patchConcept(api, created, {
        terms: [termInput(cat!), termInput(katze!), { name: 'chat', languageCode: 'fra' }],
      }),
      403,
    );
    // Moving a German term into English needs English too.
    expectError(
      await patchConcept(api, created, {
        terms: [termInput(cat!), { ...termInput(katze!), languageCode: 'eng' }],
      }),
      403,
    );
    // Removing a term needs TERM_DELETE.
    expectError(await patchConcept(api, created, { terms: [termInput(cat!)] }), 403);
    expect(await getConcept(p.w.admin, created.id)).toMatchObject({ version: created.version });

    const german = await patchConcept(api, created, {
      terms: [
        termInput(cat!),
        { ...termInput(katze!), name: 'Kätzchen' },
        { name: 'Mieze', languageCode: 'deu' },
      ],
    });
    expect(german.status, german.text).toBe(200);
    expect(german.body.terms.map((term) => term.name)).toEqual(['cat', 'Kätzchen', 'Mieze']);

    // The deleter may remove terms of any language, but change none.
    const removed = await patchConcept(p.deleter.api, german.body, {
      terms: german.body.terms.slice(1).map(termInput),
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.terms.map((term) => term.name)).toEqual(['Kätzchen', 'Mieze']);
    expectError(
      await patchConcept(p.deleter.api, removed.body, {
        terms: [{ ...termInput(removed.body.terms[0]!), name: 'Katze' }, termInput(removed.body.terms[1]!)],
      }),
      403,
    );
    // Adding terms needs TERM_CREATE.
    expectError(
      await patchConcept(p.deleter.api, removed.body, {
        terms: [...removed.body.terms.map(termInput), { name: 'Kater', languageCode: 'deu' }],
      }),
      403,
    );
  });

  it('TERM_CREATE in a grant without term permissions or languages allows terms of every language', async () => {
    const w = await conceptWorld(s);
    const creator = await userOf(s, w);
    const creators = (await groupWith(w.adminRest, [creator.id])).id;
    const id = await scheme(w.admin, [
      {
        groupId: creators,
        dictionaryPermissions: ['DICT_READ', 'CONCEPT_CREATE'],
        conceptPermissions: ['TERM_CREATE'],
      },
    ]);
    const updated = await updateDictionary(w.adminRest, await getDictionary(w.adminRest, w.dictionary.id), {
      permissionSchemeId: id,
    });
    expect(updated.status, updated.text).toBe(200);

    const created = await creator.api.post<ConceptBody>(
      '/concepts',
      conceptBody(w, { terms: [{ name: 'dog', languageCode: 'eng' }] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.permissions).toEqual(conceptMap('TERM_CREATE'));
    expect(created.body.languageCodesEditable).toEqual(['eng', 'deu', 'fra']);
    const added = await patchConcept(creator.api, created.body, {
      terms: [...created.body.terms.map(termInput), { name: 'Hund', languageCode: 'deu' }],
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body.terms.map((term) => term.name)).toEqual(['dog', 'Hund']);
  });

  it('delete needs CONCEPT_DELETE', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    const refused = await p.editor.api.delete(`/concepts/${created.id}`);
    expectError(refused, 403);
    expect(refused.body.message).toContain('CONCEPT_DELETE');
    expectError(await p.reader.api.delete(`/concepts/${created.id}`), 403);
    expect((await getConcept(p.w.admin, created.id)).deleted).toBe(false);
    expect((await p.deleter.api.delete(`/concepts/${created.id}`)).status).toBe(204);
  });

  it('locking needs a permission to edit the concept', async () => {
    const p = await permissionWorld();
    const created = await p.concept();
    expectError(await p.reader.api.put(`/concepts/${created.id}/acquire-lock`), 403);
    const locked = await p.fielder.api.put<boolean>(`/concepts/${created.id}/acquire-lock`);
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body).toBe(true);
  });
});
