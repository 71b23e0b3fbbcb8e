/**
 * Feedback and what its readers may see (docs/feedback.md "Who does what"): sending feedback on a
 * concept or term the caller cannot read (a closed section, an unpublished workflow state, another
 * client) is 404; the feedback lists of administrators who cannot read a target leave it out (and
 * withhold a concept label naming terms they are not shown); senders list their own with `mine` over
 * REST, tRPC and GraphQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { newTenant, query } from '../helpers/structure.js';
import { world } from './feedback-world.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

interface FeedbackBody {
  id: number;
  target: string;
  targetLabel: string | null;
  text: string;
  conceptId: number | null;
}
interface PageBody {
  content: FeedbackBody[];
  totalElements: number;
}

async function send(caller: RestClient, body: Record<string, unknown>): Promise<FeedbackBody> {
  const response = await caller.post<FeedbackBody>('/feedback', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function gql<T>(token: string, document: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    payload: JSON.stringify({ query: document, variables }),
  });
  return JSON.parse(response.body) as { data: T; errors?: { extensions: { code: string } }[] };
}

async function trpcList(token: string, input: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/trpc/feedback.list?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: { 'x-auth-token': token },
  });
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body).result.data as PageBody;
}

const ids = (page: PageBody) => page.content.map((item) => item.id).sort((a, b) => a - b);

describe('feedback on what the caller cannot read', () => {
  it('is 404 for a term in an unpublished state, a closed section and another client, on every surface', async () => {
    const w = await world(t, sysadmin);
    const refused = [{ termId: w.hiddenTerm }, { conceptId: w.secret }, { termId: w.secretTerm }];
    for (const target of refused) {
      const response = await w.reader.rest.post('/feedback', { ...target, text: 'hello' });
      expect(response.status, JSON.stringify(target)).toBe(404);
    }
    const viaGraphql = await gql(
      w.reader.rest.token!,
      'mutation($t: Int!) { sendFeedback(termId: $t, text: "x") { id } }',
      {
        t: w.hiddenTerm,
      },
    );
    expect(viaGraphql.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    const viaTrpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/feedback.create',
      headers: { 'content-type': 'application/json', 'x-auth-token': w.reader.rest.token! },
      payload: JSON.stringify({ termId: w.hiddenTerm, text: 'x' }),
    });
    expect(viaTrpc.statusCode).toBe(404);
    // The concept of a hidden term is readable: feedback on it names only what the reader is shown.
    const onDraft = await send(w.reader.rest, { conceptId: w.draft, text: 'about the draft' });
    expect(onDraft.targetLabel).toBe('secret valve');
    // Another client's users get 404 for every target of this one.
    const stranger = await newTenant(t, sysadmin);
    for (const target of [{ termId: w.valve }, { conceptId: w.open }, { dictionaryId: w.dictionary.id }]) {
      const response = await stranger.admin.post('/feedback', { ...target, text: 'x' });
      expect(response.status, JSON.stringify(target)).toBe(404);
    }
    // Those who may read them send feedback on them.
    await send(w.reviewer.rest, { termId: w.hiddenTerm, text: 'typo' });
    await send(w.insider.rest, { conceptId: w.secret, text: 'secret note' });
  });

  it('leaves it out of the lists of administrators who cannot read it, and answers 404 to them', async () => {
    const w = await world(t, sysadmin);
    const onHiddenTerm = await send(w.reviewer.rest, { termId: w.hiddenTerm, text: 'Geheimventil typo' });
    const onDraft = await send(w.reviewer.rest, { conceptId: w.draft, text: 'draft concept' });
    expect(onDraft.targetLabel).toContain('Geheimventil');
    const onSecret = await send(w.insider.rest, { conceptId: w.secret, text: 'blueprint note' });
    const onOpen = await send(w.reader.rest, { termId: w.valve, text: 'valve note' });
    const onDictionary = await send(w.reader.rest, { dictionaryId: w.dictionary.id, text: 'more terms' });

    // The scheme's manager reads neither the closed section nor unpublished entries.
    const managerList = await w.manager.rest.get<PageBody>('/feedback');
    expect(managerList.status, managerList.text).toBe(200);
    expect(ids(managerList.body)).toEqual([onDraft.id, onOpen.id, onDictionary.id]);
    expect(managerList.body.totalElements).toBe(3);
    const draft = managerList.body.content.find((item) => item.id === onDraft.id)!;
    expect(draft.targetLabel).toBeNull();
    expect(JSON.stringify(managerList.body)).not.toContain('Geheimventil');
    expect(JSON.stringify(managerList.body)).not.toContain('Blueprint');
    for (const hidden of [onHiddenTerm.id, onSecret.id]) {
      expect((await w.manager.rest.get(`/feedback/${hidden}`)).status).toBe(404);
      expect((await w.manager.rest.post(`/feedback/${hidden}/answers`, { text: 'x' })).status).toBe(404);
      expect((await w.manager.rest.post(`/feedback/${hidden}/close`)).status).toBe(404);
      expect((await w.manager.rest.delete(`/feedback/${hidden}`)).status).toBe(404);
    }
    expect(ids(await trpcList(w.manager.rest.token!, { target: 'TERM' }))).toEqual([onOpen.id]);
    const page = await gql<{
      feedbackPage: { totalElements: number; content: { id: number; targetLabel: string | null }[] };
    }>(w.manager.rest.token!, '{ feedbackPage(size: 50) { totalElements content { id targetLabel } } }');
    expect(page.data.feedbackPage.totalElements).toBe(3);
    expect(JSON.stringify(page.data)).not.toContain('Geheimventil');
    const one = await gql(w.manager.rest.token!, 'query($id: Int!) { feedback(id: $id) { id } }', {
      id: onSecret.id,
    });
    expect(one.errors?.[0]?.extensions.code).toBe('NOT_FOUND');

    // The client's administrator reads every section, but is no reviewer: the unpublished term stays out.
    const adminList = await w.admin.get<PageBody>(`/feedback${query({ size: 50 })}`);
    expect(ids(adminList.body)).toEqual([onDraft.id, onSecret.id, onOpen.id, onDictionary.id]);

    // Senders keep seeing what they sent, as they sent it.
    const reviewerOwn = await w.reviewer.rest.get<PageBody>(`/feedback${query({ mine: true })}`);
    expect(ids(reviewerOwn.body)).toEqual([onHiddenTerm.id, onDraft.id]);
    expect(reviewerOwn.body.content.find((item) => item.id === onDraft.id)!.targetLabel).toContain(
      'Geheimventil',
    );
    expect((await w.insider.rest.get(`/feedback/${onSecret.id}`)).status).toBe(200);
  });
});

describe('my feedback', () => {
  it('lists only what the caller sent with `mine`, over REST, tRPC and GraphQL', async () => {
    const w = await world(t, sysadmin);
    const own = await send(w.manager.rest, { conceptId: w.open, text: 'my own note' });
    const others = await send(w.reader.rest, { dictionaryId: w.dictionary.id, text: 'not mine' });
    const answered = await w.manager.rest.post(`/feedback/${others.id}/answers`, { text: 'Thanks' });
    expect(answered.status, answered.text).toBe(200);

    expect(ids((await w.manager.rest.get<PageBody>('/feedback')).body)).toEqual([own.id, others.id]);
    expect(ids((await w.manager.rest.get<PageBody>('/feedback?mine=true')).body)).toEqual([own.id]);
    expect(ids(await trpcList(w.manager.rest.token!, { mine: true }))).toEqual([own.id]);
    const viaGraphql = await gql<{ feedbackPage: { content: { id: number }[] } }>(
      w.manager.rest.token!,
      '{ feedbackPage(mine: true) { content { id } } }',
    );
    expect(viaGraphql.data.feedbackPage.content).toEqual([{ id: own.id }]);

    // The reader's own list carries the status and the answers.
    const mine = await trpcList(w.reader.rest.token!, { mine: true, status: 'ANSWERED' });
    expect(mine.content).toEqual([
      expect.objectContaining({
        id: others.id,
        status: 'ANSWERED',
        answers: [expect.objectContaining({ text: 'Thanks' })],
      }),
    ]);
    expect((await trpcList(w.reader.rest.token!, { mine: true, status: 'OPEN' })).totalElements).toBe(0);
  });
});
