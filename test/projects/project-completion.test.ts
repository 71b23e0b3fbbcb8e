/**
 * Completing an assignment whose entries span two dictionaries (docs/projects.md, "Completing"): every
 * dictionary's bulk transition is checked before anything moves, and the moves commit together. Here the
 * second dictionary's workflow lets only its administrators submit: a coordinator who may submit in the
 * first is refused (403) and the first dictionary's entries stay where they were; someone who
 * administers both completes it and both move, in one job whose end turns the assignment DONE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, expectError, loggedInUser, waitForJob } from '../helpers/structure.js';
import { enableWorkflow, entryOf, states, workflowWorld } from '../workflow/workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  // Every job answers at once: completing answers the assignment still OPEN with its job.
  t = await buildTestApp({ ASYNC_THRESHOLD_MS: '0' });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Assignment {
  id: number;
  version: number;
  status: string;
  jobTaskId?: number;
  result: { transition: string; dictionaries: { dictionaryId: number; result?: { moved: number } }[] } | null;
}

describe('completing an assignment across dictionaries', () => {
  it('moves nothing in any dictionary when one refuses, and everything together otherwise', async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Default');
    const second = await createDictionary(w.admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
    const strict = defaultDefinition();
    strict.transitions.find((transition) => transition.key === 'submit')!.roles = ['DICTIONARY_ADMIN'];
    const workflow = await w.admin.post('/workflows', {
      name: 'Strict',
      dictionaryId: second.id,
      enabled: true,
      definition: strict,
    });
    expect(workflow.status, workflow.text).toBe(201);

    const first = await w.concept();
    const other = await w.admin.post<{ id: number }>('/concepts', {
      dictionaryId: second.id,
      sectionOid: second.sections[0]!.oid,
      terms: [{ name: 'other term', languageCode: 'eng' }],
    });
    expect(other.status, other.text).toBe(201);

    const coordinator = await loggedInUser(t, w.tenant);
    const lead = await loggedInUser(t, w.tenant, {
      roles: [dictionaryAdminRole(w.dictionary), dictionaryAdminRole(second)],
    });
    const created = await w.admin.post<{ id: number }>('/projects', {
      name: 'Two dictionaries',
      dictionaryIds: [w.dictionary.id, second.id],
      languages: ['eng'],
      coordinatorIds: [coordinator.id],
      transitions: { DRAFTING: 'submit' },
    });
    expect(created.status, created.text).toBe(201);
    const project = `/projects/${created.body.id}`;
    const added = await coordinator.rest.post<{ added: number }>(`${project}/entries`, {
      conceptIds: [first.id, other.body.id],
    });
    expect(added.body.added, added.text).toBe(2);
    // Made as a revision, changed into a drafting (PUT changes the type of an open assignment).
    const made = await coordinator.rest.post<Assignment>(`${project}/assignments`, {
      type: 'REVISION',
      languageCode: 'eng',
      assigneeUserId: coordinator.id,
    });
    expect(made.status, made.text).toBe(201);
    const assignment = await coordinator.rest.put<Assignment & { type: string }>(
      `/assignments/${made.body.id}`,
      { version: made.body.version, type: 'DRAFTING' },
    );
    expect(assignment.status, assignment.text).toBe(200);
    expect(assignment.body.type).toBe('DRAFTING');

    // The first dictionary would let the coordinator submit; the second refuses: nothing moves.
    expectError(
      await coordinator.rest.post(`/assignments/${assignment.body.id}/complete`, {
        version: assignment.body.version,
      }),
      403,
    );
    expect(entryOf(await states(w.admin, first.id), 'eng').state).toBe('suggested');
    expect(entryOf(await states(w.admin, other.body.id), 'eng').state).toBe('suggested');
    const open = await coordinator.rest.get<Assignment>(`/assignments/${assignment.body.id}`);
    expect(open.body.status).toBe('OPEN');

    // Reassigned to someone both workflows name: both dictionaries move, in one completion.
    const reassigned = await coordinator.rest.put<Assignment>(`/assignments/${assignment.body.id}`, {
      version: open.body.version,
      assigneeUserId: lead.id,
    });
    expect(reassigned.status, reassigned.text).toBe(200);
    const answered = await lead.rest.post<Assignment>(`/assignments/${assignment.body.id}/complete`, {
      version: reassigned.body.version,
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ status: 'OPEN', jobTaskId: expect.any(Number) });
    expect((await waitForJob(lead.rest, answered.body.jobTaskId!)).status).toBe('DONE');
    const completed = await lead.rest.get<Assignment>(`/assignments/${assignment.body.id}`);
    expect(completed.body.status).toBe('DONE');
    expect(completed.body.jobTaskId).toBeUndefined();
    expect(completed.body.result).toEqual({
      transition: 'submit',
      dictionaries: [
        { dictionaryId: w.dictionary.id, result: expect.objectContaining({ moved: 1 }) },
        { dictionaryId: second.id, result: expect.objectContaining({ moved: 1 }) },
      ],
    });
    expect(entryOf(await states(w.admin, first.id), 'eng').state).toBe('inReview');
    expect(entryOf(await states(w.admin, other.body.id), 'eng').state).toBe('inReview');
    // What a DONE assignment fired follows from its type: it keeps it.
    expectError(
      await coordinator.rest.put(`/assignments/${assignment.body.id}`, {
        version: completed.body.version,
        type: 'VALIDATION',
      }),
      409,
    );
  });
});
