/**
 * The run of a project over GraphQL and over tRPC (issue 40, "Done when"; REST's run is projects.test.ts):
 * a coordinator imports candidate terms from a TBX file, they are promoted to concepts, a translator
 * drafts and a validator approves through assignments, and progress and statistics follow. The overdue
 * e-mail is the sweeper's, whichever API made the assignment (project-overdue-mail.test.ts).
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { loggedInUser } from '../helpers/structure.js';
import { enableWorkflow, workflowWorld } from '../workflow/workflow-helpers.js';

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

const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>launch</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry><langSec xml:lang="en"><termSec><term>rocket</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Rakete</term></termSec></langSec></conceptEntry>
    <conceptEntry><langSec xml:lang="en"><termSec><term>booster</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Zusatzrakete</term></termSec></langSec></conceptEntry>
  </body></text>
</tbx>`;

/** A tenant with the default workflow, a coordinator who only coordinates, a translator, a validator. */
async function people() {
  const w = await workflowWorld(t, sysadmin);
  await enableWorkflow(w, 'Default');
  const coordinator = await loggedInUser(t, w.tenant);
  const translator = await loggedInUser(t, w.tenant);
  return { w, coordinator, translator, validator: w.dictAdmin };
}

type Answer<T> = { data?: T; errors?: { message: string }[] };
async function graphql<T>(caller: RestClient, query: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': caller.token ?? '' },
    payload: JSON.stringify({ query, variables }),
  });
  const answer = response.json() as Answer<T>;
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data!;
}

const approvedEverywhere = [
  { languageCode: 'deu', total: 2, approved: 2, withTerms: 2 },
  { languageCode: 'eng', total: 2, approved: 2, withTerms: 2 },
];

describe('a project run', () => {
  it('over GraphQL', async () => {
    const { w, coordinator, translator, validator } = await people();
    const gql = <T>(who: { rest: RestClient }, query: string, variables: Record<string, unknown> = {}) =>
      graphql<T>(who.rest, query, variables);
    type Assignment = { id: number; version: number; progress: { total: number; done: number } };
    type Made = { createProjectAssignment: Assignment };
    const { createProject: project } = await gql<{ createProject: { id: number; status: string } }>(
      validator,
      `mutation ($input: ProjectInput!) { createProject(input: $input) { id status } }`,
      {
        input: {
          name: 'Launch over GraphQL',
          dictionaryIds: [w.dictionary.id],
          languages: ['eng', 'deu'],
          coordinatorIds: [coordinator.id],
          transitions: { DRAFTING: 'submit', VALIDATION: 'approve' },
        },
      },
    );
    expect(project.status).toBe('DRAFT');
    const imported = await gql<{ importProjectCandidates: { added: number } }>(
      coordinator,
      `mutation ($id: Int!, $content: String!) { importProjectCandidates(id: $id, format: "TBX", content: $content, fileName: "launch.tbx") { added } }`,
      { id: project.id, content: tbx },
    );
    expect(imported.importProjectCandidates.added).toBe(2);
    const read = `query ($id: Int!) { project(id: $id) { candidates(status: "OPEN") { id terms { term } } } }`;
    for (const candidate of (
      await gql<{ project: { candidates: { id: number }[] } }>(coordinator, read, { id: project.id })
    ).project.candidates) {
      const promoted = await gql<{ promoteProjectCandidate: unknown }>(
        validator,
        `mutation ($id: Int!) { promoteProjectCandidate(id: $id) { status conceptId decided { id } } }`,
        { id: candidate.id },
      );
      expect(promoted.promoteProjectCandidate).toMatchObject({
        status: 'PROMOTED',
        decided: { id: validator.id },
      });
    }

    const assign = `mutation ($id: Int!, $input: ProjectAssignmentInput!) {
      createProjectAssignment(projectId: $id, input: $input) { id version progress { total done } } }`;
    const drafting = (
      await gql<Made>(coordinator, assign, {
        id: project.id,
        input: { type: 'DRAFTING', assigneeUserId: translator.id },
      })
    ).createProjectAssignment;
    expect(drafting.progress).toEqual({ total: 4, done: 0 });
    const translation = (
      await gql<Made>(coordinator, assign, {
        id: project.id,
        input: { type: 'TRANSLATION', languageCode: 'deu', assigneeUserId: translator.id },
      })
    ).createProjectAssignment;
    expect(translation.progress).toEqual({ total: 2, done: 2 });
    const mine = await gql<{ myAssignments: { id: number }[] }>(
      translator,
      `{ myAssignments { id project: projectName } }`,
    );
    expect(mine.myAssignments.map((a) => a.id)).toEqual([drafting.id, translation.id]);

    const complete = `mutation ($id: Int!, $version: Int!) { completeProjectAssignment(id: $id, version: $version) {
      status progress { done total byCategory { category count } } } }`;
    const drafted = await gql<{ completeProjectAssignment: unknown }>(translator, complete, {
      id: drafting.id,
      version: drafting.version,
    });
    expect(drafted.completeProjectAssignment).toEqual({
      status: 'DONE',
      progress: { done: 4, total: 4, byCategory: [{ category: 'REVIEW', count: 4 }] },
    });
    const validation = (
      await gql<Made>(coordinator, assign, {
        id: project.id,
        input: { type: 'VALIDATION', assigneeUserId: validator.id },
      })
    ).createProjectAssignment;
    const validated = await gql<{ completeProjectAssignment: { progress: unknown } }>(validator, complete, {
      id: validation.id,
      version: validation.version,
    });
    expect(validated.completeProjectAssignment.progress).toMatchObject({ done: 4, total: 4 });

    const { project: after } = await gql<{
      project: { statistics: { byAssignee: unknown[] } } & Record<string, unknown>;
    }>(
      coordinator,
      `query ($id: Int!) { project(id: $id) { status
        progress { entries candidates { open promoted } languages { languageCode total approved withTerms } }
        statistics { burndown { total remaining } byAssignee { userId done } } } }`,
      { id: project.id },
    );
    expect(after).toMatchObject({
      status: 'ONGOING',
      progress: { entries: 2, candidates: { open: 0, promoted: 2 }, languages: approvedEverywhere },
      statistics: { burndown: [{ total: 4, remaining: 0 }] },
    });
    expect(after.statistics.byAssignee).toContainEqual({ userId: validator.id, done: 4 });
  });

  it('over tRPC', async () => {
    const { w, coordinator, translator, validator } = await people();
    const api = (who: { rest: RestClient }) =>
      createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': who.rest.token ?? '' } })],
      }).projects;
    const project = await api(validator).create.mutate({
      format: 'FULL',
      name: 'Launch over tRPC',
      dictionaryIds: [w.dictionary.id],
      languages: ['eng', 'deu'],
      coordinatorIds: [coordinator.id],
      transitions: { DRAFTING: 'submit', VALIDATION: 'approve' },
    });
    const id = project.id;
    expect((await api(coordinator).importCandidates.mutate({ id, format: 'TBX', content: tbx })).added).toBe(
      2,
    );
    const candidates = await api(coordinator).candidates.query({ id, status: 'OPEN' });
    for (const candidate of candidates.content) {
      expect((await api(validator).promoteCandidate.mutate({ candidateId: candidate.id })).status).toBe(
        'PROMOTED',
      );
    }
    const drafting = await api(coordinator).createAssignment.mutate({
      id,
      type: 'DRAFTING',
      assigneeUserId: translator.id,
    });
    const translation = await api(coordinator).createAssignment.mutate({
      id,
      type: 'TRANSLATION',
      languageCode: 'deu',
      assigneeUserId: translator.id,
    });
    expect(translation.progress).toMatchObject({ total: 2, done: 2 });
    expect((await api(translator).myAssignments.query({ assignee: 'me' })).map((a) => a.id)).toEqual([
      drafting.id,
      translation.id,
    ]);
    const next = await api(translator).assignmentEntries.query({
      assignmentId: drafting.id,
      done: false,
      size: 1,
    });
    expect(next).toHaveLength(1);
    const drafted = await api(translator).completeAssignment.mutate({
      assignmentId: drafting.id,
      version: drafting.version,
    });
    expect(drafted.progress).toEqual({ total: 4, done: 4, byCategory: { REVIEW: 4 } });
    const validation = await api(coordinator).createAssignment.mutate({
      id,
      type: 'VALIDATION',
      assigneeUserId: validator.id,
    });
    const validated = await api(validator).completeAssignment.mutate({
      assignmentId: validation.id,
      version: validation.version,
    });
    expect(validated.result?.dictionaries).toEqual([
      { dictionaryId: w.dictionary.id, result: expect.objectContaining({ moved: 4 }) },
    ]);
    const progress = await api(coordinator).progress.query({ id });
    expect(progress.languages).toEqual(approvedEverywhere);
    expect(progress.candidates).toMatchObject({ OPEN: 0, PROMOTED: 2 });
    const statistics = await api(coordinator).statistics.query({ id });
    expect(statistics.burndown).toEqual([{ day: expect.any(String), total: 4, remaining: 0 }]);
  });
});
