// Over 500 lines for now: the users list, reads and writes in one file; the next cut moves the reads
// (list, rownum, DTOs, last logins) to user-read.service.ts, as the TBX import was cut.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { type AuditUsers, commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import { AUDIT_SORTS, findPage, type ListSpec, listedClientId, rownumOf } from '../../shared/listing.js';
import { likePrefix } from '../../shared/paging.js';
import { assertNotGuest, deletedFilter, isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { hashPassword } from '../auth/password.js';
import { sendPasswordResetLink } from '../auth/password-reset.service.js';
import { Session } from '../auth/session.entity.js';
import { Client } from '../client/client.entity.js';
import { groupsOfUsers, setUserGroups } from '../group/group-membership.js';
import { runBulkAsJob } from '../jobs/job-runner.js';
import { licensedUserSlots } from '../license/license.service.js';
import { assertRolesExist } from '../role/role.service.js';
import { assertPasswordAllowed } from './password-policy.js';
import { GuestUserTypes, User, UserClient } from './user.entity.js';
import {
  assertMayAssignRoles,
  assertMayChange,
  assertMayCreateUsers,
  assertMayDeleteUser,
  assertMayLogOutUser,
  assertMayMapClients,
  maySeeUserDetails,
  type UserField,
  type UserTarget,
} from './user.policy.js';
import {
  PASSWORD_UNCHANGED,
  USER_SHORT_KEYS,
  type UserCreateInput,
  type UserDto,
  type UserListInput,
  type UserLogItem,
  type UserPatchInput,
  type UserUpdateInput,
} from './user.schema.js';

const SORTABLE = {
  username: 'username',
  login: 'username',
  name: 'username',
  fullName: 'fullName',
  roles: 'roles',
  active: 'active',
  status: 'active',
  ...AUDIT_SORTS,
} as const;

const LIST: ListSpec<User, (typeof SORTABLE)[keyof typeof SORTABLE]> = {
  entity: User,
  sortable: SORTABLE,
  fallbackSort: 'username',
  filters: { tenant: false },
};

/** Users queries state their tenant condition themselves (home or mapped client), so the filter is off. */
const NO_TENANT = { tenant: false } as const;

export const toTarget = (user: User): UserTarget => ({
  id: user.id,
  homeClientId: user.client.id,
  roles: user.roles,
});

/** Ids of users of other clients mapped to this client. */
async function mappedUserIds(em: EntityManager, clientId: number): Promise<number[]> {
  const rows = await em.find(UserClient, { client: clientId });
  return rows.map((row) => row.user.id);
}

/** Named users of a client: its own and those of other clients mapped to it. Guests are never listed. */
async function usersOfClient(em: EntityManager, clientId: number): Promise<FilterQuery<User>> {
  const mapped = await mappedUserIds(em, clientId);
  return {
    $or: [{ client: clientId }, ...(mapped.length ? [{ id: { $in: mapped } }] : [])],
    type: { $nin: [...GuestUserTypes] },
  };
}

async function listWhere(scope: Scope, input: UserListInput): Promise<FilterQuery<User> | null> {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<User>[] = [await usersOfClient(scope.em, clientId)];
  const prefix = input.login ?? input.name;
  if (prefix) where.push({ username: { $ilike: likePrefix(prefix) } });
  if (input['name-eq']) where.push({ [lowerOf('username')]: input['name-eq'].toLowerCase() });
  if (input['full-name']) where.push({ fullName: { $ilike: likePrefix(input['full-name']) } });
  return { $and: where };
}

/** The last 10 logins of each user, in one windowed query. */
async function lastLoginsOf(em: EntityManager, userIds: number[]): Promise<Map<number, UserLogItem[]>> {
  const byUser = new Map<number, UserLogItem[]>();
  if (userIds.length === 0) return byUser;
  const rows = await em.execute<
    {
      user_id: number;
      username: string;
      login_name: string;
      created_at: Date;
      ended_at: Date | null;
      ip_address: string | null;
      api_login: boolean;
      api_requests: number;
    }[]
  >(
    `select s.user_id, u.username, c.login_name, s.created_at, s.ended_at, s.ip_address, s.api_login, s.api_requests
     from (select *, row_number() over (partition by user_id order by created_at desc) as position
           from sessions where user_id in (?)) s
     join users u on u.id = s.user_id join clients c on c.id = s.client_id
     where s.position <= 10 order by s.user_id, s.created_at desc`,
    [userIds],
  );
  for (const row of rows) {
    const list = byUser.get(row.user_id) ?? [];
    list.push({
      userLogin: row.username,
      userId: row.user_id,
      clientLogin: row.login_name,
      loginTime: new Date(row.created_at).getTime(),
      logoutTime: row.ended_at ? new Date(row.ended_at).getTime() : null,
      ipAddress: row.ip_address,
      apiLogin: row.api_login,
      apiRequests: row.api_requests,
    });
    byUser.set(row.user_id, list);
  }
  return byUser;
}

interface EditExtras {
  clientIds: Map<number, number[]>;
  groups: Awaited<ReturnType<typeof groupsOfUsers>>;
  lastLogins: Map<number, UserLogItem[]> | null;
}

async function loadEditExtras(scope: Scope, users: User[]): Promise<EditExtras> {
  const ids = users.map((user) => user.id);
  const mappings = ids.length ? await scope.em.find(UserClient, { user: { $in: ids } }) : [];
  const clientIds = new Map<number, number[]>();
  for (const mapping of mappings) {
    clientIds.set(mapping.user.id, [...(clientIds.get(mapping.user.id) ?? []), mapping.client.id]);
  }
  const detailed = users.filter((user) => maySeeUserDetails(scope.actor, user)).map((user) => user.id);
  return {
    clientIds,
    groups: await groupsOfUsers(scope.em, scope.actor.clientId, ids),
    lastLogins: await lastLoginsOf(scope.em, detailed),
  };
}

function toDto(scope: Scope, user: User, audit: AuditUsers, extras: EditExtras | null): UserDto {
  const details = maySeeUserDetails(scope.actor, user);
  const dto: UserDto = {
    ...commonDto(user, user.client.id, audit),
    username: user.username,
    fullName: user.fullName ?? null,
    ...(details ? { email: user.email ?? null } : {}),
    title: user.title ?? null,
    expDate: details && user.expDate ? user.expDate.getTime() : null,
    type: user.type,
    active: user.active,
    originType: user.originType ?? null,
    roles: user.roles,
  };
  if (!extras) return dto;
  const lastLogins = (isClientAdmin(scope.actor) || scope.actor.roles.includes('USEREDITOR')) && details;
  return {
    ...dto,
    password: PASSWORD_UNCHANGED,
    confirmPassword: PASSWORD_UNCHANGED,
    clientIds: extras.clientIds.get(user.id) ?? [],
    groups: extras.groups.get(user.id) ?? [],
    sendNotificationEmail: false,
    forcePasswordChange: user.forcePasswordChange,
    ...(lastLogins ? { lastLogins: extras.lastLogins?.get(user.id) ?? [] } : {}),
  };
}

async function render(scope: Scope, users: User[], format: Format) {
  if (format === 'ID') return users.map((user) => ({ id: user.id }));
  const audit = await loadAuditUsers(scope.em, users);
  const extras = format === 'EDIT' ? await loadEditExtras(scope, users) : null;
  return users.map((user) => applyFormat(toDto(scope, user, audit, extras), format, USER_SHORT_KEYS));
}

/** A page of the users of the token's client (its own and mapped ones; never guests). */
export async function listUsers(scope: Scope, input: UserListInput) {
  assertNotGuest(scope, 'the users');
  return findPage(scope, LIST, await listWhere(scope, input), input, (users) =>
    render(scope, users, input.format),
  );
}

/** 1-based position of a user under the list filters and sort; 0 when it is not in the list. */
export async function userRownum(scope: Scope, id: number, input: UserListInput): Promise<number> {
  assertNotGuest(scope, 'the users');
  return rownumOf(scope, LIST, await listWhere(scope, input), input, id);
}

/**
 * A user the caller can see: one of the token's client (own or mapped, not a guest), or any user for
 * system administrators. Anything else is 404, whether or not it exists.
 */
export async function loadVisibleUser(
  scope: Scope,
  id: number,
  options: { includeDeleted?: boolean; em?: EntityManager; lock?: boolean } = {},
): Promise<User> {
  const em = options.em ?? scope.em;
  // Everyone sees themselves (guests included); system administrators see every user.
  const where: FilterQuery<User> =
    isSysadmin(scope.actor) || id === scope.actor.userId
      ? { id }
      : { $and: [{ id }, await usersOfClient(em, scope.actor.clientId)] };
  const user = await em.findOne(User, where, {
    filters: { ...NO_TENANT, ...deletedFilter(scope, options.includeDeleted ?? false) },
    ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
  });
  if (!user) throw notFound('User', id);
  return user;
}

export async function getUser(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  if (id !== scope.actor.userId) assertNotGuest(scope, 'other users');
  const [dto] = await render(scope, [await loadVisibleUser(scope, id, { includeDeleted })], format);
  return dto!;
}

/** Refuses a username another live user of the client already has (422). */
export async function assertUsernameFree(
  em: EntityManager,
  clientId: number,
  username: string,
  exceptId?: number,
) {
  const clash = await em.findOne(
    User,
    {
      client: clientId,
      [lowerOf('username')]: username.toLowerCase(),
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A user named "${username}" already exists in the client`);
}

/** Named (non-guest) live users of a client, for the maxUsers limit. */
export const namedUserCount = (em: EntityManager, clientId: number) =>
  em.count(User, { client: clientId, type: { $nin: [...GuestUserTypes] } }, { filters: NO_TENANT });

/**
 * Locks the client row, then refuses a new account beyond maxUsers or the licence's availableUserSlots:
 * concurrent creates queue here.
 */
export async function assertUserSlotFree(em: EntityManager, clientId: number): Promise<void> {
  const client = await em.findOneOrFail(Client, clientId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const limits = [client.maxUsers, await licensedUserSlots(em)].filter(
    (limit): limit is number => limit != null,
  );
  if (limits.length === 0) return;
  const limit = Math.min(...limits);
  if ((await namedUserCount(em, clientId)) >= limit) {
    throw new AppError(
      'BAD_REQUEST',
      limit === client.maxUsers
        ? `The client has reached its maximum of ${limit} user accounts`
        : `The licence allows at most ${limit} user accounts per client`,
    );
  }
}

const sendsNewPassword = (input: { password?: string | null }) =>
  input.password !== undefined && input.password !== null && input.password !== PASSWORD_UNCHANGED;

/** A new password to store, or undefined to keep the current one (absent, null or ******). */
async function newPasswordHash(
  scope: Scope,
  input: { password?: string | null; confirmPassword?: string | null },
) {
  const password = input.password;
  if (password === undefined || password === null || password === PASSWORD_UNCHANGED) return undefined;
  if (input.confirmPassword != null && input.confirmPassword !== password) {
    throw new AppError('BAD_REQUEST', 'password and confirmPassword differ');
  }
  assertPasswordAllowed(scope.config, password);
  return hashPassword(password);
}

async function replaceClientMappings(em: EntityManager, user: User, clientIds: readonly number[]) {
  const wanted = [...new Set(clientIds)].filter((id) => id !== user.client.id);
  if (wanted.length) {
    const found = await em.count(Client, { id: { $in: wanted } });
    if (found !== wanted.length) throw new AppError('BAD_REQUEST', 'Unknown clients in clientIds');
  }
  await em.nativeDelete(UserClient, { user: user.id });
  for (const clientId of wanted) em.create(UserClient, { user: user.id, client: clientId });
}

/** Creates a user in the token's client. */
export async function createUser(scope: Scope, input: UserCreateInput) {
  const { actor } = scope;
  assertMayCreateUsers(actor);
  const roles = [...new Set(input.roles ?? [])];
  assertMayAssignRoles(actor, roles);
  if (input.clientIds?.length) assertMayMapClients(actor);
  const passwordHash = await newPasswordHash(scope, input);
  const user = await scope.em.transactional(async (em) => {
    await assertUserSlotFree(em, actor.clientId);
    await assertRolesExist(em, actor.clientId, roles);
    await assertUsernameFree(em, actor.clientId, input.username);
    const user = em.create(User, {
      client: actor.clientId,
      username: input.username,
      fullName: input.fullName ?? null,
      email: input.email ?? null,
      title: input.title ?? null,
      expDate: input.expDate ?? null,
      active: input.active ?? true,
      passwordHash: passwordHash ?? null,
      passwordChangedAt: passwordHash ? new Date() : null,
      roles,
      forcePasswordChange: input.forcePasswordChange ?? false,
      createdById: actor.userId,
      changedById: actor.userId,
    });
    await em.flush();
    if (input.clientIds?.length) await replaceClientMappings(em, user, input.clientIds);
    if (input.groups?.length) await setUserGroups(em, actor.clientId, user.id, input.groups);
    return user;
  });
  if (input.sendNotificationEmail) await notifyByMail(scope, user);
  return getUser(scope, user.id, input.format, false);
}

const sameList = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/**
 * Full (PUT) or partial update. Only attributes whose value changes are checked against the policy,
 * so sending back an object as read never trips a rule. On PUT, missing text and date attributes are
 * erased; the EDIT-only attributes (password, roles, clientIds, groups) stay unless sent.
 */
export async function updateUser(scope: Scope, input: UserUpdateInput | UserPatchInput, partial: boolean) {
  const { actor } = scope;
  if (sendsNewPassword(input)) {
    // Permission before the password's own checks: a forbidden change is 403 whatever password it sends.
    assertMayChange(actor, toTarget(await loadVisibleUser(scope, input.id)), ['password']);
  }
  // Hashing is slow on purpose: done before the transaction takes the row lock.
  const passwordHash = await newPasswordHash(scope, input);
  const updated = await scope.em.transactional(async (em) => {
    const user = await loadVisibleUser(scope, input.id, { em, lock: true });
    assertVersion(user, input.version, 'User');
    const target = toTarget(user);
    const changed: UserField[] = [];
    const next = <K extends 'fullName' | 'email' | 'title'>(key: K) =>
      partial && input[key] === undefined ? (user[key] ?? null) : (input[key] ?? null);
    const username = input.username ?? user.username;
    if (username !== user.username) changed.push('username');
    for (const key of ['fullName', 'email', 'title'] as const) {
      if (next(key) !== (user[key] ?? null)) changed.push(key);
    }
    const expDate = partial && input.expDate === undefined ? (user.expDate ?? null) : (input.expDate ?? null);
    if ((expDate?.getTime() ?? null) !== (user.expDate?.getTime() ?? null)) changed.push('expDate');
    if (input.active !== undefined && input.active !== user.active) changed.push('active');
    if (input.forcePasswordChange !== undefined && input.forcePasswordChange !== user.forcePasswordChange)
      changed.push('forcePasswordChange');
    if (passwordHash !== undefined) changed.push('password');
    const roles = input.roles ? [...new Set(input.roles)] : undefined;
    if (roles && !sameList(roles, user.roles)) changed.push('roles');
    let mapped: number[] | undefined;
    if (input.clientIds) {
      mapped = (await em.find(UserClient, { user: user.id })).map((row) => row.client.id);
      if (
        !sameList(
          input.clientIds.filter((id) => id !== user.client.id),
          mapped,
        )
      )
        changed.push('clientIds');
    }
    if (input.groups) {
      const current = (await groupsOfUsers(em, actor.clientId, [user.id])).get(user.id) ?? [];
      if (
        !sameList(
          input.groups,
          current.map((group) => group.id),
        )
      )
        changed.push('groups');
    }
    assertMayChange(actor, target, changed);

    if (changed.includes('username')) await assertUsernameFree(em, user.client.id, username, user.id);
    if (roles && changed.includes('roles')) {
      assertMayAssignRoles(
        actor,
        roles.filter((role) => !user.roles.includes(role)),
      );
      await assertRolesExist(em, user.client.id, roles);
      user.roles = roles;
    }
    user.username = username;
    user.fullName = next('fullName');
    user.email = next('email');
    user.title = next('title');
    user.expDate = expDate;
    if (input.active !== undefined) user.active = input.active;
    if (input.forcePasswordChange !== undefined) user.forcePasswordChange = input.forcePasswordChange;
    if (passwordHash !== undefined) {
      user.passwordHash = passwordHash;
      user.passwordChangedAt = new Date();
      // Choosing one's own new password is the change that was asked for.
      if (user.id === actor.userId && input.forcePasswordChange === undefined)
        user.forcePasswordChange = false;
    }
    if (changed.length) user.changedById = actor.userId;
    await em.flush();
    if (input.clientIds && changed.includes('clientIds'))
      await replaceClientMappings(em, user, input.clientIds);
    if (input.groups && changed.includes('groups'))
      await setUserGroups(em, actor.clientId, user.id, input.groups);
    // A deactivated account loses its sessions now, not at their expiry.
    if (changed.includes('active') && !user.active) await endSessionsOf(em, user.id);
    return user;
  });
  if (input.sendNotificationEmail) await notifyByMail(scope, updated);
  scope.em.clear();
  return getUser(scope, input.id, input.format, false);
}

/**
 * Mails a password-reset link after the user's transaction committed: a mail server that is down must
 * not undo the user's creation, and the link must never point at a user that was rolled back.
 */
async function notifyByMail(scope: Scope, user: User): Promise<void> {
  try {
    await sendPasswordResetLink(scope.em.fork(), scope.config, user);
  } catch (error) {
    scope.log.error({ err: error, userId: user.id }, 'password-reset mail failed');
  }
}

export const endSessionsOf = (em: EntityManager, userId: number) =>
  em.nativeUpdate(Session, { user: userId, endedAt: null }, { endedAt: new Date() });

/**
 * Which of `users` the caller may delete, deleting them one after another in the order given: never
 * oneself, never the last active administrator of a client (one deleted earlier in the list is gone).
 * Answers the refusal of each user that may not go.
 */
async function deletionRefusals(em: EntityManager, scope: Scope, users: readonly User[]) {
  const clientIds = [...new Set(users.filter((u) => u.roles.includes('ADMIN')).map((u) => u.client.id))];
  const admins = clientIds.length
    ? await em.find(
        User,
        { client: { $in: clientIds }, roles: { $contains: ['ADMIN'] }, active: true },
        { filters: NO_TENANT, fields: ['id', 'client'] },
      )
    : [];
  const gone = new Set<number>();
  const refusals = new Map<number, unknown>();
  for (const user of users) {
    const remainingAdmins = user.roles.includes('ADMIN')
      ? admins.filter((a) => a.client.id === user.client.id && a.id !== user.id && !gone.has(a.id)).length
      : 0;
    try {
      assertMayDeleteUser(scope.actor, toTarget(user), remainingAdmins);
      gone.add(user.id);
    } catch (refusal) {
      refusals.set(user.id, refusal);
    }
  }
  return refusals;
}

/** Soft-deletes users and ends their sessions: two statements, whatever their number. */
async function markUsersDeleted(em: EntityManager, actorId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await em.execute(
    `update users set deleted = true, deleted_at = now(), deleted_by_id = ?, changed_by_id = ?,
            changed_at = now(), version = version + 1
      where id in (?)`,
    [actorId, actorId, ids],
  );
  await em.nativeUpdate(Session, { user: { $in: [...ids] }, endedAt: null }, { endedAt: new Date() });
}

/** Soft-deletes a user (never oneself, never the last client administrator). */
export async function deleteUser(scope: Scope, id: number): Promise<void> {
  // Lock the client row first so that two concurrent deletes cannot remove the last two administrators.
  await scope.em.transactional(async (em) => {
    await em.findOne(Client, scope.actor.clientId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const user = await loadVisibleUser(scope, id, { em, lock: true });
    const refusal = (await deletionRefusals(em, scope, [user])).get(user.id);
    if (refusal) throw refusal;
    await markUsersDeleted(em, scope.actor.userId, [user.id]);
  });
}

/**
 * Deletes several users as one job, set-based (a few statements for any number of ids): the users the
 * caller sees, decided one after another in the order sent as `deleteUser` decides; each id reports its
 * own success.
 */
export function deleteUsersAsync(scope: Scope, ids: number[]) {
  return runBulkAsJob(scope, 'users.delete', ids, async (tx, wanted) => {
    const em = tx.em;
    await em.findOne(Client, scope.actor.clientId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const where: FilterQuery<User> = isSysadmin(scope.actor)
      ? { id: { $in: [...wanted] } }
      : { $and: [{ id: { $in: [...wanted] } }, await usersOfClient(em, scope.actor.clientId)] };
    const found = new Map(
      (await em.find(User, where, { filters: NO_TENANT, lockMode: LockMode.PESSIMISTIC_WRITE })).map((u) => [
        u.id,
        u,
      ]),
    );
    const users = wanted.flatMap((id) => found.get(id) ?? []);
    const refusals = await deletionRefusals(em, tx, users);
    const deleted = users.filter((user) => !refusals.has(user.id)).map((user) => user.id);
    await markUsersDeleted(em, scope.actor.userId, deleted);
    return deleted;
  });
}

/** Maps each user to exactly these clients (previous mappings removed); answers the number of users. */
export async function assignClients(scope: Scope, userIds: number[], clientIds: number[]): Promise<number> {
  assertMayMapClients(scope.actor);
  return scope.em.transactional(async (em) => {
    const users = await em.find(User, { id: { $in: [...new Set(userIds)] } }, { filters: NO_TENANT });
    if (users.length !== new Set(userIds).size) throw notFound('User');
    for (const user of users) await replaceClientMappings(em, user, clientIds);
    await em.flush();
    return users.length;
  });
}

/** Ends every live session of a user (administrators; client administrators within their client). */
export async function logOutUser(scope: Scope, userId: number): Promise<void> {
  const user = await loadVisibleUser(scope, userId);
  assertMayLogOutUser(scope.actor, toTarget(user));
  await endSessionsOf(scope.em, user.id);
}
