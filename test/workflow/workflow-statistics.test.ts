/**
 * Dictionary statistics count entries per workflow state (docs/workflows.md, Statistics): the optional
 * `workflow` member of GET /system/statistics/dictionaries/{id}, the same over tRPC and GraphQL, absent
 * while no workflow is enabled; /workflows/statistics keeps answering its list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { newTenant } from '../helpers/structure.js';
import { enableWorkflow, fire, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Statistics {
  dictionaryId: number;
  concepts: number;
  terms: number;
  languages: { languageCode: string; terms: number }[];
  workflow?: {
    workflowId: number;
    unit: string;
    states: { state: string; name: string; category: string; languageCode: string | null; count: number }[];
  } | null;
}

describe('GET /system/statistics/dictionaries/{id}', () => {
  it('counts concepts, terms per language and, while a workflow is enabled, entries per state and language', async () => {
    const w = await workflowWorld(t, sysadmin);
    const [first] = [await w.concept(), await w.concept(), await w.concept()];
    const read = async (caller: RestClient) => {
      const response = await caller.get<Statistics>(`/system/statistics/dictionaries/${w.dictionary.id}`);
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    const plain = await read(w.author.rest);
    expect(plain).toEqual({
      dictionaryId: w.dictionary.id,
      concepts: 3,
      terms: 6,
      languages: [
        { languageCode: 'deu', terms: 3 },
        { languageCode: 'eng', terms: 3 },
      ],
    });

    const workflow = await enableWorkflow(w, 'Default');
    for (const [transition, version] of [
      ['submit', 0],
      ['approve', 1],
    ] as const) {
      const moved = await fire(w.dictAdmin.rest, {
        conceptId: first!.id,
        languageCode: 'deu',
        transition,
        version,
      });
      expect(moved.status, moved.text).toBe(200);
    }
    // The reviewer (the dictionary administrator) counts every state.
    const counted = await read(w.dictAdmin.rest);
    expect(counted.workflow).toEqual({
      workflowId: workflow.id,
      unit: 'LANGUAGE',
      states: [
        { state: 'approved', name: 'Approved', category: 'APPROVED', languageCode: 'deu', count: 1 },
        { state: 'suggested', name: 'Suggested', category: 'DRAFT', languageCode: 'deu', count: 2 },
        { state: 'suggested', name: 'Suggested', category: 'DRAFT', languageCode: 'eng', count: 3 },
      ],
    });
    // The workflow's own list answers the same figures.
    const list = await w.dictAdmin.rest.get<{ state: string; languageCode: string; count: number }[]>(
      `/workflows/statistics?dictionary-id=${w.dictionary.id}`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual(
      counted.workflow!.states.map(({ state, languageCode, count }) => ({ state, languageCode, count })),
    );

    // tRPC and GraphQL: the same procedure, for the reviewer and for a reader without review rights.
    const trpcOf = async (caller: RestClient) => {
      const trpc = await t.app.inject({
        method: 'GET',
        url: `/trpc/statistics.dictionary?input=${encodeURIComponent(JSON.stringify({ dictionaryId: w.dictionary.id }))}`,
        headers: { 'x-auth-token': caller.token ?? '' },
      });
      expect(trpc.statusCode, trpc.body).toBe(200);
      return (trpc.json() as { result: { data: Statistics } }).result.data;
    };
    const graphqlOf = async (caller: RestClient) => {
      const graphql = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': caller.token ?? '' },
        payload: JSON.stringify({
          query: `query ($id: Int!) { dictionaryStatistics(dictionaryId: $id) {
            dictionaryId concepts terms languages { languageCode terms }
            workflow { workflowId unit states { state name category languageCode count } }
            feedback { open answered } } }`,
          variables: { id: w.dictionary.id },
        }),
      });
      const { feedback, ...counts } = (
        graphql.json() as { data: { dictionaryStatistics: Statistics & { feedback: unknown } } }
      ).data.dictionaryStatistics;
      // Feedback counts are null over GraphQL, and left out over REST, for callers who do not manage it.
      return feedback === null ? counts : { ...counts, feedback };
    };
    expect(await trpcOf(w.dictAdmin.rest)).toEqual(counted);
    expect(await graphqlOf(w.dictAdmin.rest)).toEqual(counted);

    // issue 37: a reader without review rights counts only what they may see: no unpublished terms,
    // concepts or states, on every surface alike.
    const reader = await read(w.author.rest);
    expect(reader).toEqual({
      dictionaryId: w.dictionary.id,
      concepts: 1,
      terms: 1,
      languages: [{ languageCode: 'deu', terms: 1 }],
      workflow: {
        workflowId: workflow.id,
        unit: 'LANGUAGE',
        states: [
          { state: 'approved', name: 'Approved', category: 'APPROVED', languageCode: 'deu', count: 1 },
        ],
      },
    });
    expect(await trpcOf(w.author.rest)).toEqual(reader);
    expect(await graphqlOf(w.author.rest)).toEqual(reader);
    const readerList = await w.author.rest.get(`/workflows/statistics?dictionary-id=${w.dictionary.id}`);
    expect(readerList.body).toEqual([{ state: 'approved', languageCode: 'deu', count: 1 }]);

    // Callers who cannot read the dictionary (another tenant): 404.
    const stranger = await newTenant(t, sysadmin);
    expect((await stranger.admin.get(`/system/statistics/dictionaries/${w.dictionary.id}`)).status).toBe(404);
  });
});
