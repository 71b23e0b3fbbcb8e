/**
 * What workflow states do elsewhere (docs/workflows.md): term lists (style, read-only, hidden,
 * unpublished for guests and users without review rights), counts per state, the filter by state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createScheme, grant, uniqueSuffix } from '../helpers/structure.js';
import { enableWorkflow, entryOf, fire, states, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface ListEntry {
  name: string;
  langCode: string;
  style: string;
  disabled: boolean;
  hidden: boolean;
}

/** The terms a search lists in English and in German. */
async function listed(caller: RestClient, dictionaryId: number) {
  const results: ListEntry[] = [];
  for (const langCode of ['deu', 'eng']) {
    const response = await caller.post<{ results: ListEntry[] }>('/terms/search', {
      dictionaryIds: [dictionaryId],
      langCode,
      sectionOids: [],
    });
    expect(response.status, response.text).toBe(200);
    results.push(...response.body.results);
  }
  return results;
}

/** Named users and guests read the dictionary; a guest session. */
async function openWorld() {
  const w = await workflowWorld(t, sysadmin, {
    scheme: async (admin) => {
      const groups = await systemGroups(admin);
      const scheme = await createScheme(admin, [
        grant(
          groups.ALL_USERS.id,
          ['DICT_READ', 'CONCEPT_EXPORT'],
          ['CONCEPT_UPDATE', 'TERM_CREATE', 'CONCEPT_PRINT'],
        ),
        grant(groups.GUEST.id, ['DICT_READ', 'CONCEPT_EXPORT'], ['CONCEPT_PRINT']),
      ]);
      return scheme.id;
    },
  });
  const username = `guest${uniqueSuffix()}`;
  const settings = await w.admin.put('/users/guest', {
    enabled: true,
    username,
    password: 'guest-pass-1',
    loginMethod: 'NORMAL',
  });
  expect(settings.status, settings.text).toBe(200);
  const guest = await loginRest(t.app, username, 'guest-pass-1', w.tenant.loginName);
  return { ...w, guest };
}

describe('term lists under the default workflow', () => {
  it('unpublished terms are invisible to guests and non-reviewers, hidden ones to everybody; styles and read-only apply', async () => {
    const w = await openWorld();
    const concept = await w.concept();
    const before = await listed(w.guest, w.dictionary.id);
    expect(before.map((entry) => entry.langCode).sort()).toEqual(['deu', 'eng']);
    expect(before.every((entry) => entry.style === '')).toBe(true);

    const workflow = await enableWorkflow(w, 'Default');
    // Everything is "suggested" now: unpublished. Only reviewers (the dictionary administrator) list it.
    expect(await listed(w.guest, w.dictionary.id)).toEqual([]);
    expect(await listed(w.author.rest, w.dictionary.id)).toEqual([]);
    const reviewerView = await listed(w.dictAdmin.rest, w.dictionary.id);
    expect(reviewerView.map((entry) => [entry.langCode, entry.style])).toEqual(
      expect.arrayContaining([
        ['deu', 'font-style: italic'],
        ['eng', 'font-style: italic'],
      ]),
    );

    // German approved: published to all; English rejected: hidden (and read-only) for everybody.
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'deu',
          transition: 'submit',
          version: 0,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'eng',
          transition: 'submit',
          version: 0,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fire(w.dictAdmin.rest, {
          conceptId: concept.id,
          languageCode: 'deu',
          transition: 'approve',
          version: 1,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fire(w.dictAdmin.rest, {
          conceptId: concept.id,
          languageCode: 'eng',
          transition: 'reject',
          version: 1,
          comment: 'Calque',
        })
      ).status,
    ).toBe(200);
    for (const caller of [w.guest, w.author.rest, w.dictAdmin.rest]) {
      const entries = await listed(caller, w.dictionary.id);
      expect(entries.map((entry) => [entry.langCode, entry.style, entry.hidden])).toEqual([
        ['deu', '', false],
      ]);
    }
    expect(entryOf(await states(w.author.rest, concept.id), 'eng')).toMatchObject({
      state: 'rejected',
      readOnly: true,
    });

    // Concept reads (visibility-26): guests and users without review rights get the published terms only
    // (their full updates keep the others: workflow-visibility.test.ts); reviewers get every term.
    const languagesOf = async (caller: RestClient) => {
      const read = await caller.get<{ terms: { languageCode: string }[] }>(`/concepts/${concept.id}`);
      expect(read.status, read.text).toBe(200);
      return read.body.terms.map((term) => term.languageCode).sort();
    };
    expect(await languagesOf(w.guest)).toEqual(['deu']);
    expect(await languagesOf(w.author.rest)).toEqual(['deu']); // visibility-26
    expect(await languagesOf(w.dictAdmin.rest)).toEqual(['deu', 'eng']); // visibility-26

    // TBX exports leave unpublished terms out unless asked for.
    const names =
      // visibility-26: the reviewer reads both names
      (
        await w.dictAdmin.rest.get<{ terms: { languageCode: string; name: string }[] }>(
          `/concepts/${concept.id}`,
        )
      ).body.terms;
    const nameOf = (code: string) => names.find((term) => term.languageCode === code)!.name;
    const exported = await w.admin.get(`/dictionaries/export-tbx/${w.dictionary.id}`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.text).toContain(nameOf('deu'));
    expect(exported.text).not.toContain(nameOf('eng'));
    // include-unpublished: the reviewer (the dictionary administrator) gets them.
    const everything = await w.dictAdmin.rest.get(
      `/dictionaries/export-tbx/${w.dictionary.id}?include-unpublished=true`,
    );
    expect(everything.status, everything.text).toBe(200);
    expect(everything.text).toContain(nameOf('eng'));
    // issue 37: include-unpublished is for those who review; guests and other readers get 403, and
    // their plain export holds the published terms only.
    for (const reader of [w.guest, w.author.rest]) {
      const refused = await reader.get<{ code: string; message: string }>(
        `/dictionaries/export-tbx/${w.dictionary.id}?include-unpublished=true`,
      );
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
      expect(refused.text).not.toContain(nameOf('eng'));
      const plain = await reader.get(`/dictionaries/export-tbx/${w.dictionary.id}`);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.text).toContain(nameOf('deu'));
      expect(plain.text).not.toContain(nameOf('eng'));
      // The other read paths of the concept apply the same rule: the print page and GraphQL.
      const printed = await reader.get(`/concepts/${concept.id}/print-as-html`);
      expect(printed.status, printed.text).toBe(200);
      expect(printed.text).toContain(nameOf('deu'));
      expect(printed.text).not.toContain(nameOf('eng'));
      const graphql = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': reader.token ?? '' },
        payload: JSON.stringify({
          query: 'query ($id: Int!) { concept(id: $id) { terms { name } } }',
          variables: { id: concept.id },
        }),
      });
      expect(graphql.body).toContain(nameOf('deu'));
      expect(graphql.body).not.toContain(nameOf('eng'));
    }

    // Counts per state and the filter by state: every state for the reviewer, the published ones for
    // guests and other readers (issue 37).
    const countsOf = async (caller: RestClient) => {
      const counts = await caller.get<{ state: string; languageCode: string; count: number }[]>(
        `/workflows/statistics?dictionary-id=${w.dictionary.id}`,
      );
      expect(counts.status, counts.text).toBe(200);
      return counts.body;
    };
    expect(await countsOf(w.dictAdmin.rest)).toEqual([
      { state: 'approved', languageCode: 'deu', count: 1 },
      { state: 'rejected', languageCode: 'eng', count: 1 },
    ]);
    for (const reader of [w.guest, w.author.rest]) {
      expect(await countsOf(reader)).toEqual([{ state: 'approved', languageCode: 'deu', count: 1 }]);
    }
    const second = await w.concept();
    const inState = async (caller: RestClient, state: string) => {
      const list = await caller.get<{ conceptId: number; languageCode: string }[]>(
        `/workflows/entries?dictionary-id=${w.dictionary.id}&state=${state}`,
      );
      expect(list.status, list.text).toBe(200);
      return list.body;
    };
    expect(await inState(w.dictAdmin.rest, 'suggested')).toEqual([
      { conceptId: second.id, languageCode: 'deu', termId: null, state: 'suggested' },
      { conceptId: second.id, languageCode: 'eng', termId: null, state: 'suggested' },
    ]);
    expect(await inState(w.dictAdmin.rest, 'rejected')).toEqual([
      { conceptId: concept.id, languageCode: 'eng', termId: null, state: 'rejected' },
    ]);
    for (const reader of [w.guest, w.author.rest]) {
      expect(await inState(reader, 'suggested')).toEqual([]);
      expect(await inState(reader, 'rejected')).toEqual([]);
      expect(await inState(reader, 'approved')).toEqual([
        { conceptId: concept.id, languageCode: 'deu', termId: null, state: 'approved' },
      ]);
    }
    // The tRPC twin answers the same.
    const trpc = await t.app.inject({
      method: 'GET',
      url: `/trpc/workflows.entries?input=${encodeURIComponent(JSON.stringify({ 'dictionary-id': w.dictionary.id, state: 'rejected' }))}`,
      headers: { 'x-auth-token': w.guest.token ?? '' },
    });
    expect(trpc.statusCode, trpc.body).toBe(200);
    expect((trpc.json() as { result: { data: unknown[] } }).result.data).toEqual([]);

    // Switched off: every term is listed as before.
    const off = await w.admin.put(`/workflows/partial/${workflow.id}`, {
      version: workflow.version,
      enabled: false,
    });
    expect(off.status, off.text).toBe(200);
    expect((await listed(w.guest, w.dictionary.id)).length).toBe(4);
  });
});

describe('term decoration under the default workflow', () => {
  /** The terms that term decoration finds in `text` (German source) for the caller. */
  const decorated = async (caller: RestClient, dictionaryId: number, text: string) => {
    const response = await caller.post<{ segments: { matches: { term: string; status: string }[] }[] }>(
      '/term-decoration',
      { sourceLang: 'deu', dictionaryIds: [dictionaryId], segments: [{ text }] },
    );
    expect(response.status, response.text).toBe(200);
    return response.body.segments[0]!.matches.map((match) => [match.term, match.status]);
  };

  it('matches unpublished terms for reviewers only, published ones for everybody', async () => {
    const w = await openWorld();
    const concept = await w.concept();
    const read = await w.admin.get<{ terms: { languageCode: string; name: string }[] }>(
      `/concepts/${concept.id}`,
    );
    const german = read.body.terms.find((term) => term.languageCode === 'deu')!.name;
    const text = `Hier steht ${german} im Satz.`;
    expect(await decorated(w.guest, w.dictionary.id, text)).toEqual([[german, 'admitted']]);

    await enableWorkflow(w, 'Default');
    // Suggested is unpublished: neither guests nor authors are shown the term; the reviewer is.
    expect(await decorated(w.guest, w.dictionary.id, text)).toEqual([]);
    expect(await decorated(w.author.rest, w.dictionary.id, text)).toEqual([]);
    expect(await decorated(w.dictAdmin.rest, w.dictionary.id, text)).toEqual([[german, 'admitted']]);

    for (const [caller, transition, version] of [
      [w.author.rest, 'submit', 0],
      [w.dictAdmin.rest, 'approve', 1],
    ] as const) {
      const fired = await fire(caller, { conceptId: concept.id, languageCode: 'deu', transition, version });
      expect(fired.status, fired.text).toBe(200);
    }
    expect(await decorated(w.guest, w.dictionary.id, text)).toEqual([[german, 'admitted']]);
  });
});
