/**
 * Concurrent writers: optimistic versions (two writers with one version, exactly one wins, nothing is
 * lost) and edit locks (two users racing, refusals while held, release, logout, timeout, and two server
 * instances agreeing because locks live in PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories/tenant.js';
import { loginRest } from '../helpers/rest.js';
import { expectError } from '../helpers/structure.js';
import {
  Api,
  type ConceptBody,
  conceptWorld,
  createConcept,
  getConcept,
  patchConcept,
  putConcept,
  rows,
  type Server,
  startServer,
  userOf,
  type World,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** Two editors of the world's dictionary (dictionary administrators, not client administrators). */
async function editors(server: Server, w: World) {
  const role = `DICTIONARY_ADMIN@${w.dictionary.oid}`;
  const [first, second] = await Promise.all([userOf(server, w, [role]), userOf(server, w, [role])]);
  return { first: first!, second: second! };
}

const acquire = (api: Api, id: number) => api.put<boolean>(`/concepts/${id}/acquire-lock`);
const release = (api: Api, id: number) => api.put<boolean>(`/concepts/${id}/release-lock`);

async function expectLockAnswer(
  answer: Promise<{ status: number; body: unknown; text: string }>,
  value: boolean,
) {
  const response = await answer;
  expect(response.status, response.text).toBe(200);
  expect(response.body).toBe(value);
}

describe('optimistic versions', () => {
  it('two full updates with the same version: exactly one 200, the other 409; the winner is stored, the loser retries', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    for (let round = 0; round < 5; round++) {
      const created = await createConcept(w.admin, w, { fieldMap: { [w.cf.Note]: 'start' } });
      const answers = await Promise.all([
        putConcept(first.api, created, { fieldMap: { [w.cf.Note]: 'start', [w.cf.Definition]: 'by first' } }),
        putConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'start', [w.cf.Amount]: '2' } }),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect([...statuses].sort(), answers.map((answer) => answer.text).join('\n')).toEqual([200, 409]);
      const winner = statuses.indexOf(200);
      const loser = 1 - winner;
      expect(answers[loser]!.body.code).toBe('CONFLICT');

      const stored = await getConcept(w.admin, created.id);
      expect(stored.version).toBe(created.version + 1);
      expect(stored).toEqual(answers[winner]!.body);
      const history = await rows<{ revision: number; action: string }>(
        s.t,
        'select revision, action from concept_history where concept_id = ? order by id',
        [created.id],
      );
      expect(history).toEqual([
        { revision: created.version, action: 'CREATE' },
        { revision: created.version + 1, action: 'UPDATE' },
      ]);

      // The loser merges its change into the new version: both changes are kept.
      const retry = await patchConcept(
        [first.api, second.api][loser]!,
        stored,
        loser === 0 ? { fieldMap: { [w.cf.Definition]: 'by first' } } : { fieldMap: { [w.cf.Amount]: '2' } },
      );
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.fieldMap).toEqual({
        [w.cf.Note]: ['start'],
        [w.cf.Definition]: ['by first'],
        [w.cf.Amount]: ['2'],
      });
    }
  });

  it('ten patches racing with one version: one wins, nine get 409', async () => {
    const w = await conceptWorld(s);
    const created = await createConcept(w.admin, w);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        patchConcept(w.admin, created, { fieldMap: { [w.cf.Note]: `writer ${index}` } }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);
    const stored = await getConcept(w.admin, created.id);
    expect(stored.version).toBe(created.version + 1);
    expect(stored.fieldMap).toEqual(winners[0]!.body.fieldMap);
  });

  it('term changes race too: two writers adding terms at one version never both succeed', async () => {
    const w = await conceptWorld(s);
    const created = await createConcept(w.admin, w, { terms: [] });
    const answers = await Promise.all([
      patchConcept(w.admin, created, { terms: [{ name: 'one', languageCode: 'eng' }] }),
      patchConcept(w.admin, created, { terms: [{ name: 'two', languageCode: 'deu' }] }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const live = await rows(s.t, 'select name from terms where concept_id = ? and not deleted', [created.id]);
    expect(live).toHaveLength(1);
  });
});

describe('edit locks', () => {
  it('two users racing for the lock: exactly one gets true; the concept shows the holder', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    for (let round = 0; round < 5; round++) {
      const created = await createConcept(w.admin, w);
      const answers = await Promise.all([acquire(first.api, created.id), acquire(second.api, created.id)]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      expect(answers.map((answer) => answer.body).sort()).toEqual([false, true]);
      const holder = answers[0]!.body ? first : second;
      const other = holder === first ? second : first;

      const seenByHolder = await getConcept(holder.api, created.id);
      expect(seenByHolder.lock).toMatchObject({ userId: holder.id, name: holder.username, mine: true });
      expect(seenByHolder.lock!.expirationTime).toBeGreaterThan(Date.now());
      const seenByOther = await getConcept(other.api, created.id);
      expect(seenByOther.lock).toMatchObject({ userId: holder.id, mine: false });
      const [lockRows] = await rows<{ n: number }>(
        s.t,
        'select count(*)::int as n from concept_locks where concept_id = ?',
        [created.id],
      );
      expect(lockRows!.n).toBe(1);
    }
  });

  it('while another user holds the lock, update, patch and delete answer 409 naming the holder; the holder may write', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(acquire(first.api, created.id), true);

    const put = await putConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'second' } });
    expectError(put, 409);
    expect(put.body.message).toMatch(/locked/i);
    expect(put.body.message).toContain(`User ${first.username}`);
    expectError(await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'second' } }), 409);
    const deleted = await second.api.delete(`/concepts/${created.id}`);
    expectError(deleted, 409);
    expect(deleted.body.message).toMatch(/locked/i);
    // Client administrators are refused too (they may break the lock, not write through it).
    expectError(await patchConcept(w.admin, created, { fieldMap: { [w.cf.Note]: 'admin' } }), 409);
    expect(await getConcept(w.admin, created.id)).toMatchObject({ version: created.version, deleted: false });
    // The other user cannot take the lock either.
    await expectLockAnswer(acquire(second.api, created.id), false);

    const mine = await patchConcept(first.api, created, { fieldMap: { [w.cf.Note]: 'first' } });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.lock).toMatchObject({ userId: first.id, mine: true });
    expect((await first.api.delete(`/concepts/${created.id}`)).status).toBe(204);
    expect(await rows(s.t, 'select 1 from concept_locks where concept_id = ?', [created.id])).toEqual([]);
  });

  it('release: the holder gets true and the other user can acquire; a non-holder gets false and the lock stays', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(acquire(first.api, created.id), true);
    await expectLockAnswer(release(second.api, created.id), false);
    await expectLockAnswer(acquire(second.api, created.id), false);

    await expectLockAnswer(release(first.api, created.id), true);
    expect((await getConcept(first.api, created.id)).lock).toBeNull();
    await expectLockAnswer(acquire(second.api, created.id), true);
    expectError(await patchConcept(first.api, created, { fieldMap: { [w.cf.Note]: 'x' } }), 409);
    const own = await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'y' } });
    expect(own.status, own.text).toBe(200);
    // Releasing an unlocked concept answers true.
    await expectLockAnswer(release(second.api, created.id), true);
    await expectLockAnswer(release(second.api, created.id), true);
  });

  it('the /concepts/acquire-lock?concept-id= and release-lock variants behave alike', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(first.api.put(`/concepts/acquire-lock?concept-id=${created.id}`), true);
    await expectLockAnswer(second.api.put(`/concepts/acquire-lock?concept-id=${created.id}`), false);
    await expectLockAnswer(second.api.put(`/concepts/release-lock?concept-id=${created.id}`), false);
    await expectLockAnswer(first.api.put(`/concepts/release-lock?concept-id=${created.id}`), true);
    await expectLockAnswer(second.api.put(`/concepts/acquire-lock?concept-id=${created.id}`), true);
    expectError(await first.api.put('/concepts/acquire-lock?concept-id=999999999'), 404);
  });

  it('acquiring again renews the lock; a client administrator may break it', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(acquire(first.api, created.id), true);
    const before = (await getConcept(first.api, created.id)).lock!.expirationTime;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expectLockAnswer(acquire(first.api, created.id), true);
    expect((await getConcept(first.api, created.id)).lock!.expirationTime).toBeGreaterThan(before);

    await expectLockAnswer(release(w.admin, created.id), true);
    const write = await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'free again' } });
    expect(write.status, write.text).toBe(200);
  });

  it("take-over-lock moves the caller's own lock from their other session, never another user's", async () => {
    const w = await conceptWorld(s);
    const user = await createUser(s.t.orm, w.tenant.id, { roles: [`DICTIONARY_ADMIN@${w.dictionary.oid}`] });
    const login = () => loginRest(s.t.app, user.username, user.password, w.tenant.loginName);
    const [firstTab, secondTab] = (await Promise.all([login(), login()])).map((rest) => s.api(rest));
    const { second: colleague } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    const takeOver = (api: Api) => api.put<boolean>(`/concepts/${created.id}/take-over-lock`);

    await expectLockAnswer(acquire(firstTab!, created.id), true);
    await expectLockAnswer(acquire(secondTab!, created.id), false);
    await expectLockAnswer(takeOver(colleague.api), false);
    await expectLockAnswer(takeOver(secondTab!), true);
    expect((await getConcept(secondTab!, created.id)).lock).toMatchObject({ userId: user.id, mine: true });
    // The first tab's edit now meets the lock of the second.
    expectError(await patchConcept(firstTab!, created, { fieldMap: { [w.cf.Note]: 'first tab' } }), 409);
    const saved = await patchConcept(secondTab!, created, { fieldMap: { [w.cf.Note]: 'second tab' } });
    expect(saved.status, saved.text).toBe(200);
    // Unlocked: taking over sets the lock; another user's lock cannot be taken over.
    await expectLockAnswer(release(secondTab!, created.id), true);
    await expectLockAnswer(takeOver(colleague.api), true);
    await expectLockAnswer(takeOver(firstTab!), false);
    expectError(await firstTab!.put('/concepts/999999999/take-over-lock'), 404);
  });

  it("a lock ends with its holder's session (POST /logout)", async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(acquire(first.api, created.id), true);
    expectError(await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'x' } }), 409);

    const logout = await first.api.post('/logout');
    expect(logout.status, logout.text).toBe(204);
    expect((await getConcept(second.api, created.id)).lock).toBeNull();
    const write = await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'after logout' } });
    expect(write.status, write.text).toBe(200);
    await expectLockAnswer(acquire(second.api, created.id), true);
  });
});

describe('lock timeout and several server instances', () => {
  let short: Server;
  beforeAll(async () => {
    short = await startServer({ CONCEPT_LOCK_TIMEOUT: '1' });
  });
  afterAll(() => short.close());

  it('a lock ends after CONCEPT_LOCK_TIMEOUT seconds', async () => {
    const w = await conceptWorld(short);
    const { first, second } = await editors(short, w);
    const created = await createConcept(w.admin, w);
    await expectLockAnswer(acquire(first.api, created.id), true);
    await expectLockAnswer(acquire(second.api, created.id), false);
    expectError(await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'too early' } }), 409);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await getConcept(second.api, created.id)).lock).toBeNull();
    const write = await patchConcept(second.api, created, { fieldMap: { [w.cf.Note]: 'after timeout' } });
    expect(write.status, write.text).toBe(200);
    await expectLockAnswer(acquire(second.api, created.id), true);
  });

  it('two server instances on one database agree on locks and versions', async () => {
    const w = await conceptWorld(s);
    const { first, second } = await editors(s, w);
    const created = await createConcept(w.admin, w);
    // The same sessions, through the other instance.
    const firstThere = new Api(short.base, first.api.token);
    const secondThere = new Api(short.base, second.api.token);

    await expectLockAnswer(acquire(first.api, created.id), true);
    await expectLockAnswer(acquire(secondThere, created.id), false);
    expectError(await patchConcept(secondThere, created, { fieldMap: { [w.cf.Note]: 'x' } }), 409);
    const mine = await patchConcept(firstThere, created, { fieldMap: { [w.cf.Note]: 'through the other' } });
    expect(mine.status, mine.text).toBe(200);
    await expectLockAnswer(release(firstThere, created.id), true);

    const answers = await Promise.all([
      patchConcept(first.api, mine.body, { fieldMap: { [w.cf.Note]: 'here' } }),
      patchConcept(secondThere, mine.body, { fieldMap: { [w.cf.Note]: 'there' } }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const stored: ConceptBody = await getConcept(w.admin, created.id);
    expect(stored.version).toBe(mine.body.version + 1);
  });
});
