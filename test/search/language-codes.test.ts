/**
 * One rule for language codes (docs/clients.md): an ISO 639 code is taken in two or three letters, any
 * case, bibliographic or terminology form, wherever a language is named; it is read as the three-letter
 * code. Run on both engines, since each reads the searched language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Server } from '../concepts/concept-helpers.js';
import { createDictionary, newTenant } from '../helpers/structure.js';
import { ENGINES, eventually, names, startEngineServer } from './search-helpers.js';

describe.each(ENGINES)('language codes on %s', (engine) => {
  let server: Server;
  let admin: Api;
  let dictionaryId: number;

  beforeAll(async () => {
    server = await startEngineServer(engine);
    const { admin: rest } = await newTenant(server.t, server.sysadmin);
    admin = server.api(rest);
    // A dictionary created with ISO 639-1 and bibliographic codes holds them as 639-2/T.
    const dictionary = await createDictionary(rest, { languages: [{ code: 'en' }, { code: 'ger' }] });
    expect(dictionary.languages.map((language) => language.code).sort()).toEqual(['deu', 'eng']);
    dictionaryId = dictionary.id;
    const created = await admin.post<{ terms: Array<{ languageCode: string }> }>('/concepts', {
      dictionaryId,
      sectionOid: dictionary.sections[0]!.oid,
      terms: [
        { name: 'valve', languageCode: 'en' },
        { name: 'Ventil', languageCode: 'DE' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.terms.map((term) => term.languageCode).sort()).toEqual(['deu', 'eng']);
  }, 120_000);
  afterAll(() => server?.close());

  const find = (langCode: string) =>
    names(admin, { dictionaryIds: [dictionaryId], langCode, sectionOids: [], name: '' });

  it('finds the same terms by two- and three-letter codes, in any case', async () => {
    expect(await eventually(async () => (await find('eng')).length === 1, 30_000)).toBe(true);
    for (const code of ['eng', 'en', 'EN', ' en ', 'Eng']) expect(await find(code), code).toEqual(['valve']);
    for (const code of ['deu', 'ger', 'de', 'DE']) expect(await find(code), code).toEqual(['Ventil']);
  });

  it('refuses a code that is no language with 400', async () => {
    for (const langCode of ['xx', 'zzz', 'english']) {
      const response = await admin.post<{ code: string; message: string }>('/terms/search', {
        dictionaryIds: [dictionaryId],
        langCode,
        sectionOids: [],
      });
      expect(response.status, langCode).toBe(400);
      expect(response.body.message).toContain('ISO 639');
    }
  });
});
