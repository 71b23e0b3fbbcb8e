/**
 * The term search contract (docs/search.md), run unchanged against both engines: matching modes,
 * folding, order, cursors, termOid, filters, sections, domains, variants, access and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  conceptWorld,
  createConcept,
  getConcept,
  putConcept,
  type Server,
  setOid,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import {
  allPages,
  ENGINES,
  names,
  type SearchResponse,
  search,
  startEngineServer,
} from './search-helpers.js';

describe.each(ENGINES)('term search on %s', (engine) => {
  let server: Server;
  let world: World;
  let admin: Api;
  const base = () => ({ dictionaryIds: [world.dictionary.id], langCode: 'eng', sectionOids: [] as string[] });
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startEngineServer(engine);
    world = await conceptWorld(server);
    admin = world.admin;
    const english = [
      'Zebra',
      'apple',
      'Apple',
      'Äpfel',
      'application',
      'pineapple',
      'Straße',
      'strasse',
      'résumé',
      'resume',
      'heat pump',
      'heat-pump',
      'colour',
      'color',
      'a%b_c',
    ];
    for (const name of english) {
      const concept = await createConcept(admin, world, { terms: [{ name, languageCode: 'eng' }] });
      ids[name] = concept.terms[0]!.id;
    }
    // Variants, another language, another section, a domain and field values.
    await createConcept(admin, world, {
      terms: [
        { name: 'elevator', languageCode: 'eng', regionCode: 'US' },
        { name: 'lift', languageCode: 'eng', regionCode: 'GB' },
        { name: 'Aufzug', languageCode: 'deu' },
      ],
      domainList: [world.domain.oid],
      fieldMap: { [world.cf.Definition]: 'A machine lifting people between floors' },
    });
    await createConcept(admin, world, {
      sectionOid: world.section2.oid,
      terms: [{ name: 'appendix', languageCode: 'eng' }],
    });
  });
  afterAll(() => server?.close());

  it('finds by prefix, folding case and accents by default, in the list order', async () => {
    // Folded keys tie for Apple and apple: the exact name decides, by code point (A before a).
    expect(await names(admin, { ...base(), name: 'app' })).toEqual([
      'appendix',
      'Apple',
      'apple',
      'application',
    ]);
    expect(await names(admin, { ...base(), name: 'APF' })).toEqual(['Äpfel']);
    expect(await names(admin, { ...base(), name: 'strasse' })).toEqual(['Straße', 'strasse']);
    expect(await names(admin, { ...base(), name: 'RESU' })).toEqual(['resume', 'résumé']);
  });

  // A query string takes the search off the direct path, through trpc-to-openapi, whose coercion once
  // read a setting the caller never stored (normalized) as false: accents counted there.
  it('folds case and accents by default through trpc-to-openapi too', async () => {
    const response = await admin.post<SearchResponse>('/terms/search?via=openapi', {
      ...base(),
      name: 'APF',
    });
    expect(response.status).toBe(200);
    expect(response.body.results.map((entry) => entry.name)).toEqual(['Äpfel']);
  });

  it('without normalized ignores case but not accents', async () => {
    const options = { searchOptions: { normalized: false } };
    expect(await names(admin, { ...base(), ...options, name: 'RÉS' })).toEqual(['résumé']);
    expect(await names(admin, { ...base(), ...options, name: 'res' })).toEqual(['resume']);
    expect(await names(admin, { ...base(), ...options, name: 'äp' })).toEqual(['Äpfel']);
  });

  it('SUBSTRING without normalized: accents count, case does not', async () => {
    const options = { searchOptions: { mode: 'SUBSTRING', normalized: false } };
    expect(await names(admin, { ...base(), ...options, name: 'ÉSU' })).toEqual(['résumé']);
    expect(await names(admin, { ...base(), ...options, name: 'esu' })).toEqual(['resume']);
    // Inside an accented name, after its accent; and in unaccented names of any case.
    expect(await names(admin, { ...base(), ...options, name: 'PFE' })).toEqual(['Äpfel']);
    expect(await names(admin, { ...base(), ...options, name: 'PPLE' })).toEqual([
      'Apple',
      'apple',
      'pineapple',
    ]);
  });

  it('SUBSTRING and EXACT modes; LIKE characters are plain text', async () => {
    const substring = { searchOptions: { mode: 'SUBSTRING' } };
    expect(await names(admin, { ...base(), ...substring, name: 'pple' })).toEqual([
      'Apple',
      'apple',
      'pineapple',
    ]);
    expect(await names(admin, { ...base(), ...substring, name: '%b_' })).toEqual(['a%b_c']);
    expect(await names(admin, { ...base(), ...substring, name: 'b_c' })).toEqual(['a%b_c']);
    expect(await names(admin, { ...base(), searchOptions: { mode: 'EXACT' }, name: 'APPLE' })).toEqual([
      'Apple',
      'apple',
    ]);
    expect(await names(admin, { ...base(), name: 'a%' })).toEqual(['a%b_c']);
  });

  it('fuzzy adds names within the edit distance of the folded text', async () => {
    expect(
      await names(admin, { ...base(), name: 'colr', searchOptions: { fuzzy: true, fuzziness: 1 } }),
    ).toEqual(['color']);
    expect(
      await names(admin, { ...base(), name: 'colr', searchOptions: { fuzzy: true, fuzziness: 2 } }),
    ).toEqual(['color', 'colour']);
    expect(await names(admin, { ...base(), name: 'colr', searchOptions: { fuzzy: false } })).toEqual([]);
  });

  it('pages fuzzy matches with cursors, totals and reverse like any list', async () => {
    const fuzzy = {
      ...base(),
      name: 'pple',
      searchOptions: { mode: 'SUBSTRING', fuzzy: true, fuzziness: 1 },
    };
    const all = await names(admin, { ...fuzzy, pageSize: 100 });
    expect(all).toEqual(['Apple', 'apple', 'pineapple']);
    const pages = await allPages(admin, { ...fuzzy, pageSize: 1 });
    expect(pages.map((page) => page.results.map((entry) => entry.name))).toEqual(all.map((name) => [name]));
    expect(pages.map((page) => page.total)).toEqual([3, 3, 3]);
    const back = await search(admin, { ...fuzzy, pageSize: 1, searchBefore: pages[2]!.searchBefore });
    expect(back.results.map((entry) => entry.name)).toEqual(['apple']);
    expect(await names(admin, { ...fuzzy, pageSize: 100, reverse: true })).toEqual([...all].reverse());
  });

  it('field values: every word of the text starts a word of the chosen fields', async () => {
    const values = { multiEnabled: true, fields: [world.cf.Definition] };
    expect(await names(admin, { ...base(), name: 'lifting peop', searchOptions: values })).toEqual([
      'elevator',
      'lift',
    ]);
    expect(
      await names(admin, { ...base(), name: 'floors', searchOptions: { multiAllFields: true } }),
    ).toEqual(['elevator', 'lift']);
    expect(
      await names(admin, {
        ...base(),
        name: 'floors',
        searchOptions: { multiEnabled: true, fields: [world.cf.Note] },
      }),
    ).toEqual([]);
  });

  it('regions, scripts, languages, sections and domains narrow the list', async () => {
    expect(await names(admin, { ...base(), regionCode: 'us', name: '' })).toEqual(['elevator']);
    expect(await names(admin, { ...base(), langCode: 'deu' })).toEqual(['Aufzug']);
    expect(await names(admin, { ...base(), sectionOids: [world.section2.oid] })).toEqual(['appendix']);
    expect(await names(admin, { ...base(), domainOids: [world.domain.oid] })).toEqual(['elevator', 'lift']);
    const quick = await names(admin, { ...base(), quickFilter: { domainOids: [world.domain.oid] } });
    expect(quick).toEqual(['elevator', 'lift']);
  });

  it('pages forward and back with cursors, and reverses', async () => {
    const all = await names(admin, { ...base(), pageSize: 100 });
    expect(all.length).toBe(18);
    const pages = await allPages(admin, { ...base(), pageSize: 5 });
    expect(pages.map((page) => page.results.length)).toEqual([5, 5, 5, 3]);
    expect(pages.flatMap((page) => page.results.map((entry) => entry.name))).toEqual(all);
    expect(pages[0]!.searchBefore).toBeNull();
    expect(pages[0]!.total).toBe(18);
    expect(pages[3]!.searchAfter).toBeNull();
    const back = await search(admin, { ...base(), pageSize: 5, searchBefore: pages[2]!.searchBefore });
    expect(back.results.map((entry) => entry.name)).toEqual(all.slice(5, 10));
    const first = await search(admin, { ...base(), pageSize: 5, searchBefore: back.searchBefore });
    expect(first.results.map((entry) => entry.name)).toEqual(all.slice(0, 5));
    expect(first.searchBefore).toBeNull();
    expect(await names(admin, { ...base(), pageSize: 100, reverse: true })).toEqual([...all].reverse());
  });

  it('opens the list at a term, with its neighbours when bidirectional', async () => {
    const all = await names(admin, { ...base(), pageSize: 100 });
    const oid = `color-${world.dictionary.id}`;
    await setOid(server.t, 'terms', ids.color!, oid);
    const at = all.indexOf('color');
    const after = await search(admin, { ...base(), pageSize: 4, termOid: oid });
    expect(after.results.map((e) => e.name)).toEqual(all.slice(at, at + 4));
    const around = await search(admin, { ...base(), pageSize: 5, termOid: oid, bidirectional: true });
    expect(around.results.map((e) => e.name)).toEqual(all.slice(at - 2, at + 3));
    expect(around.searchBefore).not.toBeNull();
  });

  it('writes are searchable at once; deleted terms are not listed', async () => {
    const concept = await createConcept(admin, world, { terms: [{ name: 'quokka', languageCode: 'eng' }] });
    expect(await names(admin, { ...base(), name: 'quo' })).toEqual(['quokka']);
    const current = await getConcept(admin, concept.id);
    const renamed = await putConcept(admin, current, {
      terms: [{ id: current.terms[0]!.id, name: 'quoll', languageCode: 'eng' }],
    });
    expect(renamed.status).toBe(200);
    expect(await names(admin, { ...base(), name: 'quo' })).toEqual(['quoll']);
    expect((await admin.delete(`/concepts/${concept.id}`)).status).toBe(204);
    expect(await names(admin, { ...base(), name: 'quo' })).toEqual([]);
  });

  it('readers see readable sections only; other tenants get 404; bad input gets 400', async () => {
    const reader = await userOf(server, world);
    const found = await search(reader.api, { ...base(), name: 'app' });
    expect(found.results.length).toBe(4);
    expect(found.results.every((entry) => entry.disabled)).toBe(true);
    const stranger = await conceptWorld(server);
    const foreign = await stranger.admin.post('/terms/search', { ...base() });
    expect(foreign.status).toBe(404);
    expect((await admin.post('/terms/search', { ...base(), searchAfter: 'garbage' })).status).toBe(400);
    expect((await admin.post('/terms/search', { ...base(), bidirectional: true })).status).toBe(400);
    expect((await admin.post('/terms/search', { ...base(), sectionOids: ['nope'] })).status).toBe(400);
    expect((await admin.post('/terms/search', { langCode: 'eng' })).status).toBe(400);
  });

  it('sectionOids is required (an empty list is fine); missing, it is 400 naming it', async () => {
    const { sectionOids: _required, ...without } = base();
    const missing = await admin.post<{ code: string; issues?: { path: string }[] }>('/terms/search', without);
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body.issues?.map((issue) => issue.path)).toEqual(['sectionOids']);
    expect((await admin.post('/terms/search', { ...base(), sectionOids: [] })).status).toBe(200);
  });

  it('langCode is an ISO 639 code (two or three letters, any case) or a custom code of the dictionaries; else 400', async () => {
    // Two- and three-letter codes, in any case, are one language (docs/clients.md).
    const english = await names(admin, { ...base(), name: 'app' });
    for (const langCode of ['en', 'ENG', 'En']) {
      expect(await names(admin, { ...base(), langCode, name: 'app' }), langCode).toEqual(english);
    }
    for (const langCode of ['english', 'xx', '123', 'e n', 'engl']) {
      const response = await admin.post<{ code: string; message: string }>('/terms/search', {
        ...base(),
        langCode,
      });
      expect(response.status, `${langCode}: ${response.text}`).toBe(400);
      expect(response.body.message, langCode).toMatch(/langCode/);
    }
    // Three letters that no dictionary has: a valid request that finds nothing.
    expect((await search(admin, { ...base(), langCode: 'jpn' })).results).toEqual([]);
    // A custom language keeps the code it was given, whatever its form.
    const elvish = await world.adminRest.post<{ id: number; sections: { oid: string }[] }>('/dictionaries', {
      name: `Elvish ${Date.now()}`,
      languages: [{ code: 'elvish', custom: true, name: 'Elvish' }],
    });
    expect(elvish.status, elvish.text).toBe(201);
    const concept = await admin.post('/concepts', {
      dictionaryId: elvish.body.id,
      sectionOid: elvish.body.sections[0]!.oid,
      terms: [{ name: 'mellon', languageCode: 'elvish' }],
    });
    expect(concept.status, concept.text).toBe(201);
    const inElvish = { dictionaryIds: [elvish.body.id], sectionOids: [], name: 'mel' };
    expect(await names(admin, { ...inElvish, langCode: 'elvish' })).toEqual(['mellon']);
    expect(await names(admin, { ...inElvish, langCode: 'Elvish' })).toEqual(['mellon']);
    // Not a code of these dictionaries: 400 as any other malformed code.
    expect((await admin.post('/terms/search', { ...base(), langCode: 'elvish' })).status).toBe(400);
  });

  it('duplicates fold case and accents and leave out a concept', async () => {
    const list = await admin.get<{ name: string; conceptId: number }[]>(
      `/terms/duplicates?term=RESUME&dictionary-id=${world.dictionary.id}&lang-code=eng`,
    );
    expect(list.status).toBe(200);
    expect(list.body.map((entry) => entry.name).sort()).toEqual(['resume', 'résumé']);
    const page = await admin.get<{ content: { name: string }[]; totalElements: number }>(
      `/terms/duplicates?term=RESUME&dictionary-id=${world.dictionary.id}&lang-code=eng&size=1`,
    );
    expect(page.body.totalElements).toBe(2);
    expect(page.body.content).toHaveLength(1);
  });

  it('a suggestion creates a searchable concept and answers its term id', async () => {
    const created = await admin.post<number>(`/terms/suggestion?dictionary-id=${world.dictionary.id}`, {
      conceptFields: { Definition: 'suggested' },
      terms: [
        { term: 'wombat', langTag: 'en-US' },
        { term: 'Wombat', langTag: 'de' },
      ],
    });
    expect(created.status).toBe(201);
    const hits = await search(admin, { ...base(), name: 'womb' });
    expect(hits.results.map((entry) => [entry.id, entry.regionCode])).toEqual([[created.body, 'US']]);
  });
});
