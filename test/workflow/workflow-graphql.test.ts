/**
 * Workflows over GraphQL (docs/workflows.md): the same procedures and checks as REST, entries on Concept
 * and Term, the inbox, and mutations that define a workflow and fire a transition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

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

const CONCEPT = `query ($id: Int!) {
  concept(id: $id) {
    workflowEntries { languageCode state version transitions { key } }
    terms { languageCode workflowEntry { state style } }
  }
}`;

describe('workflows over GraphQL', () => {
  it('define, read on Concept and Term, fire, and the inbox, with the REST checks', async () => {
    const w = await workflowWorld(t, sysadmin);
    const create = `mutation ($input: WorkflowInput!) { createWorkflow(input: $input) { id version enabled definition } }`;
    const refused = await graphql(w.author.rest, create, {
      input: { name: 'Mine', dictionaryId: w.dictionary.id },
    });
    expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const created = await graphql(w.dictAdmin.rest, create, {
      input: { name: 'Default', dictionaryId: w.dictionary.id, enabled: true },
    });
    expect(created.errors).toBeUndefined();
    const workflow = created.data!.createWorkflow as { id: number; version: number };
    const stale = await graphql(
      w.dictAdmin.rest,
      `mutation ($id: Int!, $version: Int!) { updateWorkflow(id: $id, version: $version, input: { name: "Renamed" }) { version } }`,
      { id: workflow.id, version: workflow.version + 5 },
    );
    expect(stale.errors?.[0]?.extensions.code).toBe('CONFLICT');

    const concept = await w.concept();
    // visibility-26: suggested is unpublished, so the author (no review rights) reads no term; the reviewer all.
    const authorRead = await graphql(w.author.rest, CONCEPT, { id: concept.id });
    expect(authorRead.errors).toBeUndefined(); // visibility-26
    expect((authorRead.data!.concept as { terms: unknown[] }).terms).toEqual([]); // visibility-26
    const read = await graphql(w.dictAdmin.rest, CONCEPT, { id: concept.id }); // visibility-26
    expect(read.errors).toBeUndefined();
    expect(read.data!.concept).toEqual({
      workflowEntries: [
        { languageCode: 'deu', state: 'suggested', version: 0, transitions: [{ key: 'submit' }] },
        { languageCode: 'eng', state: 'suggested', version: 0, transitions: [{ key: 'submit' }] },
      ],
      terms: expect.arrayContaining([
        { languageCode: 'eng', workflowEntry: { state: 'suggested', style: 'font-style: italic' } },
        { languageCode: 'deu', workflowEntry: { state: 'suggested', style: 'font-style: italic' } },
      ]),
    });

    const fire = `mutation ($input: WorkflowFireInput!) { fireWorkflowTransition(input: $input) { fired entry { state version } } }`;
    const fired = await graphql(w.author.rest, fire, {
      input: { conceptId: concept.id, languageCode: 'deu', transition: 'submit', version: 0 },
    });
    expect(fired.data?.fireWorkflowTransition).toEqual({
      fired: true,
      entry: { state: 'inReview', version: 1 },
    });
    const again = await graphql(w.author.rest, fire, {
      input: { conceptId: concept.id, languageCode: 'deu', transition: 'submit', version: 0 },
    });
    expect(again.errors?.[0]?.extensions.code).toBe('CONFLICT');
    const noBypass = await graphql(w.admin, fire, {
      input: { conceptId: concept.id, languageCode: 'deu', transition: 'approve', version: 1 },
    });
    expect(noBypass.errors?.[0]?.extensions.code).toBe('FORBIDDEN');

    const inbox = await graphql(w.author.rest, `{ workflowInbox { conceptId } workflows { id name } }`);
    expect(inbox.errors).toBeUndefined();
    expect(inbox.data).toEqual({ workflowInbox: [], workflows: [{ id: workflow.id, name: 'Default' }] });
  });
});
