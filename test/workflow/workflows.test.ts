/**
 * Workflows (docs/workflows.md): definitions through REST, firing transitions row by row of the
 * permission matrix, votes, re-open on edit, re-validation, history, tenants, concurrency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revalidateDue } from '../../src/modules/workflow/workflow-revalidation.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { expectError, newTenant, rows } from '../helpers/structure.js';
import {
  enableWorkflow,
  entryOf,
  fire,
  state,
  states,
  transition,
  workflowWorld,
} from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface WorkflowBody {
  id: number;
  version: number;
  enabled: boolean;
  unit: string;
  definition: { initialState: string; states: { key: string }[]; transitions: { key: string }[] };
}

/** A custom definition: reviewers approve German only, DICTIONARY_ADMIN rejects with a comment, ADMIN retires. */
function matrixDefinition(reviewersGroupId: number, definitionOid: string) {
  return {
    states: [
      { key: 'draft', name: 'Draft', category: 'DRAFT', unpublished: true },
      { key: 'review', name: 'Review', category: 'REVIEW', style: 'color: orange', unpublished: true },
      { key: 'ok', name: 'Approved', category: 'APPROVED', processStatus: 'finalized' },
      { key: 'no', name: 'Rejected', category: 'REJECTED', readOnly: true },
      { key: 'gone', name: 'Retired', category: 'RETIRED' },
    ],
    transitions: [
      { key: 'submit', name: 'Submit', from: ['draft', 'no'], to: 'review', roles: ['USER'] },
      {
        key: 'approve',
        name: 'Approve',
        from: ['review'],
        to: 'ok',
        groupIds: [reviewersGroupId],
        languages: ['deu'],
        requiredFields: [{ fieldOid: definitionOid }],
      },
      {
        key: 'reject',
        name: 'Reject',
        from: ['review'],
        to: 'no',
        roles: ['DICTIONARY_ADMIN'],
        commentRequired: true,
      },
      { key: 'retire', name: 'Retire', from: ['ok'], to: 'gone', roles: ['ADMIN'] },
    ],
    initialState: 'draft',
    onEditOfApproved: 'REOPEN',
    reopenState: 'review',
    revalidateAfterDays: 30,
  };
}

describe('workflow definitions', () => {
  it('are created with the default definition, read by readers and written by dictionary administrators only', async () => {
    const w = await workflowWorld(t, sysadmin);
    // Nothing changes before a workflow is switched on.
    const concept = await w.concept();
    expect(await states(w.author.rest, concept.id)).toEqual({ workflowId: null, unit: null, entries: [] });

    expectError(await w.author.rest.post('/workflows', { name: 'Mine', dictionaryId: w.dictionary.id }), 403);
    const created = await w.dictAdmin.rest.post<WorkflowBody>('/workflows', {
      name: 'Default',
      dictionaryId: w.dictionary.id,
      enabled: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ unit: 'LANGUAGE', enabled: true, version: 1 });
    expect(created.body.definition.states.map((s) => s.key)).toEqual([
      'suggested',
      'inReview',
      'approved',
      'rejected',
    ]);

    // Readers see it; a second enabled workflow is refused; stale versions are refused.
    const read = await w.author.rest.get<WorkflowBody>(`/workflows/${created.body.id}`);
    expect(read.status, read.text).toBe(200);
    expectError(
      await w.admin.post('/workflows', { name: 'Second', dictionaryId: w.dictionary.id, enabled: true }),
      409,
    );
    const patched = await w.admin.put<WorkflowBody>(`/workflows/partial/${created.body.id}`, {
      version: created.body.version,
      name: 'Renamed',
    });
    expect(patched.status, patched.text).toBe(200);
    expectError(
      await w.admin.put(`/workflows/partial/${created.body.id}`, {
        version: created.body.version,
        name: 'Stale',
      }),
      409,
    );
    expectError(
      await w.author.rest.put(`/workflows/partial/${created.body.id}`, { version: 2, name: 'x' }),
      403,
    );
    // Bad definitions are 400: unknown states, duplicate keys.
    expectError(
      await w.admin.post('/workflows', {
        name: 'Broken',
        dictionaryId: w.dictionary.id,
        definition: { states: [{ key: 'a', name: 'A', category: 'DRAFT' }], initialState: 'b' },
      }),
      400,
    );

    // Another tenant sees nothing (404), whoever asks there, and its groups cannot be named.
    const stranger = await newTenant(t, sysadmin);
    const strangerGroups = await stranger.admin.get<{ content: { id: number }[] }>(
      '/groups?include-private=true',
    );
    const foreignGroup = strangerGroups.body.content[0]!.id;
    expectError(
      await w.admin.post('/workflows', {
        name: 'Foreign',
        dictionaryId: w.dictionary.id,
        definition: {
          states: [{ key: 'a', name: 'A', category: 'DRAFT' }],
          transitions: [{ key: 'x', name: 'X', from: ['a'], to: 'a', groupIds: [foreignGroup] }],
          initialState: 'a',
        },
      }),
      400,
    );
    expectError(await stranger.admin.get(`/workflows/${created.body.id}`), 404);
    expectError(
      await stranger.admin.put(`/workflows/partial/${created.body.id}`, { version: 2, name: 'x' }),
      404,
    );
    expectError(await stranger.admin.get(`/workflows/concepts/${concept.id}`), 404);
    const listed = await stranger.admin.get<{ content: unknown[] }>('/workflows');
    expect(listed.body.content).toEqual([]);

    // Entries start in the initial state, per language, with what the caller may fire.
    const entries = await states(w.author.rest, concept.id);
    expect(entries.entries.map((e) => [e.languageCode, e.state, e.version])).toEqual([
      ['deu', 'suggested', 0],
      ['eng', 'suggested', 0],
    ]);
    expect(entryOf(entries, 'eng').transitions.map((x) => x.key)).toEqual(['submit']);
  });
});

describe('firing transitions: the permission matrix', () => {
  async function matrixWorld() {
    const w = await workflowWorld(t, sysadmin);
    const workflow = await enableWorkflow<WorkflowBody>(w, 'Matrix', {
      definition: matrixDefinition(w.reviewers.id, w.definitionOid),
    });
    return { ...w, workflow };
  }

  /** Fires and answers the status (and the entry after success). */
  async function attempt(
    caller: RestClient,
    conceptId: number,
    languageCode: string,
    transition: string,
    extra = {},
  ) {
    const version = entryOf(await states(caller, conceptId), languageCode)?.version;
    return fire(caller, { conceptId, languageCode, transition, version, ...extra });
  }

  it('row by row: who may fire, who may not, no administrator bypass', async () => {
    const w = await matrixWorld();
    const concept = await w.concept({ [w.definitionOid]: 'A definition' });

    // submit: any named user.
    const submitted = await attempt(w.author.rest, concept.id, 'deu', 'submit');
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({
      fired: true,
      entry: { state: 'review', version: 1, style: 'color: orange' },
    });
    expect((await attempt(w.author.rest, concept.id, 'eng', 'submit')).status).toBe(200);

    // approve: the reviewers group only, German only. The author, the client administrator and the
    // dictionary administrator are not in the group: 403.
    for (const caller of [w.author.rest, w.admin, w.dictAdmin.rest]) {
      expectError(await attempt(caller, concept.id, 'deu', 'approve'), 403);
    }
    expectError(await attempt(w.reviewer.rest, concept.id, 'eng', 'approve'), 403);
    // Offered transitions follow the same rules.
    expect(entryOf(await states(w.admin, concept.id), 'deu').transitions).toEqual([]);
    expect(entryOf(await states(w.dictAdmin.rest, concept.id), 'deu').transitions.map((x) => x.key)).toEqual([
      'reject',
    ]);
    expect(entryOf(await states(w.reviewer.rest, concept.id), 'deu').transitions.map((x) => x.key)).toEqual([
      'approve',
    ]);
    const approved = await attempt(w.reviewer.rest, concept.id, 'deu', 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.entry).toMatchObject({ state: 'ok', category: 'APPROVED', version: 2 });

    // reject: DICTIONARY_ADMIN only, with a comment. The client administrator does not hold the role.
    expectError(await attempt(w.admin, concept.id, 'eng', 'reject', { comment: 'no' }), 403);
    expectError(await attempt(w.dictAdmin.rest, concept.id, 'eng', 'reject'), 400);
    const rejected = await attempt(w.dictAdmin.rest, concept.id, 'eng', 'reject', {
      comment: 'Wrong register',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.entry).toMatchObject({ state: 'no', readOnly: true });

    // retire: granted to ADMIN, so the client administrator may; the dictionary administrator may not.
    expectError(await attempt(w.dictAdmin.rest, concept.id, 'deu', 'retire'), 403);
    expect((await attempt(w.admin, concept.id, 'deu', 'retire')).status).toBe(200);

    // A transition that does not leave from the current state, an unknown one, a stale version.
    expectError(await attempt(w.author.rest, concept.id, 'deu', 'submit'), 409);
    expectError(await attempt(w.author.rest, concept.id, 'deu', 'nonsense'), 400);
    expectError(
      await fire(w.author.rest, {
        conceptId: concept.id,
        languageCode: 'eng',
        transition: 'submit',
        version: 0,
      }),
      409,
    );
    expectError(
      await fire(w.author.rest, { conceptId: concept.id, languageCode: 'eng', transition: 'submit' }),
      409,
    );
    // A language the concept has no terms in; a concept of another tenant.
    expectError(
      await fire(w.author.rest, {
        conceptId: concept.id,
        languageCode: 'fra',
        transition: 'submit',
        version: 0,
      }),
      404,
    );
    // Ids beyond the int range are bad input (400), not a database error.
    expectError(
      await fire(w.author.rest, {
        conceptId: 2 ** 40,
        languageCode: 'eng',
        transition: 'submit',
        version: 0,
      }),
      400,
    );
    const stranger = await newTenant(t, sysadmin);
    expectError(
      await fire(stranger.admin, {
        conceptId: concept.id,
        languageCode: 'eng',
        transition: 'submit',
        version: 1,
      }),
      404,
    );

    // Every move is in the transition log and in the concept's history (WORKFLOW changes).
    const log = await w.author.rest.get<
      { transition: string; fromState: string; toState: string; comment: string | null }[]
    >(`/workflows/concepts/${concept.id}/transitions`);
    expect(log.body.map((m) => [m.transition, m.fromState, m.toState])).toEqual([
      ['submit', 'draft', 'review'],
      ['submit', 'draft', 'review'],
      ['approve', 'review', 'ok'],
      ['reject', 'review', 'no'],
      ['retire', 'ok', 'gone'],
    ]);
    const history = await w.admin.get<{
      content: { changes: { subject: string; after?: { comment?: string } }[] }[];
    }>(`/history/concept/${concept.id}`);
    expect(history.status, history.text).toBe(200);
    const moves = history.body.content
      .flatMap((item) => item.changes)
      .filter((c) => c.subject === 'WORKFLOW');
    expect(moves).toHaveLength(5);
    expect(moves.some((c) => c.after?.comment === 'Wrong register')).toBe(true);
  });

  it('required fields answer 422 until they are filled', async () => {
    const w = await matrixWorld();
    const concept = await w.concept();
    expect((await attempt(w.author.rest, concept.id, 'deu', 'submit')).status).toBe(200);
    const offered = entryOf(await states(w.reviewer.rest, concept.id), 'deu').transitions;
    expect(offered).toEqual([
      expect.objectContaining({ key: 'approve', missingFields: [`CONCEPT:${w.definitionOid}`] }),
    ]);
    expectError(await attempt(w.reviewer.rest, concept.id, 'deu', 'approve'), 422);
    const current = await w.admin.get<{ version: number }>(`/concepts/${concept.id}`);
    const filled = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: current.body.version,
      fieldMap: { [w.definitionOid]: 'Now defined' },
    });
    expect(filled.status, filled.text).toBe(200);
    expect((await attempt(w.reviewer.rest, concept.id, 'deu', 'approve')).status).toBe(200);
  });

  it('concurrent transitions on one entry: exactly one wins, the other answers 409', async () => {
    const w = await matrixWorld();
    const concept = await w.concept();
    const body = { conceptId: concept.id, languageCode: 'eng', transition: 'submit', version: 0 };
    const answers = await Promise.all([
      fire(w.author.rest, body),
      fire(w.reviewer.rest, body),
      fire(w.dictAdmin.rest, body),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const [count] = await rows<{ n: number }>(
      t,
      'select count(*)::int as n from workflow_transitions where concept_id = ?',
      [concept.id],
    );
    expect(count!.n).toBe(1);
  });

  it('an edit of an approved entry re-opens it; read-only states refuse edits; re-validation after N days', async () => {
    const w = await matrixWorld();
    const concept = await w.concept({ [w.definitionOid]: 'Defined' });
    expect((await attempt(w.author.rest, concept.id, 'deu', 'submit')).status).toBe(200);
    expect((await attempt(w.reviewer.rest, concept.id, 'deu', 'approve')).status).toBe(200);

    const current = await w.admin.get<{
      version: number;
      terms: { id: number; name: string; languageCode: string }[];
    }>(`/concepts/${concept.id}`);
    const terms = current.body.terms.map((term) => ({
      id: term.id,
      name: term.name,
      languageCode: term.languageCode,
    }));
    const edited = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: current.body.version,
      terms: terms.map((term) =>
        term.languageCode === 'deu' ? { ...term, name: `${term.name} neu` } : term,
      ),
    });
    expect(edited.status, edited.text).toBe(200);
    const after = await states(w.author.rest, concept.id);
    expect(entryOf(after, 'deu')).toMatchObject({ state: 'review', version: 3 });
    // English was not approved and its term did not change: it stays where it was.
    expect(entryOf(after, 'eng')).toMatchObject({ state: 'draft', version: 0 });

    // Rejected is read-only: an edit of the English term is refused (403) and changes nothing.
    expect((await attempt(w.author.rest, concept.id, 'eng', 'submit')).status).toBe(200);
    expect((await attempt(w.dictAdmin.rest, concept.id, 'eng', 'reject', { comment: 'No' })).status).toBe(
      200,
    );
    const again = await w.admin.get<{ version: number; terms: typeof terms }>(`/concepts/${concept.id}`);
    const refused = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: again.body.version,
      terms: again.body.terms.map((term) => ({
        id: term.id,
        languageCode: term.languageCode,
        name: term.languageCode === 'eng' ? `${term.name} changed` : term.name,
      })),
    });
    expectError(refused, 403);

    // Re-validation: approved 30 days ago means due now.
    expect((await attempt(w.reviewer.rest, concept.id, 'deu', 'approve')).status).toBe(200);
    expect(await revalidateDue(t.orm.em.fork(), new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(
      await revalidateDue(t.orm.em.fork(), new Date(Date.now() + 31 * 86_400_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(entryOf(await states(w.author.rest, concept.id), 'deu').state).toBe('draft');
  });
});

describe('votes', () => {
  it('MINIMUM_VOTES fires on the n-th vote; a second vote of one user is 409; MINIMUM_AGREEMENT needs no dissent', async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Votes', {
      unit: 'CONCEPT',
      definition: {
        states: [
          state('open', 'Open', 'REVIEW'),
          state('yes', 'Accepted', 'APPROVED'),
          state('nay', 'Refused', 'REJECTED'),
        ],
        transitions: [
          transition('accept', 'Accept', ['open'], 'yes', ['USER'], {
            votes: { mode: 'MINIMUM_VOTES', count: 2 },
          }),
          transition('refuse', 'Refuse', ['open'], 'nay', ['USER'], {
            votes: { mode: 'MINIMUM_AGREEMENT', count: 1 },
          }),
          transition('reopen', 'Reopen', ['yes', 'nay'], 'open', ['USER']),
        ],
        initialState: 'open',
      },
    });
    const concept = await w.concept();
    const first = await fire(w.author.rest, { conceptId: concept.id, transition: 'accept', version: 0 });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      fired: false,
      entry: { state: 'open', votes: [{ transition: 'accept', userId: w.author.id }] },
    });
    expectError(await fire(w.author.rest, { conceptId: concept.id, transition: 'accept', version: 0 }), 409);
    // A refusal vote now meets dissent (an accept vote): it is recorded, it does not fire.
    const refusal = await fire(w.dictAdmin.rest, { conceptId: concept.id, transition: 'refuse', version: 0 });
    expect(refusal.body.fired).toBe(false);
    const second = await fire(w.reviewer.rest, { conceptId: concept.id, transition: 'accept', version: 0 });
    expect(second.body).toMatchObject({ fired: true, entry: { state: 'yes', votes: [] } });
    // Votes belong to the state they were cast in; after a re-open one refusal alone fires.
    const reopened = await fire(w.author.rest, { conceptId: concept.id, transition: 'reopen', version: 1 });
    expect(reopened.body.entry).toMatchObject({ state: 'open', version: 2 });
    const alone = await fire(w.author.rest, { conceptId: concept.id, transition: 'refuse', version: 2 });
    expect(alone.body).toMatchObject({ fired: true, entry: { state: 'nay' } });
  });
});
