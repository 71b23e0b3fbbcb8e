/**
 * Each change of issue 42's list leaves exactly its events in the log (docs/events.md, Event types):
 * comments, structure, dictionaries, workflow moves and votes, projects with entries, assignments and
 * candidates, feedback, imports and exports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventRecord, lastSequence, readEvents } from '../../src/modules/events/event-log.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDomain, createSection } from '../helpers/structure.js';
import {
  enableWorkflow,
  fire,
  importTbxInto,
  state,
  transition,
  workflowWorld,
} from '../workflow/workflow-helpers.js';

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

/** The events `action` leaves in the client's log. */
async function eventsOf(clientId: number, action: () => Promise<unknown>): Promise<EventRecord[]> {
  const before = await lastSequence(t.orm.em.fork(), clientId);
  await action();
  const events = await readEvents(t.orm.em.fork(), clientId, before, 10_000);
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => before + i + 1));
  return events;
}

const ok = async <T>(answer: Promise<{ status: number; text: string; body: T }>) => {
  const response = await answer;
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
};

describe('one event per change', () => {
  it('comments, sections, domains and the dictionary', async () => {
    const w = await workflowWorld(t, sysadmin);
    const clientId = w.tenant.id;
    const concept = await w.concept();
    let comment: { id: number } | undefined;
    const commented = await eventsOf(clientId, async () => {
      comment = await ok(
        w.author.rest.post<{ id: number }>(`/comments?entry-id=${concept.id}`, { text: 'Hm' }),
      );
    });
    expect(commented).toEqual([
      expect.objectContaining({
        type: 'comment.created',
        conceptId: concept.id,
        dictionaryId: w.dictionary.id,
        actorId: w.author.id,
        data: { commentId: comment!.id, fieldLevel: 'CONCEPT', entryId: concept.id },
      }),
    ]);
    const removed = await eventsOf(clientId, () => ok(w.admin.delete(`/comments/${comment!.id}`)));
    expect(removed.map((e) => e.type)).toEqual(['comment.deleted']);

    let sectionId = 0;
    const structure = await eventsOf(clientId, async () => {
      sectionId = (await createSection(w.admin, w.dictionary.id)).id;
      await createDomain(w.admin, w.dictionary.id, 'Events');
      await ok(w.admin.delete(`/sections/${sectionId}`));
    });
    expect(structure.map((e) => [e.type, e.data])).toEqual([
      ['dictionary.structure.changed', { subject: 'section', action: 'created', id: sectionId }],
      ['dictionary.structure.changed', { subject: 'domain', action: 'created', id: expect.any(Number) }],
      ['dictionary.structure.changed', { subject: 'section', action: 'deleted', id: sectionId }],
    ]);

    const created = await eventsOf(clientId, () =>
      ok(w.admin.post('/dictionaries', { name: `New ${clientId}` })),
    );
    expect(created.map((e) => e.type)).toEqual(['dictionary.created']);
  });

  it('workflow votes and moves', async () => {
    const w = await workflowWorld(t, sysadmin);
    await enableWorkflow(w, 'Votes', {
      unit: 'CONCEPT',
      definition: {
        states: [state('open', 'Open', 'REVIEW'), state('yes', 'Accepted', 'APPROVED')],
        transitions: [
          transition('accept', 'Accept', ['open'], 'yes', ['USER'], {
            votes: { mode: 'MINIMUM_VOTES', count: 2 },
          }),
        ],
        initialState: 'open',
      },
    });
    const concept = await w.concept();
    const vote = await eventsOf(w.tenant.id, () =>
      ok(fire(w.author.rest, { conceptId: concept.id, transition: 'accept', version: 0 })),
    );
    expect(vote).toEqual([
      expect.objectContaining({
        type: 'workflow.voted',
        conceptId: concept.id,
        actorId: w.author.id,
        data: { transition: 'accept', state: 'open' },
      }),
    ]);
    const moved = await eventsOf(w.tenant.id, () =>
      ok(fire(w.reviewer.rest, { conceptId: concept.id, transition: 'accept', version: 0 })),
    );
    expect(moved.map((e) => e.type)).toEqual(['workflow.voted', 'workflow.transitioned']);
    expect(moved[1]!.data).toMatchObject({ fromState: 'open', toState: 'yes', transition: 'accept' });
    // The move's comment stays in the history; the event names states only.
    expect(moved[1]!.data).not.toHaveProperty('comment');
  });

  it('projects, their entries, assignments and candidates', async () => {
    const w = await workflowWorld(t, sysadmin);
    const concept = await w.concept();
    let projectId = 0;
    const events = await eventsOf(w.tenant.id, async () => {
      projectId = (
        await ok(
          w.dictAdmin.rest.post<{ id: number }>('/projects', { name: 'P', dictionaryIds: [w.dictionary.id] }),
        )
      ).id;
      await ok(w.dictAdmin.rest.post(`/projects/${projectId}/entries`, { conceptIds: [concept.id] }));
      await ok(
        w.dictAdmin.rest.post(`/projects/${projectId}/assignments`, {
          type: 'REVISION',
          languageCode: 'eng',
          assigneeUserId: w.author.id,
        }),
      );
      await ok(
        w.dictAdmin.rest.post(`/projects/${projectId}/candidates`, {
          candidates: [{ terms: [{ languageCode: 'en', term: 'candidate' }] }],
        }),
      );
    });
    expect(events.map((e) => e.type)).toEqual([
      'project.created',
      'project.entries.changed',
      'assignment.created',
      'candidate.added',
    ]);
    expect(events.every((e) => (e.data as { projectId: number }).projectId === projectId)).toBe(true);
    expect(events[0]!.data).toMatchObject({ dictionaryIds: [w.dictionary.id] });
  });

  it('feedback sent and answered', async () => {
    const w = await workflowWorld(t, sysadmin);
    let id = 0;
    const events = await eventsOf(w.tenant.id, async () => {
      id = (
        await ok(
          w.author.rest.post<{ id: number }>('/feedback', { dictionaryId: w.dictionary.id, text: 'Typo' }),
        )
      ).id;
      await ok(w.dictAdmin.rest.post(`/feedback/${id}/answers`, { text: 'Thanks' }));
    });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['feedback.created', { feedbackId: id, target: 'DICTIONARY', status: 'OPEN' }],
      ['feedback.answered', { feedbackId: id, target: 'DICTIONARY', status: 'ANSWERED' }],
    ]);
  });

  it('an import: one concept.created per concept, then import.finished; an export: export.finished', async () => {
    const w = await workflowWorld(t, sysadmin);
    const entries = [1, 2, 3]
      .map(
        (n) =>
          `<conceptEntry id="e${n}"><langSec xml:lang="en"><termSec><term>imported ${n}</term></termSec></langSec></conceptEntry>`,
      )
      .join('');
    const tbx = `<?xml version="1.0" encoding="UTF-8"?><tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></tbxHeader><text><body>${entries}</body></text></tbx>`;
    const imported = await eventsOf(w.tenant.id, () =>
      importTbxInto(base, w.admin.token ?? '', w.dictionary.id, tbx),
    );
    expect(imported.map((e) => e.type)).toEqual([
      'concept.created',
      'concept.created',
      'concept.created',
      'import.finished',
    ]);
    expect(imported[3]).toMatchObject({ dictionaryId: w.dictionary.id, data: { concepts: 3 } });

    const exported = await eventsOf(w.tenant.id, async () => {
      const response = await fetch(`${base}/api/v4/dictionaries/export-tbx/${w.dictionary.id}`, {
        headers: { 'x-auth-token': w.admin.token ?? '' },
      });
      expect(response.status).toBe(200);
      await response.text();
      // The job (and its event) is done before the last chunk is handed out.
    });
    expect(exported).toEqual([
      expect.objectContaining({
        type: 'export.finished',
        dictionaryId: w.dictionary.id,
        data: expect.objectContaining({ exportedConcepts: 3 }),
      }),
    ]);
  });
});
