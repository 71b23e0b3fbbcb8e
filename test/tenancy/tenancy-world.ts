import { expect } from 'vitest';
import type { ErrorBody } from '../../src/rest/error-body.js';
import { createDictionary, type TestDictionary } from '../factories/dictionary.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import type { TestApp } from '../helpers/app.js';
import { loginRest, type RestClient, type RestResponse } from '../helpers/rest.js';

export type { ErrorBody };

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export interface Versioned {
  id: number;
  version: number;
  clientId: number;
}
export interface UserBody extends Versioned {
  username: string;
  groups?: { id: number }[];
}
export interface GroupBody extends Versioned {
  name: string;
  groupMembers?: { id: number }[];
}
export interface SchemeBody extends Versioned {
  name: string;
}

type Row = Record<string, unknown>;

/** The rows of client A that no call of client B may touch, straight from the database. */
export interface Snapshot {
  clients: Row[];
  users: Row[];
  groups: Row[];
  groupMembers: Row[];
  permissionSchemes: Row[];
  guestSettings: Row[];
  userClients: Row[];
  sessions: Row[];
  dictionaries: Row[];
  sections: Row[];
}

export async function snapshotOf(t: TestApp, clientId: number): Promise<Snapshot> {
  const em = t.orm.em.fork();
  const rows = (sql: string, params: unknown[]) => em.execute<Row[]>(sql, params);
  const usersOfA = 'select id from users where client_id = ?';
  return {
    clients: await rows('select * from clients where id = ?', [clientId]),
    users: await rows('select * from users where client_id = ? order by id', [clientId]),
    groups: await rows('select * from groups where client_id = ? order by id', [clientId]),
    groupMembers: await rows(
      `select * from group_members
       where group_id in (select id from groups where client_id = ?) or user_id in (${usersOfA})
       order by group_id, user_id`,
      [clientId, clientId],
    ),
    permissionSchemes: await rows('select * from permission_schemes where client_id = ? order by id', [
      clientId,
    ]),
    guestSettings: await rows('select * from guest_settings where client_id = ?', [clientId]),
    userClients: await rows(
      `select * from user_clients where user_id in (${usersOfA}) or client_id = ? order by user_id, client_id`,
      [clientId, clientId],
    ),
    sessions: await rows(
      `select * from sessions where user_id in (${usersOfA}) or client_id = ? order by id`,
      [clientId, clientId],
    ),
    dictionaries: await rows('select * from dictionaries where client_id = ? order by id', [clientId]),
    sections: await rows('select * from sections where client_id = ? order by id', [clientId]),
  };
}

export function expectStatus<T>(response: RestResponse<T>, status: number): T {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** Client A, full of objects of every kind, and client B with an administrator and an ordinary user. */
export interface World {
  a: {
    tenant: TestTenant;
    admin: RestClient;
    adminId: number;
    user: UserBody;
    /** A's user, logged in before the walk: the session must survive it. */
    userSession: RestClient;
    group: GroupBody;
    scheme: SchemeBody;
    guestUsername: string;
    deletedUserId: number;
    deletedGroupId: number;
    dictionary: TestDictionary;
    /** The client A's user is mapped to (a user_clients row to keep). */
    mappedClientId: number;
  };
  b: {
    tenant: TestTenant;
    admin: RestClient;
    user: RestClient;
    userId: number;
    group: GroupBody;
    scheme: SchemeBody;
    dictionary: TestDictionary;
  };
  snapshot: Snapshot;
}

export type Actor = 'administrator' | 'ordinary user';
export const actors: Actor[] = ['administrator', 'ordinary user'];
export const callerOf = (world: World, actor: Actor) =>
  actor === 'administrator' ? world.b.admin : world.b.user;

export async function buildWorld(t: TestApp, sysadmin: RestClient): Promise<World> {
  const suffix = uniqueSuffix();
  const [tenantA, tenantB, tenantC] = await Promise.all([
    createTenant(sysadmin),
    createTenant(sysadmin),
    createTenant(sysadmin),
  ]);

  // Client A, built by its administrator through the API.
  const adminA = await loginRest(t.app, 'admin', tenantA.adminPassword, tenantA.loginName);
  const password = `pw-${suffix}-secret`;
  const created = expectStatus(
    await adminA.post<UserBody>('/users', {
      username: `ua${suffix}`,
      fullName: `User of A ${suffix}`,
      email: `ua${suffix}@example.org`,
      password,
    }),
    201,
  );
  const group = expectStatus(
    await adminA.post<GroupBody>('/groups', {
      name: `Group of A ${suffix}`,
      description: 'A only',
      groupMembers: [created.id],
    }),
    201,
  );
  expectStatus(
    await adminA.post<SchemeBody>('/permissionschemes', {
      name: `Scheme of A ${suffix}`,
      description: 'A only',
      grants: [{ groupId: group.id, dictionaryPermissions: ['DICT_READ'] }],
    }),
    201,
  );
  const guestUsername = `ga${suffix}`;
  expectStatus(
    await adminA.put('/users/guest', {
      enabled: true,
      username: guestUsername,
      password: `guest-${suffix}-pw`,
      loginMethod: 'NORMAL',
      enableCommenting: true,
    }),
    200,
  );
  // Soft-deleted objects of A: include-deleted must not bring them to B either.
  const deletedUser = expectStatus(await adminA.post<UserBody>('/users', { username: `da${suffix}` }), 201);
  expectStatus(await adminA.delete(`/users/${deletedUser.id}`), 204);
  const deletedGroup = expectStatus(
    await adminA.post<GroupBody>('/groups', { name: `Deleted group of A ${suffix}` }),
    201,
  );
  expectStatus(await adminA.delete(`/groups/${deletedGroup.id}`), 204);
  const dictionary = await createDictionary(t.orm, tenantA.id, { sections: 2 });
  expectStatus(
    await sysadmin.put('/users/assign-clients', { users: [created.id], clients: [tenantC.id] }),
    200,
  );
  const userSession = await loginRest(t.app, created.username, password, tenantA.loginName);

  // Client B: its administrator (an ADMIN, not a system administrator) and an ordinary user.
  const adminB = await loginRest(t.app, 'admin', tenantB.adminPassword, tenantB.loginName);
  const plain = await createUser(t.orm, tenantB.id);
  const userB = await loginRest(t.app, plain.username, plain.password, tenantB.loginName);
  const groupB = expectStatus(await adminB.post<GroupBody>('/groups', { name: `Group of B ${suffix}` }), 201);
  const dictionaryB = await createDictionary(t.orm, tenantB.id);
  const schemeB = expectStatus(
    await adminB.post<SchemeBody>('/permissionschemes', { name: `Scheme of B ${suffix}` }),
    201,
  );

  // Ids and versions as they stand after the setup.
  const user = expectStatus(await adminA.get<UserBody>(`/users/${created.id}?format=EDIT`), 200);
  const groupNow = expectStatus(await adminA.get<GroupBody>(`/groups/${group.id}?format=EDIT`), 200);
  const schemes = expectStatus(
    await adminA.get<Page<SchemeBody>>(
      `/permissionschemes?name-eq=${encodeURIComponent(`Scheme of A ${suffix}`)}`,
    ),
    200,
  );
  const adminOfA = expectStatus(await adminA.get<Page<UserBody>>('/users?name-eq=admin&format=ID'), 200);

  const snapshot = await snapshotOf(t, tenantA.id);
  // The snapshot holds what the walk could damage: otherwise "nothing changed" proves little.
  expect(snapshot.users.map((row) => row.username)).toEqual(
    expect.arrayContaining(['admin', user.username, guestUsername, deletedUser.username]),
  );
  expect(snapshot.groupMembers).toEqual([{ group_id: group.id, user_id: user.id }]);
  expect(snapshot.userClients).toEqual([{ user_id: user.id, client_id: tenantC.id }]);
  expect(snapshot.guestSettings).toEqual([expect.objectContaining({ enabled: true })]);
  expect(snapshot.permissionSchemes).toHaveLength(1);
  expect(snapshot.sessions.filter((row) => row.user_id === user.id && row.ended_at === null)).toHaveLength(1);
  expect(groupNow.groupMembers?.map((member) => member.id)).toEqual([user.id]);

  return {
    a: {
      tenant: tenantA,
      admin: adminA,
      adminId: adminOfA.content[0]!.id,
      user,
      userSession,
      group: groupNow,
      scheme: schemes.content[0]!,
      guestUsername,
      deletedUserId: deletedUser.id,
      deletedGroupId: deletedGroup.id,
      dictionary,
      mappedClientId: tenantC.id,
    },
    b: {
      tenant: tenantB,
      admin: adminB,
      user: userB,
      userId: plain.id,
      group: groupB,
      scheme: schemeB,
      dictionary: dictionaryB,
    },
    snapshot,
  };
}

/**
 * After a walk: every row of A as it was (versions, memberships, mappings, guest settings, sessions),
 * and A's user still logged in with the token taken before the walk.
 */
export async function expectAUnchanged(t: TestApp, world: World): Promise<void> {
  expect(await snapshotOf(t, world.a.tenant.id)).toEqual(world.snapshot);
  const validate = await world.a.userSession.get<{ tokenValid: boolean }>('/validate');
  expect(validate.body).toEqual({ tokenValid: true });
  const self = await world.a.userSession.get<UserBody>(`/users/${world.a.user.id}`);
  expect(self.status, self.text).toBe(200);
  expect(self.body.version).toBe(world.a.user.version);
}
