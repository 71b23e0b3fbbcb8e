/**
 * Who may do what with a project (docs/projects.md, "Who may do what"), row by row over REST, and the
 * same operations over GraphQL and tRPC with the same answers.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import type { AppRouter } from '../../src/trpc/router.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t.close());

/** A dictionary only a readers group reads; a project with a coordinator who does not read it and an assignee. */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const reader = await loggedInUser(t, tenant);
  const readers = await groupWith(admin, [reader.id]);
  const scheme = await createScheme(admin, [grant(readers.id, ['DICT_READ'])]);
  const dictionary = await createDictionary(admin, {
    permissionSchemeId: scheme.id,
    languages: [{ code: 'eng' }],
  });
  const dictAdmin = await loggedInUser(t, tenant, { roles: [dictionaryAdminRole(dictionary)] });
  const coordinator = await loggedInUser(t, tenant);
  const assignee = await loggedInUser(t, tenant);
  const outsider = await loggedInUser(t, tenant);
  const other = await newTenant(t, sysadmin);
  const concept = await admin.post<{ id: number }>('/concepts', {
    dictionaryId: dictionary.id,
    sectionOid: dictionary.sections[0]!.oid,
    terms: [{ name: 'access', languageCode: 'eng' }],
  });
  expect(concept.status, concept.text).toBe(201);
  const project = await dictAdmin.rest.post<{ id: number; version: number }>('/projects', {
    name: 'Guarded',
    dictionaryIds: [dictionary.id],
    coordinatorIds: [coordinator.id],
    transitions: {},
  });
  expect(project.status, project.text).toBe(201);
  const id = project.body.id;
  await dictAdmin.rest.post(`/projects/${id}/entries`, { conceptIds: [concept.body.id] });
  const candidate = await dictAdmin.rest.post(`/projects/${id}/candidates`, {
    candidates: [{ terms: [{ languageCode: 'eng', term: 'guard' }] }],
  });
  expect(candidate.status, candidate.text).toBe(200);
  const [candidateId] = (
    await dictAdmin.rest.get<{ content: { id: number }[] }>(`/projects/${id}/candidates`)
  ).body.content.map((c) => c.id);
  const assignment = await dictAdmin.rest.post<{ id: number }>(`/projects/${id}/assignments`, {
    type: 'REVISION',
    assigneeUserId: assignee.id,
  });
  expect(assignment.status, assignment.text).toBe(201);
  return {
    id,
    conceptId: concept.body.id,
    candidateId: candidateId!,
    assignmentId: assignment.body.id,
    callers: {
      dictAdmin: dictAdmin.rest,
      coordinator: coordinator.rest,
      reader: reader.rest,
      assignee: assignee.rest,
      outsider: outsider.rest,
      otherTenant: other.admin,
    },
  };
}

type World = Awaited<ReturnType<typeof world>>;
type Role = keyof World['callers'];
const ROLES: Role[] = ['dictAdmin', 'coordinator', 'reader', 'assignee', 'outsider', 'otherTenant'];

/** One row: a call, and the status each role gets, in ROLES order. */
const rows: [string, (w: World) => [string, string, unknown?], number[]][] = [
  ['get the project', (w) => ['GET', `/projects/${w.id}`], [200, 200, 200, 200, 404, 404]],
  ['list its entries', (w) => ['GET', `/projects/${w.id}/entries`], [200, 200, 200, 200, 404, 404]],
  ['list its candidates', (w) => ['GET', `/projects/${w.id}/candidates`], [200, 200, 200, 200, 404, 404]],
  ['read its progress', (w) => ['GET', `/projects/${w.id}/progress`], [200, 200, 200, 200, 404, 404]],
  ['read its statistics', (w) => ['GET', `/projects/${w.id}/statistics`], [200, 200, 200, 200, 404, 404]],
  ['list its assignments', (w) => ['GET', `/projects/${w.id}/assignments`], [200, 200, 200, 200, 404, 404]],
  ['get an assignment', (w) => ['GET', `/assignments/${w.assignmentId}`], [200, 200, 200, 200, 404, 404]],
  ['get a candidate', (w) => ['GET', `/project-candidates/${w.candidateId}`], [200, 200, 200, 200, 404, 404]],
  [
    'comment on a candidate',
    (w) => ['POST', `/project-candidates/${w.candidateId}/comments`, { text: 'hm' }],
    [200, 200, 200, 200, 404, 404],
  ],
  [
    'change the project',
    (w) => ['PUT', `/projects/partial/${w.id}`, { version: -1 }],
    [409, 409, 403, 403, 404, 404],
  ],
  [
    'move its status',
    (w) => ['POST', `/projects/${w.id}/status`, { status: 'SUSPENDED', version: -1 }],
    [409, 409, 403, 403, 404, 404],
  ],
  [
    'add entries',
    (w) => ['POST', `/projects/${w.id}/entries`, { conceptIds: [w.conceptId] }],
    [200, 200, 403, 403, 404, 404],
  ],
  [
    'remove entries',
    (w) => ['POST', `/projects/${w.id}/entries/remove`, { conceptIds: [1] }],
    [200, 200, 403, 403, 404, 404],
  ],
  [
    'add candidates',
    (w) => [
      'POST',
      `/projects/${w.id}/candidates`,
      { candidates: [{ terms: [{ languageCode: 'eng', term: 'x' }] }] },
    ],
    [200, 200, 403, 403, 404, 404],
  ],
  [
    'reject a candidate',
    (w) => ['POST', `/project-candidates/${w.candidateId}/reject`, {}],
    [409, 409, 403, 403, 404, 404],
  ],
  [
    'create an assignment',
    (w) => ['POST', `/projects/${w.id}/assignments`, { type: 'DRAFTING' }],
    [400, 400, 403, 403, 404, 404],
  ],
  [
    'change an assignment',
    (w) => ['PUT', `/assignments/${w.assignmentId}`, { version: -1 }],
    [409, 409, 403, 403, 404, 404],
  ],
  [
    'complete an assignment',
    (w) => ['POST', `/assignments/${w.assignmentId}/complete`, { version: -1 }],
    [409, 409, 403, 409, 404, 404],
  ],
  [
    'read the concept’s projects',
    (w) => ['GET', `/concepts/${w.conceptId}/projects`],
    // The concept's own permissions decide first: the coordinator and the assignee do not read it.
    [200, 404, 200, 404, 404, 404],
  ],
];

describe('project permissions, row by row', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
    // The reject row's managers answer 409: decide the candidate first, so the row is repeatable.
    expect((await w.callers.dictAdmin.post(`/project-candidates/${w.candidateId}/reject`, {})).status).toBe(
      200,
    );
  });

  it.each(rows)('%s', async (_, call, expected) => {
    const [method, path, body] = call(w);
    const got: number[] = [];
    for (const role of ROLES) {
      const response = await w.callers[role].call(
        method as never,
        path,
        body === undefined ? {} : { json: body },
      );
      got.push(response.status);
    }
    expect(got).toEqual(expected);
  });

  it('lists only the projects one may see, and only "my" assignments', async () => {
    const seen: boolean[] = [];
    for (const role of ROLES) {
      const page = await w.callers[role].get<{ content: { id: number }[] }>('/projects?size=100');
      seen.push(page.body.content.some((p) => p.id === w.id));
    }
    expect(seen).toEqual([true, true, true, true, false, false]);
    expect((await w.callers.assignee.get<{ id: number }[]>('/assignments')).body.map((a) => a.id)).toEqual([
      w.assignmentId,
    ]);
    expect((await w.callers.reader.get<unknown[]>('/assignments')).body).toEqual([]);
  });

  it('deletes assignments and projects for managers only', async () => {
    const { dictAdmin, coordinator, reader, assignee, outsider } = w.callers;
    expect((await assignee.delete(`/assignments/${w.assignmentId}`)).status).toBe(403);
    expect((await coordinator.delete(`/assignments/${w.assignmentId}`)).status).toBe(204);
    expect((await reader.delete(`/projects/${w.id}`)).status).toBe(403);
    expect((await outsider.delete(`/projects/${w.id}`)).status).toBe(404);
    expect((await dictAdmin.delete(`/projects/${w.id}`)).status).toBe(204);
    expect((await dictAdmin.get(`/projects/${w.id}`)).status).toBe(404);
  });
});

interface Answer {
  data: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
}

async function graphql(
  caller: RestClient,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Answer> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': caller.token ?? '' },
    payload: JSON.stringify({ query, variables }),
  });
  return response.json() as Answer;
}

describe('GraphQL and tRPC', () => {
  it('offer the operations of REST with its answers and checks', async () => {
    const w = await world();
    const { dictAdmin, outsider, assignee } = w.callers;
    const read = `query ($id: Int!) { project(id: $id) { id name status entryCount
      assignments { id type progress { total done } entries(done: false) { conceptId } }
      entries { conceptId states { languageCode state category } }
      candidates { id terms { term } duplicates { conceptId } created { id time } decided { id } }
      progress { projectId entries candidates { open merged promoted rejected }
        languages { languageCode total approved withTerms }
        assignments { id progress { total done byCategory { category count } } } }
      statistics { projectId byState { languageCode state category count }
        byAssignee { userId groupId assignments total done } burndown { day total remaining } } } }`;
    const answer = await graphql(dictAdmin, read, { id: w.id });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.project).toMatchObject({
      id: w.id,
      status: 'ONGOING',
      entryCount: 1,
      assignments: [
        {
          id: w.assignmentId,
          type: 'REVISION',
          progress: { total: 1, done: 0 },
          entries: [{ conceptId: w.conceptId }],
        },
      ],
      candidates: [
        { terms: [{ term: 'guard' }], duplicates: [], created: { time: expect.any(Number) }, decided: null },
      ],
    });
    // Progress and statistics are typed objects, the REST answers field for field.
    const project = answer.data?.project as Record<string, unknown>;
    const rest = async (path: string) => (await dictAdmin.get<Record<string, unknown>>(path)).body;
    const progress = await rest(`/projects/${w.id}/progress`);
    const candidates = progress.candidates as Record<string, number>;
    expect(project.progress).toEqual({
      projectId: w.id,
      entries: progress.entries,
      candidates: {
        open: candidates.OPEN,
        merged: candidates.MERGED,
        promoted: candidates.PROMOTED,
        rejected: candidates.REJECTED,
      },
      languages: progress.languages,
      assignments: [
        {
          id: w.assignmentId,
          progress: { total: 1, done: 0, byCategory: [{ category: expect.any(String), count: 1 }] },
        },
      ],
    });
    const statistics = await rest(`/projects/${w.id}/statistics`);
    expect(project.statistics).toEqual(statistics);
    expect((project.entries as { states: unknown }[])[0]!.states).toEqual(
      ((await rest(`/projects/${w.id}/entries`)).content as { states: unknown }[])[0]!.states,
    );
    const hidden = await graphql(outsider, read, { id: w.id });
    expect(hidden.errors?.[0]?.extensions.code).toBe('NOT_FOUND');

    const list = await graphql(
      dictAdmin,
      `{ projects(status: "ONGOING") { totalElements content { id assignments { id } } } }`,
    );
    expect(list.data?.projects).toMatchObject({
      content: [{ id: w.id, assignments: [{ id: w.assignmentId }] }],
    });
    const concept = await graphql(
      dictAdmin,
      `query ($id: Int!) { concept(id: $id) { projects { id name } } }`,
      { id: w.conceptId },
    );
    expect(concept.data?.concept).toEqual({ projects: [{ id: w.id, name: 'Guarded' }] });

    const mutation = await graphql(
      dictAdmin,
      `mutation ($id: Int!) { createProjectAssignment(projectId: $id, input: { type: "TRANSLATION", languageCode: "eng", assigneeUserId: 0 }) { id } }`,
      { id: w.id },
    );
    expect(mutation.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
    const mine = await graphql(assignee, `{ myAssignments { id completed { id time } } }`);
    expect(mine.data?.myAssignments).toEqual([{ id: w.assignmentId, completed: null }]);
    const done = await graphql(
      assignee,
      `mutation ($id: Int!) { completeProjectAssignment(id: $id, version: 1) { status result completed { id } } }`,
      { id: w.assignmentId },
    );
    expect(done.errors).toBeUndefined();
    expect(done.data?.completeProjectAssignment).toEqual({
      status: 'DONE',
      result: { transition: null, dictionaries: [] },
      completed: { id: expect.any(Number) },
    });

    const trpc = (caller: RestClient) =>
      createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': caller.token ?? '' } })],
      });
    const viaTrpc = await trpc(dictAdmin).projects.get.query({ id: w.id });
    expect(viaTrpc).toEqual((await dictAdmin.get(`/projects/${w.id}`)).body);
    const error = await trpc(outsider)
      .projects.progress.query({ id: w.id })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('NOT_FOUND');
  });
});
