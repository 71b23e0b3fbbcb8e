import type { ErrorBody } from '../../src/rest/error-body.js';
import { createTenant, type TestTenant } from '../factories/tenant.js';
import type { TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, RestClient, type RestResponse } from '../helpers/rest.js';

export type { ErrorBody };

export interface Page<T> {
  content: T[];
  totalElements: number;
  numberOfElements: number;
}

export interface GroupBody {
  id: number;
  name: string;
  description: string | null;
  timeout: number | null;
  pwdChange: number | null;
  viewsMap: Record<string, number[]>;
  filterMap: Record<string, number>;
  type: 'NORMAL' | 'ALL_USERS' | 'GUEST' | 'OWNER';
  langCode3: string | null;
  hasApiAccess: boolean;
  version: number;
  clientId: number;
  deleted: boolean;
  currentUsersNumber?: number;
  groupMembers?: { id: number; username: string; fullName: string | null }[];
}

export const query = (params: Record<string, string | number | boolean>): string =>
  Object.keys(params).length
    ? `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`
    : '';

/** A fresh tenant and a REST client logged in as its administrator `admin`. */
export async function tenantWithAdmin(
  t: TestApp,
  sysadmin: RestClient,
  overrides: Record<string, unknown> = {},
): Promise<{ tenant: TestTenant; admin: RestClient }> {
  const tenant = await createTenant(sysadmin, overrides);
  const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  return { tenant, admin };
}

/** The three system groups of the client of the caller, by type. */
export async function systemGroups(
  caller: RestClient,
): Promise<Record<'ALL_USERS' | 'GUEST' | 'OWNER', GroupBody>> {
  const response = await caller.get<Page<GroupBody>>('/groups?include-private=true&size=500');
  if (response.status !== 200) throw new Error(`listing groups failed: ${response.status} ${response.text}`);
  const byType = (type: GroupBody['type']) => {
    const group = response.body.content.find((candidate) => candidate.type === type);
    if (!group) throw new Error(`no ${type} group`);
    return group;
  };
  return { ALL_USERS: byType('ALL_USERS'), GUEST: byType('GUEST'), OWNER: byType('OWNER') };
}

/** Creates a NORMAL group through the API (201 expected). */
export async function createGroup(
  caller: RestClient,
  body: Record<string, unknown> = {},
): Promise<GroupBody> {
  const response = await caller.post<GroupBody>('/groups', {
    name: `Group ${Math.random().toString(36).slice(2, 10)}`,
    ...body,
  });
  if (response.status !== 201) throw new Error(`createGroup failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Partial update of a group at its current version. */
export async function patchGroup(
  caller: RestClient,
  id: number,
  body: Record<string, unknown>,
): Promise<RestResponse<GroupBody & ErrorBody>> {
  const current = await caller.get<GroupBody>(`/groups/${id}`);
  if (current.status !== 200)
    throw new Error(`reading group ${id} failed: ${current.status} ${current.text}`);
  return caller.put<GroupBody & ErrorBody>(`/groups/partial/${id}`, {
    ...body,
    version: current.body.version,
  });
}

/** POST /login with a form body, without throwing on failure. */
export const loginForm = (t: TestApp, form: Record<string, string>) =>
  new RestClient(t.app).call<LoginBody>('POST', '/login', { form });
