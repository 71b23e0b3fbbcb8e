// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type ErrorBody,
  expectError,
  type FieldBody,
  fieldInput,
  getDictionary,
  grant,
  groupWith,
  insertConcepts,
  insertTerm,
  loggedInUser,
  newTenant,
  type PicklistItemBody,
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

async function admin() {
  return newTenant(t, sysadmin);
}

const field = (body: Record<string, unknown>) => ({ fieldType: 'SINGLELINE', ...body });

/** POST /dictionaries with fields, expecting an error status; and checks nothing was created. */
async function refusedCreate(
  caller: RestClient,
  fields: { conceptFields?: unknown[]; termFields?: unknown[] },
  status: number,
) {
  const name = `Refused ${Math.random()}`;
  const response = await caller.post<ErrorBody>('/dictionaries', { name, ...fields });
  expectError(response, status);
  expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);
  return response;
}

const byName = (fields: FieldBody[], name: string): FieldBody => {
  const found = fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe('fields and their models', () => {
  it('concept and term fields are created with their models, oids and picklist items', async () => {
    const { admin: caller } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [
        {
          name: 'Definition',
          specifiedName: 'Our definition',
          dataCategory: 'DEFINITION',
          fieldType: 'MULTILINE',
          model: { required: true, minLen: 5, maxLen: 500 },
        },
        { name: 'Code', fieldType: 'SINGLELINE', model: { regExp: '^[A-Z]{3}$' } },
        { name: 'Letters', fieldType: 'SINGLELINE', model: { regExp: '^\\p{L}+$', unicode: true } },
        { name: 'Amount', fieldType: 'NUMBER', model: { number: true } },
        { name: 'Due', fieldType: 'DATE' },
        { name: 'Serial', fieldType: 'INCREMENTAL' },
        {
          name: 'Status',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ name: 'new' }, { name: 'Approved', tbxName: 'approved' }] },
        },
      ],
      termFields: [
        {
          name: 'Gender',
          dataCategory: 'GRAMMATICAL_GENDER',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ tbxName: 'masculine' }, { tbxName: 'feminine' }] },
        },
        { name: 'Tags', fieldType: 'MULTISELECT', model: { picklistItems: [{ name: 'a' }, { name: 'b' }] } },
        // A concept field and a term field may share a name.
        { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
      ],
    });

    expect(dictionary.conceptFields.map((f) => [f.name, f.fieldType, f.level, f.sortIndex])).toEqual([
      ['Definition', 'MULTILINE', 'CONCEPT', 0],
      ['Code', 'SINGLELINE', 'CONCEPT', 1],
      ['Letters', 'SINGLELINE', 'CONCEPT', 2],
      ['Amount', 'NUMBER', 'CONCEPT', 3],
      ['Due', 'DATE', 'CONCEPT', 4],
      ['Serial', 'INCREMENTAL', 'CONCEPT', 5],
      ['Status', 'PICKLIST', 'CONCEPT', 6],
    ]);
    expect(dictionary.termFields.map((f) => [f.name, f.fieldType, f.level])).toEqual([
      ['Gender', 'PICKLIST', 'TERM'],
      ['Tags', 'MULTISELECT', 'TERM'],
      ['Definition', 'MULTILINE', 'TERM'],
    ]);

    const definition = byName(dictionary.conceptFields, 'Definition');
    expect(definition).toMatchObject({
      specifiedName: 'Our definition',
      dataCategory: 'DEFINITION',
      dictionaryId: dictionary.id,
      clientId: dictionary.clientId,
      deleted: false,
      version: expect.any(Number),
      model: {
        id: definition.id,
        oid: definition.oid,
        required: true,
        minLen: 5,
        maxLen: 500,
        regExp: null,
        number: false,
        unicode: false,
        picklistItems: [],
      },
    });
    expect(definition.oid).toMatch(/\S+/);
    const oids = [...dictionary.conceptFields, ...dictionary.termFields].map((f) => f.oid);
    expect(new Set(oids).size).toBe(oids.length);

    expect(byName(dictionary.conceptFields, 'Code')).toMatchObject({
      dataCategory: 'GENERIC',
      specifiedName: null,
      model: { regExp: '^[A-Z]{3}$', unicode: false, required: false, minLen: 0, maxLen: 0 },
    });
    expect(byName(dictionary.conceptFields, 'Letters').model).toMatchObject({
      regExp: '^\\p{L}+$',
      unicode: true,
    });
    expect(byName(dictionary.conceptFields, 'Amount').model.number).toBe(true);

    const status = byName(dictionary.conceptFields, 'Status');
    expect(status.model.picklistItems).toEqual([
      {
        id: expect.any(Number),
        oid: expect.any(String),
        name: 'new',
        tbxName: null,
        sortIndex: 0,
        fieldOid: status.oid,
      },
      {
        id: expect.any(Number),
        oid: expect.any(String),
        name: 'Approved',
        tbxName: 'approved',
        sortIndex: 1,
        fieldOid: status.oid,
      },
    ]);
    const gender = byName(dictionary.termFields, 'Gender');
    expect(gender.model.picklistItems.map((item) => [item.name, item.tbxName, item.fieldOid])).toEqual([
      [null, 'masculine', gender.oid],
      [null, 'feminine', gender.oid],
    ]);
    expect((await getDictionary(caller, dictionary.id)).conceptFields).toEqual(dictionary.conceptFields);
  });

  it('an invalid regular expression is 400; the unicode flag decides what is valid', async () => {
    const { admin: caller } = await admin();
    await refusedCreate(caller, { conceptFields: [field({ name: 'Bad', model: { regExp: '([' } })] }, 400);
    await refusedCreate(caller, { termFields: [field({ name: 'Bad', model: { regExp: 'a{2,1}' } })] }, 400);
    // `\-` outside a class is an identity escape without the u flag, an error with it.
    await refusedCreate(
      caller,
      { conceptFields: [field({ name: 'U', model: { regExp: 'a\\-b', unicode: true } })] },
      400,
    );
    const fine = await createDictionary(caller, {
      conceptFields: [field({ name: 'U', model: { regExp: 'a\\-b', unicode: false } })],
    });
    expect(fine.conceptFields[0]!.model.regExp).toBe('a\\-b');
  });

  it('minLen greater than maxLen is 400 (0 means no limit); lengths above 16383 are 400', async () => {
    const { admin: caller } = await admin();
    const response = await refusedCreate(
      caller,
      { conceptFields: [field({ name: 'Short', model: { minLen: 10, maxLen: 5 } })] },
      400,
    );
    expect(response.body.message).toMatch(/minLen/);
    await refusedCreate(caller, { conceptFields: [field({ name: 'Long', model: { maxLen: 16384 } })] }, 400);
    await refusedCreate(caller, { conceptFields: [field({ name: 'Neg', model: { minLen: -1 } })] }, 400);
    const fine = await createDictionary(caller, {
      conceptFields: [
        field({ name: 'Open ended', model: { minLen: 10, maxLen: 0 } }),
        field({ name: 'Equal', model: { minLen: 5, maxLen: 5 } }),
        field({ name: 'Longest', fieldType: 'MULTILINE', model: { maxLen: 16383 } }),
      ],
    });
    expect(fine.conceptFields.map((f) => [f.model.minLen, f.model.maxLen])).toEqual([
      [10, 0],
      [5, 5],
      [0, 16383],
    ]);
  });

  it('picklist items only on PICKLIST and MULTISELECT fields (400); each needs a name or tbxName; no value twice', async () => {
    const { admin: caller } = await admin();
    for (const fieldType of ['SINGLELINE', 'MULTILINE', 'NUMBER', 'DATE', 'INCREMENTAL']) {
      await refusedCreate(
        caller,
        { conceptFields: [{ name: 'Items', fieldType, model: { picklistItems: [{ name: 'x' }] } }] },
        400,
      );
    }
    await refusedCreate(
      caller,
      { conceptFields: [{ name: 'P', fieldType: 'PICKLIST', model: { picklistItems: [{}] } }] },
      400,
    );
    await refusedCreate(
      caller,
      {
        conceptFields: [
          { name: 'P', fieldType: 'PICKLIST', model: { picklistItems: [{ name: 'x' }, { name: 'X' }] } },
        ],
      },
      400,
    );
  });

  it('a TBX category on the wrong level is 400; a system category is no field (400); an unknown one is 400', async () => {
    const { admin: caller } = await admin();
    await refusedCreate(
      caller,
      { conceptFields: [{ name: 'POS', dataCategory: 'PART_OF_SPEECH', fieldType: 'PICKLIST' }] },
      400,
    );
    await refusedCreate(
      caller,
      { termFields: [{ name: 'Origin', dataCategory: 'CONCEPT_ORIGIN', fieldType: 'SINGLELINE' }] },
      400,
    );
    await refusedCreate(
      caller,
      { termFields: [{ name: 'Expl', dataCategory: 'EXPLANATION', fieldType: 'MULTILINE' }] },
      400,
    );
    for (const category of ['CONID', 'DOM', 'TERM', 'CREDATE', 'TERM_ID']) {
      await refusedCreate(
        caller,
        { conceptFields: [{ name: 'Sys', dataCategory: category, fieldType: 'SINGLELINE' }] },
        400,
      );
      await refusedCreate(
        caller,
        { termFields: [{ name: 'Sys', dataCategory: category, fieldType: 'SINGLELINE' }] },
        400,
      );
    }
    await refusedCreate(
      caller,
      { conceptFields: [{ name: 'X', dataCategory: 'NOPE', fieldType: 'SINGLELINE' }] },
      400,
    );
    await refusedCreate(caller, { conceptFields: [{ name: 'X', fieldType: 'CHECKBOX' }] }, 400);
    const fine = await createDictionary(caller, {
      conceptFields: [{ name: 'Origin', dataCategory: 'CONCEPT_ORIGIN', fieldType: 'SINGLELINE' }],
      termFields: [{ name: 'POS', dataCategory: 'PART_OF_SPEECH', fieldType: 'PICKLIST' }],
    });
    expect(fine.conceptFields[0]!.dataCategory).toBe('CONCEPT_ORIGIN');
    expect(fine.termFields[0]!.dataCategory).toBe('PART_OF_SPEECH');
  });

  it('two fields of a level with the same name (ignoring case) are 422; two fields for one TBX category are 422', async () => {
    const { admin: caller } = await admin();
    await refusedCreate(caller, { conceptFields: [field({ name: 'Note' }), field({ name: 'NOTE' })] }, 422);
    await refusedCreate(caller, { termFields: [field({ name: 'Note' }), field({ name: 'note' })] }, 422);
    await refusedCreate(
      caller,
      {
        conceptFields: [
          { name: 'Def 1', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
          { name: 'Def 2', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
        ],
      },
      422,
    );

    // The same on update, and nothing changes.
    const dictionary = await createDictionary(caller, { conceptFields: [field({ name: 'Note' })] });
    const clash = await updateDictionary(caller, dictionary, {
      description: 'not stored',
      conceptFields: [fieldInput(dictionary.conceptFields[0]!), field({ name: 'note' })],
    });
    expectError(clash, 422);
    expect(await getDictionary(caller, dictionary.id)).toEqual(dictionary);
  });
});

describe('fields across updates', () => {
  it('a field sent with its id keeps id and oid; picklist items are updated by id, added and removed', async () => {
    const { admin: caller } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [
        {
          name: 'Status',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ name: 'new' }, { name: 'old' }, { name: 'gone' }] },
        },
        field({ name: 'Remark' }),
      ],
      termFields: [field({ name: 'Usage' })],
    });
    const status = byName(dictionary.conceptFields, 'Status');
    const [newItem, oldItem, goneItem] = status.model.picklistItems as [
      PicklistItemBody,
      PicklistItemBody,
      PicklistItemBody,
    ];

    const updated = await updateDictionary(caller, dictionary, {
      conceptFields: [
        {
          ...fieldInput(status),
          name: 'State',
          fieldType: 'MULTISELECT',
          model: {
            required: true,
            picklistItems: [
              { id: oldItem.id, name: 'older' },
              { id: newItem.id, name: 'new' },
              { name: 'fresh' },
            ],
          },
        },
      ],
      termFields: dictionary.termFields.map(fieldInput),
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.conceptFields).toHaveLength(1);
    const state = updated.body.conceptFields[0]!;
    expect(state).toMatchObject({ id: status.id, oid: status.oid, name: 'State', fieldType: 'MULTISELECT' });
    expect(state.model.required).toBe(true);
    expect(state.model.picklistItems.map((item) => [item.id, item.oid, item.name, item.sortIndex])).toEqual([
      [oldItem.id, oldItem.oid, 'older', 0],
      [newItem.id, newItem.oid, 'new', 1],
      [expect.any(Number), expect.any(String), 'fresh', 2],
    ]);
    expect(state.model.picklistItems.map((item) => item.id)).not.toContain(goneItem.id);
    for (const item of state.model.picklistItems) expect(item.fieldOid).toBe(status.oid);

    // The removed field is gone from the dictionary and soft-deleted in the database.
    const remark = byName(dictionary.conceptFields, 'Remark');
    expect(updated.body.conceptFields.map((f) => f.id)).not.toContain(remark.id);
    expect(await rows(t, 'select deleted from fields where id = ?', [remark.id])).toEqual([
      { deleted: true },
    ]);
    // The term field sent back is unchanged.
    expect(updated.body.termFields.map((f) => [f.id, f.oid, f.name])).toEqual(
      dictionary.termFields.map((f) => [f.id, f.oid, f.name]),
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(updated.body);
  });

  it('the same field id twice in one request is refused (400) and changes nothing', async () => {
    const { admin: caller } = await admin();
    const dictionary = await createDictionary(caller, { conceptFields: [field({ name: 'A' })] });
    const a = dictionary.conceptFields[0]!;
    const response = await updateDictionary(caller, dictionary, {
      conceptFields: [
        { ...fieldInput(a), name: 'First' },
        { ...fieldInput(a), name: 'Second' },
      ],
    });
    expectError(response, 400);
    expect(await getDictionary(caller, dictionary.id)).toEqual(dictionary);
  });

  it('leaving out the fields of a level removes them all', async () => {
    const { admin: caller } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [field({ name: 'A' })],
      termFields: [field({ name: 'B' })],
    });
    const updated = await updateDictionary(caller, dictionary, { conceptFields: undefined });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.conceptFields).toEqual([]);
    expect(updated.body.termFields.map((f) => f.id)).toEqual([dictionary.termFields[0]!.id]);
  });

  it("an id that is not a field of this dictionary and level is 400; another field's item id is 400", async () => {
    const { admin: caller } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [{ name: 'P', fieldType: 'PICKLIST', model: { picklistItems: [{ name: 'x' }] } }],
      termFields: [{ name: 'Q', fieldType: 'PICKLIST', model: { picklistItems: [{ name: 'y' }] } }],
    });
    const other = await createDictionary(caller, { conceptFields: [field({ name: 'Elsewhere' })] });
    const p = dictionary.conceptFields[0]!;
    const q = dictionary.termFields[0]!;

    // A term field's id among the concept fields.
    expectError(await updateDictionary(caller, dictionary, { conceptFields: [fieldInput(q)] }), 400);
    // Another dictionary's field.
    expectError(
      await updateDictionary(caller, dictionary, { conceptFields: [fieldInput(other.conceptFields[0]!)] }),
      400,
    );
    // Q's picklist item under P.
    expectError(
      await updateDictionary(caller, dictionary, {
        conceptFields: [
          { ...fieldInput(p), model: { picklistItems: [{ id: q.model.picklistItems[0]!.id, name: 'y' }] } },
        ],
      }),
      400,
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(dictionary);
  });
});

interface NamedItem {
  id: null;
  oid: null;
  name: string;
  tbxName: null;
  sortIndex: number;
  fieldOid: string;
}

describe('incremental fields', () => {
  async function setup() {
    const { admin: caller, tenant } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [
        { name: 'Serial', fieldType: 'INCREMENTAL' },
        { name: 'Text', fieldType: 'SINGLELINE' },
      ],
      termFields: [{ name: 'Term serial', fieldType: 'INCREMENTAL' }],
    });
    const serial = dictionary.conceptFields[0]!;
    const text = dictionary.conceptFields[1]!;
    const termSerial = dictionary.termFields[0]!;
    const target = {
      clientId: tenant.id,
      dictionaryId: dictionary.id,
      sectionId: dictionary.allSections[0]!.id,
    };
    return { caller, tenant, dictionary, serial, text, termSerial, target };
  }

  it('next is 1 when no value is used, then one more than the highest used value', async () => {
    const { caller, dictionary, serial, termSerial, target } = await setup();
    const next = (oid: string | null) => caller.get<number>(`/fields/incremental/next/${oid}`);
    const empty = await next(serial.oid);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toBe(1);

    const [, , deletedConcept] = await insertConcepts(t, target, [
      { fieldMap: { [serial.oid!]: ['7'] } },
      { fieldMap: { [serial.oid!]: ['3'] } },
      { fieldMap: { [serial.oid!]: ['100'] } },
      { fieldMap: { [serial.oid!]: ['not a number'] } },
      {},
    ]);
    await rows(t, 'update concepts set deleted = true where id = ?', [deletedConcept]);
    expect((await next(serial.oid)).body).toBe(8);

    // Numbers compare as numbers, not as text.
    await insertConcepts(t, target, [{ fieldMap: { [serial.oid!]: ['10'] } }]);
    expect((await next(serial.oid)).body).toBe(11);

    // Another dictionary's concepts do not count.
    const other = await createDictionary(caller, {
      conceptFields: [{ name: 'Serial', fieldType: 'INCREMENTAL' }],
    });
    await insertConcepts(t, { ...target, dictionaryId: other.id, sectionId: other.allSections[0]!.id }, [
      { fieldMap: { [serial.oid!]: ['500'] } },
    ]);
    expect((await next(serial.oid)).body).toBe(11);

    // A term-level incremental field counts the terms.
    expect((await next(termSerial.oid)).body).toBe(1);
    const [concept] = await insertConcepts(t, target, [{}]);
    await insertTerm(
      t,
      { clientId: target.clientId, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng', fieldMap: { [termSerial.oid!]: ['41'] } },
    );
    expect((await next(termSerial.oid)).body).toBe(42);
  });

  it('next: a field that is not incremental is 400; an unknown oid is 404; unreadable is 404', async () => {
    const { caller, tenant, dictionary, serial, text } = await setup();
    expectError(await caller.get(`/fields/incremental/next/${text.oid}`), 400);
    expectError(await caller.get('/fields/incremental/next/no-such-field'), 404);

    const stranger = await admin();
    expectError(await stranger.admin.get(`/fields/incremental/next/${serial.oid}`), 404);

    const user = await loggedInUser(t, tenant);
    expect((await user.rest.get<number>(`/fields/incremental/next/${serial.oid}`)).body).toBe(1);
    const others = await groupWith(caller, []);
    const closed = await createScheme(caller, [grant(others.id, ['DICT_READ'])]);
    expect((await updateDictionary(caller, dictionary, { permissionSchemeId: closed.id })).status).toBe(200);
    expectError(await user.rest.get(`/fields/incremental/next/${serial.oid}`), 404);

    // A removed field is unknown.
    const current = await getDictionary(caller, dictionary.id);
    const removed = await updateDictionary(caller, current, { conceptFields: [fieldInput(text)] });
    expect(removed.status, removed.text).toBe(200);
    expectError(await caller.get(`/fields/incremental/next/${serial.oid}`), 404);
  });

  it('validate: false when another concept holds the value, true when only the entry itself does', async () => {
    const { caller, serial, text, target } = await setup();
    const [holder] = await insertConcepts(t, target, [
      { fieldMap: { [serial.oid!]: ['7'] } },
      { fieldMap: { [serial.oid!]: ['9'] } },
    ]);
    const validate = (oid: string | null, params: Record<string, string | number | undefined>) =>
      caller.get<boolean>(`/fields/incremental/validate/${oid}${query(params)}`);

    const used = await validate(serial.oid, { value: 7, type: 'CONCEPT' });
    expect(used.status, used.text).toBe(200);
    expect(used.body).toBe(false);
    expect((await validate(serial.oid, { value: 7, type: 'CONCEPT', 'entry-id': holder })).body).toBe(true);
    expect((await validate(serial.oid, { value: 9, type: 'CONCEPT', 'entry-id': holder })).body).toBe(false);
    expect((await validate(serial.oid, { value: 8, type: 'CONCEPT' })).body).toBe(true);

    // The type must be the field's level.
    expectError(await validate(serial.oid, { value: 7, type: 'TERM' }), 400);
    expectError(await validate(serial.oid, { value: 7, type: 'OTHER' }), 400);
    expectError(await validate(serial.oid, { type: 'CONCEPT' }), 400);
    expectError(await validate(text.oid, { value: 7, type: 'CONCEPT' }), 400);
    expectError(await validate('no-such-field', { value: 7, type: 'CONCEPT' }), 404);
  });

  it('validate on a term-level field checks the terms', async () => {
    const { caller, dictionary, termSerial, target } = await setup();
    const [concept] = await insertConcepts(t, target, [{}]);
    const term = await insertTerm(
      t,
      { clientId: target.clientId, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng', fieldMap: { [termSerial.oid!]: ['5'] } },
    );
    const validate = (params: Record<string, string | number>) =>
      caller.get<boolean>(`/fields/incremental/validate/${termSerial.oid}${query(params)}`);
    expect((await validate({ value: 5, type: 'TERM' })).body).toBe(false);
    expect((await validate({ value: 5, type: 'TERM', 'entry-id': term })).body).toBe(true);
    expect((await validate({ value: 6, type: 'TERM' })).body).toBe(true);
    expectError(await validate({ value: 5, type: 'CONCEPT' }), 400);
  });
});

describe('generate-picklist', () => {
  it('proposes the distinct values sorted; multivalued (default) splits at |, multivalued=false does not', async () => {
    const { admin: caller, tenant } = await admin();
    const dictionary = await createDictionary(caller, {
      conceptFields: [
        { name: 'Colour', fieldType: 'SINGLELINE' },
        { name: 'Empty', fieldType: 'SINGLELINE' },
      ],
    });
    const colour = dictionary.conceptFields[0]!;
    const target = {
      clientId: tenant.id,
      dictionaryId: dictionary.id,
      sectionId: dictionary.allSections[0]!.id,
    };
    const [, , , deleted] = await insertConcepts(t, target, [
      { fieldMap: { [colour.oid!]: ['red|blue'] } },
      { fieldMap: { [colour.oid!]: ['green'] } },
      { fieldMap: { [colour.oid!]: ['blue'] } },
      { fieldMap: { [colour.oid!]: ['purple'] } },
      { fieldMap: { [colour.oid!]: ['amber', 'green'] } },
      {},
    ]);
    await rows(t, 'update concepts set deleted = true where id = ?', [deleted]);

    const split = await caller.get<NamedItem[]>(`/fields/generate-picklist/${colour.oid}`);
    expect(split.status, split.text).toBe(200);
    expect(split.body).toEqual(
      ['amber', 'blue', 'green', 'red'].map((name, sortIndex) => ({
        id: null,
        oid: null,
        name,
        tbxName: null,
        sortIndex,
        fieldOid: colour.oid,
      })),
    );
    expect(
      (await caller.get<NamedItem[]>(`/fields/generate-picklist/${colour.oid}?multivalued=true`)).body,
    ).toEqual(split.body);

    const whole = await caller.get<NamedItem[]>(`/fields/generate-picklist/${colour.oid}?multivalued=false`);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body.map((item) => item.name)).toEqual(['amber', 'blue', 'green', 'red|blue']);
    expect(whole.body.map((item) => item.sortIndex)).toEqual([0, 1, 2, 3]);

    // Nothing is stored.
    expect((await getDictionary(caller, dictionary.id)).conceptFields[0]!.model.picklistItems).toEqual([]);
    const empty = await caller.get<NamedItem[]>(
      `/fields/generate-picklist/${dictionary.conceptFields[1]!.oid}`,
    );
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual([]);
    expectError(await caller.get('/fields/generate-picklist/no-such-field'), 404);
    const stranger = await admin();
    expectError(await stranger.admin.get(`/fields/generate-picklist/${colour.oid}`), 404);
  });
});
