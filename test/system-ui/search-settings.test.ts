/** GET/PUT /user-search-settings and PUT /user-search-settings/setting. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDictionary } from '../factories/dictionary.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  type ErrorBody,
  guestSession,
  type Member,
  member,
  newWorld,
  sql,
  type World,
} from './system-ui-helpers.js';

let t: TestApp;
let sysadmin: RestClient;
let world: World;

beforeAll(async () => {
  t = await buildTestApp({ MAX_PAGE_SIZE: '200' });
  sysadmin = await loginSysadmin(t.app);
  world = await newWorld(t, sysadmin);
});
afterAll(() => t.close());

interface Settings {
  userId: number;
  userOid: string | null;
  clientId: number;
  version: number;
  defaultDictionaryIds: number[];
  sourceLanguage: string | null;
  targetLanguages: string[];
  searchMode: 'PREFIX' | 'SUBSTRING' | 'EXACT';
  normalized: boolean;
  fuzzy: boolean;
  fuzziness: number;
  pageSize: number;
  multiAllFields: boolean;
  sectionOids: string[];
  resultColumns: string[]; // result-columns
}
type Reply = Settings & ErrorBody;

const DEFAULTS = {
  defaultDictionaryIds: [],
  sourceLanguage: null,
  targetLanguages: [],
  searchMode: 'PREFIX',
  normalized: true,
  fuzzy: false,
  fuzziness: 1,
  pageSize: 20,
  multiAllFields: false,
  sectionOids: [],
  resultColumns: [], // result-columns
};

async function read(caller: RestClient, query = ''): Promise<Settings> {
  const response = await caller.get<Settings>(`/user-search-settings${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const put = (caller: RestClient, body: Record<string, unknown>, query = '') =>
  caller.put<Reply>(`/user-search-settings${query}`, body);

const setOne = (caller: RestClient, setting: string, values: unknown, extra = '') =>
  caller.call<Reply>('PUT', `/user-search-settings/setting?setting=${encodeURIComponent(setting)}${extra}`, {
    json: values,
  });

/** A dictionary of the client with one section, and that section's oid. */
async function dictionaryOf(clientId: number): Promise<{ id: number; sectionOid: string }> {
  const dictionary = await createDictionary(t.orm, clientId);
  const [section] = await sql<{ oid: string }>(t, 'select oid from sections where id = ?', [
    dictionary.sectionIds[0],
  ]);
  return { id: dictionary.id, sectionOid: section!.oid };
}

const storedRows = async (userId: number) =>
  sql<{ client_id: number; session_id: number | null; settings: Record<string, unknown> }>(
    t,
    'select client_id, session_id, settings from user_search_settings where user_id = ? order by id',
    [userId],
  );

describe('GET /user-search-settings', () => {
  it("creates the caller's settings with the defaults on first read, once", async () => {
    const user = await member(t, world);
    expect(await storedRows(user.id)).toEqual([]);
    const settings = await read(user.rest);
    expect(settings).toEqual({
      userId: user.id,
      userOid: null,
      clientId: world.tenant.id,
      version: 1,
      ...DEFAULTS,
    });
    expect(await read(user.rest)).toEqual(settings);
    const rows = await storedRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ client_id: world.tenant.id, session_id: null });
  });

  it('with ALWAYS_WILDCARD the default search mode is SUBSTRING', async () => {
    const wildcard = await buildTestApp({ ALWAYS_WILDCARD: 'true' });
    try {
      const root = await loginSysadmin(wildcard.app);
      const w = await newWorld(wildcard, root);
      const user = await member(wildcard, w);
      const settings = await user.rest.get<Settings>('/user-search-settings');
      expect(settings.body.searchMode).toBe('SUBSTRING');
    } finally {
      await wildcard.close();
    }
  });

  it("another user's settings: administrators of the client only; others and other clients 404", async () => {
    const user = await member(t, world);
    const other = await member(t, world);
    const editor = await member(t, world, ['USEREDITOR']);
    const foreign = await newWorld(t, sysadmin);
    expect((await read(world.admin, `?user-id=${user.id}`)).userId).toBe(user.id);
    for (const caller of [other.rest, editor.rest, foreign.admin]) {
      const response = await caller.get<ErrorBody>(`/user-search-settings?user-id=${user.id}`);
      expect(response.status, response.text).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
    // Asking for oneself by id is fine.
    expect((await read(other.rest, `?user-id=${other.id}`)).userId).toBe(other.id);
    expect((await new RestClient(t.app).get('/user-search-settings')).status).toBe(401);
  });
});

describe('PUT /user-search-settings', () => {
  let user: Member;
  let dictionary: { id: number; sectionOid: string };
  beforeAll(async () => {
    user = await member(t, world);
    dictionary = await dictionaryOf(world.tenant.id);
  });

  it('stores every attribute of the object sent with its version', async () => {
    const before = await read(user.rest);
    const wanted = {
      defaultDictionaryIds: [dictionary.id],
      sourceLanguage: 'eng',
      targetLanguages: ['deu', 'fra-CA'],
      searchMode: 'SUBSTRING',
      normalized: false,
      fuzzy: true,
      fuzziness: 2,
      pageSize: 200,
      multiAllFields: true,
      sectionOids: [dictionary.sectionOid],
    };
    const response = await put(user.rest, { ...before, ...wanted });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ...before, ...wanted, version: before.version + 1 });
    expect(await read(user.rest)).toEqual(response.body);
  });

  it('missing or null attributes take their default', async () => {
    const before = await read(user.rest);
    const response = await put(user.rest, { version: before.version, fuzzy: true, sourceLanguage: null });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ...before, ...DEFAULTS, fuzzy: true, version: before.version + 1 });
  });

  it('a missing or stale version: 409, nothing changes', async () => {
    const before = await read(user.rest);
    const { version: _version, ...withoutVersion } = before;
    for (const body of [
      { ...withoutVersion, pageSize: 7 },
      { ...before, version: before.version + 5, pageSize: 7 },
    ]) {
      const response = await put(user.rest, body);
      expect(response.status, response.text).toBe(409);
      expect(response.body.code).toBe('CONFLICT');
    }
    expect((await read(user.rest)).pageSize).toBe(before.pageSize);
  });

  it('invalid values: 400 (pageSize above MAX_PAGE_SIZE, fuzziness 3, unknown mode, foreign dictionary)', async () => {
    const before = await read(user.rest);
    const foreign = await dictionaryOf((await newWorld(t, sysadmin)).tenant.id);
    for (const change of [
      { pageSize: 201 },
      { pageSize: 0 },
      { fuzziness: 3 },
      { searchMode: 'FUZZY' },
      { sourceLanguage: 'not a language' },
      { defaultDictionaryIds: [foreign.id] },
      { defaultDictionaryIds: [999_999_999] },
      { sectionOids: [foreign.sectionOid] },
    ]) {
      const response = await put(user.rest, { ...before, ...change });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    expect(await read(user.rest)).toEqual(before);
  });

  it("administrators set another user's settings through user-id or userId; user-id and userId must agree", async () => {
    const target = await member(t, world);
    const before = await read(world.admin, `?user-id=${target.id}`);
    const byQuery = await put(world.admin, { ...before, pageSize: 50 }, `?user-id=${target.id}`);
    expect(byQuery.status, byQuery.text).toBe(200);
    const byBody = await put(world.admin, { ...byQuery.body, pageSize: 60 });
    expect(byBody.status, byBody.text).toBe(200);
    expect((await read(target.rest)).pageSize).toBe(60);
    const admin = await read(world.admin);
    expect(admin.pageSize).toBe(20);
    const clash = await put(world.admin, { ...byBody.body, pageSize: 70 }, `?user-id=${admin.userId}`);
    expect(clash.status).toBe(400);
    // An ordinary user cannot write another user's settings (404, as for reading).
    const other = await member(t, world);
    expect((await put(other.rest, { ...byBody.body, pageSize: 80 })).status).toBe(404);
    expect((await read(target.rest)).pageSize).toBe(60);
  });
});

describe('PUT /user-search-settings/setting', () => {
  let user: Member;
  beforeAll(async () => {
    user = await member(t, world);
  });

  it('sets one attribute from an array of strings, without a version', async () => {
    const dictionary = await dictionaryOf(world.tenant.id);
    const before = await read(user.rest);
    const steps: [string, string[], Partial<Settings>][] = [
      ['searchMode', ['exact'], { searchMode: 'EXACT' }],
      ['fuzzy', ['true'], { fuzzy: true }],
      ['fuzziness', ['0'], { fuzziness: 0 }],
      ['pageSize', ['150'], { pageSize: 150 }],
      ['normalized', ['FALSE'], { normalized: false }],
      ['multiAllFields', ['true'], { multiAllFields: true }],
      ['resultColumns', ['section', 'field:status'], { resultColumns: ['section', 'field:status'] }], // result-columns
      ['sourceLanguage', ['eng'], { sourceLanguage: 'eng' }],
      ['sourceLanguage', [], { sourceLanguage: null }],
      ['targetLanguages', ['deu', 'ita'], { targetLanguages: ['deu', 'ita'] }],
      ['defaultDictionaryIds', [String(dictionary.id)], { defaultDictionaryIds: [dictionary.id] }],
      ['sectionOids', [dictionary.sectionOid], { sectionOids: [dictionary.sectionOid] }],
    ];
    let expected: Settings = before;
    for (const [setting, values, change] of steps) {
      const response = await setOne(user.rest, setting, values);
      expect(response.status, `${setting} ${response.text}`).toBe(200);
      expected = { ...expected, ...change, version: expected.version + 1 };
      expect(response.body).toEqual(expected);
    }
    expect(await read(user.rest)).toEqual(expected);
  });

  it('an unknown setting, a read-only one or a value of the wrong kind: 400', async () => {
    const before = await read(user.rest);
    const cases: [string, unknown][] = [
      ['colour', ['blue']],
      ['', ['x']],
      ['version', ['7']],
      ['userOid', ['x']],
      ['fuzzy', ['maybe']],
      ['fuzzy', ['true', 'false']],
      ['fuzziness', ['1.5']],
      ['fuzziness', ['3']],
      ['pageSize', ['201']],
      ['pageSize', []],
      ['searchMode', ['FUZZY']],
      ['sourceLanguage', ['eng', 'deu']],
      ['defaultDictionaryIds', ['abc']],
      ['defaultDictionaryIds', ['999999999']],
      ['targetLanguages', [1, 2]],
      ['targetLanguages', 'deu'],
      ['targetLanguages', { values: ['deu'] }],
      ['resultColumns', ['<b>']], // result-columns
    ];
    for (const [setting, values] of cases) {
      const response = await setOne(user.rest, setting, values);
      expect(response.status, `${setting} ${JSON.stringify(values)} ${response.text}`).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    const missing = await user.rest.call<Reply>('PUT', '/user-search-settings/setting', { json: ['x'] });
    expect(missing.status).toBe(400);
    expect(await read(user.rest)).toEqual(before);
  });

  it('user-id: administrators only (others 404); without a token 401', async () => {
    const target = await member(t, world);
    const byAdmin = await setOne(world.admin, 'pageSize', ['42'], `&user-id=${target.id}`);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect((await read(target.rest)).pageSize).toBe(42);
    const byOther = await setOne(user.rest, 'pageSize', ['43'], `&user-id=${target.id}`);
    expect(byOther.status).toBe(404);
    expect((await read(target.rest)).pageSize).toBe(42);
    const anonymous = await setOne(new RestClient(t.app), 'pageSize', ['43']);
    expect(anonymous.status).toBe(401);
  });
});

describe('guests', () => {
  it('read their settings; change them only when the guest settings enable search modes', async () => {
    const w = await newWorld(t, sysadmin);
    const guest = await guestSession(t, w, { enableSearchModes: false });
    const settings = await read(guest);
    expect(settings.pageSize).toBe(20);
    for (const response of [
      await put(guest, { ...settings, pageSize: 30 }),
      await setOne(guest, 'pageSize', ['30']),
    ]) {
      expect(response.status, response.text).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    const allowed = await guestSession(t, w, { enableSearchModes: true });
    const changed = await setOne(allowed, 'pageSize', ['30']);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.pageSize).toBe(30);
  });

  it("a guest session's changes stay in that session; the guest account's settings are the starting point", async () => {
    const w = await newWorld(t, sysadmin);
    const first = await guestSession(t, w, { enableSearchModes: true });
    const second = await guestSession(t, w, { enableSearchModes: true });
    const [guestUser] = await sql<{ id: number }>(
      t,
      "select id from users where client_id = ? and username = 'guest'",
      [w.tenant.id],
    );
    // The administrator sets what every guest starts with.
    const base = await read(w.admin, `?user-id=${guestUser!.id}`);
    expect((await put(w.admin, { ...base, searchMode: 'EXACT' }, `?user-id=${guestUser!.id}`)).status).toBe(
      200,
    );

    const changed = await setOne(first, 'pageSize', ['35']);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ pageSize: 35, searchMode: 'EXACT' });
    const full = await put(first, { ...changed.body, fuzzy: true });
    expect(full.status, full.text).toBe(200);
    expect(await read(first)).toMatchObject({ pageSize: 35, fuzzy: true, searchMode: 'EXACT' });
    expect(await read(second)).toMatchObject({ pageSize: 20, fuzzy: false, searchMode: 'EXACT' });
    expect((await read(w.admin, `?user-id=${guestUser!.id}`)).pageSize).toBe(20);
    const rows = await storedRows(guestUser!.id);
    expect(rows.filter((row) => row.session_id !== null)).toHaveLength(1);

    // Once that session is over, its row goes when another guest session keeps settings of its own.
    const logout = await first.post('/logout');
    expect(logout.status).toBe(204);
    expect((await setOne(second, 'fuzzy', ['true'])).status).toBe(200);
    const after = await storedRows(guestUser!.id);
    expect(after.filter((row) => row.session_id !== null)).toHaveLength(1);
  });
});

describe('settings are per client', () => {
  it('a user acting in a mapped client has settings of that client there', async () => {
    const other = await newWorld(t, sysadmin);
    const user = await member(t, world);
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [user.id],
      clients: [other.tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    expect((await setOne(user.rest, 'pageSize', ['11'])).status).toBe(200);
    const switched = await user.rest.post('/switch-client', { client_id: other.tenant.id });
    expect(switched.status, switched.text).toBe(200);
    const there = await read(user.rest);
    expect(there).toMatchObject({ clientId: other.tenant.id, pageSize: 20 });
    const rows = await storedRows(user.id);
    expect(rows.map((row) => row.client_id).sort()).toEqual([world.tenant.id, other.tenant.id].sort());
  });
});
