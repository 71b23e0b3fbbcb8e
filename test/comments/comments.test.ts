// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Comments on concepts and terms (docs/comments.md): the calls under test go over a real socket;
 * concepts and terms are written through the ORM, independent of the concepts API.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentsOf } from '../../src/modules/comment/comment.service.js';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import type { AppRouter } from '../../src/trpc/router.js';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient, type RestResponse } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type ErrorBody,
  expectError,
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

interface CommentBody {
  id: number;
  oid: string | null;
  text: string;
  authorName: string | null;
  userId: number | null;
  dictionaryId: number;
  fieldLevel: 'CONCEPT' | 'TERM';
  entryId: number;
  date: number;
}

type Answer<T> = RestResponse<T & ErrorBody>;

/** A REST call over the socket with the caller's token. */
async function call<T>(caller: RestClient, method: string, path: string, json?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'x-auth-token': caller.token ?? '' };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/v4${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: (isJson ? JSON.parse(text) : text) as T & ErrorBody,
    text,
  };
}

type Target = { 'entry-id': number; 'field-level'?: 'CONCEPT' | 'TERM' };

const listComments = (caller: RestClient, target: Target) =>
  call<CommentBody[]>(caller, 'GET', `/comments/${query(target)}`);

const postComment = (caller: RestClient, target: Target, body: unknown) =>
  call<CommentBody>(caller, 'POST', `/comments/${query(target)}`, body);

/** POST expecting 201. */
async function comment(caller: RestClient, target: Target, text: string): Promise<CommentBody> {
  const response = await postComment(caller, target, { text });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const deleteComment = (caller: RestClient, id: number) => call<unknown>(caller, 'DELETE', `/comments/${id}`);

const GUEST_PASSWORD = 'guest-pass-1';

/**
 * A tenant whose dictionary lets named users and guests read its first section; a second section only
 * an empty group may read. Concepts (two readable, one secret) and a term come from the ORM.
 */
async function world() {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const groups = await systemGroups(admin);
  const readers = await createScheme(admin, [
    grant(groups.ALL_USERS.id, ['DICT_READ']),
    grant(groups.GUEST.id, ['DICT_READ']),
  ]);
  const nobody = await groupWith(admin, []);
  const closed = await createScheme(admin, [grant(nobody.id, ['DICT_READ'])]);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }, { code: 'deu' }],
    permissionSchemeId: readers.id,
  });
  const section = dictionary.sections[0]!;
  const secret = await admin.post<{ id: number }>('/sections', {
    name: `Secret ${uniqueSuffix()}`,
    dictionaryId: dictionary.id,
    permissionSchemeId: closed.id,
  });
  expect(secret.status, secret.text).toBe(201);
  const target = { clientId: tenant.id, dictionaryId: dictionary.id };
  const [conceptId, otherConceptId] = await insertConcepts(t, { ...target, sectionId: section.id }, [{}, {}]);
  const [secretConceptId] = await insertConcepts(t, { ...target, sectionId: secret.body.id }, [{}]);
  const termId = await insertTerm(t, { ...target, conceptId: conceptId! }, { languageCode: 'eng' });
  const author = await loggedInUser(t, tenant);
  const other = await loggedInUser(t, tenant);
  return {
    admin,
    tenant,
    dictionary,
    conceptId: conceptId!,
    otherConceptId: otherConceptId!,
    secretConceptId: secretConceptId!,
    termId,
    author,
    other,
  };
}

/** Turns guest access on (password login) with enableCommenting as given; returns a guest session. */
async function guestOf(w: Awaited<ReturnType<typeof world>>, enableCommenting: boolean) {
  const username = `guest${uniqueSuffix()}`;
  const settings = await w.admin.put('/users/guest', {
    enabled: true,
    username,
    password: GUEST_PASSWORD,
    loginMethod: 'NORMAL',
    enableCommenting,
  });
  expect(settings.status, settings.text).toBe(200);
  return { username, rest: await loginRest(t.app, username, GUEST_PASSWORD, w.tenant.loginName) };
}

describe('POST and GET /comments', () => {
  it('comments on a concept: 201 with the Comment, stored with concept, dictionary and client', async () => {
    const w = await world();
    const before = Date.now();
    const created = await postComment(
      w.author.rest,
      { 'entry-id': w.conceptId },
      { text: '  Check the source.  ' },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      oid: null,
      text: 'Check the source.',
      authorName: `User ${w.author.username}`,
      userId: w.author.id,
      dictionaryId: w.dictionary.id,
      fieldLevel: 'CONCEPT',
      entryId: w.conceptId,
      date: expect.any(Number),
    });
    expect(created.body.date).toBeGreaterThanOrEqual(before - 1000);
    expect(created.body.date).toBeLessThanOrEqual(Date.now() + 1000);

    const [row] = await rows<Record<string, unknown>>(
      t,
      'select client_id, dictionary_id, concept_id, field_level, entry_id from comments where id = ?',
      [created.body.id],
    );
    expect(row).toEqual({
      client_id: w.tenant.id,
      dictionary_id: w.dictionary.id,
      concept_id: w.conceptId,
      field_level: 'CONCEPT',
      entry_id: w.conceptId,
    });

    const listed = await listComments(w.other.rest, { 'entry-id': w.conceptId });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([created.body]);
    // Explicit CONCEPT is the default.
    expect(
      (await listComments(w.other.rest, { 'entry-id': w.conceptId, 'field-level': 'CONCEPT' })).body,
    ).toEqual([created.body]);
    // Another concept has its own comments.
    expect((await listComments(w.other.rest, { 'entry-id': w.otherConceptId })).body).toEqual([]);
  });

  it('comments on a term with field-level=TERM, kept apart from the concept comments', async () => {
    const w = await world();
    const onConcept = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'On the concept');
    const onTerm = await comment(
      w.author.rest,
      { 'entry-id': w.termId, 'field-level': 'TERM' },
      'On the term',
    );
    expect(onTerm).toMatchObject({ fieldLevel: 'TERM', entryId: w.termId, dictionaryId: w.dictionary.id });
    const [row] = await rows<{ concept_id: number }>(t, 'select concept_id from comments where id = ?', [
      onTerm.id,
    ]);
    expect(row!.concept_id).toBe(w.conceptId);

    expect((await listComments(w.other.rest, { 'entry-id': w.termId, 'field-level': 'TERM' })).body).toEqual([
      onTerm,
    ]);
    expect((await listComments(w.other.rest, { 'entry-id': w.conceptId })).body).toEqual([onConcept]);
    // A term id read as a concept id (or the reverse) is another entry.
    const conceptAsTerm = await listComments(w.other.rest, {
      'entry-id': w.conceptId,
      'field-level': 'TERM',
    });
    expect(conceptAsTerm.body).not.toEqual([onConcept]);
  });

  it('comments on a term named by the body member fieldLevel, as the contract posts a Comment', async () => {
    const w = await world();
    const created = await postComment(
      w.author.rest,
      { 'entry-id': w.termId },
      { text: 'On the term', fieldLevel: 'TERM', entryId: w.termId },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ fieldLevel: 'TERM', entryId: w.termId, text: 'On the term' });
    const [row] = await rows<{ concept_id: number; field_level: string }>(
      t,
      'select concept_id, field_level from comments where id = ?',
      [created.body.id],
    );
    expect(row).toEqual({ concept_id: w.conceptId, field_level: 'TERM' });
    // Read back under either name of the level; the concept's comments do not have it.
    expect((await listComments(w.other.rest, { 'entry-id': w.termId, 'field-level': 'TERM' })).body).toEqual([
      created.body,
    ]);
    const byMember = await call<CommentBody[]>(
      w.other.rest,
      'GET',
      `/comments/?entry-id=${w.termId}&fieldLevel=TERM`,
    );
    expect(byMember.body).toEqual([created.body]);
    expect((await listComments(w.other.rest, { 'entry-id': w.conceptId })).body).toEqual([]);
    // The two names must agree.
    expectError(
      await postComment(
        w.author.rest,
        { 'entry-id': w.termId, 'field-level': 'CONCEPT' },
        { text: 'Which one?', fieldLevel: 'TERM' },
      ),
      400,
    );
  });

  it('lists newest first', async () => {
    const w = await world();
    const first = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'first');
    const second = await comment(w.other.rest, { 'entry-id': w.conceptId }, 'second');
    const third = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'third');
    const listed = await listComments(w.author.rest, { 'entry-id': w.conceptId });
    expect(listed.body.map((c) => c.text)).toEqual(['third', 'second', 'first']);
    expect(listed.body.map((c) => c.id)).toEqual([third.id, second.id, first.id]);
  });

  it('authorName is the full name, else the login', async () => {
    const w = await world();
    await rows(t, 'update users set full_name = null where id = ?', [w.other.id]);
    const created = await comment(w.other.rest, { 'entry-id': w.conceptId }, 'nameless');
    expect(created.authorName).toBe(w.other.username);
  });

  it('text must be 1 to 16383 characters after trimming (400 naming text); nothing is stored', async () => {
    const w = await world();
    const target = { 'entry-id': w.conceptId };
    for (const body of [{}, { text: '' }, { text: '   ' }, { text: 'x'.repeat(16384) }, { text: 42 }]) {
      const response = await postComment(w.author.rest, target, body);
      expectError(response, 400);
      expect(response.body.message, JSON.stringify(body)).toContain('text');
    }
    expect((await postComment(w.author.rest, target, { text: 'x'.repeat(16383) })).status).toBe(201);
    const listed = await listComments(w.author.rest, target);
    expect(listed.body).toHaveLength(1);
  });

  it('entry-id is required and must be a number (400)', async () => {
    const w = await world();
    const missing = await call<CommentBody[]>(w.author.rest, 'GET', '/comments/');
    expectError(missing, 400);
    expect(missing.body.message).toContain('entry-id');
    expectError(await call(w.author.rest, 'POST', '/comments/', { text: 'hello' }), 400);
    expectError(await call(w.author.rest, 'GET', '/comments/?entry-id=abc'), 400);
    expectError(
      await call(w.author.rest, 'GET', `/comments/?entry-id=${w.conceptId}&field-level=FIELD`),
      400,
    );
  });

  it('other Comment members in the body are ignored', async () => {
    const w = await world();
    const created = await postComment(
      w.author.rest,
      { 'entry-id': w.conceptId },
      { text: 'mine', userId: w.other.id, authorName: 'Someone else', id: 1, dictionaryId: 0, date: 0 },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      text: 'mine',
      userId: w.author.id,
      authorName: `User ${w.author.username}`,
    });
  });
});

describe('visibility (404)', () => {
  it('a concept in a section the caller cannot read is 404 for reading and commenting', async () => {
    const w = await world();
    const target = { 'entry-id': w.secretConceptId };
    expectError(await listComments(w.author.rest, target), 404);
    expectError(await postComment(w.author.rest, target, { text: 'peek' }), 404);
    // The administrator reads it, so the concept exists.
    expect((await listComments(w.admin, target)).status).toBe(200);
    const [count] = await rows<{ n: number }>(
      t,
      'select count(*)::int as n from comments where concept_id = ?',
      [w.secretConceptId],
    );
    expect(count!.n).toBe(0);
  });

  it("another client's concept, term or comment is 404, even for its administrator", async () => {
    const w = await world();
    const foreign = await world();
    const foreignComment = await comment(foreign.author.rest, { 'entry-id': foreign.conceptId }, 'theirs');
    const foreignTerm = await comment(
      foreign.author.rest,
      { 'entry-id': foreign.termId, 'field-level': 'TERM' },
      'their term',
    );
    expectError(await listComments(w.admin, { 'entry-id': foreign.conceptId }), 404);
    expectError(await listComments(w.admin, { 'entry-id': foreign.termId, 'field-level': 'TERM' }), 404);
    expectError(await postComment(w.admin, { 'entry-id': foreign.conceptId }, { text: 'x' }), 404);
    expectError(
      await postComment(w.admin, { 'entry-id': foreign.termId, 'field-level': 'TERM' }, { text: 'x' }),
      404,
    );
    expectError(await deleteComment(w.admin, foreignComment.id), 404);
    expectError(await deleteComment(w.admin, foreignTerm.id), 404);
    expect((await listComments(foreign.author.rest, { 'entry-id': foreign.conceptId })).body).toEqual([
      foreignComment,
    ]);
  });

  it('unknown ids, deleted concepts and deleted terms are 404', async () => {
    const w = await world();
    const target = { clientId: w.tenant.id, dictionaryId: w.dictionary.id };
    const [deletedConceptId] = await insertConcepts(
      t,
      { ...target, sectionId: w.dictionary.sections[0]!.id },
      [{ deleted: true }],
    );
    const deletedTermId = await insertTerm(
      t,
      { ...target, conceptId: w.conceptId },
      {
        languageCode: 'deu',
        deleted: true,
      },
    );
    const termOfDeletedConcept = await insertTerm(
      t,
      { ...target, conceptId: deletedConceptId! },
      {
        languageCode: 'eng',
      },
    );
    for (const entry of [
      { 'entry-id': 2_000_000_000 },
      { 'entry-id': deletedConceptId! },
      { 'entry-id': deletedTermId, 'field-level': 'TERM' as const },
      { 'entry-id': termOfDeletedConcept, 'field-level': 'TERM' as const },
    ]) {
      expectError(await listComments(w.admin, entry), 404);
      expectError(await postComment(w.admin, entry, { text: 'x' }), 404);
    }
    expectError(await deleteComment(w.admin, 2_000_000_000), 404);
  });

  it('once the concept is deleted its comments are 404, for listing and for deleting', async () => {
    const w = await world();
    const created = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'soon gone');
    await rows(t, 'update concepts set deleted = true where id = ?', [w.conceptId]);
    expectError(await listComments(w.author.rest, { 'entry-id': w.conceptId }), 404);
    expectError(await listComments(w.author.rest, { 'entry-id': w.termId, 'field-level': 'TERM' }), 404);
    expectError(await deleteComment(w.author.rest, created.id), 404);
    expectError(await deleteComment(w.admin, created.id), 404);
  });
});

describe('guests', () => {
  it('without enableCommenting a guest reads comments but may not post (403); switching it on lets them', async () => {
    const w = await world();
    const existing = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'by a user');
    const guest = await guestOf(w, false);
    const listed = await listComments(guest.rest, { 'entry-id': w.conceptId });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([existing]);
    expectError(await postComment(guest.rest, { 'entry-id': w.conceptId }, { text: 'hello' }), 403);
    expect((await listComments(w.author.rest, { 'entry-id': w.conceptId })).body).toHaveLength(1);

    // The setting counts when the guest posts, not when the session began.
    const settings = await w.admin.put('/users/guest', {
      enabled: true,
      username: guest.username,
      loginMethod: 'NORMAL',
      enableCommenting: true,
    });
    expect(settings.status, settings.text).toBe(200);
    const created = await postComment(
      guest.rest,
      { 'entry-id': w.termId, 'field-level': 'TERM' },
      { text: 'hello' },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ text: 'hello', authorName: 'Guest', fieldLevel: 'TERM' });
  });

  it('with enableCommenting a guest posts, but deletes nothing (403), not even their own', async () => {
    const w = await world();
    const guest = await guestOf(w, true);
    const created = await comment(guest.rest, { 'entry-id': w.conceptId }, 'from a guest');
    expect(created.userId).toEqual(expect.any(Number));
    expectError(await deleteComment(guest.rest, created.id), 403);
    const other = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'from a user');
    expectError(await deleteComment(guest.rest, other.id), 403);
    // A guest still cannot see sections the Guests group may not read.
    expectError(await postComment(guest.rest, { 'entry-id': w.secretConceptId }, { text: 'x' }), 404);
    expect((await listComments(w.author.rest, { 'entry-id': w.conceptId })).body).toHaveLength(2);
  });
});

describe('DELETE /comments/{id}', () => {
  it('the author deletes (204 text/plain); the comment is gone', async () => {
    const w = await world();
    const created = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'mine');
    const kept = await comment(w.other.rest, { 'entry-id': w.conceptId }, 'theirs');
    const deleted = await deleteComment(w.author.rest, created.id);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');
    expect(String(deleted.headers['content-type'])).toContain('text/plain');
    expect((await listComments(w.author.rest, { 'entry-id': w.conceptId })).body).toEqual([kept]);
    expect(await rows(t, 'select id from comments where id = ?', [created.id])).toEqual([]);
    expectError(await deleteComment(w.author.rest, created.id), 404);
  });

  it('another user may not delete (403) and nothing changes', async () => {
    const w = await world();
    const created = await comment(w.author.rest, { 'entry-id': w.termId, 'field-level': 'TERM' }, 'mine');
    expectError(await deleteComment(w.other.rest, created.id), 403);
    expect((await listComments(w.other.rest, { 'entry-id': w.termId, 'field-level': 'TERM' })).body).toEqual([
      created,
    ]);
  });

  it('an administrator of the dictionary deletes any comment; of another dictionary not', async () => {
    const w = await world();
    const created = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'to moderate');
    const second = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'for the client admin');
    const otherDictionary = await createDictionary(w.admin);
    const elsewhere = await loggedInUser(t, w.tenant, { roles: [dictionaryAdminRole(otherDictionary)] });
    expectError(await deleteComment(elsewhere.rest, created.id), 403);

    const moderator = await loggedInUser(t, w.tenant, { roles: [dictionaryAdminRole(w.dictionary)] });
    expect((await deleteComment(moderator.rest, created.id)).status).toBe(204);
    // Client administrators administer every dictionary of the client.
    expect((await deleteComment(w.admin, second.id)).status).toBe(204);
    expect((await listComments(w.author.rest, { 'entry-id': w.conceptId })).body).toEqual([]);
  });
});

describe('tRPC', () => {
  it('serves the same procedures to TypeScript callers', async () => {
    const w = await world();
    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': w.author.rest.token ?? '' } })],
    });
    const created = await trpc.comments.create.mutate({
      'entry-id': w.termId,
      'field-level': 'TERM',
      text: ' over tRPC ',
    });
    expect(created).toMatchObject({ text: 'over tRPC', fieldLevel: 'TERM', entryId: w.termId });
    expect(await trpc.comments.list.query({ 'entry-id': w.termId, 'field-level': 'TERM' })).toEqual([
      created,
    ]);
    await trpc.comments.delete.mutate({ id: created.id });
    expect(await trpc.comments.list.query({ 'entry-id': w.termId, 'field-level': 'TERM' })).toEqual([]);
  });
});

describe('commentsOf (batched reader for concept reads)', () => {
  it('groups the latest comments by concept, and inside by term; limit caps each entry', async () => {
    const w = await world();
    const secondTermId = await insertTerm(
      t,
      { clientId: w.tenant.id, dictionaryId: w.dictionary.id, conceptId: w.conceptId },
      { languageCode: 'deu' },
    );
    const c1 = await comment(w.author.rest, { 'entry-id': w.conceptId }, 'concept 1');
    const t1 = await comment(w.author.rest, { 'entry-id': w.termId, 'field-level': 'TERM' }, 'term 1');
    const c2 = await comment(w.other.rest, { 'entry-id': w.conceptId }, 'concept 2');
    const t2 = await comment(w.other.rest, { 'entry-id': w.termId, 'field-level': 'TERM' }, 'term 2');
    const s1 = await comment(
      w.author.rest,
      { 'entry-id': secondTermId, 'field-level': 'TERM' },
      'second term',
    );
    const o1 = await comment(w.author.rest, { 'entry-id': w.otherConceptId }, 'other concept');

    const all = await commentsOf(t.orm.em.fork(), [w.conceptId, w.otherConceptId, w.secretConceptId]);
    expect([...all.keys()].sort()).toEqual([w.conceptId, w.otherConceptId, w.secretConceptId].sort());
    expect(all.get(w.conceptId)!.concept).toEqual([c2, c1]);
    expect(all.get(w.conceptId)!.terms).toEqual(
      new Map([
        [w.termId, [t2, t1]],
        [secondTermId, [s1]],
      ]),
    );
    expect(all.get(w.otherConceptId)).toEqual({ concept: [o1], terms: new Map() });
    expect(all.get(w.secretConceptId)).toEqual({ concept: [], terms: new Map() });

    const capped = await commentsOf(t.orm.em.fork(), [w.conceptId, w.otherConceptId], 1);
    expect(capped.get(w.conceptId)!.concept).toEqual([c2]);
    expect(capped.get(w.conceptId)!.terms).toEqual(
      new Map([
        [w.termId, [t2]],
        [secondTermId, [s1]],
      ]),
    );
    expect(capped.get(w.otherConceptId)!.concept).toEqual([o1]);

    expect((await commentsOf(t.orm.em.fork(), [])).size).toBe(0);
  });
});
