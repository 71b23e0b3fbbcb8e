/**
 * Events of attachments and feedback in the change feed (docs/events.md, issue 42): a file uploaded,
 * put on a concept, replaced and removed shows as the upload's event and as concept changes naming the
 * field; feedback sent, answered and closed shows as feedback events. A reader who does not read the
 * concept's section sees none of them (nor the upload's file name), while still seeing the events of
 * a section they read.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDto, EventPage } from '../../src/modules/events/event.schema.js';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  uniqueSuffix,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t?.close());

/** Every event the caller reads after `after`, page by page. */
async function eventsAfter(caller: RestClient, after: number): Promise<EventDto[]> {
  const events: EventDto[] = [];
  let cursor = after;
  for (let i = 0; i < 50; i++) {
    const response = await caller.get<EventPage>(`/events?after=${cursor}&limit=100`);
    expect(response.status, response.text).toBe(200);
    events.push(...response.body.content);
    cursor = response.body.nextAfter;
    if (response.body.last) return events;
  }
  throw new Error('the feed never ended');
}

const png = (size: number) =>
  sharp({ create: { width: size, height: size, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer();

/**
 * A dictionary everyone reads with an ATTACHMENT concept field, and a section only `insider` reads;
 * the client's administrator edits and answers.
 */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const groups = await systemGroups(admin);
  const insider = await loggedInUser(t, tenant);
  const outsider = await loggedInUser(t, tenant);
  const insiders = await groupWith(admin, [insider.id]);
  const everyone = await createScheme(admin, [grant(groups.ALL_USERS.id, ['DICT_READ'])]);
  const closed = await createScheme(admin, [grant(insiders.id, ['DICT_READ'])]);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    permissionSchemeId: everyone.id,
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
  });
  const section = await admin.post<{ id: number; oid: string }>('/sections', {
    name: `Closed ${uniqueSuffix()}`,
    dictionaryId: dictionary.id,
    permissionSchemeId: closed.id,
  });
  expect(section.status, section.text).toBe(201);
  return {
    admin,
    insider,
    outsider,
    dictionary,
    field: dictionary.conceptFields[0]!.oid!,
    closedSection: section.body,
  };
}

describe('attachment and feedback events', () => {
  it('are in the feed with their fields, and not for a reader of another section', async () => {
    const w = await world();
    const start = (await w.admin.get<EventPage>('/events?after=0&limit=1000')).body.nextAfter;

    const created = await w.admin.post<{ id: number; version: number }>('/concepts', {
      dictionaryId: w.dictionary.id,
      sectionOid: w.closedSection.oid,
      terms: [{ name: 'Blueprint', languageCode: 'eng' }],
    });
    expect(created.status, created.text).toBe(201);
    const conceptId = created.body.id;
    let version = created.body.version;
    const keys: string[] = [];
    for (const [index, name] of ['plan-secret.png', 'plan-secret-2.png'].entries()) {
      const upload = await w.admin.upload<{ key: string }>(`/attachments?dictionary-id=${w.dictionary.id}`, {
        content: await png(10 + index),
        filename: name,
        contentType: 'image/png',
      });
      expect(upload.status, upload.text).toBe(201);
      keys.push(upload.body.key);
    }
    // Added, replaced, removed: three concept changes of the field.
    for (const value of [[keys[0]], [keys[1]], []]) {
      const patched = await w.admin.put<{ version: number }>(`/concepts/${conceptId}/patch`, {
        id: conceptId,
        version,
        fieldMap: { [w.field]: value },
      });
      expect(patched.status, patched.text).toBe(200);
      version = patched.body.version;
    }
    const feedback = await w.insider.rest.post<{ id: number }>('/feedback', {
      conceptId,
      text: 'Is the plan current?',
    });
    expect(feedback.status, feedback.text).toBe(201);
    const answered = await w.admin.post(`/feedback/${feedback.body.id}/answers`, { text: 'Yes' });
    expect(answered.status, answered.text).toBe(200);
    expect((await w.admin.post(`/feedback/${feedback.body.id}/close`)).status).toBe(200);
    // A concept in the section everyone reads: the control that the outsider reads the feed at all.
    const open = await w.admin.post<{ id: number }>('/concepts', {
      dictionaryId: w.dictionary.id,
      sectionOid: w.dictionary.sections[0]!.oid,
      terms: [{ name: 'Open plan', languageCode: 'eng' }],
    });
    expect(open.status, open.text).toBe(201);

    const seen = await eventsAfter(w.admin, start);
    expect(seen.map((event) => event.type)).toEqual([
      'concept.created',
      'attachment.added',
      'attachment.added',
      'concept.updated',
      'concept.updated',
      'concept.updated',
      'feedback.created',
      'feedback.answered',
      'feedback.updated',
      'concept.created',
    ]);
    const uploads = seen.filter((event) => event.type === 'attachment.added');
    expect(uploads.map((event) => event.data)).toEqual([
      expect.objectContaining({ key: keys[0], fileName: 'plan-secret.png', contentType: 'image/png' }),
      expect.objectContaining({ key: keys[1], fileName: 'plan-secret-2.png', contentType: 'image/png' }),
    ]);
    expect(uploads.every((event) => event.dictionaryId === w.dictionary.id)).toBe(true);
    const changes = seen.filter((event) => event.type === 'concept.updated');
    for (const change of changes) {
      expect(change).toMatchObject({
        conceptId,
        sectionId: w.closedSection.id,
        dictionaryId: w.dictionary.id,
      });
      expect(change.data.changes).toEqual([expect.objectContaining({ subject: 'FIELD', fieldOid: w.field })]);
      // No values in the log: the keys are read through the API, under the reader's permissions.
      expect(JSON.stringify(change.data)).not.toContain(keys[0]!);
    }
    const feedbackEvents = seen.filter((event) => event.type.startsWith('feedback.'));
    expect(feedbackEvents.map((event) => [event.data.status, event.data.feedbackId])).toEqual([
      ['OPEN', feedback.body.id],
      ['ANSWERED', feedback.body.id],
      ['CLOSED', feedback.body.id],
    ]);
    for (const event of feedbackEvents) {
      expect(event).toMatchObject({ conceptId, sectionId: w.closedSection.id, termId: null });
      expect(event.data.target).toBe('CONCEPT');
    }
    expect(feedbackEvents[0]!.actorId).toBe(w.insider.id);

    // The insider reads the section, manages no feedback, and uploaded nothing: the concept changes.
    const insiderSees = await eventsAfter(w.insider.rest, start);
    expect(insiderSees.map((event) => event.type)).toEqual([
      'concept.created',
      'concept.updated',
      'concept.updated',
      'concept.updated',
      'concept.created',
    ]);
    // The outsider reads the dictionary, not the closed section: only the open concept.
    const outsiderSees = await eventsAfter(w.outsider.rest, start);
    expect(outsiderSees.map((event) => [event.type, event.conceptId])).toEqual([
      ['concept.created', open.body.id],
    ]);
    expect(JSON.stringify(outsiderSees)).not.toContain('plan-secret');
  });
});
