/**
 * The change feed (docs/events.md): GET /api/v4/events pages in order after a sequence with filters;
 * GET /api/v4/events/stream delivers live and resumes with Last-Event-ID; the GraphQL and tRPC
 * subscriptions receive events; readers see only their client's events of what they may read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDto, EventPage } from '../../src/modules/events/event.schema.js';
import {
  type Api,
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import { createScheme, rows } from '../helpers/structure.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function page(caller: Api, query: string): Promise<EventPage> {
  const response = await caller.get<EventPage>(`/events?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Every event the caller reads after `after`, page by page. */
async function allEvents(caller: Api, after: number, extra = '', limit = 3): Promise<EventDto[]> {
  const events: EventDto[] = [];
  let cursor = after;
  for (let i = 0; i < 100; i++) {
    const body = await page(caller, `after=${cursor}&limit=${limit}${extra}`);
    events.push(...body.content);
    expect(body.nextAfter).toBeGreaterThanOrEqual(cursor);
    cursor = body.nextAfter;
    if (body.last) return events;
  }
  throw new Error('the feed never ended');
}

const lastOf = async (caller: Api) => (await page(caller, 'after=0&limit=1000')).nextAfter;

/** Reads SSE messages from a streaming response until `count` messages with data arrived. */
async function sseMessages(response: Response, count: number, timeoutMs = 20_000) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: { id?: string; event?: string; data?: string }[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  while (messages.filter((m) => m.data !== undefined).length < count) {
    if (Date.now() > deadline) throw new Error(`timed out with ${JSON.stringify(messages)}`);
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: { id?: string; event?: string; data?: string } = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event') message[field] = value;
        if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
      }
      messages.push(message);
      end = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return messages;
}

describe('GET /events', () => {
  it('pages the events in order without gaps, following nextAfter; filters by type and dictionary', async () => {
    const w = await conceptWorld(s);
    const start = await lastOf(w.admin);
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createConcept(w.admin, w));
    const deleted = await w.admin.delete(`/concepts/${created[0]!.id}`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const events = await allEvents(w.admin, start);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => start + i + 1));
    expect(events.map((e) => e.type)).toEqual([...Array(5).fill('concept.created'), 'concept.deleted']);
    expect(events.map((e) => e.conceptId)).toEqual([...created.map((c) => c.id), created[0]!.id]);

    const deletes = await allEvents(w.admin, start, '&type=concept.deleted');
    expect(deletes.map((e) => e.conceptId)).toEqual([created[0]!.id]);
    expect((await allEvents(w.admin, start, '&type=concept.*')).length).toBe(6);
    const other = await allEvents(w.admin, start, `&dictionary-id=${w.other.dictionary.id}`);
    expect(other).toEqual([]);
    // A filtered page still moves past what it skipped.
    const filtered = await page(w.admin, `after=${start}&limit=10&type=term.updated`);
    expect(filtered).toMatchObject({ content: [], last: true, nextAfter: start + 6 });
  });

  it('answers 400 for an unknown type, a bad limit or dictionary id, and 401 without a token', async () => {
    const w = await conceptWorld(s);
    expect((await w.admin.get('/events?type=concept.exploded')).status).toBe(400);
    expect((await w.admin.get('/events?limit=0')).status).toBe(400);
    expect((await w.admin.get('/events?limit=5000')).status).toBe(400);
    expect((await w.admin.get('/events?dictionary-id=abc')).status).toBe(400);
    const anonymous = await fetch(`${s.base}/api/v4/events`);
    expect(anonymous.status).toBe(401);
  });
});

describe('visibility', () => {
  async function restricted(w: World) {
    // Section 2 and the other dictionary get a scheme that grants nothing: the reader sees neither.
    const empty = await createScheme(w.adminRest, []);
    await rows(s.t, 'update sections set permission_scheme_id = ? where id = ?', [empty.id, w.section2.id]);
    await rows(s.t, 'update dictionaries set permission_scheme_id = ? where id = ?', [
      empty.id,
      w.other.dictionary.id,
    ]);
    return (await userOf(s, w)).api;
  }

  it("a reader sees only its own client's events of the sections and dictionaries it may read", async () => {
    const w = await conceptWorld(s);
    const reader = await restricted(w);
    const stranger = await conceptWorld(s);
    const start = await lastOf(w.admin);
    const visible = await createConcept(w.admin, w);
    const hidden = await createConcept(w.admin, w, { sectionOid: w.section2.oid });
    const elsewhere = await w.admin.post<{ id: number }>('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
      terms: [{ name: 'ailleurs', languageCode: 'fra' }],
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    await createConcept(stranger.admin, stranger);

    const mine = await allEvents(reader, start);
    expect(mine.map((e) => e.conceptId)).toEqual([visible.id]);
    // The administrator reads them all, still only its own client's.
    const all = await allEvents(w.admin, start);
    expect(all.map((e) => e.conceptId)).toEqual([visible.id, hidden.id, elsewhere.body.id]);
    expect(all.every((e) => e.clientId === w.tenant.id)).toBe(true);
    // Another client's administrator never sees these, whatever it asks for.
    const theirs = await allEvents(stranger.admin, 0, '', 1000);
    expect(theirs.some((e) => e.clientId !== stranger.tenant.id)).toBe(false);
  });

  it('feedback events go to the dictionary administrators only', async () => {
    const w = await conceptWorld(s);
    const reader = (await userOf(s, w)).api;
    const start = await lastOf(w.admin);
    const sent = await reader.post('/feedback', { dictionaryId: w.dictionary.id, text: 'A typo' });
    expect(sent.status, sent.text).toBe(201);
    expect((await allEvents(w.admin, start)).map((e) => e.type)).toEqual(['feedback.created']);
    expect(await allEvents(reader, start)).toEqual([]);
  });
});

describe('GET /events/stream', () => {
  it('delivers events as they commit, and resumes after Last-Event-ID', async () => {
    const w = await conceptWorld(s);
    const headers = { 'x-auth-token': w.adminRest.token ?? '', accept: 'text/event-stream' };
    const first = await fetch(`${s.base}/api/v4/events/stream`, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    const concept = await createConcept(w.admin, w);
    const [message] = (await sseMessages(first, 1)).filter((m) => m.data !== undefined);
    expect(message!.event).toBe('concept.created');
    const event = JSON.parse(message!.data!) as EventDto;
    expect(event).toMatchObject({ conceptId: concept.id, type: 'concept.created' });
    expect(message!.id).toBe(String(event.sequence));

    // Offline meanwhile: two more changes, then a reconnect with the last id seen.
    const later = [await createConcept(w.admin, w), await createConcept(w.admin, w)];
    const resumed = await fetch(`${s.base}/api/v4/events/stream`, {
      headers: { ...headers, 'last-event-id': message!.id! },
    });
    const messages = (await sseMessages(resumed, 2)).filter((m) => m.data !== undefined);
    expect(messages.map((m) => (JSON.parse(m.data!) as EventDto).conceptId)).toEqual(later.map((c) => c.id));
    expect(messages.map((m) => Number(m.id))).toEqual([event.sequence + 1, event.sequence + 2]);
  });

  it('answers JSON errors before streaming: 401 without a token, 400 for a bad type', async () => {
    const w = await conceptWorld(s);
    expect((await fetch(`${s.base}/api/v4/events/stream`)).status).toBe(401);
    const bad = await fetch(`${s.base}/api/v4/events/stream?type=nonsense`, {
      headers: { 'x-auth-token': w.adminRest.token ?? '' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('BAD_REQUEST');
  });
});

describe('subscriptions', () => {
  it('the GraphQL subscription receives the events (over SSE)', async () => {
    const w = await conceptWorld(s);
    const response = await fetch(`${s.base}/graphql`, {
      method: 'POST',
      headers: {
        'x-auth-token': w.adminRest.token ?? '',
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        query: 'subscription { events(types: ["concept.*"]) { sequence type conceptId dictionaryId data } }',
      }),
    });
    expect(response.status).toBe(200);
    // The subscription starts reading when it has been set up: give it a moment before the change.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const concept = await createConcept(w.admin, w);
    const [message] = (await sseMessages(response, 1)).filter((m) => m.data !== undefined);
    const payload = JSON.parse(message!.data!) as { data: { events: EventDto } };
    expect(payload.data.events).toMatchObject({
      type: 'concept.created',
      conceptId: concept.id,
      dictionaryId: w.dictionary.id,
    });
  });

  it('the tRPC subscription receives the events (over SSE), from `after`', async () => {
    const w = await conceptWorld(s);
    const after = await lastOf(w.admin);
    const concept = await createConcept(w.admin, w);
    const input = encodeURIComponent(JSON.stringify({ after }));
    const response = await fetch(`${s.base}/trpc/events.subscribe?input=${input}`, {
      headers: { 'x-auth-token': w.adminRest.token ?? '', accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const messages = (await sseMessages(response, 3)).filter((m) => m.data?.includes('"event"'));
    const item = JSON.parse(messages[0]!.data!) as { event: EventDto };
    expect(item.event).toMatchObject({ sequence: after + 1, conceptId: concept.id, type: 'concept.created' });
  });
});
