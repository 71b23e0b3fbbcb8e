/**
 * Bulk transitions over 10,000 entries (set-based SQL in a job) and the task inbox (docs/workflows.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { expectError, rows, waitForJob } from '../helpers/structure.js';
import { fire, states, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const COUNT = 10_000;

const count = async (sql: string, params: unknown[]) => (await rows<{ n: number }>(t, sql, params))[0]!.n;

describe('bulk transitions', () => {
  it(`move ${COUNT.toLocaleString('en')} entries by a filter as a job, each with its history; a list of ids moves only those`, async () => {
    const w = await workflowWorld(t, sysadmin);
    const created = await w.dictAdmin.rest.post<{ id: number }>('/workflows', {
      name: 'Bulk',
      dictionaryId: w.dictionary.id,
      enabled: true,
      unit: 'CONCEPT',
      definition: {
        states: [
          { key: 'draft', name: 'Draft', category: 'DRAFT' },
          { key: 'ok', name: 'Approved', category: 'APPROVED' },
        ],
        transitions: [
          { key: 'approve', name: 'Approve', from: ['draft'], to: 'ok', roles: ['DICTIONARY_ADMIN'] },
          {
            key: 'back',
            name: 'Back',
            from: ['ok'],
            to: 'draft',
            roles: ['DICTIONARY_ADMIN'],
            commentRequired: true,
          },
        ],
        initialState: 'draft',
      },
    });
    expect(created.status, created.text).toBe(201);
    const [section] = await rows<{ id: number }>(
      t,
      'select id from sections where dictionary_id = ? order by id limit 1',
      [w.dictionary.id],
    );
    await rows(
      t,
      `insert into concepts (client_id, dictionary_id, section_id, cid, created_at, changed_at)
       select ?, ?, ?, 'bulk-' || g, now(), now() from generate_series(1, ?) g`,
      [w.tenant.id, w.dictionary.id, section!.id, COUNT],
    );

    // Only those the transition names may run it, and a required comment is checked before the job.
    expectError(
      await w.author.rest.post('/workflows/bulk-transitions', {
        dictionaryId: w.dictionary.id,
        transition: 'approve',
      }),
      403,
    );
    expectError(
      await w.admin.post('/workflows/bulk-transitions', {
        dictionaryId: w.dictionary.id,
        transition: 'approve',
      }),
      403,
    );
    expectError(
      await w.dictAdmin.rest.post('/workflows/bulk-transitions', {
        dictionaryId: w.dictionary.id,
        transition: 'back',
      }),
      400,
    );

    const started = await w.dictAdmin.rest.post<{ result?: number; jobTaskId?: number }>(
      '/workflows/bulk-transitions',
      {
        dictionaryId: w.dictionary.id,
        transition: 'approve',
        state: 'draft',
        comment: 'Checked in the terminology meeting',
      },
    );
    expect([200, 202], started.text).toContain(started.status);
    const result = started.body.jobTaskId
      ? (await waitForJob(w.dictAdmin.rest, started.body.jobTaskId, 300_000)).result
      : started.body.result;
    expect(result).toBe(COUNT);
    expect(
      await count(
        `select count(*)::int as n from workflow_entry_states where dictionary_id = ? and state = 'ok'`,
        [w.dictionary.id],
      ),
    ).toBe(COUNT);
    expect(
      await count('select count(*)::int as n from workflow_transitions where dictionary_id = ?', [
        w.dictionary.id,
      ]),
    ).toBe(COUNT);
    expect(
      await count(
        `select count(*)::int as n from concept_history where dictionary_id = ? and changes @> '[{"subject": "WORKFLOW"}]'`,
        [w.dictionary.id],
      ),
    ).toBe(COUNT);

    // A list of ids: only those move; entries already moved do not move twice.
    const someIds = (
      await rows<{ id: number }>(t, 'select id from concepts where dictionary_id = ? order by id limit 3', [
        w.dictionary.id,
      ])
    ).map((row) => row.id);
    const back = await w.dictAdmin.rest.post<{ result?: number }>('/workflows/bulk-transitions', {
      dictionaryId: w.dictionary.id,
      transition: 'back',
      conceptIds: someIds,
      comment: 'Source disputed',
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.result).toBe(3);
    const again = await w.dictAdmin.rest.post<{ result?: number }>('/workflows/bulk-transitions', {
      dictionaryId: w.dictionary.id,
      transition: 'back',
      conceptIds: someIds,
      comment: 'Twice',
    });
    expect(again.body.result).toBe(0);
    const entry = (await states(w.author.rest, someIds[0]!)).entries[0]!;
    expect(entry).toMatchObject({ state: 'draft', version: 2 });
  }, 600_000);
});

describe('the task inbox', () => {
  it('lists the entries assigned to the caller, by dictionary and language, and only theirs', async () => {
    const w = await workflowWorld(t, sysadmin);
    const created = await w.dictAdmin.rest.post('/workflows', {
      name: 'Assigning',
      dictionaryId: w.dictionary.id,
      enabled: true,
      definition: {
        states: [
          { key: 'new', name: 'New', category: 'DRAFT' },
          { key: 'check', name: 'Check', category: 'REVIEW' },
        ],
        transitions: [
          {
            key: 'ask',
            name: 'Ask the reviewer',
            from: ['new'],
            to: 'check',
            roles: ['USER'],
            actions: [{ type: 'ASSIGN', userId: w.reviewer.id }],
          },
        ],
        initialState: 'new',
      },
    });
    expect(created.status, created.text).toBe(201);
    const concept = await w.concept();
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'deu',
          transition: 'ask',
          version: 0,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'eng',
          transition: 'ask',
          version: 0,
        })
      ).status,
    ).toBe(200);

    const mine = await w.reviewer.rest.get<{ conceptId: number; languageCode: string; state: string }[]>(
      '/workflows/inbox?assignee=me',
    );
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.map((item) => item.languageCode).sort()).toEqual(['deu', 'eng']);
    const german = await w.reviewer.rest.get<unknown[]>(
      `/workflows/inbox?assignee=me&language-code=deu&dictionary-id=${w.dictionary.id}`,
    );
    expect(german.body).toEqual([
      expect.objectContaining({ conceptId: concept.id, languageCode: 'deu', state: 'check' }),
    ]);
    expect((await w.author.rest.get<unknown[]>('/workflows/inbox')).body).toEqual([]);
    expect((await w.reviewer.rest.get<unknown[]>('/workflows/inbox?dictionary-id=999999')).body).toEqual([]);
    expect((await states(w.author.rest, concept.id)).entries.map((e) => e.assigneeId)).toEqual([
      w.reviewer.id,
      w.reviewer.id,
    ]);
  });
});
