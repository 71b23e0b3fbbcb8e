// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { iso31661 } from 'iso-3166';
import { iso15924 } from 'iso-15924';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  type DictionaryBody,
  expectError,
  getDictionary,
  insertBareConcepts,
  insertTerm,
  type LanguageBody,
  languageInput,
  newTenant,
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

const regionName = (alpha2: string) => iso31661.find((region) => region.alpha2 === alpha2)!.name;
const scriptName = (code: string) => iso15924.find((script) => script.code === code)!.name;

async function admin() {
  return (await newTenant(t, sysadmin)).admin;
}

async function withLanguages(caller: RestClient, languages: unknown[]): Promise<DictionaryBody> {
  return createDictionary(caller, { languages });
}

const byCode = (dictionary: DictionaryBody, code: string): LanguageBody => {
  const language = dictionary.languages.find((l) => l.code === code);
  if (!language) throw new Error(`no language ${code} in ${JSON.stringify(dictionary.languages)}`);
  return language;
};

/** Live language rows of a dictionary in the database. */
const liveLanguageRows = (dictionaryId: number) =>
  rows<{ id: number; code: string }>(
    t,
    'select id, code from languages where dictionary_id = ? and not deleted order by id',
    [dictionaryId],
  );

describe('ISO languages', () => {
  it("ISO 639-1 'en' is stored as eng with code2 en, code3 eng, isIso true and the ISO name", async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }]);
    expect(dictionary.languages).toHaveLength(1);
    const [english] = dictionary.languages;
    expect(english).toEqual({
      id: expect.any(Number),
      oid: english!.oid,
      deleted: false,
      name: 'English',
      dictionaryId: dictionary.id,
      clientId: dictionary.clientId,
      code: 'eng',
      code2: 'en',
      code3: 'eng',
      isIso: true,
      iso: true,
      custom: false,
      idStr: String(english!.id),
      rtl: false,
      sortIndex: 0,
      variants: [],
    });
    expect((await getDictionary(caller, dictionary.id)).languages).toEqual(dictionary.languages);
  });

  it("bibliographic 'ger' becomes deu (639-2/T); upper case is accepted; a given name wins over the ISO name", async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      { code: 'ger' },
      { code: 'FRE', name: 'Français' },
      { code: 'ENG' },
    ]);
    expect(dictionary.languages.map((l) => [l.code, l.code2, l.code3, l.name, l.isIso])).toEqual([
      ['deu', 'de', 'deu', 'German', true],
      ['fra', 'fr', 'fra', 'Français', true],
      ['eng', 'en', 'eng', 'English', true],
    ]);
  });

  it('an unknown code without custom is 400 and creates nothing', async () => {
    const caller = await admin();
    const name = `Unknown ${Math.random()}`;
    expectError(await caller.post('/dictionaries', { name, languages: [{ code: 'xyz' }] }), 400);
    expectError(await caller.post('/dictionaries', { name, languages: [{ code: 'english' }] }), 400);
    expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);

    // The same on update: nothing changes.
    const dictionary = await withLanguages(caller, [{ code: 'en' }]);
    expectError(
      await updateDictionary(caller, dictionary, { languages: [{ code: 'en' }, { code: 'xyz' }] }),
      400,
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(dictionary);
  });

  it('the same language twice is 400, also when written in two code systems', async () => {
    const caller = await admin();
    const name = `Twice ${Math.random()}`;
    for (const languages of [
      [{ code: 'eng' }, { code: 'eng' }],
      [{ code: 'en' }, { code: 'eng' }],
      [{ code: 'ger' }, { code: 'deu' }],
      [
        { code: 'qqa', custom: true, name: 'A' },
        { code: 'QQA', custom: true, name: 'B' },
      ],
    ]) {
      expectError(await caller.post('/dictionaries', { name, languages }), 400);
    }
    expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);
  });

  it('rtl starts from the language (Arabic, Hebrew right to left) and can be overridden', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      { code: 'ar' },
      { code: 'he', rtl: false },
      { code: 'en' },
      { code: 'de', rtl: true },
    ]);
    expect(dictionary.languages.map((l) => [l.code, l.rtl])).toEqual([
      ['ara', true],
      ['heb', false],
      ['eng', false],
      ['deu', true],
    ]);
    // Changed on update, kept by id.
    const arabic = byCode(dictionary, 'ara');
    const updated = await updateDictionary(caller, dictionary, {
      languages: [{ ...languageInput(arabic), rtl: false }],
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.languages.map((l) => [l.id, l.code, l.rtl])).toEqual([[arabic.id, 'ara', false]]);
  });
});

describe('custom languages', () => {
  it('a custom language with a free code is custom, not ISO, with no code2/code3 and rtl false', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      { code: 'x-klingon', name: 'Klingon (house style)', custom: true },
    ]);
    expect(dictionary.languages).toEqual([
      expect.objectContaining({
        code: 'x-klingon',
        name: 'Klingon (house style)',
        custom: true,
        isIso: false,
        iso: false,
        code2: null,
        code3: null,
        rtl: false,
        variants: [],
      }),
    ]);
  });

  it("a custom language whose code is a real language, region or script code is 400 ('fra', 'en', 'US', 'USA', 'Latn')", async () => {
    const caller = await admin();
    const name = `Custom clash ${Math.random()}`;
    for (const code of ['fra', 'fre', 'en', 'US', 'us', 'USA', 'Latn', 'latn']) {
      const response = await caller.post('/dictionaries', {
        name,
        languages: [{ code, name: 'Mine', custom: true }],
      });
      expectError(response, 400);
    }
    expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);
  });

  it('a custom language needs a name (400)', async () => {
    const caller = await admin();
    expectError(
      await caller.post('/dictionaries', {
        name: `Nameless ${Math.random()}`,
        languages: [{ code: 'x-elvish', custom: true }],
      }),
      400,
    );
  });
});

describe('variants', () => {
  it("region 'us' (type 0) becomes US, predefined, with the ISO 3166 name; script 'hira' (type 1) is predefined with the ISO 15924 name", async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      {
        code: 'en',
        variants: [
          { type: 0, code: 'us' },
          { variantType: 0, variantCode: 'gb' },
        ],
      },
      {
        code: 'ja',
        variants: [
          { type: 1, code: 'Hira' },
          { type: 1, code: 'kana' },
        ],
      },
    ]);
    const english = byCode(dictionary, 'eng');
    expect(english.variants).toEqual([
      {
        id: expect.any(Number),
        oid: english.variants[0]!.oid,
        deleted: false,
        name: regionName('US'),
        type: 0,
        variantType: 0,
        code: 'US',
        variantCode: 'US',
        predefined: true,
        languageId: english.id,
        sortIndex: 0,
      },
      expect.objectContaining({
        code: 'GB',
        name: regionName('GB'),
        type: 0,
        predefined: true,
        sortIndex: 1,
      }),
    ]);
    const japanese = byCode(dictionary, 'jpn');
    expect(japanese.variants.map((v) => [v.type, v.code, v.name, v.predefined, v.languageId])).toEqual([
      [1, 'hira', scriptName('Hira'), true, japanese.id],
      [1, 'kana', scriptName('Kana'), true, japanese.id],
    ]);
  });

  it('a custom variant needs a name (400); with one it is not predefined and keeps its code', async () => {
    const caller = await admin();
    expectError(
      await caller.post('/dictionaries', {
        name: `Variant ${Math.random()}`,
        languages: [{ code: 'de', variants: [{ type: 0, code: 'swabia' }] }],
      }),
      400,
    );
    const dictionary = await withLanguages(caller, [
      {
        code: 'de',
        variants: [
          { type: 0, code: 'swabia', name: 'Swabian' },
          { type: 1, code: 'fraktur-x', name: 'Blackletter' },
        ],
      },
    ]);
    expect(dictionary.languages[0]!.variants.map((v) => [v.type, v.code, v.name, v.predefined])).toEqual([
      [0, 'swabia', 'Swabian', false],
      [1, 'fraktur-x', 'Blackletter', false],
    ]);
  });

  it('a variant needs a type and a code (400); the same variant twice is 400', async () => {
    const caller = await admin();
    const name = `Variant rules ${Math.random()}`;
    for (const variants of [
      [{ code: 'US' }],
      [{ type: 0 }],
      [{ type: 2, code: 'US' }],
      [
        { type: 0, code: 'US' },
        { type: 0, code: 'us' },
      ],
    ]) {
      expectError(await caller.post('/dictionaries', { name, languages: [{ code: 'en', variants }] }), 400);
    }
    expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);
  });

  it('idStr joins the ids of the language and its variants with hyphens', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      {
        code: 'en',
        variants: [
          { type: 0, code: 'US' },
          { type: 0, code: 'CA' },
        ],
      },
      { code: 'fr' },
    ]);
    const english = byCode(dictionary, 'eng');
    const [us, ca] = english.variants;
    expect(english.idStr).toBe(`${english.id}-${us!.id}-${ca!.id}`);
    expect(byCode(dictionary, 'fra').idStr).toBe(String(byCode(dictionary, 'fra').id));
  });
});

describe('order and identity across updates', () => {
  it('sortIndex follows the order sent unless given; languages are listed in sortIndex order', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'de' }, { code: 'en' }, { code: 'fr' }]);
    expect(dictionary.languages.map((l) => [l.code, l.sortIndex])).toEqual([
      ['deu', 0],
      ['eng', 1],
      ['fra', 2],
    ]);

    const [de, en, fr] = dictionary.languages;
    const reordered = await updateDictionary(caller, dictionary, {
      languages: [languageInput(fr!), languageInput(de!), languageInput(en!)].map(
        ({ sortIndex: _drop, ...rest }) => rest,
      ),
    });
    expect(reordered.status, reordered.text).toBe(200);
    expect(reordered.body.languages.map((l) => [l.id, l.code, l.sortIndex])).toEqual([
      [fr!.id, 'fra', 0],
      [de!.id, 'deu', 1],
      [en!.id, 'eng', 2],
    ]);

    const explicit = await updateDictionary(caller, reordered.body, {
      languages: [
        { code: 'fr', sortIndex: 30 },
        { code: 'de', sortIndex: 10 },
        { code: 'en', sortIndex: 20 },
      ],
    });
    expect(explicit.status, explicit.text).toBe(200);
    expect(explicit.body.languages.map((l) => [l.code, l.sortIndex])).toEqual([
      ['deu', 10],
      ['eng', 20],
      ['fra', 30],
    ]);
    // Sent by code without id: still the same rows.
    expect(explicit.body.languages.map((l) => l.id).sort()).toEqual([de!.id, en!.id, fr!.id].sort());
  });

  it('a language sent with its id keeps its id (renamed); its variants keep theirs; an unknown id is 400', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en', variants: [{ type: 0, code: 'US' }] }]);
    const english = dictionary.languages[0]!;
    const us = english.variants[0]!;

    const renamed = await updateDictionary(caller, dictionary, {
      languages: [
        {
          ...languageInput(english),
          name: 'British and American English',
          variants: [
            { id: us.id, type: 0, code: 'US', name: 'USA' },
            { type: 0, code: 'GB' },
          ],
        },
      ],
    });
    expect(renamed.status, renamed.text).toBe(200);
    const after = renamed.body.languages[0]!;
    expect(after).toMatchObject({ id: english.id, code: 'eng', name: 'British and American English' });
    expect(after.variants.map((v) => [v.id === us.id, v.code, v.name])).toEqual([
      [true, 'US', 'USA'],
      [false, 'GB', regionName('GB')],
    ]);
    expect(after.idStr).toBe(`${english.id}-${us.id}-${after.variants[1]!.id}`);

    // Another dictionary's language id is not one of this dictionary's.
    const other = await withLanguages(caller, [{ code: 'fr' }]);
    expectError(
      await updateDictionary(caller, renamed.body, {
        languages: [{ ...languageInput(other.languages[0]!) }],
      }),
      400,
    );
    expectError(
      await updateDictionary(caller, renamed.body, {
        languages: [
          { ...languageInput(after), variants: [{ id: other.languages[0]!.id, type: 0, code: 'US' }] },
        ],
      }),
      400,
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(renamed.body);
  });

  it('a language claimed twice in one request (by its code and by its id with another code) is not silently dropped', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }]);
    const english = dictionary.languages[0]!;
    // The first entry keeps English by its code; the second turns the same row into French.
    const response = await updateDictionary(caller, dictionary, {
      languages: [{ code: 'en' }, { id: english.id, code: 'fr' }],
    });
    if (response.status === 200) {
      // Accepted: then both languages sent must be there.
      expect(response.body.languages.map((l) => l.code).sort()).toEqual(['eng', 'fra']);
    } else {
      expectError(response, 400);
      expect(await getDictionary(caller, dictionary.id)).toEqual(dictionary);
    }
  });

  it('renaming a language by id to a new code and adding its old code as a new language in one request works', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }, { code: 'fr' }]);
    const [english, french] = dictionary.languages;
    // The result (deu, eng, fra) has no language twice.
    const response = await updateDictionary(caller, dictionary, {
      languages: [{ id: english!.id, code: 'de' }, { code: 'en' }, { id: french!.id, code: 'fr' }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.languages.map((l) => [l.code, l.id === english!.id, l.id === french!.id])).toEqual([
      ['deu', true, false],
      ['eng', false, false],
      ['fra', false, true],
    ]);
  });

  it('an unused language can change its code by id', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }]);
    const english = dictionary.languages[0]!;
    const changed = await updateDictionary(caller, dictionary, {
      languages: [{ id: english.id, code: 'fr' }],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.languages.map((l) => [l.id, l.code, l.name])).toEqual([
      [english.id, 'fra', 'French'],
    ]);
  });
});

describe('removing languages and variants', () => {
  it('removing an unused language deletes it; terms of another dictionary do not block it', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }, { code: 'de' }]);
    // A German term in another dictionary of the same client.
    const other = await withLanguages(caller, [{ code: 'de' }]);
    const [concept] = await insertBareConcepts(
      t,
      { clientId: other.clientId, dictionaryId: other.id, sectionId: other.allSections[0]!.id },
      1,
    );
    await insertTerm(
      t,
      { clientId: other.clientId, dictionaryId: other.id, conceptId: concept! },
      { languageCode: 'deu' },
    );

    const english = byCode(dictionary, 'eng');
    const updated = await updateDictionary(caller, dictionary, { languages: [languageInput(english)] });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.languages.map((l) => l.code)).toEqual(['eng']);
    expect(await liveLanguageRows(dictionary.id)).toEqual([{ id: english.id, code: 'eng' }]);

    // Leaving languages out of the full update removes them all.
    const none = await updateDictionary(caller, updated.body, { languages: undefined });
    expect(none.status, none.text).toBe(200);
    expect(none.body.languages).toEqual([]);
  });

  it('removing a language used by terms is 400 and changes nothing', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en' }, { code: 'de' }]);
    const [concept] = await insertBareConcepts(
      t,
      {
        clientId: dictionary.clientId,
        dictionaryId: dictionary.id,
        sectionId: dictionary.allSections[0]!.id,
      },
      1,
    );
    await insertTerm(
      t,
      { clientId: dictionary.clientId, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'deu', name: 'Haus' },
    );
    const before = await getDictionary(caller, dictionary.id);

    const refused = await updateDictionary(caller, before, {
      description: 'should not be stored',
      languages: [{ code: 'en' }, { code: 'fr' }],
    });
    expectError(refused, 400);
    expect(refused.body.message).toMatch(/deu/);
    expect(await getDictionary(caller, dictionary.id)).toEqual(before);
    expect((await liveLanguageRows(dictionary.id)).map((row) => row.code)).toEqual(['eng', 'deu']);

    // Changing the code of the used language by id is refused as well.
    const german = byCode(before, 'deu');
    expectError(
      await updateDictionary(caller, before, {
        languages: [{ code: 'en' }, { id: german.id, code: 'nl' }],
      }),
      400,
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(before);

    // Keeping it is fine.
    const kept = await updateDictionary(caller, before, { languages: [{ code: 'de' }] });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.languages.map((l) => [l.id, l.code])).toEqual([[german.id, 'deu']]);
  });

  it('removing a variant used by terms is 400; an unused variant can go', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [
      {
        code: 'en',
        variants: [
          { type: 0, code: 'US' },
          { type: 0, code: 'GB' },
          { type: 1, code: 'Latn' },
        ],
      },
    ]);
    const [concept] = await insertBareConcepts(
      t,
      {
        clientId: dictionary.clientId,
        dictionaryId: dictionary.id,
        sectionId: dictionary.allSections[0]!.id,
      },
      1,
    );
    await insertTerm(
      t,
      { clientId: dictionary.clientId, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng', regionCode: 'US', scriptCode: 'latn', name: 'color' },
    );
    const before = await getDictionary(caller, dictionary.id);
    const english = dictionary.languages[0]!;
    const [us, gb, latn] = english.variants;

    expectError(
      await updateDictionary(caller, dictionary, {
        languages: [
          {
            ...languageInput(english),
            variants: [gb, latn].map((v) => ({ id: v!.id, type: v!.type, code: v!.code })),
          },
        ],
      }),
      400,
    );
    expectError(
      await updateDictionary(caller, dictionary, {
        languages: [
          {
            ...languageInput(english),
            variants: [us, gb].map((v) => ({ id: v!.id, type: v!.type, code: v!.code })),
          },
        ],
      }),
      400,
    );
    expect(await getDictionary(caller, dictionary.id)).toEqual(before);

    const withoutGb = await updateDictionary(caller, before, {
      languages: [
        {
          ...languageInput(english),
          variants: [us, latn].map((v) => ({ id: v!.id, type: v!.type, code: v!.code })),
        },
      ],
    });
    expect(withoutGb.status, withoutGb.text).toBe(200);
    expect(withoutGb.body.languages[0]!.variants.map((v) => v.code)).toEqual(['US', 'latn']);
    expect(withoutGb.body.languages[0]!.idStr).toBe(`${english.id}-${us!.id}-${latn!.id}`);
  });

  it('changing the code of a variant used by terms (by its id) is 400, as for languages, and changes nothing', async () => {
    const caller = await admin();
    const dictionary = await withLanguages(caller, [{ code: 'en', variants: [{ type: 0, code: 'US' }] }]);
    const [concept] = await insertBareConcepts(
      t,
      {
        clientId: dictionary.clientId,
        dictionaryId: dictionary.id,
        sectionId: dictionary.allSections[0]!.id,
      },
      1,
    );
    await insertTerm(
      t,
      { clientId: dictionary.clientId, dictionaryId: dictionary.id, conceptId: concept! },
      { languageCode: 'eng', regionCode: 'US', name: 'color' },
    );
    const before = await getDictionary(caller, dictionary.id);
    const english = before.languages[0]!;
    const us = english.variants[0]!;
    const changed = await updateDictionary(caller, before, {
      languages: [{ ...languageInput(english), variants: [{ id: us.id, type: 0, code: 'CA' }] }],
    });
    expectError(changed, 400);
    expect(await getDictionary(caller, dictionary.id)).toEqual(before);
  });
});
