/**
 * Enabling a workflow is previewed (issue 36): per audience, the entries and terms it sees now and
 * would see once the workflow governs, by the rule reads apply. The default workflow starts every entry
 * unpublished, so everyone but its reviewers (the dictionary's administrators, a named group) would stop
 * seeing the dictionary, the client administrator included; what the preview says is what reads do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { newTenant } from '../helpers/structure.js';
import { fire, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Counts {
  concepts: number;
  terms: number;
}
interface Preview {
  workflowId: number;
  dictionaryId: number;
  total: Counts;
  audiences: {
    audience: string;
    groupId: number | null;
    groupName: string | null;
    seesEverything: boolean;
    now: Counts;
    after: Counts;
  }[];
}
interface WorkflowBody {
  id: number;
  version: number;
  enabled: boolean;
  definition: { transitions: { key: string; groupIds: number[] }[] };
}

const byAudience = (preview: Preview) =>
  Object.fromEntries(
    preview.audiences.map((a) => [a.audience === 'GROUP' ? `GROUP ${a.groupId}` : a.audience, a]),
  );

async function preview(caller: RestClient, id: number) {
  const response = await caller.get<Preview>(`/workflows/${id}/enable-preview`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Two concepts (English and German terms); the default workflow, disabled, whose approvers include a group. */
async function world() {
  const w = await workflowWorld(t, sysadmin);
  const concepts = [await w.concept(), await w.concept()];
  const created = await w.dictAdmin.rest.post<WorkflowBody>('/workflows', {
    name: 'Default',
    dictionaryId: w.dictionary.id,
    enabled: false,
  });
  expect(created.status, created.text).toBe(201);
  const definition = structuredClone(created.body.definition);
  for (const transition of definition.transitions)
    if (transition.key === 'approve') transition.groupIds = [w.reviewers.id];
  const patched = await w.dictAdmin.rest.put<WorkflowBody>(`/workflows/partial/${created.body.id}`, {
    version: created.body.version,
    definition,
  });
  expect(patched.status, patched.text).toBe(200);
  return { ...w, concepts, workflow: patched.body };
}

const everything = { concepts: 2, terms: 4 };
const nothing = { concepts: 0, terms: 0 };

describe('GET /workflows/{id}/enable-preview', () => {
  it('says who stops seeing which entries, and reads then agree', async () => {
    const w = await world();
    const first = await preview(w.dictAdmin.rest, w.workflow.id);
    expect(first.total).toEqual(everything);
    const audiences = byAudience(first);
    for (const hidden of ['GUESTS', 'READERS', 'CLIENT_ADMINS']) {
      expect(audiences[hidden], hidden).toMatchObject({
        seesEverything: false,
        now: everything,
        after: nothing,
      });
    }
    for (const reviewing of ['DICTIONARY_ADMINS', 'REVIEWERS', `GROUP ${w.reviewers.id}`]) {
      expect(audiences[reviewing], reviewing).toMatchObject({
        seesEverything: true,
        now: everything,
        after: everything,
      });
    }
    expect(audiences[`GROUP ${w.reviewers.id}`]!.groupName).toBeTruthy();

    // Approve the German entry of the first concept, then preview again while enabled and after.
    const enabled = await w.dictAdmin.rest.put<WorkflowBody>(`/workflows/partial/${w.workflow.id}`, {
      version: w.workflow.version,
      enabled: true,
    });
    expect(enabled.status, enabled.text).toBe(200);
    for (const [transition, version] of [
      ['submit', 0],
      ['approve', 1],
    ] as const) {
      const moved = await fire(w.reviewer.rest, {
        conceptId: w.concepts[0]!.id,
        languageCode: 'deu',
        transition,
        version,
      });
      expect(moved.status, moved.text).toBe(200);
    }
    const governing = byAudience(await preview(w.dictAdmin.rest, w.workflow.id));
    const oneTerm = { concepts: 1, terms: 1 };
    expect(governing.READERS).toMatchObject({ now: oneTerm, after: oneTerm });
    expect(governing.CLIENT_ADMINS).toMatchObject({ now: oneTerm, after: oneTerm });
    expect(governing.REVIEWERS).toMatchObject({ now: everything, after: everything });

    // What reads show the plain reader and the client administrator is what the preview counted.
    for (const caller of [w.author.rest, w.admin]) {
      let terms = 0;
      for (const concept of w.concepts) {
        const read = await caller.get<{ terms: unknown[] }>(`/concepts/${concept.id}`);
        expect(read.status, read.text).toBe(200);
        terms += read.body.terms.length;
      }
      expect(terms).toBe(oneTerm.terms);
    }

    // Disabled again: everyone sees everything now, and the stored states count for after.
    const current = await w.dictAdmin.rest.get<WorkflowBody>(`/workflows/${w.workflow.id}`);
    const disabled = await w.dictAdmin.rest.put(`/workflows/partial/${w.workflow.id}`, {
      version: current.body.version,
      enabled: false,
    });
    expect(disabled.status, disabled.text).toBe(200);
    const off = byAudience(await preview(w.dictAdmin.rest, w.workflow.id));
    expect(off.GUESTS).toMatchObject({ now: everything, after: oneTerm });
  });

  it('answers tRPC and GraphQL alike; 403 for non-administrators, 404 across tenants and for unknown ids', async () => {
    const w = await world();
    const rest = await preview(w.dictAdmin.rest, w.workflow.id);
    const token = w.dictAdmin.rest.token ?? '';
    const viaTrpc = await t.app.inject({
      method: 'GET',
      url: `/trpc/workflows.enablePreview?input=${encodeURIComponent(JSON.stringify({ id: w.workflow.id }))}`,
      headers: { 'x-auth-token': token },
    });
    expect(viaTrpc.statusCode, viaTrpc.body).toBe(200);
    expect((viaTrpc.json() as { result: { data: Preview } }).result.data).toEqual(rest);
    const viaGraphql = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      payload: JSON.stringify({
        query: `query ($id: Int!) { workflowEnablePreview(id: $id) { total { concepts terms }
          audiences { audience groupId seesEverything now { concepts terms } after { concepts terms } } } }`,
        variables: { id: w.workflow.id },
      }),
    });
    const graphql = viaGraphql.json() as { data: { workflowEnablePreview: Preview } };
    expect(graphql.data.workflowEnablePreview.total).toEqual(rest.total);
    expect(graphql.data.workflowEnablePreview.audiences.map((a) => a.after)).toEqual(
      rest.audiences.map((a) => a.after),
    );

    const refused = await w.author.rest.get<{ code: string; message: string }>(
      `/workflows/${w.workflow.id}/enable-preview`,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/administrators/);
    const stranger = await newTenant(t, sysadmin);
    const hidden = await stranger.admin.get<{ code: string }>(`/workflows/${w.workflow.id}/enable-preview`);
    expect(hidden.status).toBe(404);
    const unknown = await w.dictAdmin.rest.get<{ code: string }>('/workflows/999999/enable-preview');
    expect(unknown.status).toBe(404);
    const bad = await w.dictAdmin.rest.get<{ code: string }>('/workflows/abc/enable-preview');
    expect(bad.status).toBe(400);
  });
});
