/**
 * Projects over REST (docs/projects.md): a coordinator runs a project from a TBX file of candidate terms
 * to approved, translated entries, with assignments, progress, statistics, export and overdue e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOverdueAssignments } from '../../src/modules/project/project-sweep.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { expectError, loggedInUser, rows } from '../helpers/structure.js';
import { enableWorkflow, workflowWorld } from '../workflow/workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const tbx = (entries: string) => `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>candidates</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>${entries}</body></text>
</tbx>`;
const entry = (en: string, de?: string) => `<conceptEntry>
  <langSec xml:lang="en"><descrip type="definition">About ${en}</descrip><termSec><term>${en}</term></termSec></langSec>
  ${de ? `<langSec xml:lang="de"><termSec><term>${de}</term></termSec></langSec>` : ''}
</conceptEntry>`;

interface Assignment {
  id: number;
  version: number;
  status: string;
  progress: { total: number; done: number; byCategory: Record<string, number> };
  result: { dictionaries: { result?: { moved: number } }[] } | null;
  overdue: boolean;
}

describe('projects', () => {
  it('runs from candidate terms to approved, translated entries', async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Default');
    const coordinator = await loggedInUser(t, w.tenant);
    const translator = await loggedInUser(t, w.tenant);
    const existing = await w.concept();

    // Only administrators of the dictionary create projects; the coordinator then manages it.
    expectError(
      await coordinator.rest.post('/projects', { name: 'X', dictionaryIds: [w.dictionary.id] }),
      403,
    );
    const created = await w.dictAdmin.rest.post<{
      id: number;
      version: number;
      status: string;
      transitions: unknown;
    }>('/projects', {
      name: 'Launch',
      dictionaryIds: [w.dictionary.id],
      languages: ['eng', 'deu'],
      coordinatorIds: [coordinator.id],
      dueAt: Date.now() + 86_400_000,
      transitions: { DRAFTING: 'submit', VALIDATION: 'approve' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe('DRAFT');
    const id = created.body.id;
    const project = `/projects/${id}`;

    // Candidates from a TBX file: each entry one candidate.
    const imported = await coordinator.rest.post<{ added: number; errors: unknown[] }>(
      `${project}/candidates/import`,
      {
        format: 'TBX',
        fileName: 'launch.tbx',
        content: tbx(
          entry('rocket', 'Rakete') +
            entry('booster') +
            entry(existing.terms[0]!.languageCode === 'eng' ? 'x' : 'y'),
        ),
      },
    );
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.added).toBe(3);
    expectError(
      await coordinator.rest.post(`${project}/candidates/import`, { format: 'TBX', content: '<tbx' }),
      400,
    );
    // A reader of the dictionary sees the candidates but may not add any.
    expect((await translator.rest.get(`${project}/candidates`)).status).toBe(200);
    expectError(
      await translator.rest.post(`${project}/candidates`, {
        candidates: [{ terms: [{ languageCode: 'en', term: 'x' }] }],
      }),
      403,
    );
    const candidates = (
      await coordinator.rest.get<{
        content: { id: number; terms: { languageCode: string; term: string }[]; definition: string }[];
      }>(`${project}/candidates`)
    ).body.content;
    expect(candidates[0]!.terms).toEqual([
      { languageCode: 'eng', term: 'rocket' },
      { languageCode: 'deu', term: 'Rakete' },
    ]);
    expect(candidates[0]!.definition).toBe('About rocket');

    // Promote, merge (with a duplicate look-up), reject; decisions are once, with who and when. Making
    // a concept needs CONCEPT_CREATE as any creation does: the coordinator lacks it, and nothing changes.
    expectError(await coordinator.rest.post(`/project-candidates/${candidates[0]!.id}/promote`, {}), 403);
    const promoted = await w.dictAdmin.rest.post<{
      status: string;
      conceptId: number;
      decided: { id: number };
    }>(`/project-candidates/${candidates[0]!.id}/promote`, { comment: 'new' });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body).toMatchObject({ status: 'PROMOTED', decided: { id: w.dictAdmin.id } });
    expectError(await coordinator.rest.post(`/project-candidates/${candidates[0]!.id}/reject`, {}), 409);
    const existingName = (
      await w.dictAdmin.rest.get<{ terms: { name: string }[] }>(`/concepts/${existing.id}`)
    ).body.terms[0]!.name;
    await rows(t, `update project_candidates set terms = ?::jsonb where id = ?`, [
      JSON.stringify([
        { languageCode: 'eng', term: existingName },
        { languageCode: 'deu', term: 'Neu' },
      ]),
      candidates[2]!.id,
    ]);
    const duplicates = await w.dictAdmin.rest.get<{ conceptId: number }[]>(
      `/project-candidates/${candidates[2]!.id}/duplicates`,
    );
    expect(duplicates.status, duplicates.text).toBe(200);
    expect(duplicates.body.map((d) => d.conceptId)).toEqual([existing.id]);
    const comment = await coordinator.rest.post<{ comments: { text: string }[] }>(
      `/project-candidates/${candidates[2]!.id}/comments`,
      { text: 'same as the existing one' },
    );
    expect(comment.body.comments.map((c) => c.text)).toEqual(['same as the existing one']);
    const merged = await w.dictAdmin.rest.post<{ status: string; conceptId: number }>(
      `/project-candidates/${candidates[2]!.id}/merge`,
      { conceptId: existing.id },
    );
    expect(merged.status, merged.text).toBe(200);
    const mergedTerms = (
      await w.dictAdmin.rest.get<{ terms: { name: string }[] }>(`/concepts/${existing.id}`)
    ).body.terms;
    expect(mergedTerms.map((term) => term.name)).toContain('Neu');
    const rejected = await coordinator.rest.post<{ status: string }>(
      `/project-candidates/${candidates[1]!.id}/reject`,
      {
        comment: 'too generic',
      },
    );
    expect(rejected.body.status).toBe('REJECTED');

    // Entries by ids; the concept shows its projects.
    const other = await w.concept();
    const added = await coordinator.rest.post<{ added: number; skipped: number }>(`${project}/entries`, {
      conceptIds: [other.id, existing.id, 999_999],
    });
    expect(added.body).toEqual({ added: 1, removed: 0, skipped: 2 });
    const entries = await coordinator.rest.get<{
      totalElements: number;
      content: { states: { state: string }[] }[];
    }>(`${project}/entries`);
    expect(entries.body.totalElements).toBe(3);
    expect(entries.body.content[0]!.states.map((s) => s.state)).toEqual(['suggested', 'suggested']);
    const conceptProjects = await w.admin.get<{ id: number }[]>(`/concepts/${other.id}/projects`);
    expect(conceptProjects.body.map((p) => p.id)).toEqual([id]);

    // Assignments: the first one starts the project; progress from workflow states.
    const drafting = await coordinator.rest.post<Assignment>(`${project}/assignments`, {
      type: 'DRAFTING',
      assigneeUserId: translator.id,
      dueAt: Date.now() - 1000,
    });
    expect(drafting.status, drafting.text).toBe(201);
    expect(drafting.body.progress).toMatchObject({ total: 6, done: 0 });
    expect(drafting.body.overdue).toBe(true);
    expect((await coordinator.rest.get<{ status: string }>(project)).body.status).toBe('ONGOING');
    const translation = await coordinator.rest.post<Assignment>(`${project}/assignments`, {
      type: 'TRANSLATION',
      languageCode: 'deu',
      assigneeGroupId: w.reviewers.id,
    });
    expect(translation.body.progress).toEqual({ total: 3, done: 3, byCategory: { DRAFT: 3 } });
    const mine = await translator.rest.get<Assignment[]>('/assignments?assignee=me');
    expect(mine.body.map((a) => a.id)).toEqual([drafting.body.id]);
    expect((await w.reviewer.rest.get<Assignment[]>('/assignments')).body.map((a) => a.id)).toEqual([
      translation.body.id,
    ]);
    const next = await translator.rest.get<{ conceptId: number; done: boolean }[]>(
      `/assignments/${drafting.body.id}/entries?done=false&size=1`,
    );
    expect(next.body).toHaveLength(1);

    // The translator completes the drafting: "submit" fires on every entry (any named user may).
    const completed = await translator.rest.post<Assignment>(`/assignments/${drafting.body.id}/complete`, {
      version: drafting.body.version,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.status).toBe('DONE');
    expect(completed.body.result?.dictionaries[0]?.result?.moved).toBe(6);
    expect(completed.body.progress.done).toBe(6);

    // Validation by someone the transition does not name: 403, nothing moves, still open.
    const validation = await coordinator.rest.post<Assignment>(`${project}/assignments`, {
      type: 'VALIDATION',
      assigneeUserId: translator.id,
    });
    expectError(
      await translator.rest.post(`/assignments/${validation.body.id}/complete`, {
        version: validation.body.version,
      }),
      403,
    );
    expect(
      (await coordinator.rest.get<Assignment>(`/assignments/${validation.body.id}`)).body.progress.done,
    ).toBe(0);
    const reassigned = await coordinator.rest.put<Assignment>(`/assignments/${validation.body.id}`, {
      version: validation.body.version,
      assigneeUserId: w.dictAdmin.id,
    });
    expect(reassigned.status, reassigned.text).toBe(200);
    const approved = await w.dictAdmin.rest.post<Assignment>(`/assignments/${validation.body.id}/complete`, {
      version: reassigned.body.version,
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.progress).toEqual({ total: 6, done: 6, byCategory: { APPROVED: 6 } });

    const progress = await coordinator.rest.get<{
      entries: number;
      candidates: Record<string, number>;
      languages: unknown[];
    }>(`${project}/progress`);
    expect(progress.body).toMatchObject({
      entries: 3,
      candidates: { OPEN: 0, MERGED: 1, PROMOTED: 1, REJECTED: 1 },
      languages: [
        { languageCode: 'deu', total: 3, approved: 3, withTerms: 3 },
        { languageCode: 'eng', total: 3, approved: 3, withTerms: 3 },
      ],
    });
    const statistics = await coordinator.rest.get<{
      byAssignee: unknown[];
      burndown: { total: number; remaining: number }[];
    }>(`${project}/statistics`);
    expect(statistics.body.burndown).toEqual([{ day: expect.any(String), total: 6, remaining: 0 }]);
    expect(statistics.body.byAssignee).toContainEqual({
      userId: translator.id,
      groupId: null,
      assignments: 1,
      total: 6,
      done: 6,
    });

    // Export: the dictionary's TBX export restricted to the project's concepts.
    await w.concept();
    const exported = await coordinator.rest.get<string>(
      `/dictionaries/export-tbx/${w.dictionary.id}?project-id=${id}`,
    );
    expect(exported.status, exported.text).toBe(200);
    expect(exported.text.match(/<conceptEntry/g)).toHaveLength(3);

    // Status moves: allowed ones only.
    const current = (await coordinator.rest.get<{ version: number }>(project)).body;
    expectError(
      await coordinator.rest.post(`${project}/status`, { status: 'DRAFT', version: current.version }),
      409,
    );
    const done = await coordinator.rest.post<{ status: string }>(`${project}/status`, {
      status: 'DONE',
      version: current.version,
    });
    expect(done.body.status).toBe('DONE');
  });

  it('lists with filters and sorting, and announces overdue assignments once', async () => {
    const w = await workflowWorld(t, sysadmin);
    const make = async (name: string, dueAt: number | null) =>
      (
        await w.dictAdmin.rest.post<{ id: number }>('/projects', {
          name,
          dictionaryIds: [w.dictionary.id],
          dueAt,
        })
      ).body.id;
    const late = await make('B late', Date.now() - 60_000);
    const later = await make('A later', Date.now() + 60_000_000);
    const list = async (q: string) => {
      const response = await w.dictAdmin.rest.get<{ content: { id: number }[] }>(`/projects?${q}`);
      expect(response.status, response.text).toBe(200);
      return response.body.content.map((p) => p.id);
    };
    expect(await list(`dictionary-id=${w.dictionary.id}`)).toEqual([later, late]);
    expect(await list(`dictionary-id=${w.dictionary.id}&sort=dueAt,ASC`)).toEqual([late, later]);
    expect(await list(`dictionary-id=${w.dictionary.id}&overdue=true`)).toEqual([late]);
    expect(await list(`dictionary-id=${w.dictionary.id}&status=ONGOING`)).toEqual([]);
    expectError(await w.dictAdmin.rest.get('/projects?sort=nope'), 400);

    const email = `author-${w.author.id}@example.org`;
    await rows(t, 'update users set email = ? where id = ?', [email, w.author.id]);
    const concept = await w.concept();
    await w.dictAdmin.rest.post(`/projects/${late}/entries`, { conceptIds: [concept.id] });
    const assignment = await w.dictAdmin.rest.post<Assignment>(`/projects/${late}/assignments`, {
      type: 'REVISION',
      languageCode: 'eng',
      assigneeUserId: w.author.id,
      dueAt: Date.now() - 1000,
    });
    expect(assignment.status, assignment.text).toBe(201);
    await queueOverdueAssignments(t.orm.em.fork());
    await queueOverdueAssignments(t.orm.em.fork());
    const queued = await rows<{ subject: string; body: string }>(
      t,
      'select subject, body from workflow_notifications where user_id = ?',
      [w.author.id],
    );
    expect(queued).toHaveLength(1);
    expect(queued[0]!.subject).toBe('Assignment overdue: B late');
  });

  it('adds entries by a filter and by a saved query, and candidates from a spreadsheet', async () => {
    const w = await workflowWorld(t, sysadmin);
    const [first, second] = [await w.concept(), await w.concept()];
    const { id } = (
      await w.dictAdmin.rest.post<{ id: number }>('/projects', {
        name: 'Sheets',
        dictionaryIds: [w.dictionary.id],
      })
    ).body;
    const filter = await w.dictAdmin.rest.post<{ id: number }>('/filters', {
      name: 'All',
      dictionaryId: w.dictionary.id,
    });
    expect(filter.status, filter.text).toBe(201);
    const byFilter = await w.dictAdmin.rest.post(`/projects/${id}/entries`, { filterId: filter.body.id });
    expect(byFilter.body).toEqual({ added: 2, removed: 0, skipped: 0 });
    const removed = await w.dictAdmin.rest.post(`/projects/${id}/entries/remove`, {
      conceptIds: [first.id, second.id],
    });
    expect(removed.body).toEqual({ added: 0, removed: 2, skipped: 0 });
    const name = (await w.dictAdmin.rest.get<{ terms: { name: string }[] }>(`/concepts/${second.id}`)).body
      .terms[0]!.name;
    const saved = await w.dictAdmin.rest.put<{ id: number }>('/saved-queries', {
      name: 'Mine',
      query: `q=${encodeURIComponent(name)}&d=${w.dictionary.id}&lang=eng`,
    });
    expect(saved.status, saved.text).toBe(200);
    const bySaved = await w.dictAdmin.rest.post(`/projects/${id}/entries`, { savedQueryId: saved.body.id });
    expect(bySaved.body).toEqual({ added: 1, removed: 0, skipped: 0 });
    expectError(
      await w.dictAdmin.rest.post(`/projects/${id}/entries`, { conceptIds: [1], filterId: 1 }),
      400,
    );

    const csv = await w.dictAdmin.rest.post<{ added: number }>(`/projects/${id}/candidates/import`, {
      format: 'CSV',
      content: 'English,German\nrocket,Rakete\nbooster,\n',
    });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body.added).toBe(2);
    const listed = await w.dictAdmin.rest.get<{ content: { terms: unknown[]; source: string }[] }>(
      `/projects/${id}/candidates`,
    );
    expect(listed.body.content.map((c) => c.terms)).toEqual([
      [
        { languageCode: 'eng', term: 'rocket' },
        { languageCode: 'deu', term: 'Rakete' },
      ],
      [{ languageCode: 'eng', term: 'booster' }],
    ]);
  });
});
