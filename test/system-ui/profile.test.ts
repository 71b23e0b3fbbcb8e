/** GET/PUT /profile and PUT /profile/password: own attributes only, versioned, password settings enforced. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';
import {
  type ErrorBody,
  guestSession,
  loginForm,
  loginWithSession,
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
  t = await buildTestApp({
    PASSWORD_REGEXP: '^(?=.*[0-9]).{10,}$',
    PASSWORD_MESSAGE: 'Ten characters and a digit.',
  });
  sysadmin = await loginSysadmin(t.app);
  world = await newWorld(t, sysadmin);
});
afterAll(() => t.close());

interface ProfileUser {
  id: number;
  version: number;
  clientId: number;
  username: string;
  fullName: string | null;
  email: string | null;
  title: string | null;
  language: string | null;
  forcePasswordChange: boolean;
  type: string;
  roles: string[];
  passwordChanged: number | null;
}
interface Profile {
  user: ProfileUser;
}

async function profileOf(caller: RestClient): Promise<ProfileUser> {
  const response = await caller.get<Profile>('/profile');
  expect(response.status, response.text).toBe(200);
  return response.body.user;
}

const put = (caller: RestClient, user: Record<string, unknown>) =>
  caller.put<Profile & ErrorBody>('/profile', { user });

const stored = async (id: number) =>
  (
    await sql<{
      username: string;
      full_name: string | null;
      email: string | null;
      title: string | null;
      language: string | null;
      roles: string[];
      force_password_change: boolean;
      version: number;
    }>(t, 'select * from users where id = ?', [id])
  )[0]!;

describe('GET /profile', () => {
  it("answers the caller's own account", async () => {
    const user = await member(t, world, ['USEREDITOR']);
    const profile = await profileOf(user.rest);
    expect(profile).toEqual({
      id: user.id,
      version: expect.any(Number),
      clientId: world.tenant.id,
      username: user.username,
      fullName: `User ${user.username}`,
      email: null,
      title: null,
      language: null,
      forcePasswordChange: false,
      type: 'NORMAL',
      roles: ['USEREDITOR'],
      passwordChanged: null,
    });
  });

  it('guests have no profile (403); without a token 401', async () => {
    const w = await newWorld(t, sysadmin);
    const guest = await guestSession(t, w);
    for (const response of [
      await guest.get<ErrorBody>('/profile'),
      await guest.put<ErrorBody>('/profile', { user: { version: 1, fullName: 'Anyone' } }),
      await guest.put<ErrorBody>('/profile/password', {
        currentPassword: 'guest-password-1',
        password: 'new-password-123',
        confirmPassword: 'new-password-123',
      }),
    ]) {
      expect(response.status, response.text).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    expect((await new RestClient(t.app).get('/profile')).status).toBe(401);
  });
});

describe('PUT /profile', () => {
  let user: Member;
  beforeAll(async () => {
    user = await member(t, world);
  });

  it('changes own username, full name, e-mail, title and interface language', async () => {
    const before = await profileOf(user.rest);
    const username = `${user.username}x`;
    const response = await put(user.rest, {
      ...before,
      username,
      fullName: 'Ada Lovelace',
      email: 'ada@example.org',
      title: 'Analyst',
      language: 'deu',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.user).toMatchObject({
      username,
      fullName: 'Ada Lovelace',
      email: 'ada@example.org',
      title: 'Analyst',
      language: 'deu',
      version: before.version + 1,
    });
    expect(await stored(user.id)).toMatchObject({ username, email: 'ada@example.org', language: 'deu' });
    user.username = username;
  });

  it('the interface language applies to the current session and to later logins without one', async () => {
    const fresh = await member(t, world);
    const session = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: fresh.username,
      password: fresh.password,
      language: 'fra',
    });
    const before = await profileOf(session.rest);
    expect((await put(session.rest, { ...before, language: 'ita' })).status).toBe(200);
    const [current] = await sql<{ language: string }>(t, 'select language from sessions where id = ?', [
      session.sessionId,
    ]);
    expect(current!.language).toBe('ita');
    const later = await loginWithSession(t, {
      client: world.tenant.loginName,
      username: fresh.username,
      password: fresh.password,
    });
    const [next] = await sql<{ language: string }>(t, 'select language from sessions where id = ?', [
      later.sessionId,
    ]);
    expect(next!.language).toBe('ita');
  });

  it('a missing or stale version answers 409 and changes nothing', async () => {
    const before = await profileOf(user.rest);
    const { version: _version, ...withoutVersion } = before;
    for (const body of [
      { ...withoutVersion, fullName: 'No version' },
      { ...before, version: before.version - 1, fullName: 'Stale' },
    ]) {
      const response = await put(user.rest, body);
      expect(response.status, response.text).toBe(409);
      expect(response.body.code).toBe('CONFLICT');
    }
    expect((await stored(user.id)).full_name).toBe(before.fullName);
  });

  it('the same object sent back twice: the second is stale', async () => {
    const before = await profileOf(user.rest);
    expect((await put(user.rest, { ...before, title: 'First' })).status).toBe(200);
    expect((await put(user.rest, { ...before, title: 'Second' })).status).toBe(409);
    expect((await stored(user.id)).title).toBe('First');
  });

  it('missing fullName, email, title and language are erased; username stays', async () => {
    const before = await profileOf(user.rest);
    const response = await put(user.rest, { version: before.version });
    expect(response.status, response.text).toBe(200);
    expect(response.body.user).toMatchObject({
      username: before.username,
      fullName: null,
      email: null,
      title: null,
      language: null,
    });
  });

  it('roles, type, id and clientId in the body are ignored: only own attributes change', async () => {
    const before = await profileOf(user.rest);
    const response = await put(user.rest, {
      ...before,
      roles: ['ADMIN'],
      type: 'EXTSYSADMIN',
      id: 1,
      clientId: 1,
      fullName: 'Still me',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.user).toMatchObject({
      id: user.id,
      roles: [],
      type: 'NORMAL',
      fullName: 'Still me',
    });
    expect((await stored(user.id)).roles).toEqual([]);
  });

  it('a username another user of the client has: 422; an invalid e-mail or language: 400', async () => {
    const other = await member(t, world);
    const before = await profileOf(user.rest);
    const clash = await put(user.rest, { ...before, username: other.username.toUpperCase() });
    expect(clash.status, clash.text).toBe(422);
    expect(clash.body.code).toBe('UNPROCESSABLE');
    for (const change of [
      { email: 'not-an-address' },
      { language: 'english please' },
      { username: 'no spaces' },
    ]) {
      const response = await put(user.rest, { ...before, ...change });
      expect(response.status, JSON.stringify(change)).toBe(400);
    }
    expect((await stored(user.id)).username).toBe(before.username);
  });

  it('the own forcePasswordChange flag can be set; absent it stays', async () => {
    const before = await profileOf(user.rest);
    const set = await put(user.rest, { ...before, forcePasswordChange: true });
    expect(set.status, set.text).toBe(200);
    expect(set.body.user.forcePasswordChange).toBe(true);
    const { forcePasswordChange: _flag, ...rest } = set.body.user;
    const kept = await put(user.rest, rest);
    expect(kept.body.user.forcePasswordChange).toBe(true);
  });
});

describe('PUT /profile/password', () => {
  const change = (caller: RestClient, body: Record<string, unknown>) =>
    caller.put<Profile & ErrorBody>('/profile/password', body);

  it('with the current password, a new one that satisfies the settings: 200; the old one stops working', async () => {
    const user = await member(t, world);
    await sql(t, 'update users set force_password_change = true where id = ?', [user.id]);
    const response = await change(user.rest, {
      currentPassword: user.password,
      password: 'brand-new-password-1',
      confirmPassword: 'brand-new-password-1',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.user.forcePasswordChange).toBe(false);
    expect(response.body.user.passwordChanged).toEqual(expect.any(Number));
    const login = (password: string) =>
      loginForm(t, { client: world.tenant.loginName, username: user.username, password });
    expect((await login('brand-new-password-1')).status).toBe(200);
    expect((await login(user.password)).status).toBe(401);
  });

  it('a wrong current password, a different confirmation or a password against the settings: 400', async () => {
    const user = await member(t, world);
    const cases = [
      {
        currentPassword: 'wrong-password-1',
        password: 'brand-new-password-1',
        confirmPassword: 'brand-new-password-1',
      },
      {
        currentPassword: user.password,
        password: 'brand-new-password-1',
        confirmPassword: 'brand-new-password-2',
      },
      { currentPassword: user.password, password: 'short1', confirmPassword: 'short1' },
      { currentPassword: user.password, password: 'no-digits-at-all', confirmPassword: 'no-digits-at-all' },
      { currentPassword: user.password, password: '******', confirmPassword: '******' },
      { password: 'brand-new-password-1', confirmPassword: 'brand-new-password-1' },
    ];
    for (const body of cases) {
      const response = await change(user.rest, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
    const settings = await change(user.rest, {
      currentPassword: user.password,
      password: 'short1',
      confirmPassword: 'short1',
    });
    expect(settings.body.message).toBe('Ten characters and a digit.');
    expect(
      (
        await loginForm(t, {
          client: world.tenant.loginName,
          username: user.username,
          password: user.password,
        })
      ).status,
    ).toBe(200);
  });

  it('works for an account without roles in a tenant, and for the system administrator', async () => {
    const created = await createUser(t.orm, world.tenant.id);
    const rest = await loginRest(t.app, created.username, created.password, world.tenant.loginName);
    const response = await change(rest, {
      currentPassword: created.password,
      password: 'another-password-9',
      confirmPassword: 'another-password-9',
    });
    expect(response.status, response.text).toBe(200);
    const profile = await profileOf(sysadmin);
    expect(profile).toMatchObject({ username: 'admin', roles: ['SYSADMIN', 'ADMIN'] });
  });
});
