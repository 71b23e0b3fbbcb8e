/**
 * Substrings of folded names on PostgreSQL find their candidates through polyterm_grams (3-character
 * windows keyed by dictionary and language, Migration20261125090000_search_grams). The same searches
 * run on Elasticsearch, which must answer alike: several dictionaries at once, texts with spaces,
 * punctuation and accents, texts too short for a window, and names of another language or dictionary
 * that hold the text but must stay out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldedSubstring, fuzzyPieces } from '../../src/modules/search/postgres-search.js';
import type { SearchPlan } from '../../src/modules/search/search-plan.js';
import {
  type Api,
  conceptWorld,
  createConcept,
  type Server,
  type World,
} from '../concepts/concept-helpers.js';
import { useTestOrm } from '../helpers/test-orm.js';
import { ENGINES, names, startEngineServer } from './search-helpers.js';

const plan = (dictionaryIds: number[], languageCode: string): SearchPlan => ({
  clientId: 0,
  dictionaryIds,
  sectionIds: [0],
  domainIds: null,
  languageCode,
  regionCode: null,
  scriptCode: null,
  restriction: null,
  text: null,
});

describe('polyterm_grams and the grams index', () => {
  const orm = useTestOrm();

  it('keys every 3-character window of a name by dictionary and language', async () => {
    const [row] = await orm()
      .em.fork()
      .execute<
        { short: number[]; name: number[]; expected: number[]; none: number[] | null; other: number[] }[]
      >(
        `select polyterm_grams(7, 'isl', 'ab') as short, polyterm_grams(7, 'isl', 'sjó ð-x') as name,
              array[hashtext('7 isl sjó'), hashtext('7 isl jó '), hashtext('7 isl ó ð'),
                    hashtext('7 isl  ð-'), hashtext('7 isl ð-x')] as expected,
              polyterm_grams(7, 'isl', null) as none, polyterm_grams(8, 'isl', 'sjó') as other`,
      );
    expect(row?.short).toEqual([]);
    expect(row?.name).toEqual(row?.expected);
    expect(row?.none).toBeNull();
    // Another dictionary, another key for the same window.
    expect(row?.other).toHaveLength(1);
    expect(row?.name).not.toContain(row?.other[0]);
  });

  it("is the expression the index holds, with the text's keys computed once when planned", async () => {
    const em = orm().em.fork();
    const condition = foldedSubstring(plan([3, 4], 'eng'), 'pump');
    const [keys] = await em.execute<{ three: string; four: string }[]>(
      `select polyterm_grams(3, 'eng', 'pump')::text as three, polyterm_grams(4, 'eng', 'pump')::text as four`,
    );
    const explained = await em.transactional(async (tx) => {
      // The test database is small: without this the planner reads the table whatever the index.
      await tx.execute('set local enable_seqscan = off');
      return tx.execute<{ 'QUERY PLAN': string }[]>(
        `explain select t.id from terms t where not t.deleted and ${condition.text}`,
        condition.params as unknown[],
      );
    });
    const text = explained.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('terms_search_grams_index');
    // One index condition per dictionary, each with the dictionary's own keys as a constant.
    expect(text).toContain(`@> '${keys?.three}'::integer[]`);
    expect(text).toContain(`@> '${keys?.four}'::integer[]`);
  });

  it('leaves a text without a window to LIKE alone', () => {
    const condition = foldedSubstring(plan([3], 'eng'), 'pu');
    expect(condition.text).not.toContain('polyterm_grams');
    expect(condition.params).toEqual(['%pu%']);
    // Fuzzy pieces are at least 4 characters, so each always has windows.
    for (const piece of fuzzyPieces('heat pump', 1) ?? []) {
      expect(foldedSubstring(plan([3], 'eng'), piece).text).toContain('polyterm_grams');
    }
  });
});

describe.each(ENGINES)('substring search on %s', (engine) => {
  let server: Server;
  let world: World;
  let admin: Api;
  const substring = (dictionaryIds: number[], langCode: string, name: string) =>
    names(admin, {
      dictionaryIds,
      langCode,
      name,
      sectionOids: [],
      pageSize: 50,
      searchOptions: { mode: 'SUBSTRING', normalized: true },
    });

  beforeAll(async () => {
    server = await startEngineServer(engine);
    world = await conceptWorld(server);
    admin = world.admin;
    await createConcept(admin, world, {
      terms: [
        { name: 'Pompe à chaleur', languageCode: 'fra' },
        { name: 'heat pump', languageCode: 'eng' },
        { name: 'Pompeji', languageCode: 'deu' },
      ],
    });
    await createConcept(admin, world, { terms: [{ name: 'pompous', languageCode: 'eng' }] });
    await createConcept(admin, world, {
      dictionaryId: world.other.dictionary.id,
      sectionOid: world.other.sectionOid,
      terms: [{ name: 'pompe doseuse', languageCode: 'fra' }],
    });
  }, 120_000);
  afterAll(() => server?.close());

  it("finds the text in the searched dictionaries' names of the language only", async () => {
    const both = [world.dictionary.id, world.other.dictionary.id];
    expect(await substring(both, 'fra', 'ompe')).toEqual(['Pompe à chaleur', 'pompe doseuse']);
    expect(await substring([world.dictionary.id], 'fra', 'ompe')).toEqual(['Pompe à chaleur']);
    expect(await substring([world.other.dictionary.id], 'fra', 'ompe')).toEqual(['pompe doseuse']);
    expect(await substring([world.dictionary.id], 'eng', 'ompe')).toEqual([]);
    expect(await substring([world.dictionary.id], 'deu', 'ompe')).toEqual(['Pompeji']);
  });

  it('matches across spaces, punctuation and accents, and texts of one or two characters', async () => {
    const first = [world.dictionary.id];
    expect(await substring(first, 'fra', 'PE A CH')).toEqual(['Pompe à chaleur']);
    expect(await substring(first, 'fra', 'à')).toEqual(['Pompe à chaleur']);
    expect(await substring(first, 'eng', 'mp')).toEqual(['heat pump', 'pompous']);
    expect(await substring(first, 'eng', 't p')).toEqual(['heat pump']);
    expect(await substring(first, 'eng', 'eat pumps')).toEqual([]);
  });
});
