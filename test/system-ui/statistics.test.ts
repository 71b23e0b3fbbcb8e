// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * GET /system/statistics, /system/statistics/{year}/{month}, /system/statistics/online-users, and the
 * batched counting of API requests behind them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/modules/auth/tokens.js';
import { ApiRequestCounter, flushApiRequests } from '../../src/modules/statistics/api-request-counter.js';
import { daysBegun, formatAverage, formatDuration } from '../../src/modules/statistics/statistics.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  apiLogin,
  type ErrorBody,
  grantApiAccess,
  guestSession,
  loginWithSession,
  type Member,
  member,
  newWorld,
  sql,
  type World,
} from './system-ui-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Summary {
  visits: number;
  users: number;
  apiUsers: number;
  apiRequests: number;
  totalTime: string;
  installDate: number | null;
}

interface LogItem {
  userLogin: string;
  userId: number;
  clientLogin: string;
  loginTime: number;
  logoutTime: number | null;
  ipAddress: string | null;
  apiLogin: boolean;
  apiRequests: number;
}

interface Month {
  month: number;
  year: number;
  visits: number;
  users: number;
  apiVisits: number;
  apiRequests: number;
  totalTime: string;
  averageVisits: string;
  averageApiVisits: string;
  averageApiRequests: string;
  averageTime: string;
  onlineUsers: LogItem[];
}

interface OnlineUser {
  userLogin: string;
  userId: number;
  clientLogin: string;
  loginTime: number;
  lastUsageTime: number;
  ipAddress: string | null;
  partId: string;
  apiLogin: boolean;
  apiRequests: number;
}

async function summaryOf(caller: RestClient, query = ''): Promise<Summary> {
  const response = await caller.get<Summary>(`/system/statistics${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function onlineOf(caller: RestClient, query = ''): Promise<OnlineUser[]> {
  const response = await caller.get<OnlineUser[]>(`/system/statistics/online-users${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function monthOf(caller: RestClient, year: number, month: number, query = ''): Promise<Month> {
  const response = await caller.get<Month>(`/system/statistics/${year}/${month}${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const storedRequests = async (sessionId: number): Promise<number> =>
  (await sql<{ api_requests: number }>(t, 'select api_requests from sessions where id = ?', [sessionId]))[0]!
    .api_requests;

/** Makes `count` authenticated REST calls. */
async function requests(caller: RestClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await caller.get('/users/password-settings');
    expect(response.status, response.text).toBe(200);
  }
}

async function logout(caller: RestClient): Promise<void> {
  const response = await caller.post('/logout');
  expect(response.status, response.text).toBe(204);
}

/** Sets a session's login (and logout) time relative to now, in minutes. */
async function timeSession(sessionId: number, loginMinutesAgo: number, logoutMinutesAgo?: number) {
  await sql(
    t,
    `update sessions set created_at = now() - cast(? as int) * interval '1 minute',
       ended_at = case when ended_at is null then null else now() - cast(? as int) * interval '1 minute' end
     where id = ?`,
    [loginMinutesAgo, logoutMinutesAgo ?? 0, sessionId],
  );
}

const sessionOfToken = async (caller: RestClient): Promise<number> => {
  const [row] = await sql<{ id: number }>(t, 'select id from sessions where token_hash = ?', [
    hashSecret(caller.token!),
  ]);
  return row!.id;
};

describe('a scripted day: logins, API requests and logouts add up', () => {
  let world: World;
  let adminSession: number;
  const sessions: Record<string, number> = {};
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let apiKey: string;

  beforeAll(async () => {
    world = await newWorld(t, sysadmin);
    adminSession = await sessionOfToken(world.admin);
    alice = await member(t, world);
    bob = await member(t, world);
    carol = await member(t, world);
    // member() logged each in once; those sessions are part of the script.
    sessions.alice1 = await sessionOfToken(alice.rest);
    sessions.bobPlain = await sessionOfToken(bob.rest);
    sessions.carol = await sessionOfToken(carol.rest);
    apiKey = await grantApiAccess(world, sysadmin, [bob.id]);

    // alice: two requests, logout; then a second visit that stays online.
    await requests(alice.rest, 2);
    await logout(alice.rest);
    const alice2 = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: alice.username,
      password: alice.password,
    });
    sessions.alice2 = alice2.sessionId;
    await requests(alice2.rest, 1);

    // bob: the plain session ends; an API session makes 3 REST requests, one GraphQL request of two
    // fields, then logs out (the logout is a request too): 5.
    await logout(bob.rest);
    const api1 = await apiLogin(t, world, bob, apiKey);
    sessions.bobApi1 = api1.sessionId;
    await requests(api1.rest, 3);
    const graphql = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-auth-token': api1.rest.token! },
      payload: JSON.stringify({ query: '{ passwordSettings { regExp } roles { systemname } }' }),
    });
    expect(graphql.statusCode, graphql.body).toBe(200);
    expect(JSON.parse(graphql.body).errors).toBeUndefined();
    await logout(api1.rest);
    // A second API session with two requests, still online and not flushed yet.
    const api2 = await apiLogin(t, world, bob, apiKey);
    sessions.bobApi2 = api2.sessionId;
    await requests(api2.rest, 2);

    // carol: logs out at once.
    await logout(carol.rest);

    // Durations: ended visits 60 + 45 + 90 + 12 min; online: the admin for 30 min, bob's API session
    // for 15, alice's second visit just begun. 252 min = 4 h 12 min.
    await timeSession(sessions.alice1!, 120, 60);
    await timeSession(sessions.bobPlain!, 100, 55);
    await timeSession(sessions.bobApi1!, 95, 5);
    await timeSession(sessions.carol!, 20, 8);
    await timeSession(sessions.bobApi2!, 15);
    await timeSession(sessions.alice2!, 0);
    await timeSession(adminSession, 30);
  });

  it('the summary of the client counts every visit, user, API user and API request', async () => {
    const summary = await summaryOf(world.admin);
    expect(summary).toEqual({
      // admin, alice (2), bob (plain + 2 API), carol
      visits: 7,
      users: 4,
      apiUsers: 1,
      apiRequests: 7,
      totalTime: '4 h 12 min',
      installDate: expect.any(Number),
      openFeedback: 0,
    });
    const [first] = await sql<{ created_at: Date }>(t, 'select min(created_at) as created_at from clients');
    expect(summary.installDate).toBe(new Date(first!.created_at).getTime());
  });

  it('online users: the live sessions with partId, API flag and request count, newest first', async () => {
    const online = await onlineOf(world.admin);
    expect(online.map((user) => user.userLogin)).toEqual([alice.username, bob.username, 'admin']);
    const bobOnline = online.find((user) => user.userId === bob.id)!;
    expect(bobOnline).toMatchObject({
      clientLogin: world.tenant.loginName,
      apiLogin: true,
      apiRequests: 2,
      partId: expect.stringMatching(/^.{4}$/),
      ipAddress: expect.any(String),
    });
    expect(bobOnline.lastUsageTime).toBeGreaterThanOrEqual(0);
    const adminOnline = online.find((user) => user.userLogin === 'admin')!;
    expect(adminOnline.apiLogin).toBe(false);
    expect(adminOnline.apiRequests).toBe(0);
    const [cookie] = await sql<{ part_id: string }>(t, 'select part_id from sessions where id = ?', [
      adminSession,
    ]);
    expect(adminOnline.partId).toBe(cookie!.part_id);
  });

  it("a session that expired, was ended for the user, or whose user's expDate passed is not online", async () => {
    const w = await newWorld(t, sysadmin);
    const leaving = await member(t, w);
    const expiring = await member(t, w);
    const pastExpDate = await member(t, w);
    await sql(t, "update users set exp_date = now() - interval '1 second' where id = ?", [pastExpDate.id]);
    expect((await onlineOf(w.admin)).map((user) => user.userId)).toEqual([
      expiring.id,
      leaving.id,
      expect.any(Number),
    ]);
    const ended = await w.admin.call('POST', `/logout-user?user-id=${leaving.id}`);
    expect(ended.status, ended.text).toBe(204);
    await sql(t, "update sessions set expires_at = now() - interval '1 second' where user_id = ?", [
      expiring.id,
    ]);
    expect((await onlineOf(w.admin)).map((user) => user.userLogin)).toEqual(['admin']);
  });

  it('every login is a UserLogItem of the month, with logout time, IP, API flag and requests', async () => {
    const now = new Date();
    const month = await monthOf(world.admin, now.getUTCFullYear(), now.getUTCMonth() + 1);
    // Moving sessions back by up to two hours can cross the start of the month: count what is in it.
    const [inMonth] = await sql<{ count: number }>(
      t,
      `select count(*)::int as count from sessions where client_id = ?
       and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`,
      [world.tenant.id],
    );
    expect(month.visits).toBe(inMonth!.count);
    expect(month.onlineUsers).toHaveLength(inMonth!.count);
    const api = month.onlineUsers.find((item) => item.apiRequests === 5);
    if (api) {
      expect(api).toMatchObject({ userId: bob.id, apiLogin: true, clientLogin: world.tenant.loginName });
      expect(api.logoutTime).toEqual(expect.any(Number));
    }
    const times = month.onlineUsers.map((item) => item.loginTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('all-clients: the whole installation for system administrators, ignored for client administrators', async () => {
    const own = await summaryOf(world.admin);
    expect(await summaryOf(world.admin, '?all-clients=true')).toEqual(own);
    const onlineOwn = await onlineOf(world.admin, '?all-clients=true');
    expect(new Set(onlineOwn.map((user) => user.clientLogin))).toEqual(new Set([world.tenant.loginName]));

    const defaultClient = await summaryOf(sysadmin);
    const everything = await summaryOf(sysadmin, '?all-clients=true');
    expect(everything.visits).toBeGreaterThanOrEqual(defaultClient.visits + own.visits);
    expect(everything.users).toBeGreaterThanOrEqual(defaultClient.users + own.users);
    expect(everything.apiRequests).toBeGreaterThanOrEqual(own.apiRequests);
    const onlineDefault = await onlineOf(sysadmin);
    expect(onlineDefault.some((user) => user.clientLogin === world.tenant.loginName)).toBe(false);
    const onlineAll = await onlineOf(sysadmin, '?all-clients=1');
    expect(onlineAll.some((user) => user.userId === bob.id)).toBe(true);
    expect(onlineAll.some((user) => user.clientLogin === 'admin')).toBe(true);
    const monthAll = await monthOf(
      sysadmin,
      new Date().getUTCFullYear(),
      new Date().getUTCMonth() + 1,
      '?all-clients=true',
    );
    expect(monthAll.onlineUsers.some((item) => item.userId === alice.id)).toBe(true);
    const monthOwn = await monthOf(sysadmin, new Date().getUTCFullYear(), new Date().getUTCMonth() + 1);
    expect(monthOwn.onlineUsers.some((item) => item.userId === alice.id)).toBe(false);
  });
});

describe('a past month: totals, averages per day and details', () => {
  it('sums the sessions that started in the month and divides by its days', async () => {
    const world = await newWorld(t, sysadmin);
    const dave = await member(t, world);
    const apiKey = await grantApiAccess(world, sysadmin, [dave.id]);
    await logout(dave.rest);
    const second = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: dave.username,
      password: dave.password,
    });
    await logout(second.rest);
    const api = await apiLogin(t, world, dave, apiKey);
    await requests(api.rest, 4);
    await logout(api.rest);
    // Dave's three visits move to February 2024 (29 days): 2 h, 1 h 30 min, 45 min; API: 5 requests.
    const ids = (
      await sql<{ id: number }>(t, 'select id from sessions where user_id = ? order by id', [dave.id])
    ).map((row) => row.id);
    expect(ids).toHaveLength(3);
    const moves: [number, string, string][] = [
      [ids[0]!, '2024-02-01 00:00:00+00', '2024-02-01 02:00:00+00'],
      [ids[1]!, '2024-02-14 10:00:00+00', '2024-02-14 11:30:00+00'],
      [ids[2]!, '2024-02-29 23:00:00+00', '2024-02-29 23:45:00+00'],
    ];
    for (const [id, login, logoutTime] of moves) {
      await sql(t, 'update sessions set created_at = ?, ended_at = ?, last_used_at = ? where id = ?', [
        login,
        logoutTime,
        logoutTime,
        id,
      ]);
    }
    // One more in March 2024 and one at the very end of January: outside the month.
    const outside = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: dave.username,
      password: dave.password,
    });
    await logout(outside.rest);
    await sql(
      t,
      "update sessions set created_at = '2024-03-01 00:00:00+00', ended_at = '2024-03-01 01:00:00+00' where id = ?",
      [outside.sessionId],
    );
    const before = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: dave.username,
      password: dave.password,
    });
    await logout(before.rest);
    await sql(
      t,
      "update sessions set created_at = '2024-01-31 23:59:59+00', ended_at = '2024-02-01 01:00:00+00' where id = ?",
      [before.sessionId],
    );

    const month = await monthOf(world.admin, 2024, 2);
    const { onlineUsers, ...summary } = month;
    expect(summary).toEqual({
      month: 2,
      year: 2024,
      visits: 3,
      users: 1,
      apiVisits: 1,
      apiRequests: 5,
      totalTime: '4 h 15 min',
      averageVisits: '0.1',
      averageApiVisits: '0.03',
      averageApiRequests: '0.17',
      // 255 min / 29 days = 8.79 min
      averageTime: '8 min',
    });
    expect(onlineUsers.map((item) => item.loginTime)).toEqual([
      Date.parse('2024-02-29T23:00:00Z'),
      Date.parse('2024-02-14T10:00:00Z'),
      Date.parse('2024-02-01T00:00:00Z'),
    ]);
    expect(onlineUsers[0]).toEqual({
      userLogin: dave.username,
      userId: dave.id,
      clientLogin: world.tenant.loginName,
      loginTime: Date.parse('2024-02-29T23:00:00Z'),
      logoutTime: Date.parse('2024-02-29T23:45:00Z'),
      ipAddress: expect.any(String),
      apiLogin: true,
      apiRequests: 5,
    });
    expect(onlineUsers.slice(1).every((item) => !item.apiLogin && item.apiRequests === 0)).toBe(true);

    const empty = await monthOf(world.admin, 2023, 12);
    expect(empty).toMatchObject({
      visits: 0,
      users: 0,
      apiRequests: 0,
      totalTime: '0 min',
      averageVisits: '0',
    });
    expect(empty.onlineUsers).toEqual([]);
    const future = await monthOf(world.admin, 2999, 1);
    expect(future).toMatchObject({ visits: 0, averageVisits: '0', averageTime: '0 min' });
  });

  it('refuses a month outside 1 to 12 and a year that is not a number (400)', async () => {
    for (const path of [
      '/system/statistics/2024/13',
      '/system/statistics/2024/0',
      '/system/statistics/abc/1',
    ]) {
      const response = await sysadmin.get<ErrorBody>(path);
      expect(response.status, path).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
  });
});

describe('who may read statistics', () => {
  it('administrators only: ordinary users, user editors, dictionary administrators and guests get 403', async () => {
    const world = await newWorld(t, sysadmin);
    const plain = await member(t, world);
    const editor = await member(t, world, ['USEREDITOR']);
    const dictionaryAdmin = await member(t, world, ['DICTIONARY_ADMIN@dict-statistics']);
    const guest = await guestSession(t, world);
    for (const caller of [plain.rest, editor.rest, dictionaryAdmin.rest, guest]) {
      for (const path of [
        '/system/statistics',
        '/system/statistics/2024/2',
        '/system/statistics/online-users',
      ]) {
        const response = await caller.get<ErrorBody>(`${path}?all-clients=true`);
        expect(response.status, path).toBe(403);
        expect(response.body.code).toBe('FORBIDDEN');
      }
    }
    expect((await world.admin.get('/system/statistics')).status).toBe(200);
  });

  it('without a token: 401', async () => {
    const response = await new RestClient(t.app).get<ErrorBody>('/system/statistics');
    expect(response.status).toBe(401);
  });

  it('a client administrator acting in a mapped client is no administrator there', async () => {
    const home = await newWorld(t, sysadmin);
    const other = await newWorld(t, sysadmin);
    const [homeAdmin] = await sql<{ id: number }>(
      t,
      "select id from users where client_id = ? and username = 'admin'",
      [home.tenant.id],
    );
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [homeAdmin!.id],
      clients: [other.tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    const switched = await home.admin.post('/switch-client', { client_id: other.tenant.id });
    expect(switched.status, switched.text).toBe(200);
    expect((await home.admin.get('/system/statistics')).status).toBe(403);
  });
});

describe('API requests are counted in memory and written in batches', () => {
  let world: World;
  let apiKey: string;
  let user: { id: number; username: string; password: string; rest: RestClient };

  beforeAll(async () => {
    world = await newWorld(t, sysadmin);
    user = await member(t, world);
    apiKey = await grantApiAccess(world, sysadmin, [user.id]);
  });

  it('a request writes nothing; a flush adds the counts with one statement', async () => {
    const api = await apiLogin(t, world, user, apiKey);
    await requests(api.rest, 3);
    expect(await storedRequests(api.sessionId)).toBe(0);
    expect(t.app.apiRequests.pendingCounts().get(api.sessionId)).toBe(3);
    await flushApiRequests(t.app);
    expect(await storedRequests(api.sessionId)).toBe(3);
    expect(t.app.apiRequests.pendingCounts().has(api.sessionId)).toBe(false);
    await requests(api.rest, 2);
    await flushApiRequests(t.app);
    expect(await storedRequests(api.sessionId)).toBe(5);
  });

  it('requests of sessions that are no API login are not counted', async () => {
    await requests(user.rest, 2);
    await flushApiRequests(t.app);
    const [row] = await sql<{ api_requests: number }>(
      t,
      'select api_requests from sessions where user_id = ? and not api_login',
      [user.id],
    );
    expect(row!.api_requests).toBe(0);
  });

  it('a refused request with an API token still counts; one without a valid token does not', async () => {
    const api = await apiLogin(t, world, user, apiKey);
    const refused = await api.rest.get('/system/statistics');
    expect(refused.status).toBe(403);
    await new RestClient(t.app).withToken('not-a-token').get('/users/password-settings');
    await flushApiRequests(t.app);
    expect(await storedRequests(api.sessionId)).toBe(1);
  });

  it('logout writes the session count at once', async () => {
    const api = await apiLogin(t, world, user, apiKey);
    await requests(api.rest, 2);
    await logout(api.rest);
    expect(await storedRequests(api.sessionId)).toBe(3);
  });

  it('closing the server writes what is pending', async () => {
    const other = await buildTestApp();
    let sessionId = 0;
    try {
      const api = await apiLogin(other, world, user, apiKey);
      sessionId = api.sessionId;
      await requests(new RestClient(other.app).withToken(api.rest.token!), 4);
      expect(await storedRequests(sessionId)).toBe(0);
    } finally {
      await other.close();
    }
    expect(await storedRequests(sessionId)).toBe(4);
  });

  it('the timer writes pending counts without any call', async () => {
    const api = await apiLogin(t, world, user, apiKey);
    const counter = new ApiRequestCounter(t.orm, t.app.log);
    counter.count({}, api.sessionId);
    counter.count({}, api.sessionId);
    const request = {};
    counter.count(request, api.sessionId);
    counter.count(request, api.sessionId);
    counter.start(20);
    try {
      await expect.poll(() => storedRequests(api.sessionId), { timeout: 2000, interval: 25 }).toBe(3);
    } finally {
      await counter.close();
    }
  });

  it('statistics reads include what was pending', async () => {
    const w = await newWorld(t, sysadmin);
    const u = await member(t, w);
    const key = await grantApiAccess(w, sysadmin, [u.id]);
    const api = await apiLogin(t, w, u, key);
    await requests(api.rest, 6);
    expect((await summaryOf(w.admin)).apiRequests).toBe(6);
    expect((await onlineOf(w.admin)).find((online) => online.userId === u.id)?.apiRequests).toBe(6);
  });
});

describe('lastLogins on users', () => {
  it('the last 10 logins, newest first, with logout time, API flag and requests', async () => {
    const world = await newWorld(t, sysadmin);
    const user = await member(t, world);
    const apiKey = await grantApiAccess(world, sysadmin, [user.id]);
    await logout(user.rest);
    for (let i = 0; i < 10; i++) {
      const session = await loginRest(t.app, user.username, user.password, world.tenant.loginName);
      if (i % 2 === 0) await logout(session);
    }
    const api = await apiLogin(t, world, user, apiKey);
    await requests(api.rest, 2);
    await logout(api.rest);
    const response = await world.admin.get<{ lastLogins: LogItem[] }>(`/users/${user.id}?format=EDIT`);
    expect(response.status, response.text).toBe(200);
    const logins = response.body.lastLogins;
    expect(logins).toHaveLength(10);
    expect(logins[0]).toMatchObject({
      userId: user.id,
      apiLogin: true,
      apiRequests: 3,
      logoutTime: expect.any(Number),
    });
    expect(logins.slice(1).every((item) => !item.apiLogin)).toBe(true);
    expect(logins.filter((item) => item.logoutTime === null)).toHaveLength(5);
    const times = logins.map((item) => item.loginTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(logins.map((item) => item.clientLogin))).toEqual(new Set([world.tenant.loginName]));
  });
});

describe('formatting', () => {
  it('durations, averages and the days of a month', () => {
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(59)).toBe('0 min');
    expect(formatDuration(12 * 60)).toBe('12 min');
    expect(formatDuration(3 * 3600 + 12 * 60 + 30)).toBe('3 h 12 min');
    expect(formatDuration(50 * 3600)).toBe('50 h 0 min');
    expect(formatAverage(5, 2)).toBe('2.5');
    expect(formatAverage(1, 3)).toBe('0.33');
    expect(formatAverage(4, 0)).toBe('0');
    const now = new Date(Date.UTC(2024, 1, 10, 12));
    expect(daysBegun(2024, 2, now)).toBe(10);
    expect(daysBegun(2024, 1, now)).toBe(31);
    expect(daysBegun(2023, 2, now)).toBe(28);
    expect(daysBegun(2024, 3, now)).toBe(0);
  });
});
