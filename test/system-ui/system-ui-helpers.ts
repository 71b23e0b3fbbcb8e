import { hashSecret } from '../../src/modules/auth/tokens.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import type { TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, RestClient } from '../helpers/rest.js';

export interface ErrorBody {
  code: string;
  message: string;
}

export const GUEST_PASSWORD = 'guest-password-1';

/** Raw SQL on the test database, outside any request. */
export function sql<T = Record<string, unknown>>(
  t: TestApp,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
}

export interface World {
  tenant: TestTenant;
  admin: RestClient;
}

/** A fresh tenant and its administrator `admin`, logged in. */
export async function newWorld(t: TestApp, sysadmin: RestClient): Promise<World> {
  const tenant = await createTenant(sysadmin);
  const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  return { tenant, admin };
}

export interface Member {
  id: number;
  username: string;
  password: string;
  rest: RestClient;
}

/** A new user of the tenant with the given roles, logged in. */
export async function member(t: TestApp, world: World, roles: string[] = []): Promise<Member> {
  const user = await createUser(t.orm, world.tenant.id, { roles });
  const rest = await loginRest(t.app, user.username, user.password, world.tenant.loginName);
  return { ...user, rest };
}

/** POST /login with a form body, without throwing on failure. */
export const loginForm = (t: TestApp, form: Record<string, string>) =>
  new RestClient(t.app).call<LoginBody>('POST', '/login', { form });

/** Logs in and returns the client and the session id the login opened. */
export async function loginWithSession(
  t: TestApp,
  form: Record<string, string>,
): Promise<{ rest: RestClient; sessionId: number }> {
  const response = await loginForm(t, form);
  if (response.status !== 200 || !response.body.token) {
    throw new Error(`login failed: ${response.status} ${response.text}`);
  }
  const token = response.body.token.token;
  const [row] = await sql<{ id: number }>(t, 'select id from sessions where token_hash = ?', [
    hashSecret(token),
  ]);
  return { rest: new RestClient(t.app).withToken(token), sessionId: row!.id };
}

/**
 * Makes users able to log in with the client's API key: a group with API access holding them. Answers
 * the API key.
 */
export async function grantApiAccess(world: World, sysadmin: RestClient, userIds: number[]): Promise<string> {
  const group = await world.admin.post('/groups', {
    name: `Api ${uniqueSuffix()}`,
    hasApiAccess: true,
    groupMembers: userIds,
  });
  if (group.status !== 201) throw new Error(`API group failed: ${group.status} ${group.text}`);
  const client = await sysadmin.post<{ apiKey: string }>(`/clients/generate-new-api-key/${world.tenant.id}`);
  return client.body.apiKey;
}

/** API login (with the client's key) of a user; answers the client and the session id. */
export function apiLogin(
  t: TestApp,
  world: World,
  user: { username: string; password: string },
  apiKey: string,
) {
  return loginWithSession(t, {
    client: world.tenant.loginName,
    username: user.username,
    password: user.password,
    apiKey,
  });
}

/** Switches guest access on for the tenant (login with a password) and logs a guest in. */
export async function guestSession(
  t: TestApp,
  world: World,
  options: { enableSearchModes?: boolean } = {},
): Promise<RestClient> {
  const settings = await world.admin.put('/users/guest', {
    enabled: true,
    username: 'guest',
    password: GUEST_PASSWORD,
    loginMethod: 'NORMAL',
    enableQuickFilters: false,
    enableSearchModes: options.enableSearchModes ?? false,
    enableCommenting: false,
  });
  if (settings.status !== 200) throw new Error(`guest settings failed: ${settings.status} ${settings.text}`);
  return loginRest(t.app, 'guest', GUEST_PASSWORD, world.tenant.loginName);
}
