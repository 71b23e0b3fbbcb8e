/**
 * One rule for language codes wherever a language is named (docs/clients.md, "Language codes"; issue
 * 37: "`en` is accepted when a dictionary is created but refused in search: one rule"): ISO 639 in two
 * or three letters, any case, bibliographic or terminological form, read as the three-letter code the
 * dictionaries hold; a custom language of the dictionaries by its code; anything else 400. Term search
 * and a concept's terms are in test/search/language-codes.test.ts; here every other call that names a
 * language, on REST, and on GraphQL where the call exists there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Server } from '../concepts/concept-helpers.js';
import { concept, type Termbase, termbase } from '../decoration/decoration-helpers.js';
import { createDictionary } from '../helpers/structure.js';
import { eventually, names, startEngineServer } from '../search/search-helpers.js';

let server: Server;
let base: Termbase;
let admin: Api;
/** A dictionary with English and a custom language, xq. */
let custom: { id: number; sectionOid: string };

beforeAll(async () => {
  server = await startEngineServer('postgresql');
  base = await termbase(server, ['eng', 'deu']);
  admin = base.admin;
  await concept(base, [
    { name: 'pump', lang: 'eng' },
    { name: 'Pumpe', lang: 'deu' },
  ]);
  const dictionary = await createDictionary(base.tenantAdmin, {
    languages: [{ code: 'en' }, { code: 'xq', custom: true, name: 'Custom' }],
  });
  custom = { id: dictionary.id, sectionOid: dictionary.sections[0]!.oid! };
}, 120_000);
afterAll(() => server?.close());

async function gql<T>(query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': admin.token! },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data: T | null;
    errors?: { message: string; extensions: { code: string } }[];
  };
}

const refused = (response: { status: number; body: { code?: string; message?: string } }, code: string) => {
  expect([response.status, response.body.code], JSON.stringify(response.body)).toEqual([400, 'BAD_REQUEST']);
  expect(response.body.message).toContain(`"${code}"`);
};

describe('the language code rule', () => {
  it('stemming settings: saved under the three-letter code (EN is eng, ger is deu), a custom code as its language spells it, xx 400', async () => {
    const path = `/dictionaries/${base.dictionary.id}/stemming`;
    for (const langCode of ['EN', 'ger']) {
      const saved = await admin.put(path, { langCode, protectedWords: ['pumps'] });
      expect(saved.status, saved.text).toBeLessThan(300);
    }
    const settings = await admin.get<{ langCode: string }[]>(path);
    expect(settings.body.map((setting) => setting.langCode)).toEqual(['deu', 'eng']);
    refused(await admin.put(path, { langCode: 'xx' }), 'xx');
    // A custom language of another dictionary is not one of this dictionary.
    refused(await admin.put(path, { langCode: 'xq' }), 'xq');
    expect((await admin.put(`/dictionaries/${custom.id}/stemming`, { langCode: 'XQ' })).status).toBeLessThan(
      300,
    );
    const customSettings = await admin.get<{ langCode: string }[]>(`/dictionaries/${custom.id}/stemming`);
    expect(customSettings.body.map((setting) => setting.langCode)).toEqual(['xq']);

    const graphql = await gql<{ setDictionaryStemming: { jobTaskId: number | null } }>(
      'mutation ($input: StemmingSettingInput!) { setDictionaryStemming(input: $input) { jobTaskId } }',
      { input: { id: base.dictionary.id, langCode: 'xx' } },
    );
    expect(graphql.errors?.[0]?.message).toContain('"xx"');
    const german = await gql<{ setDictionaryStemming: unknown }>(
      'mutation ($input: StemmingSettingInput!) { setDictionaryStemming(input: $input) { jobTaskId } }',
      { input: { id: base.dictionary.id, langCode: 'DE', protectedWords: [] } },
    );
    expect(german.errors).toBeUndefined();
    const read = await gql<{ dictionaryStemming: { langCode: string; protectedWords: string[] }[] }>(
      'query ($id: Int!) { dictionaryStemming(id: $id) { langCode protectedWords } }',
      { id: base.dictionary.id },
    );
    expect(read.data!.dictionaryStemming).toEqual([
      { langCode: 'deu', protectedWords: [] },
      { langCode: 'eng', protectedWords: ['pumps'] },
    ]);
  });

  it("analyze: en and ENG analyse as eng, under the dictionary's eng settings", async () => {
    const analyze = (langCode: string) =>
      admin.post<{ langCode: string; tokens: { stem: string }[] }>('/stemming/analyze', {
        langCode,
        text: 'pumps',
        dictionaryId: base.dictionary.id,
      });
    const three = await analyze('eng');
    expect(three.body.tokens.map((token) => token.stem)).toEqual(['pumps']); // protected above
    for (const code of ['en', 'ENG']) {
      const answer = await analyze(code);
      expect(answer.body, code).toEqual(three.body);
    }
    refused(await analyze('xx'), 'xx');
    const graphql = await gql<{ analyzeText: { langCode: string } }>(
      'query ($input: AnalyzeInput!) { analyzeText(input: $input) { langCode } }',
      { input: { langCode: 'En', text: 'pumps' } },
    );
    expect(graphql.data!.analyzeText.langCode).toBe('eng');
  });

  it('term decoration and term check: targetLangs DE and de give the deu translations', async () => {
    const decorate = (sourceLang: string, targetLangs: string[]) =>
      admin.post<{
        sourceLang: string;
        segments: { matches: { translations: Record<string, { name: string }[]> }[] }[];
      }>('/term-decoration', { sourceLang, targetLangs, segments: [{ text: 'the pump' }] });
    for (const [sourceLang, target] of [
      ['en', 'DE'],
      ['ENG', 'ger'],
      ['eng', 'deu'],
    ] as const) {
      const answer = await decorate(sourceLang, [target]);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.sourceLang).toBe('eng');
      const translations = answer.body.segments[0]!.matches[0]!.translations;
      expect(translations, `${sourceLang} → ${target}`).toEqual({
        deu: [expect.objectContaining({ name: 'Pumpe' })],
      });
    }
    refused(await decorate('eng', ['xx']), 'xx');

    const graphql = await gql<{
      termDecoration: {
        segments: { matches: { translations: { langCode: string; terms: { name: string }[] }[] }[] }[];
      };
    }>(
      `query ($input: TermDecorationInput!) { termDecoration(input: $input) {
         segments { matches { translations { langCode terms { name } } } } } }`,
      { input: { sourceLang: 'en', targetLangs: ['de'], segments: [{ text: 'pump' }] } },
    );
    expect(graphql.data!.termDecoration.segments[0]!.matches[0]!.translations).toEqual([
      { langCode: 'deu', terms: [{ name: 'Pumpe' }] },
    ]);

    // Term check: a target language named de finds Pumpe in the translation, as deu does.
    const check = (targetLang: string) =>
      admin.post<{ missing: unknown[] }>('/term-check', {
        sourceLang: 'en',
        targetLang,
        source: 'the pump',
        target: 'die Pumpe',
      });
    const deu = await check('deu');
    expect(deu.status, deu.text).toBe(200);
    expect((await check('de')).body).toEqual(deu.body);
    expect((await check('GER')).body).toEqual(deu.body);
    refused(await check('xx'), 'xx');
  });

  it('sync settings: a language mapping of en names the dictionary’s eng', async () => {
    const create = (langCode: string) =>
      admin.post<{ languages: { langCode: string }[] }>('/sync-settings', {
        name: `Sync ${langCode} ${Date.now()}`,
        dictionaryId: base.dictionary.id,
        languages: [{ langCode, regionCode: null, scriptCode: null }],
      });
    for (const [sent, read] of [
      ['en', 'eng'],
      ['GER', 'deu'],
    ]) {
      const created = await create(sent!);
      expect(created.status, created.text).toBe(201);
      expect(created.body.languages.map((language) => language.langCode)).toEqual([read]);
    }
    const unknown = await create('xx');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('filters: languages in saved criteria are read as the three-letter code; xx is 400', async () => {
    const create = (languages: string[]) =>
      admin.post<{ criteria: { languages: string[] } }>('/filters', {
        name: `Filter ${languages.join(' ')} ${Date.now()}`,
        dictionaryId: base.dictionary.id,
        visibility: 'PRIVATE',
        criteria: { languages },
      });
    const created = await create(['en', 'GER']);
    expect(created.status, created.text).toBe(201);
    expect(created.body.criteria.languages).toEqual(['eng', 'deu']);
    const unknown = await create(['xx']);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it("term search's quickFilter: languages de selects the deu terms as deu does; xx is 400", async () => {
    const find = (languages: string[]) =>
      names(admin, {
        dictionaryIds: [base.dictionary.id],
        langCode: 'deu',
        sectionOids: [],
        name: 'pump',
        quickFilter: { languages },
      });
    expect(await eventually(async () => (await find(['deu'])).length === 1, 30_000)).toBe(true);
    for (const code of ['de', 'GER']) expect(await find([code]), code).toEqual(['Pumpe']);
    const unknown = await admin.post<{ code: string; message: string }>('/terms/search', {
      dictionaryIds: [base.dictionary.id],
      langCode: 'deu',
      sectionOids: [],
      quickFilter: { languages: ['xx'] },
    });
    refused(unknown, 'xx');
    const graphql = await gql<{ searchTerms: { results: { name: string }[] } }>(
      'query ($input: TermSearchInput!) { searchTerms(input: $input) { results { name } } }',
      {
        input: {
          dictionaryIds: [base.dictionary.id],
          langCode: 'de',
          sectionOids: [],
          name: 'pump',
          quickFilter: { languages: ['de'] },
        },
      },
    );
    expect(graphql.data!.searchTerms.results.map((entry) => entry.name)).toEqual(['Pumpe']);
  });

  it('search settings: sourceLanguage and targetLanguages read as three-letter codes (en-US is eng-US); xx and zzz are 400', async () => {
    const read = await admin.get<{ version: number }>('/user-search-settings');
    const saved = await admin.put<{ sourceLanguage: string; targetLanguages: string[] }>(
      '/user-search-settings',
      {
        ...read.body,
        sourceLanguage: 'en-US',
        targetLanguages: ['DE', 'ger', 'XQ'],
      },
    );
    expect(saved.status, saved.text).toBe(200);
    expect([saved.body.sourceLanguage, saved.body.targetLanguages]).toEqual(['eng-US', ['deu', 'xq']]);
    const one = await admin.put<{ targetLanguages: string[] }>(
      '/user-search-settings/setting?setting=targetLanguages',
      ['fr', 'eng'],
    );
    expect(one.status, one.text).toBe(200);
    expect(one.body.targetLanguages).toEqual(['fra', 'eng']);
    refused(await admin.put('/user-search-settings/setting?setting=sourceLanguage', ['xx']), 'xx');
    const again = await admin.get<{ version: number }>('/user-search-settings');
    refused(await admin.put('/user-search-settings', { ...again.body, targetLanguages: ['zzz'] }), 'zzz');
  });

  it('TBX export: languages=EN exports the eng terms (export settings record what an export was given)', async () => {
    const exported = await admin.get<string>(`/dictionaries/export-tbx/${base.dictionary.id}?languages=EN`);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('pump');
    expect(exported.text).not.toContain('Pumpe');
    const unknown = await admin.get<{ code: string }>(
      `/dictionaries/export-tbx/${base.dictionary.id}?languages=xx`,
    );
    expect(unknown.status).toBe(400);
  });
});
