/**
 * The access cache (src/modules/access/access-cache.ts) never serves a stale permission: two servers on
 * one database, a search through server A warms A's cache, a change made through server B reaches A
 * within one second (the notification of Migration20270107140000_access_notify). Each kind of change
 * the cache depends on: logout, an expired token, a disabled user, roles, group members, permission
 * rules, sections, workflow states, a deleted dictionary, a deactivated client.
 *
 * The suites share one database, so other files' writes also empty A's cache now and then; that can
 * only make A read the database sooner, never keep a stale answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessCacheOf } from '../../src/modules/access/access-cache.js';
import { hashSecret } from '../../src/modules/auth/tokens.js';
import {
  Api,
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  grant,
  groupWith,
  rows,
  updateDictionary,
} from '../helpers/structure.js';
import { type SearchResponse, word } from '../search/search-helpers.js';
import { patchGroup } from './access-helpers.js';

/** The bound of the issue: a change holds on every server within one second. */
const BOUND_MS = 1_000;

let a: Server;
let b: Server;
let world: World;

beforeAll(async () => {
  a = await startServer({ ACCESS_CACHE: 'true' });
  b = await startServer({ ACCESS_CACHE: 'true' });
  world = await conceptWorld(b);
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

type User = Awaited<ReturnType<typeof userOf>>;

/** The same session's token, over server A's socket. */
const onA = (user: User) => new Api(a.base, user.rest.token);

const searchBody = (dictionary: { id: number }, name: string, extra: Record<string, unknown> = {}) => ({
  dictionaryIds: [dictionary.id],
  langCode: 'eng',
  sectionOids: [],
  name,
  ...extra,
});

/** A search on A, twice: the second is served from the cache the first filled. */
async function warm(caller: Api, body: Record<string, unknown>) {
  await caller.post<SearchResponse>('/terms/search', body);
  return caller.post<SearchResponse>('/terms/search', body);
}

/**
 * Polls `check` for the bound (measured from the change's answer) and fails when it never held; the
 * time it took is returned for the message.
 */
async function holdsWithinBound(check: () => Promise<boolean>, boundMs = BOUND_MS): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > boundMs) throw new Error(`the change did not reach server A in ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function termIn(dictionary: { id: number; sections: { oid: string | null }[] }, name: string) {
  await createConcept(world.admin, world, {
    dictionaryId: dictionary.id,
    sectionOid: dictionary.sections[0]!.oid,
    terms: [{ name, languageCode: 'eng' }],
  });
}

/** A dictionary of the world's tenant readable only by `group` (DICT_READ), holding one term. */
async function restrictedDictionary(groupId: number) {
  const scheme = await createScheme(world.adminRest, [grant(groupId, ['DICT_READ'])]);
  const dictionary = await createDictionary(world.adminRest, {
    languages: [{ code: 'eng' }],
    permissionSchemeId: scheme.id,
  });
  const name = word();
  await termIn(dictionary, name);
  return { dictionary, scheme, name };
}

describe('server A sees changes made on server B within one second', () => {
  it('holds the session, the search context and the keys of a warm search', async () => {
    const user = await userOf(b, world);
    const name = word();
    await termIn(world.dictionary, name);
    const cache = accessCacheOf(a.t.orm.em.fork())!;
    expect(cache).not.toBeNull();
    // The session, the search context and the text's keys; retried, since another suite's write may
    // empty the cache at any moment.
    let held = false;
    for (let attempt = 0; attempt < 10 && !held; attempt++) {
      const answer = await warm(onA(user), searchBody(world.dictionary, name));
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.total).toBe(1);
      held = cache.size >= 3;
    }
    expect(held).toBe(true);
  });

  it('a logout', async () => {
    const user = await userOf(b, world);
    const body = searchBody(world.dictionary, 'x');
    expect((await warm(onA(user), body)).status).toBe(200);
    expect((await user.rest.call('POST', '/logout')).status).toBe(204);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 401);
  });

  it('an expired token (the expiry is checked on every cached hit)', async () => {
    const user = await userOf(b, world);
    const body = searchBody(world.dictionary, 'x');
    expect((await warm(onA(user), body)).status).toBe(200);
    await rows(
      b.t,
      `update sessions set expires_at = now() + interval '700 milliseconds' where token_hash = ?`,
      [hashSecret(user.rest.token!)],
    );
    // Warm again on the shortened session: a hit must still notice the expiry.
    expect((await warm(onA(user), body)).status).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 401, 1_700);
  });

  it('a disabled user', async () => {
    const user = await userOf(b, world);
    const body = searchBody(world.dictionary, 'x');
    expect((await warm(onA(user), body)).status).toBe(200);
    const current = await world.adminRest.get<{ version: number }>(`/users/${user.id}`);
    const disabled = await world.adminRest.put(`/users/partial/${user.id}`, {
      active: false,
      version: current.body.version,
    });
    expect(disabled.status, disabled.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 401);
  });

  it('a change of roles', async () => {
    const nobody = await groupWith(world.adminRest, []);
    const { dictionary, name } = await restrictedDictionary(nobody.id);
    const user = await userOf(b, world);
    const body = searchBody(dictionary, name);
    expect((await warm(onA(user), body)).status).toBe(404);
    const current = await world.adminRest.get<{ version: number }>(`/users/${user.id}`);
    const promoted = await world.adminRest.put(`/users/partial/${user.id}`, {
      roles: ['ADMIN'],
      version: current.body.version,
    });
    expect(promoted.status, promoted.text).toBe(200);
    await holdsWithinBound(async () => {
      const answer = await onA(user).post<SearchResponse>('/terms/search', body);
      return answer.status === 200 && answer.body.total === 1;
    });
  });

  it('a change of group members', async () => {
    const user = await userOf(b, world);
    const readers = await groupWith(world.adminRest, []);
    const { dictionary, name } = await restrictedDictionary(readers.id);
    const body = searchBody(dictionary, name);
    expect((await warm(onA(user), body)).status).toBe(404);
    const joined = await patchGroup(world.adminRest, readers.id, { groupMembers: [user.id] });
    expect(joined.status, joined.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 200);
    const left = await patchGroup(world.adminRest, readers.id, { groupMembers: [] });
    expect(left.status, left.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 404);
  });

  it('a change of permission rules', async () => {
    const user = await userOf(b, world);
    const readers = await groupWith(world.adminRest, [user.id]);
    const { dictionary, scheme, name } = await restrictedDictionary(readers.id);
    const body = searchBody(dictionary, name);
    const warmed = await warm(onA(user), body);
    expect(warmed.status, warmed.text).toBe(200);
    const revoked = await world.adminRest.put(`/permissionschemes/partial/${scheme.id}`, {
      grants: [grant(readers.id, [])],
      version: scheme.version,
    });
    expect(revoked.status, revoked.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 404);
  });

  it('a change of sections', async () => {
    const user = await userOf(b, world);
    const nobody = await groupWith(world.adminRest, []);
    const closed = await createScheme(world.adminRest, [grant(nobody.id, ['DICT_READ'])]);
    const dictionary = await createDictionary(world.adminRest, { languages: [{ code: 'eng' }] });
    const name = word();
    await termIn(dictionary, name);
    const body = searchBody(dictionary, name);
    const warmed = await warm(onA(user), body);
    expect(warmed.status, warmed.text).toBe(200);
    expect(warmed.body.total).toBe(1);
    const section = dictionary.sections[0]! as { id: number; version: number };
    const hidden = await world.adminRest.put(`/sections/partial/${section.id}`, {
      permissionSchemeId: closed.id,
      version: section.version,
    });
    expect(hidden.status, hidden.text).toBe(200);
    // The dictionary's only section is no longer readable: the dictionary is as unknown (404).
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 404);
  });

  it('a change of workflow states (a hidden initial state)', async () => {
    const user = await userOf(b, world);
    const dictionary = await createDictionary(world.adminRest, { languages: [{ code: 'eng' }] });
    const name = word();
    await termIn(dictionary, name);
    const body = searchBody(dictionary, name);
    const warmed = await warm(onA(user), body);
    expect(warmed.body.total).toBe(1);
    const workflow = await world.adminRest.post('/workflows', {
      name: 'Hidden drafts',
      dictionaryId: dictionary.id,
      enabled: true,
      definition: {
        initialState: 'draft',
        states: [
          { key: 'draft', name: 'Draft', category: 'DRAFT', hidden: true },
          { key: 'approved', name: 'Approved', category: 'APPROVED' },
        ],
        transitions: [{ key: 'approve', name: 'Approve', from: ['draft'], to: 'approved', roles: ['ADMIN'] }],
      },
    });
    expect(workflow.status, workflow.text).toBe(201);
    await holdsWithinBound(async () => {
      const answer = await onA(user).post<SearchResponse>('/terms/search', body);
      return answer.status === 200 && answer.body.total === 0;
    });
  });

  it('a deleted dictionary', async () => {
    const user = await userOf(b, world);
    const dictionary: DictionaryBody = await createDictionary(world.adminRest, {
      languages: [{ code: 'eng' }],
    });
    const name = word();
    await termIn(dictionary, name);
    const body = searchBody(dictionary, name);
    expect((await warm(onA(user), body)).status).toBe(200);
    const deleted = await world.adminRest.delete(`/dictionaries/${dictionary.id}`);
    expect([200, 202, 204], deleted.text).toContain(deleted.status);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 404);
  });

  it('a change of the dictionary (its scheme)', async () => {
    const user = await userOf(b, world);
    const nobody = await groupWith(world.adminRest, []);
    const closed = await createScheme(world.adminRest, [grant(nobody.id, ['DICT_READ'])]);
    const dictionary = await createDictionary(world.adminRest, { languages: [{ code: 'eng' }] });
    const body = searchBody(dictionary, 'x');
    expect((await warm(onA(user), body)).status).toBe(200);
    const changed = await updateDictionary(world.adminRest, dictionary, { permissionSchemeId: closed.id });
    expect(changed.status, changed.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 404);
  });

  // Last: it closes the world's client.
  it('a deactivated client', async () => {
    const user = await userOf(b, world);
    const body = searchBody(world.dictionary, 'x');
    expect((await warm(onA(user), body)).status).toBe(200);
    const current = await b.sysadmin.get<{ version: number }>(`/clients/${world.tenant.id}`);
    const closed = await b.sysadmin.put(`/clients/partial/${world.tenant.id}`, {
      active: false,
      version: current.body.version,
    });
    expect(closed.status, closed.text).toBe(200);
    await holdsWithinBound(async () => (await onA(user).post('/terms/search', body)).status === 401);
  });
});

describe('what the cache serves', () => {
  it('nothing while notifications cannot be trusted, and no fill that began before an invalidation', async () => {
    const { AccessCache } = await import('../../src/modules/access/access-cache.js');
    const listener = { connected: true };
    const cache = new AccessCache(listener);
    const region = cache.region<string>('test');
    region.set('k', 'v', region.begin());
    expect(region.get('k')).toBe('v');
    listener.connected = false;
    expect(region.get('k')).toBeUndefined();
    region.set('other', 'v', region.begin());
    listener.connected = true;
    expect(region.get('other')).toBeUndefined();
    // A read that started before a change must not be stored after it.
    const epoch = region.begin();
    cache.clear();
    expect(region.get('k')).toBeUndefined();
    region.set('k', 'stale', epoch);
    expect(region.get('k')).toBeUndefined();
  });
});
