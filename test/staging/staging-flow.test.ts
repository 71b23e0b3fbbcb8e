/**
 * Staging areas (docs/staging.md) over REST: a TBX file imported into an area changes nothing in the
 * dictionary; reviewers see each entry beside the concept the merge finds, accept some, edit one,
 * reject one, accept the rest in bulk, and the dictionary then holds exactly the accepted content,
 * merged as the import merges, with history and every decision recorded. Under a workflow, accepting
 * starts the entry in the chosen state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, loggedInUser, newTenant, rows } from '../helpers/structure.js';
import { enableWorkflow } from '../workflow/workflow-helpers.js';
import {
  byLabel,
  createArea,
  type DetailBody,
  type EntryBody,
  entries,
  importIntoArea,
  type PageBody,
  patch,
  tbx,
} from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
  const sectionOid = dictionary.sections[0]!.oid!;
  const existing = await admin.post<{ id: number; version: number }>('/concepts', {
    dictionaryId: dictionary.id,
    sectionOid,
    terms: [{ name: 'disk', languageCode: 'eng' }],
  });
  expect(existing.status, existing.text).toBe(201);
  const reviewer = await loggedInUser(t, tenant, { roles: [dictionaryAdminRole(dictionary)] });
  return { admin, tenant, dictionary, sectionOid, existingId: existing.body.id, reviewer };
}

const termsOf = (dictionaryId: number) =>
  rows<{ concept_id: number; name: string; language_code: string }>(
    t,
    `select t.concept_id, t.name, t.language_code from terms t join concepts c on c.id = t.concept_id
      where t.dictionary_id = ? and not t.deleted and not c.deleted order by t.name`,
    [dictionaryId],
  );

describe('review of a TBX import', () => {
  it('stages the file, shows diffs, and writes exactly what was accepted', async () => {
    const w = await world();
    const area = await createArea(w.reviewer.rest, w.dictionary.id, { name: 'Vendor delivery' });
    expect(area).toMatchObject({ name: 'Vendor delivery', counts: { pending: 0 }, mayReview: true });

    const file = tbx([
      [
        'e1',
        [
          ['en', 'disk'],
          ['de', 'Platte'],
        ],
        'A storage medium',
      ],
      ['e2', [['en', 'printer']]],
      ['e3', [['en', 'mouse']]],
      [
        'e4',
        [
          ['en', 'keyboard'],
          ['de', 'Tastatur'],
        ],
      ],
    ]);
    const { response, job } = await importIntoArea(w.reviewer.rest, area.id, file, { merge: 'TERM' });
    expect([200, 202], response.text).toContain(response.status);
    const summary = (job?.result ?? response.body.result) as { concepts: number; updated: number };
    expect(summary).toMatchObject({ concepts: 4, updated: 1 });
    // Nothing written: the dictionary still has its one term, no new field or language.
    expect((await termsOf(w.dictionary.id)).map((r) => r.name)).toEqual(['disk']);

    const staged = await entries(w.reviewer.rest, area.id);
    expect(staged).toHaveLength(4);
    expect(staged.every((e) => e.status === 'PENDING' && e.source === 'IMPORT' && e.format === 'TBX')).toBe(
      true,
    );
    const disk = byLabel(staged, 'disk');
    expect(disk.targetConceptId).toBe(w.existingId);
    expect(byLabel(staged, 'printer').targetConceptId).toBeNull();
    // Filters: target, text, language.
    expect((await entries(w.reviewer.rest, area.id, '&target=EXISTING')).map((e) => e.id)).toEqual([disk.id]);
    expect((await entries(w.reviewer.rest, area.id, '&text=TASTA')).map((e) => e.label)).toEqual([
      byLabel(staged, 'keyboard').label,
    ]);
    expect(await entries(w.reviewer.rest, area.id, '&language=deu')).toHaveLength(2);

    // The field-level difference against the concept the merge finds.
    const detail = await w.reviewer.rest.get<DetailBody>(`/staged-entries/${disk.id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.target).toMatchObject({
      id: w.existingId,
      terms: [{ name: 'disk', languageCode: 'eng' }],
    });
    const changes = detail.body.diff.changes;
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: 'ADDED', subject: 'TERM', term: 'Platte' }),
    );
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: 'ADDED', subject: 'FIELD', after: ['A storage medium'] }),
    );
    expect(changes.some((c) => c.subject === 'TERM' && c.term === 'disk')).toBe(false);

    // Accept one: merged into the existing concept, with a history item.
    const accepted = await w.reviewer.rest.post<{
      entry: EntryBody;
      result: { accepted: number; conceptIds: number[] };
    }>(`/staged-entries/${disk.id}/accept`, {});
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.result).toMatchObject({ accepted: 1, conceptIds: [w.existingId] });
    expect(accepted.body.entry).toMatchObject({
      status: 'ACCEPTED',
      decision: { decision: 'ACCEPTED', conceptId: w.existingId },
    });
    const again = await w.reviewer.rest.post(`/staged-entries/${disk.id}/accept`, {});
    expect(again.status, again.text).toBe(409);
    const history = await rows<{ n: number }>(
      t,
      `select count(*)::int as n from concept_history where concept_id = ? and action = 'UPDATE'`,
      [w.existingId],
    );
    expect(history[0]!.n).toBe(1);

    // Edit one: the printer becomes a laser printer; a stale version is 409.
    const printer = byLabel(staged, 'printer');
    const stale = await patch(w.reviewer.rest, `/staged-entries/${printer.id}`, {
      version: printer.version + 5,
    });
    expect(stale.status).toBe(409);
    const edited = await patch<EntryBody>(w.reviewer.rest, `/staged-entries/${printer.id}`, {
      version: printer.version,
      entry: {
        ...printer.entry,
        languages: [{ lang: 'en', values: [], terms: [{ id: null, term: 'laser printer', values: [] }] }],
      },
      comment: 'More precise',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      label: 'eng: laser printer',
      comment: 'More precise',
      status: 'PENDING',
    });

    // Reject one, with a reason; twice is 409.
    const mouse = byLabel(staged, 'mouse');
    const rejected = await w.reviewer.rest.post<EntryBody>(`/staged-entries/${mouse.id}/reject`, {
      reason: 'Out of scope',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.decision).toMatchObject({ decision: 'REJECTED', reason: 'Out of scope' });
    expect((await w.reviewer.rest.post(`/staged-entries/${mouse.id}/reject`, {})).status).toBe(409);

    // Bulk accept what is still pending (the already decided entries named too: skipped).
    const bulk = await w.reviewer.rest.post<{ accepted: number; skipped: number; conceptIds: number[] }>(
      `/staging-areas/${area.id}/entries/accept`,
      { ids: staged.map((e) => e.id) },
    );
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body).toMatchObject({ accepted: 2, skipped: 2 });

    const terms = await termsOf(w.dictionary.id);
    expect(terms.map((r) => r.name).sort()).toEqual([
      'Platte',
      'Tastatur',
      'disk',
      'keyboard',
      'laser printer',
    ]);
    expect(new Set(terms.map((r) => r.concept_id)).size).toBe(3);
    expect(terms.find((r) => r.name === 'Platte')!.concept_id).toBe(w.existingId);

    const counts = await w.reviewer.rest.get<{ counts: Record<string, number> }>(`/staging-areas/${area.id}`);
    expect(counts.body.counts).toEqual({ pending: 0, accepted: 3, rejected: 1 });
    const decisions = await w.reviewer.rest.get<PageBody<{ decision: string; stagedEntryId: number }>>(
      `/staging-areas/${area.id}/decisions`,
    );
    expect(decisions.body.content.map((d) => d.decision).sort()).toEqual([
      'ACCEPTED',
      'ACCEPTED',
      'ACCEPTED',
      'EDITED',
      'REJECTED',
    ]);
  });

  it('bulk rejects by filter and answers 400 for neither ids nor filter', async () => {
    const w = await world();
    const area = await createArea(w.admin, w.dictionary.id);
    await importIntoArea(
      w.admin,
      area.id,
      tbx([
        ['a', [['en', 'alpha']]],
        ['b', [['en', 'beta']]],
      ]),
    );
    const neither = await w.admin.post(`/staging-areas/${area.id}/entries/reject`, {});
    expect(neither.status).toBe(400);
    const done = await w.admin.post<{ rejected: number }>(`/staging-areas/${area.id}/entries/reject`, {
      filter: { text: 'alp' },
      reason: 'duplicate',
    });
    expect(done.body).toEqual({ rejected: 1, skipped: 0 });
    expect((await entries(w.admin, area.id, '&status=PENDING')).map((e) => e.label)).toEqual(['eng: beta']);
  });
});

describe('decisions race', () => {
  it('two accepts and a reject of one entry at once: one decision wins, the others get 409', async () => {
    const w = await world();
    const area = await createArea(w.admin, w.dictionary.id);
    const made = await w.admin.post<EntryBody>(`/staging-areas/${area.id}/entries`, {
      entry: { languages: [{ lang: 'eng', terms: [{ term: 'race' }] }] },
    });
    const answers = await Promise.all([
      w.admin.post(`/staged-entries/${made.body.id}/accept`, {}),
      w.reviewer.rest.post(`/staged-entries/${made.body.id}/accept`, {}),
      w.reviewer.rest.post(`/staged-entries/${made.body.id}/reject`, {}),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    // Whichever decision won, the dictionary agrees with it.
    const acceptedWon = answers[2]!.status === 409;
    expect((await termsOf(w.dictionary.id)).filter((r) => r.name === 'race')).toHaveLength(
      acceptedWon ? 1 : 0,
    );
    const decided = await rows<{ n: number }>(
      t,
      'select count(*)::int as n from staging_decisions where staged_entry_id = ?',
      [made.body.id],
    );
    expect(decided[0]!.n).toBe(1);
  });
});

describe('suggestions and workflow', () => {
  it('a suggestion for an existing concept merges into it, in the workflow state chosen', async () => {
    const w = await world();
    await enableWorkflow({ dictAdmin: w.reviewer, dictionary: w.dictionary }, 'Review', {
      unit: 'CONCEPT',
      definition: {
        states: [
          { key: 'draft', name: 'Draft', category: 'DRAFT' },
          { key: 'ok', name: 'Approved', category: 'APPROVED' },
        ],
        transitions: [
          { key: 'approve', name: 'Approve', from: ['draft'], to: 'ok', roles: ['DICTIONARY_ADMIN'] },
        ],
        initialState: 'draft',
      },
    });
    const area = await createArea(w.reviewer.rest, w.dictionary.id);
    const suggested = await w.reviewer.rest.post<EntryBody>(`/staging-areas/${area.id}/entries`, {
      conceptId: w.existingId,
      entry: { languages: [{ lang: 'deu', terms: [{ term: 'Scheibe' }] }] },
      comment: 'German is missing',
    });
    expect(suggested.status, suggested.text).toBe(201);
    expect(suggested.body).toMatchObject({
      source: 'SUGGESTION',
      targetConceptId: w.existingId,
      merge: 'ENTRY_ID',
    });
    const unknown = await w.reviewer.rest.post(`/staged-entries/${suggested.body.id}/accept`, {
      workflowState: 'nope',
    });
    expect(unknown.status, unknown.text).toBe(400);
    const accepted = await w.reviewer.rest.post<{ result: { accepted: number } }>(
      `/staged-entries/${suggested.body.id}/accept`,
      { workflowState: 'ok' },
    );
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.result.accepted).toBe(1);
    const states = await rows<{ state: string }>(
      t,
      'select state from workflow_entry_states where concept_id = ?',
      [w.existingId],
    );
    expect(states.map((s) => s.state)).toEqual(['ok']);
    expect((await termsOf(w.dictionary.id)).map((r) => r.name).sort()).toEqual(['Scheibe', 'disk']);
    const decision = await rows<{ workflow_state: string }>(
      t,
      `select workflow_state from staging_decisions where staged_entry_id = ? and decision = 'ACCEPTED'`,
      [suggested.body.id],
    );
    expect(decision[0]!.workflow_state).toBe('ok');
  });

  it('one bulk accept takes entries of different merge modes (a suggestion on a concept and a new entry)', async () => {
    const w = await world();
    const area = await createArea(w.admin, w.dictionary.id);
    const change = await w.admin.post<EntryBody>(`/staging-areas/${area.id}/entries`, {
      conceptId: w.existingId,
      entry: { languages: [{ lang: 'deu', terms: [{ term: 'Platte' }] }] },
    });
    const fresh = await w.admin.post<EntryBody>(`/staging-areas/${area.id}/entries`, {
      entry: { languages: [{ lang: 'eng', terms: [{ term: 'floppy' }] }] },
    });
    expect([change.body.merge, fresh.body.merge]).toEqual(['ENTRY_ID', 'TERM']);
    const done = await w.admin.post<{ accepted: number }>(`/staging-areas/${area.id}/entries/accept`, {
      filter: {},
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.accepted).toBe(2);
    expect((await termsOf(w.dictionary.id)).map((r) => r.name).sort()).toEqual(['Platte', 'disk', 'floppy']);
  });

  it('without a workflow a workflowState is 400 and a suggestion without terms is 400', async () => {
    const w = await world();
    const area = await createArea(w.admin, w.dictionary.id);
    const empty = await w.admin.post(`/staging-areas/${area.id}/entries`, { entry: { languages: [] } });
    expect(empty.status, empty.text).toBe(400);
    const made = await w.admin.post<EntryBody>(`/staging-areas/${area.id}/entries`, {
      entry: { languages: [{ lang: 'eng', terms: [{ term: 'tablet' }] }] },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.targetConceptId).toBeNull();
    const refused = await w.admin.post(`/staged-entries/${made.body.id}/accept`, { workflowState: 'ok' });
    expect(refused.status, refused.text).toBe(400);
    expect((await w.admin.get<EntryBody>(`/staged-entries/${made.body.id}`)).body.status).toBe('PENDING');
  });
});
