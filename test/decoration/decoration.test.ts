/**
 * Term decoration (docs/decoration.md) on both engines: each match kind, overlaps, homonyms, status
 * and preferred terms, translations, punctuation, Japanese and Arabic, the three output formats with
 * inline tags, limits, bad input and who may see what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Server } from '../concepts/concept-helpers.js';
import {
  createDictionary,
  createScheme,
  createSection,
  loggedInUser,
  patchAtCurrentVersion,
  rows,
} from '../helpers/structure.js';
import { ENGINES, startEngineServer } from '../search/search-helpers.js';
import { concept, decorate, type MatchBody, type Termbase, termbase } from './decoration-helpers.js';

describe.each(ENGINES)('term decoration on %s', (engine) => {
  let server: Server;
  let base: Termbase;
  let admin: Api;
  const ids: Record<string, number> = {};
  const request = (text: string, extra: Record<string, unknown> = {}) => ({
    sourceLang: 'eng',
    segments: [{ text }],
    ...extra,
  });
  const matchesOf = async (text: string, extra: Record<string, unknown> = {}): Promise<MatchBody[]> =>
    (await decorate(admin, request(text, extra))).segments[0]!.matches;
  const brief = (matches: MatchBody[]) => matches.map((m) => [m.text, m.term, m.kind]);

  beforeAll(async () => {
    server = await startEngineServer(engine);
    base = await termbase(server);
    admin = base.admin;
    const fuel = await concept(base, [
      { name: 'fuel pump', lang: 'eng', status: 'preferredTerm-admn-sts' },
      { name: 'petrol pump', lang: 'eng', status: 'deprecatedTerm-admn-sts' },
      { name: 'Kraftstoffpumpe', lang: 'deu', status: 'preferredTerm-admn-sts' },
      { name: 'Benzinpumpe', lang: 'deu', status: 'deprecatedTerm-admn-sts' },
      { name: 'pompe à carburant', lang: 'fra' },
      { name: '燃料ポンプ', lang: 'jpn' },
    ]);
    ids.fuel = fuel.id;
    ids.pump = (await concept(base, [{ name: 'pump', lang: 'eng' }])).id;
    ids.heat = (await concept(base, [{ name: 'heat pump', lang: 'eng' }])).id;
    ids.cpp = (await concept(base, [{ name: 'C++', lang: 'eng' }])).id;
    ids.quoted = (await concept(base, [{ name: `rock 'n' roll "live"`, lang: 'eng' }])).id;
    ids.bankMoney = (await concept(base, [{ name: 'bank', lang: 'eng' }])).id;
    ids.bankRiver = (await concept(base, [{ name: 'bank', lang: 'eng' }])).id;
    ids.cafe = (await concept(base, [{ name: 'café', lang: 'eng' }])).id;
    ids.email = (await concept(base, [{ name: 'tölvupóstur', lang: 'isl' }])).id;
    ids.list = (
      await concept(base, [
        { name: 'blacklist', lang: 'eng', status: 'forbidden' },
        { name: 'blocklist', lang: 'eng', status: 'preferredTerm-admn-sts' },
      ])
    ).id;
    ids.arabic = (await concept(base, [{ name: 'مضخة الوقود', lang: 'ara' }])).id;
  }, 240_000);
  afterAll(() => server?.close());

  it('finds exact, case-folded, accent-folded and stemmed matches with UTF-16 offsets', async () => {
    const text = '🚀 Fuel Pump, fuel pumps, the CAFE and the café.';
    const matches = await matchesOf(text);
    expect(brief(matches)).toEqual([
      ['Fuel Pump', 'fuel pump', 'case-folded'],
      ['fuel pumps', 'fuel pump', 'stemmed'],
      ['CAFE', 'café', 'accent-folded'],
      ['café', 'café', 'exact'],
    ]);
    for (const match of matches) expect(text.slice(match.start, match.end)).toBe(match.text);
    expect(matches[0]!.start).toBe(3);
    expect(matches[3]!.score).toBe(1);
    expect(matches[1]!.score).toBeLessThan(0.8);
    // Only the kinds asked for.
    expect(brief(await matchesOf(text, { kinds: ['exact'] }))).toEqual([['café', 'café', 'exact']]);
    expect((await matchesOf(text, { minScore: 0.92 })).map((m) => m.kind)).toEqual(['case-folded', 'exact']);
  });

  it('finds fuzzy matches (a word and a one-word term, one the other plus up to 3 letters) on request only', async () => {
    expect(await matchesOf('pumpkin, pumpkins, pum')).toEqual([]);
    expect(brief(await matchesOf('pumpkin, pumpkins, pum', { kinds: ['fuzzy'] }))).toEqual([
      ['pumpkin', 'pump', 'fuzzy'],
    ]);
    // Icelandic "tölvupóst" (accusative) is a stemmed match of "tölvupóstur" (the Hunspell lexicon),
    // and a fuzzy one where stemmed matches are not asked for.
    const icelandic = { sourceLang: 'isl', segments: [{ text: 'Sendu tölvupóst strax.' }] };
    expect(
      (await decorate(admin, icelandic)).segments[0]!.matches.map((m) => [m.text, m.term, m.kind]),
    ).toEqual([['tölvupóst', 'tölvupóstur', 'stemmed']]);
    const [email] = (await decorate(admin, { ...icelandic, kinds: ['exact', 'fuzzy'] })).segments[0]!.matches;
    expect(email).toMatchObject({
      text: 'tölvupóst',
      term: 'tölvupóstur',
      kind: 'fuzzy',
      conceptId: ids.email,
    });
    expect(email!.score).toBeLessThan(0.6);
  });

  it('prefers the longest leftmost match and answers all overlapping ones on request', async () => {
    const text = 'the heat pump and the fuel pump';
    expect(brief(await matchesOf(text))).toEqual([
      ['heat pump', 'heat pump', 'exact'],
      ['fuel pump', 'fuel pump', 'exact'],
    ]);
    const all = await matchesOf(text, { overlap: 'all' });
    expect(brief(all)).toEqual([
      ['heat pump', 'heat pump', 'exact'],
      ['pump', 'pump', 'exact'],
      ['fuel pump', 'fuel pump', 'exact'],
      ['pump', 'pump', 'exact'],
    ]);
  });

  it('answers every homonym, the status, the preferred term and translations', async () => {
    const [bank] = await matchesOf('the bank');
    expect(bank!.homonyms).toHaveLength(1);
    expect([bank!.conceptId, bank!.homonyms[0]!.conceptId].sort()).toEqual(
      [ids.bankMoney, ids.bankRiver].sort(),
    );

    const [petrol] = await matchesOf('Check the petrol pump.', { targetLangs: ['deu', 'fra'] });
    expect(petrol).toMatchObject({ term: 'petrol pump', status: 'deprecated', conceptId: ids.fuel });
    expect(petrol!.preferred.map((p) => p.name)).toEqual(['fuel pump']);
    expect(petrol!.translations.deu!.map((t) => [t.name, t.status])).toEqual([
      ['Kraftstoffpumpe', 'preferred'],
      ['Benzinpumpe', 'deprecated'],
    ]);
    expect(petrol!.translations.fra!.map((t) => [t.name, t.status])).toEqual([
      ['pompe à carburant', 'admitted'],
    ]);
    const [forbidden] = await matchesOf('no blacklist');
    expect(forbidden).toMatchObject({
      status: 'forbidden',
      preferred: [expect.objectContaining({ name: 'blocklist' })],
    });
    const [preferred] = await matchesOf('a fuel pump');
    expect(preferred).toMatchObject({ status: 'preferred', preferred: [] });
  });

  it('matches terms with punctuation, Japanese without spaces and Arabic right to left', async () => {
    expect(brief(await matchesOf('I write C++ code, not C.'))).toEqual([['C++', 'C++', 'exact']]);
    expect(brief(await matchesOf(`Rock 'n' roll "live" \\ on stage`))).toEqual([
      [`Rock 'n' roll "live"`, `rock 'n' roll "live"`, 'case-folded'],
    ]);
    const japanese = '古い燃料ポンプを交換する';
    const [pump] = (await decorate(admin, { sourceLang: 'jpn', segments: [{ text: japanese }] })).segments[0]!
      .matches;
    expect(pump).toMatchObject({ term: '燃料ポンプ', kind: 'exact', conceptId: ids.fuel });
    expect(japanese.slice(pump!.start, pump!.end)).toBe('燃料ポンプ');
    const arabic = 'افحص مضخة الوقود الآن';
    const [rtl] = (await decorate(admin, { sourceLang: 'ara', segments: [{ text: arabic }] })).segments[0]!
      .matches;
    expect(rtl).toMatchObject({ term: 'مضخة الوقود', conceptId: ids.arabic });
    expect(arabic.slice(rtl!.start, rtl!.end)).toBe('مضخة الوقود');
  });

  it('decorates plain text as escaped HTML and XLIFF', async () => {
    const text = 'a <script> & fuel pump';
    const html = await decorate(admin, request(text, { output: 'html' }));
    const decorated = html.segments[0]!.decorated!;
    expect(decorated).toContain('a &lt;script&gt; &amp; <span class="polyterm-term polyterm-preferred"');
    expect(decorated).toMatch(/data-concept-id="\d+"[^>]*>fuel pump<\/span>$/);
    const xliff = await decorate(admin, request(text, { output: 'xliff' }));
    expect(xliff.segments[0]!.decorated).toMatch(
      /^a &lt;script&gt; &amp; <mrk id="polyterm-1" type="term" ref="polyterm:term:\d+" value="preferred">fuel pump<\/mrk>$/,
    );
  });

  it('keeps the inline tags of HTML and XLIFF segments whole', async () => {
    const htmlText = '<p>The <b>fuel</b> pump &amp; the <i>heat pump</i></p>';
    const html = await decorate(admin, {
      sourceLang: 'eng',
      segments: [{ text: htmlText, format: 'html' }],
      output: 'html',
    });
    const [fuel, heat] = html.segments[0]!.matches;
    expect(htmlText.slice(fuel!.start, fuel!.end)).toBe('fuel</b> pump');
    expect(htmlText.slice(heat!.start, heat!.end)).toBe('heat pump');
    expect(html.segments[0]!.decorated).toMatch(
      /^<p>The <b><span [^>]*data-match="1"[^>]*>fuel<\/span><\/b><span [^>]*data-match="1"[^>]*> pump<\/span> &amp; the <i><span [^>]*>heat pump<\/span><\/i><\/p>$/,
    );
    const xliffText = 'Replace the <pc id="1">fuel</pc> pump and the <pc id="2">heat pump</pc>.';
    const xliff = await decorate(admin, {
      sourceLang: 'eng',
      segments: [{ id: 's1', text: xliffText, format: 'xliff' }],
      output: 'xliff',
    });
    expect(xliff.segments[0]!.id).toBe('s1');
    expect(xliff.segments[0]!.decorated).toMatch(
      /^Replace the <pc id="1"><sm id="polyterm-1" type="term" [^>]*\/>fuel<\/pc> pump<em startRef="polyterm-1"\/> and the <pc id="2"><mrk id="polyterm-2" type="term" [^>]*>heat pump<\/mrk><\/pc>\.$/,
    );
    // A placeholder stands between words: no term matches across it.
    expect(
      (
        await decorate(admin, {
          sourceLang: 'eng',
          segments: [{ text: 'fuel<ph id="1"/>pump', format: 'xliff' }],
        })
      ).segments[0]!.matches.map((m) => m.term),
    ).toEqual(['pump']);
  });

  it('answers 413 past the limits and 400 for bad input', async () => {
    const many = await admin.post('/term-decoration', {
      sourceLang: 'eng',
      segments: Array.from({ length: 101 }, () => ({ text: 'x' })),
    });
    expect(many.status).toBe(413);
    expect(many.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const large = await admin.post('/term-decoration', {
      sourceLang: 'eng',
      segments: [{ text: 'pump '.repeat(14_000) }],
    });
    expect(large.status).toBe(413);
    for (const body of [
      { sourceLang: 'eng', segments: [] },
      { sourceLang: 'english', segments: [{ text: 'pump' }] },
      { sourceLang: 'eng', segments: [{ text: '<pc id="1">pump', format: 'xliff' }] },
      { sourceLang: 'eng', segments: [{ text: '<b>pump</b>', format: 'html' }], output: 'xliff' },
      { sourceLang: 'eng', segments: [{ text: 'pump' }], kinds: ['guessed'] },
    ]) {
      const response = await admin.post('/term-decoration', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('matches only what the caller may read, and isolates tenants', async () => {
    // A dictionary of the same tenant whose permission scheme grants nothing: administrators only.
    const scheme = await createScheme(base.tenantAdmin, []);
    const secret = await createDictionary(base.tenantAdmin, {
      languages: [{ code: 'eng' }],
      permissionSchemeId: scheme.id,
    });
    const secretConcept = await base.admin.post<{ id: number }>('/concepts', {
      dictionaryId: secret.id,
      sectionOid: secret.sections[0]!.oid,
      terms: [{ name: 'fuel pump', languageCode: 'eng' }],
    });
    expect(secretConcept.status).toBe(201);
    // A section of the readable dictionary that grants nothing: its concepts are the administrators'.
    const hiddenSection = await createSection(base.tenantAdmin, base.dictionary.id);
    const patched = await patchAtCurrentVersion(base.tenantAdmin, 'sections', hiddenSection.id, {
      permissionSchemeId: scheme.id,
    });
    expect(patched.status, patched.text).toBe(200);
    const hiddenConcept = await base.admin.post<{ id: number }>('/concepts', {
      dictionaryId: base.dictionary.id,
      sectionOid: hiddenSection.oid,
      terms: [{ name: 'fuel pump', languageCode: 'eng' }],
    });
    expect(hiddenConcept.status).toBe(201);
    const everything = await decorate(admin, request('the fuel pump'));
    expect(everything.dictionaryIds.sort()).toEqual([base.dictionary.id, secret.id].sort());
    expect(everything.segments[0]!.matches[0]!.homonyms.map((h) => h.conceptId).sort()).toEqual(
      [secretConcept.body.id, hiddenConcept.body.id].sort(),
    );

    const reader = server.api((await loggedInUser(server.t, base.tenant)).rest);
    const readable = await decorate(reader, request('the fuel pump'));
    expect(readable.dictionaryIds).toEqual([base.dictionary.id]);
    expect(readable.segments[0]!.matches.map((m) => [m.conceptId, m.homonyms.length])).toEqual([
      [ids.fuel, 0],
    ]);
    const named = await reader.post(
      '/term-decoration',
      request('the fuel pump', { dictionaryIds: [secret.id] }),
    );
    expect(named.status).toBe(404);

    const other = await termbase(server, ['eng']);
    const elsewhere = await decorate(other.admin, request('the fuel pump'));
    expect(elsewhere.segments[0]!.matches).toEqual([]);
    const foreign = await other.admin.post(
      '/term-decoration',
      request('pump', { dictionaryIds: [base.dictionary.id] }),
    );
    expect(foreign.status).toBe(404);
  });

  it('answers only the terms term search would: a group filter hides translations, in decoration and check', async () => {
    const user = await loggedInUser(server.t, base.tenant);
    // The group's filter selects English and French terms: a member's term search finds no German one.
    const filter = await base.tenantAdmin.post<{ id: number }>('/filters', {
      name: `English and French ${engine}`,
      dictionaryId: base.dictionary.id,
      visibility: 'PUBLIC',
      criteria: { languages: ['eng', 'fra'] },
    });
    expect(filter.status, filter.text).toBe(201);
    const group = await base.tenantAdmin.post('/groups', {
      name: `Filtered ${engine} ${user.id}`,
      groupMembers: [user.id],
      filterMap: { [String(base.dictionary.id)]: filter.body.id },
    });
    expect(group.status, group.text).toBe(201);
    const reader = server.api(user.rest);
    const german = {
      dictionaryIds: [base.dictionary.id],
      langCode: 'deu',
      sectionOids: [],
      name: 'Kraftstoffpumpe',
    };
    for (const [caller, found] of [
      [admin, 1],
      [reader, 0],
    ] as const) {
      const search = await caller.post<{ results: unknown[] }>('/terms/search', german);
      expect(search.status, search.text).toBe(200);
      expect(search.body.results).toHaveLength(found);
    }

    const body = { dictionaryIds: [base.dictionary.id], targetLangs: ['deu', 'fra'] };
    const [seen] = (await decorate(admin, request('the petrol pump', body))).segments[0]!.matches;
    expect(seen!.translations.deu!.map((t) => t.name)).toEqual(['Kraftstoffpumpe', 'Benzinpumpe']);
    const [filtered] = (await decorate(reader, request('the petrol pump', body))).segments[0]!.matches;
    expect(filtered!.conceptId).toBe(ids.fuel);
    expect(filtered!.preferred.map((t) => t.name)).toEqual(['fuel pump']);
    expect(filtered!.translations).toEqual({
      deu: [],
      fra: [expect.objectContaining({ name: 'pompe à carburant' })],
    });

    const check = { dictionaryIds: [base.dictionary.id], sourceLang: 'eng', targetLang: 'deu' };
    const texts = { source: 'the fuel pump', target: 'die Benzinpumpe' };
    const full = await admin.post<{ avoided: { term: string }[] }>('/term-check', { ...check, ...texts });
    expect(full.body.avoided.map((a) => a.term)).toEqual(['Benzinpumpe']);
    const limited = await reader.post<{
      avoided: unknown[];
      missingTranslations: unknown[];
      noEquivalent: { term: string }[];
    }>('/term-check', { ...check, ...texts });
    expect(limited.status, limited.text).toBe(200);
    expect(limited.body.avoided).toEqual([]);
    expect(limited.body.missingTranslations).toEqual([]);
    expect(limited.body.noEquivalent.map((m) => m.term)).toEqual(['fuel pump']);
  });

  it('leaves out a readable dictionary without a readable section when no dictionaries are named', async () => {
    const empty = await createDictionary(base.tenantAdmin, { languages: [{ code: 'eng' }] });
    // Its only section gone, the dictionary is still readable (its own scheme decides) but holds nothing.
    await rows(server.t, 'update sections set deleted = true where dictionary_id = ?', [empty.id]);
    const reader = server.api((await loggedInUser(server.t, base.tenant)).rest);
    const answer = await reader.post<{ dictionaryIds: number[]; segments: { matches: MatchBody[] }[] }>(
      '/term-decoration',
      request('the fuel pump'),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.dictionaryIds).not.toContain(empty.id);
    expect(answer.body.dictionaryIds).toContain(base.dictionary.id);
    expect(answer.body.segments[0]!.matches.map((m) => m.conceptId)).toEqual([ids.fuel]);
    const named = await reader.post(
      '/term-decoration',
      request('the fuel pump', { dictionaryIds: [empty.id] }),
    );
    expect(named.status).toBe(404);
  });
});
