/**
 * Feedback (docs/feedback.md) over REST, tRPC and GraphQL on one server: readers and guests send it,
 * the dictionary's administrators list, answer and close it, both sides get mail through a real SMTP
 * server on loopback, the attachment keeps to FEEDBACK_MAX_FILE_SIZE, and senders are throttled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type ErrorBody,
  grant,
  groupWith,
  insertConcepts,
  insertTerm,
  loggedInUser,
  newTenant,
  query,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

const MAX_FILE = 64 * 1024;
let t: TestApp;
let sysadmin: RestClient;
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = new MailCatcher();
  const port = await catcher.start();
  t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, FEEDBACK_MAX_FILE_SIZE: String(MAX_FILE) });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await catcher?.close();
});

interface FeedbackBody {
  id: number;
  dictionaryId: number;
  target: string;
  conceptId: number | null;
  termId: number | null;
  targetLabel: string | null;
  text: string;
  status: string;
  senderId: number | null;
  senderName: string | null;
  senderEmail: string | null;
  guest: boolean;
  attachment: { fileName: string; contentType: string; size: number; url: string } | null;
  answers: { text: string; authorName: string | null }[];
  mayManage: boolean;
}
interface PageBody {
  content: FeedbackBody[];
  totalElements: number;
  sort: string;
}

const GUEST_PASSWORD = 'guest-pass-1';

/** A tenant whose dictionary named users and guests read (one secret section), an administrator of it with an address, two readers. */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const groups = await systemGroups(admin);
  const readers = await createScheme(admin, [
    grant(groups.ALL_USERS.id, ['DICT_READ']),
    grant(groups.GUEST.id, ['DICT_READ']),
  ]);
  const closed = await createScheme(admin, [grant((await groupWith(admin, [])).id, ['DICT_READ'])]);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    permissionSchemeId: readers.id,
  });
  const secret = await admin.post<{ id: number }>('/sections', {
    name: `Secret ${uniqueSuffix()}`,
    dictionaryId: dictionary.id,
    permissionSchemeId: closed.id,
  });
  const target = { clientId: tenant.id, dictionaryId: dictionary.id };
  const [conceptId] = await insertConcepts(t, { ...target, sectionId: dictionary.sections[0]!.id }, [{}]);
  const [secretConceptId] = await insertConcepts(t, { ...target, sectionId: secret.body.id }, [{}]);
  const termId = await insertTerm(
    t,
    { ...target, conceptId: conceptId! },
    { name: 'valve', languageCode: 'eng' },
  );
  const manager = await loggedInUser(t, tenant, { roles: [dictionaryAdminRole(dictionary)] });
  const reader = await loggedInUser(t, tenant);
  const other = await loggedInUser(t, tenant);
  const suffix = uniqueSuffix();
  const managerMail = `manager-${suffix}@example.org`;
  const readerMail = `reader-${suffix}@example.org`;
  await rows(t, 'update users set email = ? where id = ?', [managerMail, manager.id]);
  await rows(t, 'update users set email = ? where id = ?', [readerMail, reader.id]);
  return {
    admin,
    tenant,
    dictionary,
    conceptId: conceptId!,
    secretConceptId: secretConceptId!,
    termId,
    manager,
    reader,
    other,
    managerMail,
    readerMail,
  };
}
type World = Awaited<ReturnType<typeof world>>;

async function send(caller: RestClient, body: Record<string, unknown>): Promise<FeedbackBody> {
  const response = await caller.post<FeedbackBody>('/feedback', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function guestOf(w: World, enableFeedback: boolean) {
  const username = `guest${uniqueSuffix()}`;
  const settings = await w.admin.put('/users/guest', {
    enabled: true,
    username,
    password: GUEST_PASSWORD,
    loginMethod: 'NORMAL',
    enableFeedback,
  });
  expect(settings.status, settings.text).toBe(200);
  return loginRest(t.app, username, GUEST_PASSWORD, w.tenant.loginName);
}

/** Mails to an address once there are `count`, within 10 s (they go out after the answer). */
async function mailsTo(address: string, count: number) {
  for (const deadline = Date.now() + 10_000; catcher.to(address).length < count && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return catcher.to(address);
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('sending, listing, answering and closing', () => {
  it('a reader sends feedback on a concept, a term and the dictionary; the administrator answers and closes', async () => {
    const w = await world();
    const onConcept = await send(w.reader.rest, {
      conceptId: w.conceptId,
      text: '  The definition is circular.  ',
    });
    expect(onConcept).toMatchObject({
      dictionaryId: w.dictionary.id,
      target: 'CONCEPT',
      conceptId: w.conceptId,
      targetLabel: 'valve',
      text: 'The definition is circular.',
      status: 'OPEN',
      senderId: w.reader.id,
      senderEmail: w.readerMail,
      guest: false,
      attachment: null,
      answers: [],
      mayManage: false,
    });
    const onTerm = await send(w.reader.rest, { termId: w.termId, text: 'Spelling <b>valve</b>?' });
    expect(onTerm).toMatchObject({ target: 'TERM', termId: w.termId, conceptId: w.conceptId });
    await send(w.other.rest, { dictionaryId: w.dictionary.id, text: 'Please add German.' });

    // Administrators of the dictionary hear of it; the sender gets a receipt. Plain text, as written.
    const toManager = await mailsTo(w.managerMail, 3);
    expect(toManager).toHaveLength(3);
    expect(toManager.some((mail) => mail.text.includes('Spelling <b>valve</b>?'))).toBe(true);
    expect(toManager.every((mail) => !/content-type: text\/html/i.test(mail.text))).toBe(true);
    expect((await mailsTo(w.readerMail, 2)).length).toBe(2);

    // The administrator's list: filters, sorting, paging.
    const all = await w.manager.rest.get<PageBody>('/feedback');
    expect(all.status, all.text).toBe(200);
    expect(all.body.totalElements).toBe(3);
    expect(all.body.sort).toBe('created,DESC');
    expect(all.body.content.every((item) => item.mayManage)).toBe(true);
    const terms = await w.manager.rest.get<PageBody>(
      `/feedback${query({ target: 'TERM', dictionaryId: w.dictionary.id })}`,
    );
    expect(terms.body.content.map((item) => item.id)).toEqual([onTerm.id]);
    const oldest = await w.manager.rest.get<PageBody>(`/feedback${query({ sort: 'created,ASC', size: 1 })}`);
    expect(oldest.body.content.map((item) => item.id)).toEqual([onConcept.id]);
    expect((await w.manager.rest.get<ErrorBody>('/feedback?sort=text')).status).toBe(400);

    // The sender sees their own; another reader sees none of it.
    expect((await w.reader.rest.get<PageBody>('/feedback')).body.totalElements).toBe(2);
    expect((await w.other.rest.get<PageBody>(`/feedback/${onConcept.id}`)).status).toBe(404);
    expect(
      (await w.reader.rest.post<ErrorBody>(`/feedback/${onConcept.id}/answers`, { text: 'me' })).status,
    ).toBe(403);

    const answered = await w.manager.rest.post<FeedbackBody>(`/feedback/${onConcept.id}/answers`, {
      text: 'Thanks, fixed.',
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ status: 'ANSWERED', answers: [{ text: 'Thanks, fixed.' }] });
    const answerMail = (await mailsTo(w.readerMail, 3))[2]!;
    expect(answerMail.text).toContain('Thanks, fixed.');
    expect(answerMail.text).toContain('The definition is circular.');

    const open = await w.manager.rest.get<PageBody>(`/feedback${query({ status: 'OPEN' })}`);
    expect(open.body.totalElements).toBe(2);
    const closed = await w.manager.rest.post<FeedbackBody>(`/feedback/${onConcept.id}/close`);
    expect(closed.body.status).toBe('CLOSED');
    expect((await mailsTo(w.readerMail, 4))[3]!.text).toContain('is closed');
    const reopened = await w.manager.rest.post<FeedbackBody>(`/feedback/${onConcept.id}/reopen`);
    expect(reopened.body.status).toBe('ANSWERED');

    // Statistics count what waits for an answer.
    const stats = await w.manager.rest.get<{ feedback?: unknown }>(
      `/system/statistics/dictionaries/${w.dictionary.id}`,
    );
    expect(stats.body.feedback).toEqual({ open: 2, answered: 1 });
    const readerStats = await w.reader.rest.get<{ feedback?: unknown }>(
      `/system/statistics/dictionaries/${w.dictionary.id}`,
    );
    expect(readerStats.body.feedback).toBeUndefined();
    expect((await w.admin.get<{ openFeedback: number }>('/system/statistics')).body.openFeedback).toBe(2);

    const deleted = await w.manager.rest.delete(`/feedback/${onTerm.id}`);
    expect(deleted.status).toBe(204);
    expect((await w.manager.rest.get(`/feedback/${onTerm.id}`)).status).toBe(404);
  });

  it('refuses bad input with 400, unreadable targets and other tenants with 404', async () => {
    const w = await world();
    const bad = [
      { text: 'no target' },
      { conceptId: w.conceptId, termId: w.termId, text: 'two targets' },
      { conceptId: w.conceptId, text: '   ' },
      { conceptId: w.conceptId, text: 'x'.repeat(4001) },
    ];
    for (const body of bad) {
      const response = await w.reader.rest.post<ErrorBody>('/feedback', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await w.reader.rest.post('/feedback', { conceptId: w.secretConceptId, text: 'hidden' })).status,
    ).toBe(404);
    const sent = await send(w.reader.rest, { conceptId: w.conceptId, text: 'mine' });
    const stranger = await world();
    expect((await stranger.admin.post('/feedback', { conceptId: w.conceptId, text: 'x' })).status).toBe(404);
    expect((await stranger.admin.get(`/feedback/${sent.id}`)).status).toBe(404);
    expect((await stranger.admin.post(`/feedback/${sent.id}/close`)).status).toBe(404);
    expect((await stranger.admin.get<PageBody>('/feedback')).body.totalElements).toBe(0);
  });

  it('lets guests send only when the client allows it; their address comes from the form', async () => {
    const w = await world();
    const closedGuest = await guestOf(w, false);
    expect(
      (await closedGuest.post<ErrorBody>('/feedback', { conceptId: w.conceptId, text: 'hi' })).status,
    ).toBe(403);
    expect((await closedGuest.get<{ allowed: boolean }>('/feedback/options')).body.allowed).toBe(false);
    const guest = await guestOf(w, true);
    const options = await guest.get('/feedback/options');
    expect(options.body).toEqual({
      allowed: true,
      askSender: true,
      maxFileSize: MAX_FILE,
      maxTextLength: 4000,
      manages: false,
    });
    const visitorMail = `visitor-${uniqueSuffix()}@example.org`;
    const sent = await send(guest, {
      termId: w.termId,
      text: 'Wrong plural',
      senderName: 'Ann',
      senderEmail: visitorMail,
    });
    expect(sent).toMatchObject({ guest: true, senderId: null, senderName: 'Ann', senderEmail: visitorMail });
    expect((await mailsTo(visitorMail, 1))[0]!.text).toContain('Wrong plural');
    // Guests share one account: they list nothing, not even what they sent.
    expect((await guest.get<PageBody>('/feedback')).body.totalElements).toBe(0);
    expect((await guest.get(`/feedback/${sent.id}`)).status).toBe(404);
  });

  it('throttles each sender: ten in a row, then 429 with Retry-After', async () => {
    const w = await world();
    for (let n = 0; n < 10; n++)
      await send(w.other.rest, { dictionaryId: w.dictionary.id, text: `note ${n}` });
    const refused = await w.other.rest.post<ErrorBody>('/feedback', {
      dictionaryId: w.dictionary.id,
      text: 'more',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another sender is not held up.
    await send(w.reader.rest, { dictionaryId: w.dictionary.id, text: 'mine' });
  });
});

describe('the attachment', () => {
  it('takes one file from the sending session, sniffs its type, serves it safely and refuses more than FEEDBACK_MAX_FILE_SIZE', async () => {
    const w = await world();
    const sent = await send(w.reader.rest, { conceptId: w.conceptId, text: 'see the picture' });
    const tooLarge = await w.reader.rest.upload<ErrorBody>(`/feedback/${sent.id}/attachment`, {
      content: Buffer.alloc(MAX_FILE + 1, 7),
      filename: 'big.bin',
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('PAYLOAD_TOO_LARGE');
    // Another session of the same user, or the administrator: not theirs to attach to.
    const again = await loginRest(t.app, w.reader.username, await readerPassword(w), w.tenant.loginName);
    expect((await again.upload(`/feedback/${sent.id}/attachment`, { content: PNG })).status).toBe(404);
    expect((await again.upload(`/feedback/${sent.id}/attachment`, { content: PNG })).status).toBe(404);
    expect((await w.manager.rest.upload(`/feedback/${sent.id}/attachment`, { content: PNG })).status).toBe(
      403,
    );

    // Named .txt and labelled text/plain: the bytes say PNG.
    const attached = await w.reader.rest.upload<FeedbackBody>(`/feedback/${sent.id}/attachment`, {
      content: PNG,
      filename: 'shot.txt',
      contentType: 'text/plain',
    });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body.attachment).toEqual({
      fileName: 'shot.txt',
      contentType: 'image/png',
      size: PNG.length,
      url: `/api/v4/feedback/${sent.id}/attachment`,
    });
    expect((await w.reader.rest.upload(`/feedback/${sent.id}/attachment`, { content: PNG })).status).toBe(
      409,
    );
    const file = await w.manager.rest.get(`/feedback/${sent.id}/attachment`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect((await w.other.rest.get(`/feedback/${sent.id}/attachment`)).status).toBe(404);

    // An SVG with script is never served as something a browser runs in Polyterm's origin.
    const svgFeedback = await send(w.reader.rest, { conceptId: w.conceptId, text: 'svg' });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect(
      (
        await w.reader.rest.upload(`/feedback/${svgFeedback.id}/attachment`, {
          content: svg,
          filename: 'a.png',
        })
      ).status,
    ).toBe(200);
    const served = await w.manager.rest.get(`/feedback/${svgFeedback.id}/attachment`);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(String(served.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(String(served.headers['content-security-policy'])).toContain('sandbox');

    // Deleting the feedback deletes the file.
    const [{ key }] = (await rows<{ key: string }>(
      t,
      'select attachment_key as key from feedback where id = ?',
      [sent.id],
    )) as [{ key: string }];
    expect((await w.manager.rest.delete(`/feedback/${sent.id}`)).status).toBe(204);
    expect(await rows(t, 'select 1 from storage_blobs where key = ?', [key])).toEqual([]);
  });
});

/** The reader's password is not kept by loggedInUser: set a known one for a second session. */
async function readerPassword(w: World): Promise<string> {
  const { hashPassword } = await import('../../src/modules/auth/password.js');
  const password = `pw-${uniqueSuffix()}`;
  await rows(t, 'update users set password_hash = ? where id = ?', [
    await hashPassword(password),
    w.reader.id,
  ]);
  return password;
}

describe('tRPC and GraphQL', () => {
  it('offer the same operations with the same rules', async () => {
    const w = await world();
    const gql = async <T>(token: string, document: string, variables: Record<string, unknown> = {}) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        payload: JSON.stringify({ query: document, variables }),
      });
      return JSON.parse(response.body) as { data: T; errors?: { extensions: { code: string } }[] };
    };
    const sent = await gql<{ sendFeedback: { id: number; status: string; targetLabel: string } }>(
      w.reader.rest.token!,
      'mutation($c: Int!) { sendFeedback(conceptId: $c, text: "via GraphQL") { id status targetLabel } }',
      { c: w.conceptId },
    );
    expect(sent.errors).toBeUndefined();
    expect(sent.data.sendFeedback).toMatchObject({ status: 'OPEN', targetLabel: 'valve' });
    const id = sent.data.sendFeedback.id;

    const trpcList = await t.app.inject({
      method: 'GET',
      url: `/trpc/feedback.list?input=${encodeURIComponent(JSON.stringify({ status: 'OPEN' }))}`,
      headers: { 'x-auth-token': w.manager.rest.token! },
    });
    expect(JSON.parse(trpcList.body).result.data.content.map((item: { id: number }) => item.id)).toEqual([
      id,
    ]);

    const refused = await gql(w.other.rest.token!, 'mutation($id: Int!) { closeFeedback(id: $id) { id } }', {
      id,
    });
    expect(refused.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    const answered = await gql<{ answerFeedback: { status: string; answers: { text: string }[] } }>(
      w.manager.rest.token!,
      'mutation($id: Int!) { answerFeedback(id: $id, text: "Done", close: true) { status answers { text } } }',
      { id },
    );
    expect(answered.data.answerFeedback).toEqual({ status: 'CLOSED', answers: [{ text: 'Done' }] });
    const page = await gql<{ feedbackPage: { totalElements: number; content: { id: number }[] } }>(
      w.manager.rest.token!,
      '{ feedbackPage(status: CLOSED, target: CONCEPT) { totalElements content { id } } }',
    );
    expect(page.data.feedbackPage).toEqual({ totalElements: 1, content: [{ id }] });
    const statistics = '{ dictionaryStatistics(dictionaryId: %d) { feedback { open answered } } }'.replace(
      '%d',
      String(w.dictionary.id),
    );
    type Counts = { dictionaryStatistics: { feedback: { open: number; answered: number } | null } };
    expect((await gql<Counts>(w.manager.rest.token!, statistics)).data.dictionaryStatistics.feedback).toEqual(
      {
        open: 0,
        answered: 0,
      },
    );
    expect(
      (await gql<Counts>(w.reader.rest.token!, statistics)).data.dictionaryStatistics.feedback,
    ).toBeNull();
  });
});
