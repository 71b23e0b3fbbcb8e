/**
 * The workflow state as a filter criterion (docs/workflows.md, "Filter by state"; docs/filters.md):
 * saved filters (`filterId`), quick filters and group filters select entries by state key of the
 * dictionary's enabled workflow, per its unit, on both engines (Elasticsearch resolves filters through
 * PostgreSQL). Entries without a row, or with a key the definition lost, are in the initial state.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { expectBadRequest, rows, type Server } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { createDictionary, uniqueSuffix } from '../helpers/structure.js';
import {
  ENGINES,
  type EngineName,
  eventually,
  outboxRows,
  type SearchResponse,
  startEngineServer,
} from '../search/search-helpers.js';
import { enableWorkflow, fire, state, transition, workflowWorld } from './workflow-helpers.js';

const SLOW = 180_000;

describe.each(ENGINES)('workflow states in filters on %s', (engine: EngineName) => {
  let server: Server;
  beforeAll(async () => {
    server = await startEngineServer(engine);
  }, 120_000);
  afterAll(() => server?.close());

  const moved = async (caller: RestClient, body: Record<string, unknown>) => {
    const response = await fire(caller, { comment: 'checked', ...body });
    expect(response.status, response.text).toBe(200);
  };

  /** The concept ids a search lists (sorted), expecting 200. */
  async function conceptsFound(caller: RestClient, body: Record<string, unknown>) {
    const response = await server.api(caller).post<SearchResponse>('/terms/search', body);
    expect(response.status, response.text).toBe(200);
    expect(response.body.total).toBe(response.body.results.length);
    return response.body.results.map((entry) => entry.conceptId).sort((a, b) => a - b);
  }

  async function savedFilter(caller: RestClient, dictionaryId: number, criteria: Record<string, unknown>) {
    const created = await caller.post<{
      id: number;
      version: number;
      criteria: { workflowStates: string[] };
    }>('/filters', { name: `States ${uniqueSuffix()}`, dictionaryId, criteria });
    expect(created.status, created.text).toBe(201);
    expect(created.body.criteria.workflowStates).toEqual(criteria.workflowStates ?? []);
    return created.body;
  }

  it(
    'selects language entries by state in saved and quick filters, and checks the keys',
    async () => {
      const w = await workflowWorld(server.t, server.sysadmin);
      const concepts = [await w.concept(), await w.concept(), await w.concept(), await w.concept()];
      const [approved, inReview, rejected, suggested] = concepts.map((c) => c.id) as [
        number,
        number,
        number,
        number,
      ];
      const before = await savedFilter(w.dictAdmin.rest, w.dictionary.id, { workflowStates: ['anything'] });
      const workflow = await enableWorkflow(w, 'Default');
      // English: approved, in review, rejected (hidden), suggested (no row); German: all suggested.
      for (const conceptId of [approved, inReview, rejected]) {
        await moved(w.author.rest, { conceptId, languageCode: 'eng', transition: 'submit', version: 0 });
      }
      await moved(w.dictAdmin.rest, {
        conceptId: approved,
        languageCode: 'eng',
        transition: 'approve',
        version: 1,
      });
      await moved(w.dictAdmin.rest, {
        conceptId: rejected,
        languageCode: 'eng',
        transition: 'reject',
        version: 1,
      });

      const base = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: '' };
      const reviewer = w.dictAdmin.rest;
      const saved = await savedFilter(reviewer, w.dictionary.id, {
        workflowStates: ['approved', 'suggested'],
      });
      expect(await conceptsFound(reviewer, { ...base, filterId: saved.id })).toEqual([approved, suggested]);
      // The state is the language's: every German entry is still suggested.
      expect(await conceptsFound(reviewer, { ...base, langCode: 'deu', filterId: saved.id })).toEqual(
        concepts.map((c) => c.id).sort((a, b) => a - b),
      );
      expect(
        await conceptsFound(reviewer, { ...base, quickFilter: { workflowStates: ['inReview'] } }),
      ).toEqual([inReview]);
      // Within what the caller sees: hidden stays hidden, unpublished is not shown to non-reviewers.
      expect(
        await conceptsFound(reviewer, { ...base, quickFilter: { workflowStates: ['rejected'] } }),
      ).toEqual([]);
      expect(
        await conceptsFound(w.author.rest, {
          ...base,
          quickFilter: { workflowStates: ['approved', 'inReview'] },
        }),
      ).toEqual([approved]);
      // With other criteria (AND).
      expect(
        await conceptsFound(reviewer, {
          ...base,
          quickFilter: { workflowStates: ['approved', 'inReview'], languages: ['deu'] },
        }),
      ).toEqual([]);

      // Keys are checked against the enabled workflow when saved and in quick filters: 400.
      const unknown = await reviewer.post('/filters', {
        name: 'Bad',
        dictionaryId: w.dictionary.id,
        criteria: { workflowStates: ['approved', 'nope'] },
      });
      expect(unknown.status, unknown.text).toBe(400);
      expect(unknown.text).toContain('nope');
      const patched = await reviewer.put(`/filters/partial/${saved.id}`, {
        version: saved.version,
        criteria: { workflowStates: ['nope'] },
      });
      expect(patched.status, patched.text).toBe(400);
      expectBadRequest(
        await server
          .api(reviewer)
          .post('/terms/search', { ...base, quickFilter: { workflowStates: ['nope'] } }),
        'nope',
      );
      expectBadRequest(
        await server
          .api(reviewer)
          .post('/terms/search', { ...base, quickFilter: { workflowStates: ['a b'] } }),
        'quickFilter',
      );
      // A filter saved before the workflow (not checkable then) selects nothing with a key it lacks.
      expect(await conceptsFound(reviewer, { ...base, filterId: before.id })).toEqual([]);

      // A stored key the definition no longer has counts as the initial state.
      await rows(
        server.t,
        `update workflow_entry_states set state = 'gone' where workflow_id = ? and concept_id = ? and language_code = 'eng'`,
        [workflow.id, inReview],
      );
      if (engine === 'elasticsearch') {
        // The page's states come from the documents: wait until the outbox has written them.
        expect(await eventually(async () => (await outboxRows(server)) === 0, 60_000)).toBe(true);
      }
      expect(await conceptsFound(reviewer, { ...base, filterId: saved.id })).toEqual([
        approved,
        inReview,
        suggested,
      ]);

      // A dictionary without a workflow: a state criterion matches nothing there.
      const other = await createDictionary(w.admin, { languages: [{ code: 'eng' }] });
      const plain = await w.admin.post<{ id: number }>('/concepts', {
        dictionaryId: other.id,
        sectionOid: other.sections[0]!.oid,
        terms: [{ name: `plain ${uniqueSuffix()}`, languageCode: 'eng' }],
      });
      expect(plain.status, plain.text).toBe(201);
      const both = { ...base, dictionaryIds: [w.dictionary.id, other.id] };
      expect(
        await conceptsFound(w.admin, { ...both, quickFilter: { workflowStates: ['approved'] } }),
      ).toEqual([approved]);
      // The client administrator reviews nothing: approved entries and the other dictionary's term.
      expect(await conceptsFound(w.admin, both)).toEqual([approved, plain.body.id]);
      expectBadRequest(
        await server.api(w.admin).post('/terms/search', {
          ...base,
          dictionaryIds: [other.id],
          quickFilter: { workflowStates: ['approved'] },
        }),
        'approved',
      );
      const unchecked = await savedFilter(w.admin, other.id, { workflowStates: ['approved'] });
      expect(
        await conceptsFound(w.admin, { ...base, dictionaryIds: [other.id], filterId: unchecked.id }),
      ).toEqual([]);
      // Switched off (the lost key put back first: a definition change refuses it), nothing either.
      await rows(
        server.t,
        `update workflow_entry_states set state = 'inReview' where workflow_id = ? and concept_id = ? and language_code = 'eng'`,
        [workflow.id, inReview],
      );
      const off = await w.admin.put(`/workflows/partial/${workflow.id}`, {
        version: workflow.version,
        enabled: false,
      });
      expect(off.status, off.text).toBe(200);
      expect(await conceptsFound(reviewer, { ...base, filterId: saved.id })).toEqual([]);
      expect((await conceptsFound(reviewer, base)).length).toBe(4);
    },
    SLOW,
  );

  it(
    'selects whole concepts under the CONCEPT unit, in group filters, over tRPC and GraphQL',
    async () => {
      const w = await workflowWorld(server.t, server.sysadmin);
      const [draft, done, old] = [await w.concept(), await w.concept(), await w.concept()].map(
        (c) => c.id,
      ) as [number, number, number];
      // Nothing unpublished: every reader sees every state, so only the filters narrow.
      await enableWorkflow(w, 'Concepts', {
        unit: 'CONCEPT',
        definition: {
          states: [
            state('draft', 'Draft', 'DRAFT'),
            state('done', 'Done', 'APPROVED'),
            state('old', 'Old', 'RETIRED'),
          ],
          transitions: [
            transition('finish', 'Finish', ['draft'], 'done', ['DICTIONARY_ADMIN']),
            transition('retire', 'Retire', ['done'], 'old', ['DICTIONARY_ADMIN']),
          ],
          initialState: 'draft',
        },
      });
      await moved(w.dictAdmin.rest, { conceptId: done, transition: 'finish', version: 0 });
      await moved(w.dictAdmin.rest, { conceptId: old, transition: 'finish', version: 0 });
      await moved(w.dictAdmin.rest, { conceptId: old, transition: 'retire', version: 1 });

      // A group filter binds its members (the reviewer), in every language; others see everything.
      const filter = await savedFilter(w.admin, w.dictionary.id, { workflowStates: ['done', 'old'] });
      const group = await w.admin.post('/groups', {
        name: `Bound ${uniqueSuffix()}`,
        groupMembers: [w.reviewer.id],
        filterMap: { [String(w.dictionary.id)]: filter.id },
      });
      expect(group.status, group.text).toBe(201);
      const base = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: '' };
      expect(await conceptsFound(w.reviewer.rest, base)).toEqual([done, old]);
      expect(await conceptsFound(w.reviewer.rest, { ...base, langCode: 'deu' })).toEqual([done, old]);
      expect(await conceptsFound(w.author.rest, base)).toEqual([draft, done, old]);
      expect(
        await conceptsFound(w.reviewer.rest, { ...base, quickFilter: { workflowStates: ['draft', 'old'] } }),
      ).toEqual([old]);

      // tRPC: filters.create takes the criterion and terms.search applies it; GraphQL's quickFilter too.
      const trpc = createTRPCClient<AppRouter>({
        links: [
          httpLink({ url: `${server.base}/trpc`, headers: { 'x-auth-token': w.author.rest.token ?? '' } }),
        ],
      });
      const viaTrpc = await trpc.filters.create.mutate({
        name: `tRPC ${uniqueSuffix()}`,
        dictionaryId: w.dictionary.id,
        criteria: { workflowStates: ['draft'] },
      });
      expect(viaTrpc.criteria?.workflowStates).toEqual(['draft']);
      const listed = await trpc.terms.search.query({ ...base, filterId: viaTrpc.id });
      expect(listed.results.map((entry) => entry.conceptId)).toEqual([draft]);
      const graphql = await server.t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': w.author.rest.token ?? '' },
        payload: JSON.stringify({
          query:
            'query ($input: TermSearchInput!) { searchTerms(input: $input) { total results { conceptId } } }',
          variables: { input: { ...base, quickFilter: { workflowStates: ['done'] } } },
        }),
      });
      expect(graphql.json()).toEqual({ data: { searchTerms: { total: 1, results: [{ conceptId: done }] } } });

      // The OpenAPI document shows the criterion.
      const openapi = await server.t.app.inject({ method: 'GET', url: '/api/v4/openapi.json' });
      expect(openapi.statusCode).toBe(200);
      expect(openapi.body).toContain("the workflow's unit");
    },
    SLOW,
  );

  it(
    'selects single terms under the TERM unit',
    async () => {
      const w = await workflowWorld(server.t, server.sysadmin);
      const concept = await w.concept();
      const english = concept.terms.find((term) => term.languageCode === 'eng')!;
      await enableWorkflow(w, 'Terms', {
        unit: 'TERM',
        definition: {
          states: [state('draft', 'Draft', 'DRAFT'), state('done', 'Done', 'APPROVED')],
          transitions: [transition('finish', 'Finish', ['draft'], 'done', ['DICTIONARY_ADMIN'])],
          initialState: 'draft',
        },
      });
      await moved(w.dictAdmin.rest, {
        conceptId: concept.id,
        languageCode: 'eng',
        termId: english.id,
        transition: 'finish',
        version: 0,
      });
      const base = { dictionaryIds: [w.dictionary.id], langCode: 'eng', sectionOids: [], name: '' };
      const done = { quickFilter: { workflowStates: ['done'] } };
      const draft = { quickFilter: { workflowStates: ['draft'] } };
      expect(await conceptsFound(w.author.rest, { ...base, ...done })).toEqual([concept.id]);
      expect(await conceptsFound(w.author.rest, { ...base, ...draft })).toEqual([]);
      expect(await conceptsFound(w.author.rest, { ...base, langCode: 'deu', ...done })).toEqual([]);
      expect(await conceptsFound(w.author.rest, { ...base, langCode: 'deu', ...draft })).toEqual([
        concept.id,
      ]);
    },
    SLOW,
  );
});
