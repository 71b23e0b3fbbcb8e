/**
 * Stemming (docs/decoration.md): the languages, analysis of texts, stem keys of terms computed on
 * write, per-dictionary settings with their rebuild, and the `stemmed` search option on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  conceptWorld,
  createConcept,
  type Server,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import { ENGINES, names, startEngineServer } from '../search/search-helpers.js';

interface Token {
  surface: string;
  start: number;
  end: number;
  folded: string;
  stem: string;
}

describe.each(ENGINES)('stemming on %s', (engine) => {
  let server: Server;
  let world: World;
  let admin: Api;
  const query = (name: string, langCode = 'eng', stemmed = true) => ({
    dictionaryIds: [world.dictionary.id],
    langCode,
    sectionOids: [] as string[],
    name,
    searchOptions: { mode: 'EXACT', stemmed },
  });

  beforeAll(async () => {
    server = await startEngineServer(engine);
    world = await conceptWorld(server);
    admin = world.admin;
    await createConcept(admin, world, {
      terms: [
        { name: 'fuel pump', languageCode: 'eng' },
        { name: 'Kraftstoffpumpe', languageCode: 'deu' },
      ],
    });
    await createConcept(admin, world, { terms: [{ name: 'mouse', languageCode: 'eng' }] });
    await createConcept(admin, world, { terms: [{ name: 'Häuser', languageCode: 'deu' }] });
  }, 180_000);
  afterAll(() => server?.close());

  it('lists the Snowball languages of PostgreSQL with their codes', async () => {
    const response = await admin.get<{
      engine: string;
      engineVersion: string;
      languages: { algorithm: string; langCodes: string[] }[];
    }>('/stemming/languages');
    expect(response.status).toBe(200);
    expect(response.body.engine).toBe('postgresql-snowball');
    expect(response.body.engineVersion).toMatch(/^\d+/);
    expect(response.body.languages.length).toBeGreaterThanOrEqual(28);
    const english = response.body.languages.find((l) => l.algorithm === 'english');
    expect(english?.langCodes).toEqual(expect.arrayContaining(['en', 'eng']));
    expect(response.body.languages.find((l) => l.algorithm === 'german')?.langCodes).toContain('deu');
  });

  it('analyzes a text into words with UTF-16 offsets, folded forms and stems', async () => {
    const text = 'The 🚀 Pumps’ Häuser';
    const response = await admin.post<{ algorithm: string | null; tokens: Token[] }>('/stemming/analyze', {
      langCode: 'eng',
      text,
    });
    expect(response.status).toBe(200);
    expect(response.body.algorithm).toBe('english');
    const tokens = response.body.tokens;
    expect(tokens.map((t) => t.surface)).toEqual(['The', 'Pumps', 'Häuser']);
    for (const token of tokens) expect(text.slice(token.start, token.end)).toBe(token.surface);
    expect(tokens[1]).toMatchObject({ folded: 'pumps', stem: 'pump' });
    expect(tokens[2]!.folded).toBe('hauser');
    // Stop words are stemmed too (no word may drop out of a multiword term's key).
    expect(tokens[0]!.stem).toBe('the');
  });

  it('cuts Japanese into words and leaves languages without a stemmer unstemmed', async () => {
    const response = await admin.post<{ algorithm: string | null; tokens: Token[] }>('/stemming/analyze', {
      langCode: 'jpn',
      text: '燃料ポンプを交換する',
    });
    expect(response.status).toBe(200);
    expect(response.body.algorithm).toBeNull();
    expect(response.body.tokens.length).toBeGreaterThan(2);
    expect(response.body.tokens.map((t) => t.surface).join('')).toBe('燃料ポンプを交換する');
    for (const token of response.body.tokens) expect(token.stem).toBe(token.folded);
  });

  it('refuses bad analyze requests with 400 and unknown dictionaries with 404', async () => {
    expect((await admin.post('/stemming/analyze', { text: 'x' })).status).toBe(400);
    expect(
      (await admin.post('/stemming/analyze', { langCode: 'eng', text: 'x'.repeat(20_001) })).status,
    ).toBe(400);
    const missing = await admin.post('/stemming/analyze', {
      langCode: 'eng',
      text: 'x',
      dictionaryId: 999_999,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('finds inflected forms with the stemmed option only', async () => {
    expect(await names(admin, query('fuel pumps'))).toEqual(['fuel pump']);
    expect(await names(admin, query('Fuel Pumping'))).toEqual(['fuel pump']);
    expect(await names(admin, query('fuel pumps', 'eng', false))).toEqual([]);
    expect(await names(admin, query('Kraftstoffpumpen', 'deu'))).toEqual(['Kraftstoffpumpe']);
    expect(await names(admin, query('Haus', 'deu'))).toEqual(['Häuser']);
  });

  it('applies overrides and algorithm "none" of a dictionary and rebuilds the keys of its terms', async () => {
    expect(await names(admin, query('mice'))).toEqual([]);
    const english = await admin.put<{ result?: number }>(`/dictionaries/${world.dictionary.id}/stemming`, {
      langCode: 'eng',
      overrides: { Mice: 'mouse' },
      protectedWords: ['Pumps'],
    });
    expect(english.status).toBe(200);
    expect(await names(admin, query('mice'))).toEqual(['mouse']);
    // "pumps" is protected: its key stays "pumps", so it no longer meets "pump".
    expect(await names(admin, query('fuel pumps'))).toEqual([]);
    expect(await names(admin, query('fuel pumping'))).toEqual(['fuel pump']);

    const german = await admin.put<{ result?: number }>(`/dictionaries/${world.dictionary.id}/stemming`, {
      langCode: 'deu',
      algorithm: 'none',
    });
    expect(german.status).toBe(200);
    expect(german.body.result).toBe(2);
    expect(await names(admin, query('Haus', 'deu'))).toEqual([]);
    expect(await names(admin, query('hauser', 'deu'))).toEqual(['Häuser']);

    const settings = await admin.get<
      {
        langCode: string;
        algorithm: string | null;
        overrides: Record<string, string>;
        protectedWords: string[];
      }[]
    >(`/dictionaries/${world.dictionary.id}/stemming`);
    expect(settings.status).toBe(200);
    expect(settings.body).toEqual([
      expect.objectContaining({ langCode: 'deu', algorithm: 'none' }),
      expect.objectContaining({
        langCode: 'eng',
        algorithm: null,
        overrides: { mice: 'mouse' },
        protectedWords: ['pumps'],
      }),
    ]);

    // Back to the default: the German keys are stems again.
    const back = await admin.put(`/dictionaries/${world.dictionary.id}/stemming`, {
      langCode: 'deu',
      algorithm: null,
    });
    expect(back.status).toBe(200);
    expect(await names(admin, query('Haus', 'deu'))).toEqual(['Häuser']);
    const rebuild = await admin.post<{ result?: number }>(
      `/dictionaries/${world.dictionary.id}/stemming/rebuild`,
    );
    expect(rebuild.status).toBe(200);
    expect(rebuild.body.result).toBe(0);
  });

  it('lets only administrators change settings, and refuses unknown algorithms', async () => {
    const unknown = await admin.put(`/dictionaries/${world.dictionary.id}/stemming`, {
      langCode: 'eng',
      algorithm: 'klingon',
    });
    expect(unknown.status).toBe(400);
    const user = await userOf(server, world);
    const refused = await user.api.put(`/dictionaries/${world.dictionary.id}/stemming`, {
      langCode: 'eng',
      algorithm: 'none',
    });
    expect([403, 404]).toContain(refused.status);
    const otherTenant = await conceptWorld(server);
    const hidden = await otherTenant.admin.get(`/dictionaries/${world.dictionary.id}/stemming`);
    expect(hidden.status).toBe(404);
  });
});
