/**
 * Workflow states inside term search, on both engines (docs/workflows.md, "Term lists"): hidden entries
 * are never listed and unpublished ones only for reviewers, by the search itself, so every page is
 * full, totals are exact and cursors walk the same list both ways; `workflowStates` narrows the list.
 * On Elasticsearch the states travel through the outbox: a transition, switching the workflow off and
 * on again reach the index before the writer's answer.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { systemGroups } from '../access/access-helpers.js';
import { rows, type Server, setOid } from '../concepts/concept-helpers.js';
import { loginRest, type RestClient } from '../helpers/rest.js';
import { createDictionary, createScheme, grant, uniqueSuffix } from '../helpers/structure.js';
import {
  ENGINES,
  type EngineName,
  readiness,
  type SearchResponse,
  startEngineServer,
  word,
} from '../search/search-helpers.js';
import { enableWorkflow, fire, workflowWorld } from './workflow-helpers.js';

/** Concepts per state in the world below (English entries; the German ones all stay suggested). */
const APPROVED = 5;
const IN_REVIEW = 2;
const REJECTED = 2;
const SUGGESTED = 3;
/** Every write waits for the index (read-your-writes): a world of 30 writes takes a while on a busy machine. */
const SLOW = 180_000;

describe.each(ENGINES)('term search under a workflow on %s', (engine: EngineName) => {
  let server: Server;
  beforeAll(async () => {
    server = await startEngineServer(engine);
  }, 120_000);
  afterAll(() => server?.close());

  /** A tenant whose named users and guests read the dictionary, with a guest session. */
  async function openWorld() {
    const w = await workflowWorld(server.t, server.sysadmin, {
      scheme: async (admin) => {
        const groups = await systemGroups(admin);
        const scheme = await createScheme(admin, [
          grant(groups.ALL_USERS.id, ['DICT_READ'], ['CONCEPT_UPDATE', 'TERM_CREATE']),
          grant(groups.GUEST.id, ['DICT_READ']),
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
    const guest = await loginRest(server.t.app, username, 'guest-pass-1', w.tenant.loginName);
    return { ...w, guest };
  }

  /** A world with the default workflow on and English entries spread over its states. */
  async function governedWorld() {
    const w = await openWorld();
    const stem = word();
    const concepts: { id: number; name: string }[] = [];
    const total = APPROVED + IN_REVIEW + REJECTED + SUGGESTED;
    for (let index = 0; index < total; index++) {
      const name = `${stem} ${String(index).padStart(2, '0')}`;
      const created = await w.admin.post<{ id: number }>('/concepts', {
        dictionaryId: w.dictionary.id,
        sectionOid: w.dictionary.sections[0]!.oid,
        terms: [
          { name, languageCode: 'eng' },
          { name: `${stem} de ${index}`, languageCode: 'deu' },
        ],
      });
      expect(created.status, created.text).toBe(201);
      concepts.push({ id: created.body.id, name });
    }
    const workflow = await enableWorkflow(w, 'Default');
    const move = async (caller: RestClient, conceptId: number, transition: string, version: number) => {
      const body = { conceptId, languageCode: 'eng', transition, version, comment: 'checked' };
      const fired = await fire(caller, body);
      expect(fired.status, fired.text).toBe(200);
    };
    // Approved 0-4, in review 5-6, rejected 7-8, suggested 9-11.
    for (const [index, concept] of concepts.entries()) {
      if (index >= APPROVED + IN_REVIEW + REJECTED) continue;
      await move(w.author.rest, concept.id, 'submit', 0);
      if (index < APPROVED) await move(w.dictAdmin.rest, concept.id, 'approve', 1);
      else if (index >= APPROVED + IN_REVIEW) await move(w.dictAdmin.rest, concept.id, 'reject', 1);
    }
    const namesIn = (from: number, to: number) => concepts.slice(from, to).map((c) => c.name);
    return { ...w, stem, concepts, workflow, namesIn };
  }

  const search = async (caller: RestClient, body: Record<string, unknown>) => {
    const response = await server.api(caller).post<SearchResponse>('/terms/search', body);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  /** Every page forward, then every page back from the last one: full pages, one total, one list. */
  async function walk(caller: RestClient, base: Record<string, unknown>, pageSize: number) {
    const forward: SearchResponse[] = [await search(caller, { ...base, pageSize })];
    while (forward.at(-1)!.searchAfter) {
      forward.push(await search(caller, { ...base, pageSize, searchAfter: forward.at(-1)!.searchAfter }));
    }
    const totals = new Set(forward.map((page) => page.total));
    expect(totals.size).toBe(1);
    for (const page of forward.slice(0, -1)) expect(page.results.length).toBe(pageSize);
    const names = forward.flatMap((page) => page.results.map((entry) => entry.name));
    expect(names.length).toBe(forward[0]!.total);
    const backward: string[][] = [];
    let before = forward.at(-1)!.searchBefore;
    while (before) {
      const page = await search(caller, { ...base, pageSize, searchBefore: before });
      expect(page.results.length).toBe(pageSize);
      expect(page.total).toBe(forward[0]!.total);
      backward.unshift(page.results.map((entry) => entry.name));
      before = page.searchBefore;
    }
    expect([...backward.flat(), ...forward.at(-1)!.results.map((entry) => entry.name)]).toEqual(names);
    return { total: forward[0]!.total, names, pages: forward };
  }

  it('is served by the engine under test', async () => {
    const { search: status } = (await readiness(server)).body;
    expect(status.servedBy).toBe(engine);
  });

  it(
    'lists full pages with exact totals for guests, plain users and reviewers',
    async () => {
      const w = await governedWorld();
      const english = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: w.stem };
      const published = w.namesIn(0, APPROVED);
      for (const caller of [w.guest, w.author.rest, w.reviewer.rest]) {
        const { total, names, pages } = await walk(caller, english, 2);
        expect(total).toBe(APPROVED);
        expect(names).toEqual(published);
        expect(pages[0]!.results.every((entry) => entry.style === '')).toBe(true);
      }
      // The dictionary administrator reviews: in review and suggested entries too, rejected (hidden) never.
      const reviewed = await walk(w.dictAdmin.rest, english, 3);
      const expected = [
        ...w.namesIn(0, APPROVED + IN_REVIEW),
        ...w.namesIn(APPROVED + IN_REVIEW + REJECTED, 99),
      ];
      expect(reviewed.total).toBe(expected.length);
      expect(reviewed.names).toEqual(expected);
      const styles = reviewed.pages.flatMap((page) => page.results.map((entry) => entry.style));
      expect(styles).toEqual([
        ...Array(APPROVED).fill(''),
        ...Array(IN_REVIEW).fill('color: #8a6d00'),
        ...Array(SUGGESTED).fill('font-style: italic'),
      ]);
      // Descending, the same list backwards; without a text, the whole language.
      const reversed = await walk(w.dictAdmin.rest, { ...english, reverse: true }, 4);
      expect(reversed.names).toEqual([...expected].reverse());
      const everything = await search(w.guest, { ...english, name: '' });
      expect(everything.total).toBe(APPROVED);
      // German: every entry still suggested, unpublished.
      expect((await search(w.guest, { ...english, langCode: 'deu' })).total).toBe(0);
      expect((await search(w.dictAdmin.rest, { ...english, langCode: 'deu' })).total).toBe(
        APPROVED + IN_REVIEW + REJECTED + SUGGESTED,
      );
      // A list opened at a hidden term shows its neighbours, not the term.
      const [hiddenTerm] = await rows<{ id: number }>(
        server.t,
        `select id from terms where concept_id = ? and language_code = 'eng'`,
        [w.concepts[APPROVED + IN_REVIEW]!.id],
      );
      const oid = `hidden-${uniqueSuffix()}`;
      await setOid(server.t, 'terms', hiddenTerm!.id, oid);
      const opened = await search(w.dictAdmin.rest, { ...english, termOid: oid, pageSize: 2 });
      expect(opened.message).toContain('not in this list');
      expect(opened.results.map((entry) => entry.name)).toEqual(
        w.namesIn(APPROVED + IN_REVIEW + REJECTED, APPROVED + IN_REVIEW + REJECTED + 2),
      );
    },
    SLOW,
  );

  it(
    'filters by workflow state, within what the caller may see',
    async () => {
      const w = await governedWorld();
      const english = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: w.stem };
      const inReview = await walk(w.dictAdmin.rest, { ...english, workflowStates: ['inReview'] }, 1);
      expect(inReview.names).toEqual(w.namesIn(APPROVED, APPROVED + IN_REVIEW));
      const two = await walk(w.dictAdmin.rest, { ...english, workflowStates: ['approved', 'suggested'] }, 3);
      expect(two.names).toEqual([
        ...w.namesIn(0, APPROVED),
        ...w.namesIn(APPROVED + IN_REVIEW + REJECTED, 99),
      ]);
      // Hidden stays hidden; unpublished stays invisible to those who may not review.
      expect((await search(w.dictAdmin.rest, { ...english, workflowStates: ['rejected'] })).total).toBe(0);
      expect((await search(w.guest, { ...english, workflowStates: ['inReview'] })).total).toBe(0);
      expect(
        (await search(w.author.rest, { ...english, workflowStates: ['approved', 'inReview'] })).total,
      ).toBe(APPROVED);
      // An empty list is no filter; an unknown key is 400.
      expect((await search(w.guest, { ...english, workflowStates: [] })).total).toBe(APPROVED);
      const unknown = await server
        .api(w.guest)
        .post('/terms/search', { ...english, workflowStates: ['nope'] });
      expect(unknown.status, unknown.text).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST' });
      expect(unknown.text).toContain('nope');

      // Two dictionaries: the ungoverned one's terms are listed, and left out by a state filter.
      const other = await createDictionary(w.admin, { languages: [{ code: 'eng' }] });
      const plain = await w.admin.post('/concepts', {
        dictionaryId: other.id,
        sectionOid: other.sections[0]!.oid,
        terms: [{ name: `${w.stem} zz`, languageCode: 'eng' }],
      });
      expect(plain.status, plain.text).toBe(201);
      const both = { ...english, dictionaryIds: [w.dictionary.id, other.id] };
      const listedBoth = await walk(w.admin, both, 2);
      expect(listedBoth.names).toEqual([...w.namesIn(0, APPROVED), `${w.stem} zz`]);
      const approvedOnly = await walk(w.admin, { ...both, workflowStates: ['approved'] }, 2);
      expect(approvedOnly.names).toEqual(w.namesIn(0, APPROVED));

      // GraphQL and tRPC take the same filter and answer the same entries, with their style.
      const graphql = await server.t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': w.dictAdmin.rest.token ?? '' },
        payload: JSON.stringify({
          query: `query ($input: TermSearchInput!) {
          searchTerms(input: $input) { total results { name style disabled hidden } } }`,
          variables: { input: { ...english, workflowStates: ['inReview'] } },
        }),
      });
      expect(graphql.json()).toEqual({
        data: {
          searchTerms: {
            total: IN_REVIEW,
            results: w.namesIn(APPROVED, APPROVED + IN_REVIEW).map((name) => ({
              name,
              style: 'color: #8a6d00',
              disabled: false,
              hidden: false,
            })),
          },
        },
      });
      const trpc = createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${server.base}/trpc`, headers: { 'x-auth-token': w.guest.token ?? '' } })],
      });
      const viaTrpc = await trpc.terms.search.query({ ...english, workflowStates: ['approved'] });
      expect(viaTrpc.results.map((entry) => entry.name)).toEqual(w.namesIn(0, APPROVED));
      const refused = await trpc.terms.search.query({ ...english, workflowStates: ['nope'] }).catch((e) => e);
      expect(refused).toBeInstanceOf(TRPCClientError);
    },
    SLOW,
  );

  it(
    'follows transitions and the workflow switched off and on at once',
    async () => {
      const w = await governedWorld();
      const english = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: w.stem };
      const approve = await fire(w.dictAdmin.rest, {
        conceptId: w.concepts[APPROVED]!.id,
        languageCode: 'eng',
        transition: 'approve',
        version: 1,
      });
      expect(approve.status, approve.text).toBe(200);
      const afterApproval = await walk(w.guest, english, 2);
      expect(afterApproval.names).toEqual(w.namesIn(0, APPROVED + 1));

      const off = await w.admin.put<{ version: number }>(`/workflows/partial/${w.workflow.id}`, {
        version: w.workflow.version,
        enabled: false,
      });
      expect(off.status, off.text).toBe(200);
      const all = APPROVED + IN_REVIEW + REJECTED + SUGGESTED;
      const unGoverned = await walk(w.guest, english, 5);
      expect(unGoverned.total).toBe(all);
      expect(unGoverned.names).toEqual(w.namesIn(0, all));
      expect(unGoverned.pages[0]!.results.every((entry) => entry.style === '')).toBe(true);
      const stale = await server
        .api(w.guest)
        .post('/terms/search', { ...english, workflowStates: ['approved'] });
      expect(stale.status, stale.text).toBe(400);

      const on = await w.admin.put(`/workflows/partial/${w.workflow.id}`, {
        version: off.body.version,
        enabled: true,
      });
      expect(on.status, on.text).toBe(200);
      expect((await walk(w.guest, english, 2)).names).toEqual(w.namesIn(0, APPROVED + 1));
    },
    SLOW,
  );

  it(
    'keeps tenants apart',
    async () => {
      const a = await governedWorld();
      const b = await openWorld();
      await enableWorkflow(b, 'Default');
      const bConcept = await b.concept();
      const english = (dictionaryId: number) => ({
        dictionaryIds: [dictionaryId],
        langCode: 'eng',
        sectionOids: [],
      });
      // B's entry is suggested: its guest sees nothing, its reviewer one term; A's states do not count.
      expect((await search(b.guest, english(b.dictionary.id))).total).toBe(0);
      expect((await search(b.dictAdmin.rest, english(b.dictionary.id))).total).toBe(1);
      for (const [caller, dictionaryId] of [
        [b.admin, a.dictionary.id],
        [a.guest, b.dictionary.id],
      ] as const) {
        const crossing = await server
          .api(caller)
          .post('/terms/search', { ...english(dictionaryId), name: '' });
        expect(crossing.status, crossing.text).toBe(404);
      }
      expect((await search(a.guest, { ...english(a.dictionary.id), name: a.stem })).total).toBe(APPROVED);
      expect(bConcept.id).not.toBe(a.concepts[0]!.id);
    },
    SLOW,
  );
});
