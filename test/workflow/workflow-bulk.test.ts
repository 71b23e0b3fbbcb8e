/**
 * Bulk transitions over 10,000 entries (set-based SQL in a job) and the task inbox (docs/workflows.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { expectError, rows, waitForJob } from '../helpers/structure.js';
import {
  draftAndApproved,
  enableWorkflow,
  fire,
  newAndCheck,
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

const COUNT = 10_000;

const count = async (sql: string, params: unknown[]) => (await rows<{ n: number }>(t, sql, params))[0]!.n;

describe('bulk transitions', () => {
  it(`move ${COUNT.toLocaleString('en')} entries by a filter as a job, each with its history; a list of ids moves only those`, async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Bulk', {
      unit: 'CONCEPT',
      definition: draftAndApproved(
        transition('approve', 'Approve', ['draft'], 'ok', ['DICTIONARY_ADMIN']),
        transition('back', 'Back', ['ok'], 'draft', ['DICTIONARY_ADMIN'], { commentRequired: true }),
      ),
    });
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

    const started = await w.dictAdmin.rest.post<{ result?: unknown; jobTaskId?: number }>(
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
    expect(result).toEqual({ moved: COUNT, waiting: 0, skippedCount: 0, skipped: [] });
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
    const back = await w.dictAdmin.rest.post<{ result?: unknown }>('/workflows/bulk-transitions', {
      dictionaryId: w.dictionary.id,
      transition: 'back',
      conceptIds: someIds,
      comment: 'Source disputed',
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.result).toMatchObject({ moved: 3, skippedCount: 0 });
    const again = await w.dictAdmin.rest.post<{ result?: unknown }>('/workflows/bulk-transitions', {
      dictionaryId: w.dictionary.id,
      transition: 'back',
      conceptIds: someIds,
      comment: 'Twice',
    });
    expect(again.body.result).toMatchObject({ moved: 0, skippedCount: 0 });
    const entry = (await states(w.author.rest, someIds[0]!)).entries[0]!;
    expect(entry).toMatchObject({ state: 'draft', version: 2 });
  }, 600_000);
});

const FIELDS_COUNT = 2_000;

interface BulkResult {
  moved: number;
  waiting: number;
  skippedCount: number;
  skipped: { conceptId: number; languageCode: string | null; termId: number | null; reason: string }[];
}

describe('bulk transitions with required fields, SET_FIELD and votes', () => {
  it(`${FIELDS_COUNT.toLocaleString('en')} entries: those missing a required field are listed with the reason, the rest move and get the field set; votes are cast per entry and move the entries they decide`, async () => {
    const w = await workflowWorld(t, sysadmin);
    const field = w.definitionOid;
    await enableWorkflow(w, 'Bulk with fields and votes', {
      unit: 'CONCEPT',
      definition: draftAndApproved(
        transition('approve', 'Approve', ['draft'], 'ok', ['DICTIONARY_ADMIN'], {
          requiredFields: [{ fieldOid: field, level: 'CONCEPT' }],
          actions: [
            { type: 'SET_FIELD', fieldOid: field, level: 'CONCEPT', values: ['Checked by the board'] },
          ],
        }),
        transition('confirm', 'Confirm', ['draft'], 'ok', ['DICTIONARY_ADMIN'], {
          groupIds: [w.reviewers.id],
          votes: { mode: 'MINIMUM_VOTES', count: 2 },
        }),
      ),
    });
    // Two concepts through the API (with history snapshots), the rest in SQL: a quarter without the field.
    const withHistory = [await w.concept({ [field]: 'A pump' }), await w.concept({ [field]: 'A valve' })];
    const [section] = await rows<{ id: number }>(
      t,
      'select id from sections where dictionary_id = ? order by id limit 1',
      [w.dictionary.id],
    );
    await rows(
      t,
      `insert into concepts (client_id, dictionary_id, section_id, cid, created_at, changed_at, field_map)
       select ?, ?, ?, 'f-' || g, now(), now(),
              case when g % 4 = 0 then '{}'::jsonb else jsonb_build_object(?::text, jsonb_build_array('d' || g)) end
         from generate_series(1, ?) g`,
      [w.tenant.id, w.dictionary.id, section!.id, field, FIELDS_COUNT - 2],
    );
    const empty = Math.floor((FIELDS_COUNT - 2) / 4);

    const run = async (caller: RestClient, body: Record<string, unknown>) => {
      const started = await caller.post<{ result?: BulkResult; jobTaskId?: number }>(
        '/workflows/bulk-transitions',
        {
          dictionaryId: w.dictionary.id,
          ...body,
        },
      );
      expect([200, 202], started.text).toContain(started.status);
      return (
        started.body.jobTaskId
          ? (await waitForJob(caller, started.body.jobTaskId, 300_000)).result
          : started.body.result
      ) as BulkResult;
    };
    const begin = Date.now();
    const approved = await run(w.dictAdmin.rest, { transition: 'approve', state: 'draft' });
    const seconds = (Date.now() - begin) / 1000;
    expect(approved).toMatchObject({ moved: FIELDS_COUNT - empty, waiting: 0, skippedCount: empty });
    expect(approved.skipped).toHaveLength(empty);
    expect(new Set(approved.skipped.map((entry) => entry.reason))).toEqual(
      new Set([`required fields are empty: CONCEPT:${field}`]),
    );
    const inState = (state: string) =>
      count('select count(*)::int as n from workflow_entry_states where dictionary_id = ? and state = ?', [
        w.dictionary.id,
        state,
      ]);
    expect(await inState('ok')).toBe(FIELDS_COUNT - empty);
    // SET_FIELD: every moved concept has the value, the skipped ones are unchanged (still empty).
    expect(
      await count(
        `select count(*)::int as n from concepts where dictionary_id = ? and field_map -> ?::text = '["Checked by the board"]'::jsonb`,
        [w.dictionary.id, field],
      ),
    ).toBe(FIELDS_COUNT - empty);
    expect(
      await count(
        `select count(*)::int as n from concepts where dictionary_id = ? and field_map = '{}'::jsonb`,
        [w.dictionary.id],
      ),
    ).toBe(empty);
    // The history item of the move lists the FIELD change with old and new value, its snapshot the new one.
    const latest = await w.admin.get<{
      content: { changes: HistoryChangeBody[]; snapshot: { fieldMap: Record<string, string[]> } }[];
    }>(`/history/concept/${withHistory[0]!.id}`);
    expect(latest.body.content[0]!.changes.map((change) => change.subject)).toEqual(['WORKFLOW', 'FIELD']);
    expect(latest.body.content[0]!.changes[1]).toEqual({
      kind: 'CHANGED',
      subject: 'FIELD',
      fieldOid: field,
      before: ['A pump'],
      after: ['Checked by the board'],
    });
    expect(latest.body.content[0]!.snapshot.fieldMap[field]).toEqual(['Checked by the board']);

    // Votes: the first bulk vote moves nothing (2 needed), a repeated one is skipped, a second voter decides.
    const skippedIds = approved.skipped.map((entry) => entry.conceptId);
    const first = await run(w.dictAdmin.rest, { transition: 'confirm', conceptIds: skippedIds });
    expect(first).toEqual({ moved: 0, waiting: empty, skippedCount: 0, skipped: [] });
    const repeated = await run(w.dictAdmin.rest, { transition: 'confirm', conceptIds: skippedIds });
    expect(repeated).toMatchObject({ moved: 0, waiting: 0, skippedCount: empty });
    expect(repeated.skipped[0]!.reason).toBe('you voted on it already');
    expect(
      await count('select count(*)::int as n from workflow_votes where user_id = ?', [w.dictAdmin.id]),
    ).toBe(empty);
    const second = await run(w.reviewer.rest, { transition: 'confirm', conceptIds: skippedIds });
    expect(second).toEqual({ moved: empty, waiting: 0, skippedCount: 0, skipped: [] });
    expect(await inState('ok')).toBe(FIELDS_COUNT);
    // A move deletes the entry's votes.
    expect(
      await count('select count(*)::int as n from workflow_votes where user_id in (?, ?)', [
        w.dictAdmin.id,
        w.reviewer.id,
      ]),
    ).toBe(0);
    console.log(`bulk approve with required field and SET_FIELD: ${FIELDS_COUNT} entries in ${seconds} s`);
  }, 300_000);
});

interface HistoryChangeBody {
  kind: string;
  subject: string;
  termId?: number;
  fieldOid?: string;
  before?: unknown;
  after?: unknown;
}

interface HistoryItemBody {
  revision: number;
  changes: HistoryChangeBody[];
  snapshot: {
    fieldMap: Record<string, string[]>;
    terms: { id: number; fieldMap: Record<string, string[]> }[];
  };
}

describe('SET_FIELD history in bulk and single moves', () => {
  it('each moved entry’s history item lists its FIELD and TERM_FIELD changes with old and new values, as firing one entry does', async () => {
    const w = await workflowWorld(t, sysadmin, { termField: true });
    const dictionary = await w.admin.get<{ termFields: { oid: string }[] }>(
      `/dictionaries/${w.dictionary.id}`,
    );
    const note = dictionary.body.termFields[0]!.oid;
    const field = w.definitionOid;
    await enableWorkflow(w, 'Setting fields', {
      unit: 'LANGUAGE',
      definition: draftAndApproved(
        transition('approve', 'Approve', ['draft'], 'ok', ['DICTIONARY_ADMIN'], {
          actions: [
            { type: 'SET_FIELD', fieldOid: field, level: 'CONCEPT', values: ['Approved definition'] },
            { type: 'SET_FIELD', fieldOid: note, level: 'TERM', values: ['checked'] },
          ],
        }),
      ),
    });
    const bulk = [await w.concept({ [field]: 'A pump' }), await w.concept({ [field]: 'A valve' })];
    const single = await w.concept({ [field]: 'A gear' });
    const history = async (conceptId: number) =>
      (await w.admin.get<{ content: HistoryItemBody[] }>(`/history/concept/${conceptId}`)).body.content;
    const termOf = (concept: (typeof bulk)[number], code: string) =>
      concept.terms.find((term) => term.languageCode === code)!.id;

    const started = await w.dictAdmin.rest.post<{ result?: BulkResult; jobTaskId?: number }>(
      '/workflows/bulk-transitions',
      { dictionaryId: w.dictionary.id, transition: 'approve', conceptIds: bulk.map((c) => c.id) },
    );
    expect([200, 202], started.text).toContain(started.status);
    const result = (
      started.body.jobTaskId
        ? (await waitForJob(w.dictAdmin.rest, started.body.jobTaskId, 60_000)).result
        : started.body.result
    ) as BulkResult;
    expect(result).toMatchObject({ moved: 4, skippedCount: 0 });

    // Firing one entry at a time: the same changes in the same items.
    for (const languageCode of ['eng', 'deu']) {
      const fired = await fire(w.dictAdmin.rest, {
        conceptId: single.id,
        languageCode,
        transition: 'approve',
        version: 0,
      });
      expect(fired.status, fired.text).toBe(200);
    }

    for (const concept of [...bulk, single]) {
      // Two moves (one per language), newest first; the concept field changed once, on the first.
      const [second, first] = await history(concept.id);
      const old = concept === single ? 'A gear' : concept === bulk[0] ? 'A pump' : 'A valve';
      const byLanguage = new Map(
        [first!, second!].map((item) => [
          (item.changes[0]!.after as { languageCode: string }).languageCode,
          item,
        ]),
      );
      expect(first!.changes.map((c) => c.subject)).toEqual(['WORKFLOW', 'FIELD', 'TERM_FIELD']);
      expect(first!.changes[1]).toEqual({
        kind: 'CHANGED',
        subject: 'FIELD',
        fieldOid: field,
        before: [old],
        after: ['Approved definition'],
      });
      expect(second!.changes.map((c) => c.subject)).toEqual(['WORKFLOW', 'TERM_FIELD']);
      for (const code of ['eng', 'deu']) {
        const item = byLanguage.get(code)!;
        expect(item.changes.at(-1)).toEqual({
          kind: 'ADDED',
          subject: 'TERM_FIELD',
          termId: termOf(concept, code),
          fieldOid: note,
          after: ['checked'],
        });
      }
      // The snapshot of the last item holds every value set.
      expect(second!.snapshot.fieldMap[field]).toEqual(['Approved definition']);
      expect(second!.snapshot.terms.map((term) => term.fieldMap[note])).toEqual([['checked'], ['checked']]);
    }
  }, 60_000);
});

describe('the task inbox', () => {
  it('lists the entries assigned to the caller, by dictionary and language, and only theirs', async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Assigning', {
      definition: {
        ...newAndCheck(
          transition('ask', 'Ask the reviewer', ['new'], 'check', ['USER'], {
            actions: [{ type: 'ASSIGN', userId: w.reviewer.id }],
          }),
          transition('pass', 'Pass', ['check'], 'done', ['USER']),
        ),
        states: [...newAndCheck().states, state('done', 'Done', 'APPROVED')],
      },
    });
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

    // Passed (an APPROVED state): still assigned, listed by default, but no longer an open task.
    const passed = await fire(w.reviewer.rest, {
      conceptId: concept.id,
      languageCode: 'deu',
      transition: 'pass',
      version: 1,
    });
    expect(passed.status, passed.text).toBe(200);
    const open = await w.reviewer.rest.get<{ languageCode: string }[]>('/workflows/inbox?open=true');
    expect(open.status, open.text).toBe(200);
    expect(open.body.map((item) => item.languageCode)).toEqual(['eng']);
    const all = await w.reviewer.rest.get<{ languageCode: string }[]>('/workflows/inbox?open=false');
    expect(all.body.map((item) => item.languageCode).sort()).toEqual(['deu', 'eng']);
  });
});
