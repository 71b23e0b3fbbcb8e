// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  type Actor,
  actors,
  buildWorld,
  callerOf,
  type ErrorBody,
  expectAUnchanged,
  expectStatus,
  type GroupBody,
  type Page,
  type UserBody,
  type World,
} from './tenancy-world.js';

/**
 * Tenant isolation: logged in to client B (as its administrator, an ADMIN but no system administrator,
 * and as an ordinary user), every list, get, update and delete of client A's objects finds nothing and
 * changes nothing, on REST, tRPC and GraphQL. Each test builds its own clients A and B, walks, and then
 * compares A's rows in the database with the snapshot taken before the walk.
 */

let t: TestApp;
let sysadmin: RestClient;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

const world = () => buildWorld(t, sysadmin);

/** Ids far beyond anything a test run creates. */
const MISSING = 2_000_000_000;
const TAKEN = 'Taken over by B';
const CODES: Record<number, string> = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

// ---------------------------------------------------------------------------------------------------
// REST: one table of calls on A's objects, with the answer each must give
// ---------------------------------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** An error status, or the 200 body. */
type Expected = number | { body: unknown };
type Probe = [method: Method, path: string, expected: Expected, json?: unknown];

interface Targets {
  user: number;
  username: string;
  userVersion: number;
  /** A second user of A (its administrator), for the several-ids delete. */
  otherUser: number;
  deletedUser: number;
  group: number;
  groupVersion: number;
  deletedGroup: number;
  scheme: number;
  schemeVersion: number;
  client: number;
  dictionary: number;
  /** B itself, where a call names the caller's own client. */
  ownClient: number;
}

const targetsOfA = (w: World): Targets => ({
  user: w.a.user.id,
  username: w.a.user.username,
  userVersion: w.a.user.version,
  otherUser: w.a.adminId,
  deletedUser: w.a.deletedUserId,
  group: w.a.group.id,
  groupVersion: w.a.group.version,
  deletedGroup: w.a.deletedGroupId,
  scheme: w.a.scheme.id,
  schemeVersion: w.a.scheme.version,
  client: w.a.tenant.id,
  dictionary: w.a.dictionary.id,
  ownClient: w.b.tenant.id,
});

/** The same calls on objects that do not exist: A's objects must answer exactly like these. */
const missingTargets = (w: World): Targets => ({
  ...targetsOfA(w),
  user: MISSING + 1,
  otherUser: MISSING + 2,
  deletedUser: MISSING + 3,
  group: MISSING + 4,
  deletedGroup: MISSING + 5,
  scheme: MISSING + 6,
  client: MISSING + 7,
  dictionary: MISSING + 8,
});

/**
 * Every REST call that names one of A's objects. Whoever calls from B, administrator or ordinary user,
 * gets the answer for an object that does not exist: 404 (never 403, which would tell it exists), 0 for
 * a row number, false in the result of a several-ids delete. Only the calls reserved to system
 * administrators answer 403, for any target.
 */
function objectProbes(x: Targets): Probe[] {
  return [
    // get
    ['GET', `/users/${x.user}`, 404],
    ['GET', `/users/${x.user}?format=ID`, 404],
    ['GET', `/users/${x.user}?format=EDIT&include-deleted=true`, 404],
    ['GET', `/users/${x.deletedUser}?include-deleted=true`, 404],
    ['GET', `/groups/${x.group}`, 404],
    ['GET', `/groups/${x.group}?format=EDIT&include-deleted=true`, 404],
    ['GET', `/groups/${x.deletedGroup}?include-deleted=true`, 404],
    ['GET', `/permissionschemes/${x.scheme}`, 404],
    ['GET', `/permissionschemes/${x.scheme}?include-deleted=true`, 404],
    ['GET', `/clients/${x.client}`, 404],
    ['GET', `/clients/${x.client}?include-deleted=true`, 404],
    ['GET', `/access/dictionary-permissions?dictionary_id=${x.dictionary}`, 404],
    ['GET', `/roles/find-roles-for-client?client_id=${x.client}`, 404],
    ['GET', `/permissionschemes/find-permissionschemes-by-client?client_id=${x.client}`, 404],
    // update, with the right version and a real change
    ['PUT', `/users/${x.user}`, 404, { version: x.userVersion, username: x.username, fullName: TAKEN }],
    [
      'PUT',
      `/users/partial/${x.user}`,
      404,
      { version: x.userVersion, fullName: TAKEN, active: false, password: 'taken-over-password' },
    ],
    ['PUT', `/groups/${x.group}`, 404, { version: x.groupVersion, name: TAKEN }],
    ['PUT', `/groups/partial/${x.group}`, 404, { version: x.groupVersion, groupMembers: [] }],
    ['PUT', `/permissionschemes/${x.scheme}`, 404, { version: x.schemeVersion, name: TAKEN, grants: [] }],
    ['PUT', `/permissionschemes/partial/${x.scheme}`, 404, { version: x.schemeVersion, grants: [] }],
    // delete
    ['DELETE', `/users/${x.user}`, 404],
    ['DELETE', `/groups/${x.group}`, 404],
    ['DELETE', `/permissionschemes/${x.scheme}`, 404],
    [
      'DELETE',
      `/users/async/${x.user},${x.otherUser}`,
      { body: { result: { [x.user]: false, [x.otherUser]: false } } },
    ],
    ['DELETE', `/groups/async/${x.group}`, { body: { result: { [x.group]: false } } }],
    // sessions and clients
    ['POST', `/logout-user?user-id=${x.user}`, 404],
    ['POST', `/logout-user?user-id=${x.otherUser}`, 404],
    ['POST', '/switch-client', 404, { client_id: x.client }],
    // system administrators only: 403 for the role, whatever the target
    ['PUT', '/users/assign-clients', 403, { users: [x.user], clients: [x.ownClient] }],
    ['PUT', '/users/clients', 403, { users: [x.user], clients: [] }],
    ['PUT', `/clients/${x.client}`, 403, { version: 1, name: TAKEN, loginName: 'takenover', active: false }],
    ['PUT', `/clients/partial/${x.client}`, 403, { version: 1, active: false }],
    ['DELETE', `/clients/${x.client}`, 403],
    ['DELETE', `/clients/async/${x.client}`, 403],
    ['POST', `/clients/generate-new-api-key/${x.client}`, 403],
  ];
}

/** Runs the probes in order and compares all answers at once, so a failure lists every wrong call. */
async function walk(caller: RestClient, probes: Probe[]) {
  const actual: unknown[] = [];
  const expected: unknown[] = [];
  for (const [method, path, want, json] of probes) {
    const response = await caller.call<unknown>(method, path, json === undefined ? {} : { json });
    const call = `${method} ${path}`;
    if (typeof want === 'number') {
      expected.push({ call, status: want, code: CODES[want] });
      actual.push({ call, status: response.status, code: (response.body as ErrorBody | undefined)?.code });
    } else {
      expected.push({ call, status: 200, body: want.body });
      actual.push({ call, status: response.status, body: response.body });
    }
  }
  expect(actual).toEqual(expected);
}

/** Ids of A's rows of each kind, from the snapshot (system groups, the guest and deleted rows included). */
function idsOfA(w: World) {
  const ids = (rows: Record<string, unknown>[]) => rows.map((row) => row.id as number);
  return {
    users: ids(w.snapshot.users),
    usernames: w.snapshot.users.map((row) => row.username as string),
    groups: ids(w.snapshot.groups),
    schemes: ids(w.snapshot.permissionSchemes),
    clients: [w.a.tenant.id],
  };
}

type Kind = 'users' | 'groups' | 'schemes' | 'clients';
interface Listed {
  id: number;
  clientId?: number;
  username?: string;
  groups?: { id: number }[];
  groupMembers?: { id: number }[];
}

describe('REST /api/v4, logged in to client B', () => {
  describe.each(actors)('as an %s of B', (actor) => {
    it("every get, update and delete of A's objects answers as for a missing object, and changes nothing", async () => {
      const w = await world();
      const caller = callerOf(w, actor);
      await walk(caller, objectProbes(targetsOfA(w)));
      // The same table on ids that exist nowhere gives the same answers: nothing tells A's objects exist.
      await walk(caller, objectProbes(missingTargets(w)));
      await expectAUnchanged(t, w);
    });

    it("lists and row numbers contain none of A's objects, with or without client_id=<A>", async () => {
      const w = await world();
      const caller = callerOf(w, actor);
      const a = idsOfA(w);
      const admin = actor === 'administrator';
      const A = w.a.tenant.id;
      const q = encodeURIComponent;
      // [path, kind, B's own object that must be listed (the list works), readable by ordinary users]
      const lists: [string, Kind, number | null, boolean][] = [
        ['/users?size=500&format=EDIT', 'users', w.b.userId, true],
        [`/users?size=500&format=EDIT&client_id=${A}`, 'users', null, true],
        ['/users?size=500&include-deleted=true', 'users', w.b.userId, true],
        [`/users?login=${q(w.a.user.username)}`, 'users', null, true],
        [`/users?name-eq=${q(w.a.user.username)}&client_id=${A}`, 'users', null, true],
        ['/groups?size=500&format=EDIT&include-private=true', 'groups', w.b.group.id, true],
        [`/groups?size=500&include-private=true&client_id=${A}`, 'groups', null, true],
        ['/groups?size=500&include-private=true&include-deleted=true', 'groups', w.b.group.id, true],
        [`/groups?name-eq=${q(w.a.group.name)}`, 'groups', null, true],
        ['/permissionschemes?size=500', 'schemes', w.b.scheme.id, false],
        [`/permissionschemes?size=500&client_id=${A}`, 'schemes', null, false],
        ['/permissionschemes?size=500&include-deleted=true', 'schemes', w.b.scheme.id, false],
        [`/permissionschemes?name-eq=${q(w.a.scheme.name)}`, 'schemes', null, false],
        ['/clients?size=500', 'clients', w.b.tenant.id, true],
        [`/clients?name=${q(w.a.tenant.loginName)}`, 'clients', null, true],
      ];
      for (const [path, kind, own, forUsers] of lists) {
        const response = await caller.get<Page<Listed> & ErrorBody>(path);
        if (!admin && !forUsers) {
          // Permission schemes are for administrators: refused whatever the client asked.
          expect(response.status, path).toBe(403);
          continue;
        }
        expect(response.status, `${path}: ${response.text}`).toBe(200);
        const content = response.body.content;
        const foreign = { users: a.users, groups: a.groups, schemes: a.schemes, clients: a.clients }[kind];
        expect(
          content.filter((item) => foreign.includes(item.id)),
          path,
        ).toEqual([]);
        for (const item of content) {
          if (item.clientId !== undefined && kind !== 'clients')
            expect(item.clientId, path).toBe(w.b.tenant.id);
          if (item.username !== undefined)
            expect(a.usernames.filter((name) => name !== 'admin')).not.toContain(item.username);
          for (const group of item.groups ?? []) expect(a.groups, path).not.toContain(group.id);
          for (const member of item.groupMembers ?? []) expect(a.users, path).not.toContain(member.id);
        }
        if (own === null) expect(response.body.totalElements, path).toBe(0);
        else
          expect(
            content.map((item) => item.id),
            path,
          ).toContain(own);
      }

      // Row numbers: 0 for A's objects, under any filter; a positive control on B's own object.
      const rownums: [string, boolean][] = [
        [`/users/rownum/${w.a.user.id}`, true],
        [`/users/rownum/${w.a.user.id}?client_id=${A}`, true],
        [`/users/rownum/${w.a.deletedUserId}?include-deleted=true`, true],
        [`/groups/rownum/${w.a.group.id}`, true],
        [`/groups/rownum/${w.a.group.id}?client_id=${A}&include-private=true`, true],
        [`/groups/rownum/${w.a.deletedGroupId}?include-deleted=true`, true],
        [`/permissionschemes/rownum/${w.a.scheme.id}`, false],
        [`/permissionschemes/rownum/${w.a.scheme.id}?client_id=${A}`, false],
        [`/clients/rownum/${A}`, true],
      ];
      for (const [path, forUsers] of rownums) {
        const response = await caller.get<number>(path);
        if (!admin && !forUsers) {
          expect(response.status, path).toBe(403);
          continue;
        }
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 200,
          body: 0,
        });
      }
      expect((await caller.get<number>(`/users/rownum/${w.b.userId}`)).body).toBeGreaterThan(0);
      expect((await caller.get<number>(`/groups/rownum/${w.b.group.id}`)).body).toBeGreaterThan(0);

      await expectAUnchanged(t, w);
    });

    it("roles, guest settings and the users export are B's, never A's", async () => {
      const w = await world();
      const caller = callerOf(w, actor);
      const admin = actor === 'administrator';

      const roles = await caller.get<{ systemname: string }[]>('/roles');
      expect(roles.status, roles.text).toBe(200);
      const names = roles.body.map((role) => role.systemname);
      expect(names).not.toContain(`DICTIONARY_ADMIN@${w.a.dictionary.oid}`);
      expect(names).toContain(`DICTIONARY_ADMIN@${w.b.dictionary.oid}`);

      const guest = await caller.get<{ enabled: boolean; username: string | null } & ErrorBody>(
        '/users/guest',
      );
      if (admin) {
        // A has guest access enabled with its own guest account; B has none.
        expect(guest.status, guest.text).toBe(200);
        expect(guest.body).toMatchObject({ enabled: false, username: null });
      } else {
        expect(guest.status).toBe(403);
        expect(guest.text).not.toContain(w.a.guestUsername);
      }

      const exported = await caller.get<string>('/users/export');
      for (const secret of [w.a.user.username, w.a.group.name, w.a.guestUsername, w.a.tenant.loginName]) {
        expect(exported.text).not.toContain(secret);
      }
      if (admin) {
        expect(exported.status).toBe(200);
        expect(exported.text).toContain(w.b.group.name);
        expect(exported.text).toContain(`client="${w.b.tenant.loginName}"`);
      } else {
        expect(exported.status).toBe(403);
      }

      await expectAUnchanged(t, w);
    });
  });

  it("B's administrator cannot pull A's users, groups or roles into B's objects (400 unknown)", async () => {
    const w = await world();
    const admin = w.b.admin;
    const suffix = uniqueSuffix();
    const bUser = expectStatus(await admin.get<UserBody>(`/users/${w.b.userId}?format=EDIT`), 200);
    const bGroup = w.b.group;

    const refused: [string, Promise<{ status: number; body: unknown; text: string }>][] = [
      [
        "B's group with A's user as member",
        admin.put(`/groups/partial/${bGroup.id}`, { version: bGroup.version, groupMembers: [w.a.user.id] }),
      ],
      [
        "a new group of B with A's user",
        admin.post('/groups', { name: `Mixed ${suffix}`, groupMembers: [w.a.user.id] }),
      ],
      [
        "a new user of B in A's group",
        admin.post('/users', {
          username: `mix${suffix}`,
          password: `pw-${suffix}-mix`,
          groups: [w.a.group.id],
        }),
      ],
      [
        "B's user put in A's group",
        admin.put(`/users/partial/${bUser.id}`, { version: bUser.version, groups: [w.a.group.id] }),
      ],
      [
        "a new user of B administering A's dictionary",
        admin.post('/users', { username: `dix${suffix}`, roles: [`DICTIONARY_ADMIN@${w.a.dictionary.oid}`] }),
      ],
      [
        "a permission scheme of B granting to A's group",
        admin.post('/permissionschemes', {
          name: `Mixed scheme ${suffix}`,
          grants: [{ groupId: w.a.group.id, dictionaryPermissions: ['DICT_READ'] }],
        }),
      ],
    ];
    const answers: unknown[] = [];
    for (const [what, call] of refused) {
      const response = await call;
      answers.push({ what, status: response.status, code: (response.body as ErrorBody).code });
    }
    expect(answers).toEqual(refused.map(([what]) => ({ what, status: 400, code: 'BAD_REQUEST' })));

    // Nothing half-made in B either.
    const after = expectStatus(await admin.get<GroupBody>(`/groups/${bGroup.id}?format=EDIT`), 200);
    expect(after).toMatchObject({ version: bGroup.version, groupMembers: [] });
    const bUserAfter = expectStatus(await admin.get<UserBody>(`/users/${bUser.id}?format=EDIT`), 200);
    expect(bUserAfter).toMatchObject({ version: bUser.version, groups: [] });
    for (const path of [
      `/groups?name-eq=Mixed%20${suffix}`,
      `/users?name-eq=mix${suffix}`,
      `/users?name-eq=dix${suffix}`,
      `/permissionschemes?name-eq=Mixed%20scheme%20${suffix}`,
    ]) {
      expect(expectStatus(await admin.get<Page<unknown>>(path), 200).totalElements, path).toBe(0);
    }

    await expectAUnchanged(t, w);
  });
});

// ---------------------------------------------------------------------------------------------------
// tRPC over a real socket
// ---------------------------------------------------------------------------------------------------

const trpcAs = (caller: RestClient) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': caller.token ?? '' } })],
  });

/** The error code of a call, or its value when it succeeds. */
async function settle(call: () => Promise<unknown>): Promise<{ code: string } | { value: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    return { code: (error as TRPCClientError<AppRouter>).data?.code ?? 'no code' };
  }
}

describe('tRPC at /trpc, logged in to client B', () => {
  it.each(actors)(
    "as an %s of B, every procedure on A's objects is NOT_FOUND and nothing changes",
    async (actor: Actor) => {
      const w = await world();
      const api = trpcAs(callerOf(w, actor));
      const u = w.a.user.id;
      const g = w.a.group.id;
      const s = w.a.scheme.id;
      const A = w.a.tenant.id;
      const notFound = { code: 'NOT_FOUND' };
      // [procedure, call, expected answer]
      const calls: [string, () => Promise<unknown>, { code: string } | { value: unknown }][] = [
        [
          'users.get',
          () => api.users.get.query({ id: u, format: 'EDIT', 'include-deleted': false }),
          notFound,
        ],
        [
          'users.get deleted',
          () => api.users.get.query({ id: w.a.deletedUserId, format: 'FULL', 'include-deleted': true }),
          notFound,
        ],
        [
          'users.update',
          () =>
            api.users.update.mutate({
              id: u,
              version: w.a.user.version,
              username: w.a.user.username,
              fullName: TAKEN,
              format: 'FULL',
            }),
          notFound,
        ],
        [
          'users.patch',
          () => api.users.patch.mutate({ id: u, version: w.a.user.version, active: false, format: 'FULL' }),
          notFound,
        ],
        ['users.delete', () => api.users.delete.mutate({ id: u }), notFound],
        [
          'users.deleteAsync',
          () => api.users.deleteAsync.mutate({ ids: `${u}` }),
          { value: { result: { [u]: false } } },
        ],
        ['users.logoutUser', () => api.users.logoutUser.mutate({ 'user-id': u }), notFound],
        [
          'users.assignClients',
          () => api.users.assignClients.mutate({ users: [u], clients: [w.b.tenant.id] }),
          { code: 'FORBIDDEN' },
        ],
        [
          'groups.get',
          () => api.groups.get.query({ id: g, format: 'EDIT', 'include-deleted': false }),
          notFound,
        ],
        [
          'groups.get deleted',
          () => api.groups.get.query({ id: w.a.deletedGroupId, format: 'FULL', 'include-deleted': true }),
          notFound,
        ],
        [
          'groups.update',
          () => api.groups.update.mutate({ id: g, version: w.a.group.version, name: TAKEN, format: 'FULL' }),
          notFound,
        ],
        [
          'groups.patch',
          () =>
            api.groups.patch.mutate({ id: g, version: w.a.group.version, groupMembers: [], format: 'FULL' }),
          notFound,
        ],
        ['groups.delete', () => api.groups.delete.mutate({ id: g }), notFound],
        [
          'groups.deleteAsync',
          () => api.groups.deleteAsync.mutate({ ids: `${g}` }),
          { value: { result: { [g]: false } } },
        ],
        [
          'permissionSchemes.get',
          () => api.permissionSchemes.get.query({ id: s, format: 'FULL', 'include-deleted': false }),
          notFound,
        ],
        [
          'permissionSchemes.update',
          () =>
            api.permissionSchemes.update.mutate({
              id: s,
              version: w.a.scheme.version,
              name: TAKEN,
              grants: [],
              format: 'FULL',
            }),
          notFound,
        ],
        [
          'permissionSchemes.patch',
          () =>
            api.permissionSchemes.patch.mutate({
              id: s,
              version: w.a.scheme.version,
              grants: [],
              format: 'FULL',
            }),
          notFound,
        ],
        ['permissionSchemes.delete', () => api.permissionSchemes.delete.mutate({ id: s }), notFound],
        [
          'permissionSchemes.byClient',
          () => api.permissionSchemes.byClient.query({ client_id: A }),
          notFound,
        ],
        [
          'access.dictionaryPermissions',
          () => api.access.dictionaryPermissions.query({ dictionary_id: [w.a.dictionary.id] }),
          notFound,
        ],
        ['roles.forClient', () => api.roles.forClient.query({ client_id: A }), notFound],
        [
          'clients.get',
          () => api.clients.get.query({ id: A, format: 'FULL', 'include-deleted': false }),
          notFound,
        ],
        ['auth.switchClient', () => api.auth.switchClient.mutate({ client_id: A }), notFound],
      ];
      const answers: unknown[] = [];
      for (const [call, run] of calls) answers.push({ call, ...(await settle(run)) });
      expect(answers).toEqual(calls.map(([call, , expected]) => ({ call, ...expected })));

      const users = await api.users.list.query({
        page: 0,
        size: 500,
        format: 'FULL',
        'include-deleted': true,
      });
      expect(users.content.map((user) => user.id)).toContain(w.b.userId);
      expect(users.content.filter((user) => user.clientId !== w.b.tenant.id)).toEqual([]);
      const asA = await api.users.list.query({
        page: 0,
        format: 'ID',
        'include-deleted': false,
        client_id: A,
      });
      expect(asA.totalElements).toBe(0);
      const groups = await api.groups.list.query({
        page: 0,
        size: 500,
        format: 'FULL',
        'include-deleted': true,
        'include-all': true,
        'include-guest': true,
        'include-private': true,
      });
      expect(groups.content.map((group) => group.id)).toContain(w.b.group.id);
      expect(groups.content.filter((group) => group.clientId !== w.b.tenant.id)).toEqual([]);
      expect(
        await api.users.rownum.query({
          id: u,
          page: 0,
          format: 'ID',
          'include-deleted': false,
          client_id: A,
        }),
      ).toBe(0);

      await expectAUnchanged(t, w);
    },
  );
});

// ---------------------------------------------------------------------------------------------------
// GraphQL over a real socket
// ---------------------------------------------------------------------------------------------------

interface GraphQLAnswer {
  data: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
}

async function graphql(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLAnswer> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLAnswer;
}

describe('GraphQL at /graphql, logged in to client B', () => {
  it.each(actors)(
    "as an %s of B, every field on A's objects is NOT_FOUND with no data",
    async (actor: Actor) => {
      const w = await world();
      const token = callerOf(w, actor).token!;
      const v = { u: w.a.user.id, g: w.a.group.id, A: w.a.tenant.id, d: w.a.dictionary.id, B: w.b.tenant.id };
      // [field, document, expected code]
      const fields: [string, string, string][] = [
        ['user', `{ user(id: ${v.u}) { id username } }`, 'NOT_FOUND'],
        ['user', `{ user(id: ${w.a.deletedUserId}, includeDeleted: true) { id } }`, 'NOT_FOUND'],
        ['group', `{ group(id: ${v.g}) { id name groupMembers { id } } }`, 'NOT_FOUND'],
        [
          'updateUser',
          `mutation { updateUser(id: ${v.u}, version: ${w.a.user.version}, input: { fullName: "${TAKEN}", active: false }) { id } }`,
          'NOT_FOUND',
        ],
        [
          'updateGroup',
          `mutation { updateGroup(id: ${v.g}, version: ${w.a.group.version}, input: { name: "${TAKEN}", groupMembers: [] }) { id } }`,
          'NOT_FOUND',
        ],
        ['deleteUser', `mutation { deleteUser(id: ${v.u}) }`, 'NOT_FOUND'],
        ['deleteGroup', `mutation { deleteGroup(id: ${v.g}) }`, 'NOT_FOUND'],
        ['logoutUser', `mutation { logoutUser(userId: ${v.u}) }`, 'NOT_FOUND'],
        [
          'dictionaryPermissions',
          `{ dictionaryPermissions(dictionaryIds: [${v.d}]) { dictionaryId permissions } }`,
          'NOT_FOUND',
        ],
        ['permissionSchemes', `{ permissionSchemes(clientId: ${v.A}) { id name } }`, 'NOT_FOUND'],
        ['roles', `{ roles(clientId: ${v.A}) { systemname } }`, 'NOT_FOUND'],
        ['client', `{ client(id: ${v.A}) { id name } }`, 'NOT_FOUND'],
        ['assignClients', `mutation { assignClients(users: [${v.u}], clients: [${v.B}]) }`, 'FORBIDDEN'],
      ];
      const answers: unknown[] = [];
      for (const [field, document] of fields) {
        const answer = await graphql(token, document);
        answers.push({
          field,
          code: answer.errors?.[0]?.extensions.code,
          data: answer.data?.[field] ?? null,
        });
      }
      expect(answers).toEqual(fields.map(([field, , code]) => ({ field, code, data: null })));

      const lists = await graphql(
        token,
        `{ users(size: 500, format: EDIT) { content { id clientId groups { id } } }
         foreign: users(clientId: ${v.A}) { totalElements }
         groups(size: 500, includePrivate: true, format: EDIT) { content { id clientId groupMembers { id } } } }`,
      );
      expect(lists.errors).toBeUndefined();
      const data = lists.data as {
        users: { content: { id: number; clientId: number; groups: { id: number }[] | null }[] };
        foreign: { totalElements: number };
        groups: { content: { id: number; clientId: number; groupMembers: { id: number }[] | null }[] };
      };
      const a = idsOfA(w);
      expect(data.users.content.map((user) => user.id)).toContain(w.b.userId);
      expect(data.users.content.filter((user) => a.users.includes(user.id) || user.clientId !== v.B)).toEqual(
        [],
      );
      expect(
        data.users.content
          .flatMap((user) => user.groups ?? [])
          .filter((group) => a.groups.includes(group.id)),
      ).toEqual([]);
      expect(data.foreign.totalElements).toBe(0);
      expect(data.groups.content.map((group) => group.id)).toContain(w.b.group.id);
      expect(
        data.groups.content.filter((group) => a.groups.includes(group.id) || group.clientId !== v.B),
      ).toEqual([]);
      expect(
        data.groups.content
          .flatMap((group) => group.groupMembers ?? [])
          .filter((member) => a.users.includes(member.id)),
      ).toEqual([]);

      await expectAUnchanged(t, w);
    },
  );
});
