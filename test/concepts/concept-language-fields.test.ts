/**
 * Language fields through concept writes (docs/concepts.md, Language fields): create, PUT (replaces
 * them; left out, they stay), PATCH (per tag and field), validation, 409, the EDIT round trip, history
 * changes and snapshots, undo, and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../e2e/structure-graphql-helpers.js';
import { createScheme, expectError, grant, groupWith, patchAtCurrentVersion } from '../helpers/structure.js';
import { itemsOf, storedItems, undoConcept } from '../history/history-helpers.js';
import {
  type ConceptBody,
  conceptInput,
  conceptWorld,
  createConcept,
  expectBadRequest,
  getConcept,
  patchConcept,
  putConcept,
  type Server,
  startServer,
  userOf,
  type World,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const tag = (languageCode: string, fieldMap: Record<string, unknown>, regionCode: string | null = null) => ({
  languageCode,
  regionCode,
  scriptCode: null,
  fieldMap,
});

/** A concept with English and German terms, English (and British) usage notes and a German label. */
async function withLanguageFields(w: World): Promise<ConceptBody> {
  return createConcept(w.admin, w, {
    terms: [
      { name: 'cat', languageCode: 'eng' },
      { name: 'Katze', languageCode: 'deu' },
    ],
    languageFields: [
      tag('eng', { [w.tf.Usage]: 'Language note' }),
      tag('eng', { [w.tf.Usage]: ['British note'] }, 'GB'),
      tag('deu', { [w.tf.Labels]: ['x', 'y'] }),
    ],
  });
}

const read = async (w: World, id: number, params = '') => getConcept(w.admin, id, params);

describe('create and read', () => {
  it('POST takes languageFields; FULL and EDIT list them in tag order', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const expected = [
      tag('deu', { [w.tf.Labels]: ['x', 'y'] }),
      tag('eng', { [w.tf.Usage]: ['Language note'] }),
      tag('eng', { [w.tf.Usage]: ['British note'] }, 'GB'),
    ];
    expect(created.languageFields).toEqual(expected);
    expect((await read(w, created.id, '?format=EDIT')).languageFields).toEqual(expected);
    const [item] = await itemsOf(w.admin, created.id);
    expect(item!.snapshot?.languageFields).toEqual(expected);
  });
});

describe('PUT', () => {
  it('the EDIT read sent back unchanged changes nothing: same version, no history item', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const edit = await read(w, created.id, '?format=EDIT');
    const items = await storedItems(s, created.id);
    const again = await w.admin.put<ConceptBody>(`/concepts/${created.id}`, edit);
    expect(again.status, again.text).toBe(200);
    expect(again.body.version).toBe(created.version);
    expect(again.body.languageFields).toEqual(created.languageFields);
    expect(await storedItems(s, created.id)).toBe(items);
  });

  it('replaces them all: changed values, a tag removed, a tag added; left out, they stay', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const put = await putConcept(w.admin, created, {
      languageFields: [tag('eng', { [w.tf.Usage]: 'New note' }), tag('fra', { [w.tf.Gender]: 'feminine' })],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.version).toBe(created.version + 1);
    const expected = [
      tag('eng', { [w.tf.Usage]: ['New note'] }),
      tag('fra', { [w.tf.Gender]: ['feminine'] }),
    ];
    expect(put.body.languageFields).toEqual(expected);

    // A PUT without the member (a client that does not know it) keeps them; nothing else changed: no version.
    const kept = await w.admin.put<ConceptBody>(`/concepts/${created.id}`, conceptInput(put.body));
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.version).toBe(put.body.version);
    expect(kept.body.languageFields).toEqual(expected);
    // null keeps them too; [] removes them all.
    const withNull = await putConcept(w.admin, put.body, { languageFields: null });
    expect(withNull.body.languageFields).toEqual(expected);
    const cleared = await putConcept(w.admin, put.body, { languageFields: [] });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.languageFields).toEqual([]);
    expect((await read(w, created.id)).languageFields).toEqual([]);
  });

  it('codes as the dictionary spells them; a tag left without values is dropped', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const put = await putConcept(w.admin, created, {
      languageFields: [
        { languageCode: 'ENG', regionCode: 'gb', fieldMap: { [w.tf.Usage]: 'Line one\nline two' } },
        tag('deu', { [w.tf.Labels]: [] }),
      ],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.languageFields).toEqual([tag('eng', { [w.tf.Usage]: ['Line one\r\nline two'] }, 'GB')]);
  });
});

describe('PATCH', () => {
  it('fields sent for a tag replace those fields; other fields and tags stay; null removes a field', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const patched = await patchConcept(w.admin, created, {
      languageFields: [
        tag('eng', { [w.tf.Gender]: 'masculine' }),
        tag('deu', { [w.tf.Labels]: null }),
        tag('fra', { [w.tf.Usage]: 'Note française' }),
      ],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.version).toBe(created.version + 1);
    expect(patched.body.languageFields).toEqual([
      tag('eng', { [w.tf.Usage]: ['Language note'], [w.tf.Gender]: ['masculine'] }),
      tag('eng', { [w.tf.Usage]: ['British note'] }, 'GB'),
      tag('fra', { [w.tf.Usage]: ['Note française'] }),
    ]);
    // A patch that does not name them leaves them.
    const other = await patchConcept(w.admin, patched.body, { fieldMap: { [w.cf.Note]: 'concept note' } });
    expect(other.status, other.text).toBe(200);
    expect(other.body.languageFields).toEqual(patched.body.languageFields);
  });
});

describe('validation and conflicts', () => {
  it('bad language fields answer 400 naming each problem and change nothing', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const bad = await putConcept(w.admin, created, {
      languageFields: [
        tag('eng', { [w.cf.Note]: 'concept-level field' }),
        tag('ita', { [w.tf.Usage]: 'not a language of the dictionary' }),
        tag('eng', { [w.tf.Usage]: 'unknown region' }, 'AU'),
        tag('deu', { [w.tf.Gender]: 'neuter', nope: 'x' }),
        tag('deu', { [w.tf.Usage]: 'twice' }),
      ],
    });
    expectBadRequest(
      bad,
      `languageFields[0].fieldMap: "${w.cf.Note}" is not a term field`,
      'languageFields[1]: languageCode "ita" is not a language',
      'languageFields[2]: regionCode "AU"',
      'languageFields[3].fieldMap: "nope" is not a term field',
      'languageFields[4]: language deu is given twice',
    );
    expect(bad.body.message).toContain('neuter');
    const patch = await patchConcept(w.admin, created, {
      languageFields: [tag('eng', { [w.tf.Gender]: 'x' })],
    });
    expectBadRequest(patch, 'languageFields[0].fieldMap');
    const shape = await patchConcept(w.admin, created, { languageFields: [{ fieldMap: {} }] });
    expect(shape.status, shape.text).toBe(400);
    expect(shape.body.code).toBe('BAD_REQUEST');
    const after = await read(w, created.id);
    expect(after.version).toBe(created.version);
    expect(after.languageFields).toEqual(created.languageFields);
  });

  it('a stale or missing version answers 409 and changes nothing', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const moved = await patchConcept(w.admin, created, {
      languageFields: [tag('eng', { [w.tf.Usage]: 'v2' })],
    });
    expect(moved.status, moved.text).toBe(200);
    const stale = await putConcept(w.admin, created, { languageFields: [] });
    expectError(stale, 409);
    const missing = await w.admin.put(`/concepts/${created.id}/patch`, {
      languageFields: [tag('eng', { [w.tf.Usage]: 'v3' })],
    });
    expectError(missing, 409);
    expect((await read(w, created.id)).languageFields).toEqual(moved.body.languageFields);
  });
});

describe('history and undo', () => {
  it('a change is listed per tag and field and kept in the snapshot; undo brings them back', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const put = await putConcept(w.admin, created, {
      languageFields: [
        tag('eng', { [w.tf.Usage]: 'Changed note' }),
        tag('fra', { [w.tf.Gender]: 'feminine' }),
      ],
    });
    expect(put.status, put.text).toBe(200);
    const [update, creation] = await itemsOf(w.admin, created.id);
    expect(update!.action).toBe('UPDATE');
    const changes = update!.changes;
    expect(changes).toEqual(
      expect.arrayContaining([
        {
          kind: 'CHANGED',
          subject: 'LANGUAGE_FIELD',
          language: 'eng',
          fieldOid: w.tf.Usage,
          before: ['Language note'],
          after: ['Changed note'],
        },
        {
          kind: 'REMOVED',
          subject: 'LANGUAGE_FIELD',
          language: 'eng-GB',
          fieldOid: w.tf.Usage,
          before: ['British note'],
        },
        {
          kind: 'REMOVED',
          subject: 'LANGUAGE_FIELD',
          language: 'deu',
          fieldOid: w.tf.Labels,
          before: ['x', 'y'],
        },
        {
          kind: 'ADDED',
          subject: 'LANGUAGE_FIELD',
          language: 'fra',
          fieldOid: w.tf.Gender,
          after: ['feminine'],
        },
      ]),
    );
    expect(changes).toHaveLength(4);
    expect(update!.snapshot?.languageFields).toEqual(put.body.languageFields);

    const undone = await undoConcept(w.admin, creation!.id);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.languageFields).toEqual(created.languageFields);
    const [undo] = await itemsOf(w.admin, created.id);
    expect(undo!.action).toBe('UNDO');
    expect(undo!.changes.filter((change) => change.subject === 'LANGUAGE_FIELD')).toHaveLength(4);
  });
});

describe('permissions', () => {
  it("a language's values need TERM_UPDATE in that language", async () => {
    const w = await conceptWorld(s);
    const editor = await userOf(s, w);
    const group = await groupWith(w.adminRest, [editor.id]);
    const scheme = await createScheme(w.adminRest, [
      {
        ...grant(group.id, ['DICT_READ'], ['CONCEPT_UPDATE']),
        termPermissions: ['TERM_UPDATE'],
        languages: ['deu'],
      } as ReturnType<typeof grant>,
    ]);
    const patched = await patchAtCurrentVersion(w.adminRest, 'sections', w.section2.id, {
      permissionSchemeId: scheme.id,
    });
    expect(patched.status, patched.text).toBe(200);
    const created = await createConcept(w.admin, w, {
      sectionOid: w.section2.oid,
      terms: [{ name: 'Katze', languageCode: 'deu' }],
      languageFields: [tag('eng', { [w.tf.Usage]: 'English note' })],
    });
    const english = await patchConcept(editor.api, created, {
      languageFields: [tag('eng', { [w.tf.Usage]: 'changed' })],
    });
    expectError(english, 403);
    expect(english.body.message).toContain('language "eng"');
    const german = await patchConcept(editor.api, created, {
      languageFields: [tag('deu', { [w.tf.Usage]: 'Deutscher Hinweis' })],
    });
    expect(german.status, german.text).toBe(200);
    expect(german.body.languageFields.map((row) => row.languageCode)).toEqual(['deu', 'eng']);
  });
});

describe('tenant isolation', () => {
  it("another tenant's writes answer 404; another dictionary's field is refused", async () => {
    const w = await conceptWorld(s);
    const stranger = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const body = { ...conceptInput(created), languageFields: [tag('eng', { [w.tf.Usage]: 'stolen' })] };
    expectError(await stranger.admin.put(`/concepts/${created.id}`, body), 404);
    expectError(
      await stranger.admin.put(`/concepts/${created.id}/patch`, {
        version: created.version,
        languageFields: body.languageFields,
      }),
      404,
    );
    const foreign = await putConcept(w.admin, created, {
      languageFields: [tag('eng', { [stranger.tf.Usage]: 'foreign field' })],
    });
    expectBadRequest(foreign, `"${stranger.tf.Usage}" is not a term field`);
    expect((await read(w, created.id)).languageFields).toEqual(created.languageFields);
  });
});

describe('GraphQL', () => {
  it('patchConcept takes languageFields (bad ones answer BAD_REQUEST)', async () => {
    const w = await conceptWorld(s);
    const created = await withLanguageFields(w);
    const mutation = `mutation($id: Int!, $version: Int!, $input: ConceptInput!) {
      patchConcept(id: $id, version: $version, input: $input) {
        version languageFields { languageCode regionCode scriptCode fieldMap } } }`;
    const ok = await gql<{ patchConcept: ConceptBody }>(s.base, w.adminRest.token!, mutation, {
      id: created.id,
      version: created.version,
      input: { languageFields: [{ languageCode: 'deu', fieldMap: { [w.tf.Usage]: 'Hinweis' } }] },
    });
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(ok.data!.patchConcept.languageFields[0]).toEqual(
      tag('deu', { [w.tf.Labels]: ['x', 'y'], [w.tf.Usage]: ['Hinweis'] }),
    );
    const bad = await gql(s.base, w.adminRest.token!, mutation, {
      id: created.id,
      version: ok.data!.patchConcept.version,
      input: { languageFields: [{ languageCode: 'ita', fieldMap: {} }] },
    });
    expect(bad.errors?.map((error) => error.extensions.code)).toEqual(['BAD_REQUEST']);
  });
});
