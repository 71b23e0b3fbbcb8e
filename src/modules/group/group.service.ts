import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { type AuditUsers, commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  findPage,
  type ListSpec,
  listedClientId,
  markDeleted,
  nameWhere,
  rownumOf,
} from '../../shared/listing.js';
import { assertNotGuest, deletedFilter, isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import type { Client } from '../client/client.entity.js';
import { runBulkAsJob } from '../jobs/job-runner.js';
import { GuestUserTypes, User, UserClient } from '../user/user.entity.js';
import { Group, GroupMember, type GroupType } from './group.entity.js';
import {
  GROUP_SHORT_KEYS,
  type GroupCreateInput,
  type GroupDto,
  type GroupListInput,
  type GroupPatchInput,
  type GroupUpdateInput,
} from './group.schema.js';

const SORTABLE = {
  name: 'name',
  description: 'description',
  type: 'type',
  ...AUDIT_SORTS,
} as const;
const LIST: ListSpec<Group, (typeof SORTABLE)[keyof typeof SORTABLE]> = {
  entity: Group,
  sortable: SORTABLE,
  fallbackSort: 'name',
  filters: { tenant: false },
};
const NO_TENANT = { tenant: false } as const;

/** The system groups every client has; they can be renamed and described but not deleted. */
export function createSystemGroups(em: EntityManager, client: Client, actorId: number | null): void {
  const groups: [string, GroupType][] = [
    ['All users', 'ALL_USERS'],
    ['Guests', 'GUEST'],
    ['Owner', 'OWNER'],
  ];
  for (const [name, type] of groups) {
    em.create(Group, { client, name, type, createdById: actorId, changedById: actorId });
  }
}

function assertMayManageGroups(scope: Scope): void {
  if (!isClientAdmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only administrators manage groups');
}

function listWhere(clientId: number, input: GroupListInput): FilterQuery<Group> {
  const excluded: GroupType[] = [];
  if (!input['include-all']) excluded.push('ALL_USERS');
  if (!input['include-guest']) excluded.push('GUEST');
  if (!input['include-private']) excluded.push('OWNER');
  const where: FilterQuery<Group>[] = [{ client: clientId }];
  if (excluded.length) where.push({ type: { $nin: excluded } });
  where.push(...nameWhere<Group>(input));
  return { $and: where };
}

interface Members {
  count: Map<number, number>;
  members: Map<number, { id: number; username: string; fullName: string | null }[]>;
}

/** Explicit members of NORMAL groups; ALL_USERS counts every named user of the client, GUEST its guests. */
async function loadMembers(em: EntityManager, clientId: number, groups: Group[]): Promise<Members> {
  const count = new Map<number, number>();
  const members: Members['members'] = new Map();
  const normal = groups.filter((group) => group.type === 'NORMAL').map((group) => group.id);
  if (normal.length) {
    const rows = await em.find(
      GroupMember,
      { group: { $in: normal }, user: { deleted: false } },
      { populate: ['user'], filters: false, orderBy: { user: { username: 'ASC' } } },
    );
    for (const row of rows) {
      const user = row.user.getEntity();
      const list = members.get(row.group.id) ?? [];
      list.push({ id: user.id, username: user.username, fullName: user.fullName ?? null });
      members.set(row.group.id, list);
    }
    for (const id of normal) count.set(id, members.get(id)?.length ?? 0);
  }
  for (const group of groups) {
    if (group.type === 'ALL_USERS' || group.type === 'GUEST') {
      const guest = group.type === 'GUEST';
      count.set(
        group.id,
        await em.count(
          User,
          { client: clientId, type: guest ? { $in: [...GuestUserTypes] } : { $nin: [...GuestUserTypes] } },
          { filters: NO_TENANT },
        ),
      );
    }
  }
  return { count, members };
}

function toDto(group: Group, audit: AuditUsers, members: Members | null): GroupDto {
  const dto: GroupDto = {
    ...commonDto(group, group.client.id, audit),
    name: group.name,
    description: group.description ?? null,
    timeout: group.timeout ?? null,
    pwdChange: group.pwdChange ?? null,
    viewsMap: group.viewsMap,
    filterMap: group.filterMap,
    type: group.type,
    langCode3: group.langCode3 ?? null,
    hasApiAccess: group.hasApiAccess,
  };
  if (!members) return dto;
  return {
    ...dto,
    currentUsersNumber: members.count.get(group.id) ?? 0,
    groupMembers: members.members.get(group.id) ?? [],
  };
}

async function render(scope: Scope, groups: Group[], format: Format) {
  if (format === 'ID') return groups.map((group) => ({ id: group.id }));
  const audit = await loadAuditUsers(scope.em, groups);
  const clientId = groups[0]?.client.id ?? scope.actor.clientId;
  const members = format === 'EDIT' ? await loadMembers(scope.em, clientId, groups) : null;
  return groups.map((group) => applyFormat(toDto(group, audit, members), format, GROUP_SHORT_KEYS));
}

/** A page of the groups of the token's client. */
export function listGroups(scope: Scope, input: GroupListInput) {
  assertNotGuest(scope, 'the groups');
  const clientId = listedClientId(scope, input.client_id);
  const where = clientId === null ? null : listWhere(clientId, input);
  return findPage(scope, LIST, where, input, (groups) => render(scope, groups, input.format));
}

export function groupRownum(scope: Scope, id: number, input: GroupListInput): Promise<number> {
  assertNotGuest(scope, 'the groups');
  const clientId = listedClientId(scope, input.client_id);
  return rownumOf(scope, LIST, clientId === null ? null : listWhere(clientId, input), input, id);
}

/** A group of the token's client (system administrators: of any client); otherwise 404. */
async function loadVisible(scope: Scope, id: number, em = scope.em, includeDeleted = false): Promise<Group> {
  const where: FilterQuery<Group> = isSysadmin(scope.actor) ? { id } : { id, client: scope.actor.clientId };
  const group = await em.findOne(Group, where, {
    filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) },
  });
  if (!group) throw notFound('Group', id);
  return group;
}

export async function getGroup(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  assertNotGuest(scope, 'the groups');
  const [dto] = await render(scope, [await loadVisible(scope, id, scope.em, includeDeleted)], format);
  return dto!;
}

async function assertNameFree(em: EntityManager, clientId: number, name: string, exceptId?: number) {
  const clash = await em.findOne(
    Group,
    {
      client: clientId,
      [lowerOf('name')]: name.toLowerCase(),
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A group named "${name}" already exists in the client`);
}

/** Members must be named users of the group's client (own or mapped). */
async function setMembers(em: EntityManager, group: Group, userIds: readonly number[]): Promise<void> {
  if (group.type !== 'NORMAL') {
    throw new AppError('BAD_REQUEST', `Members of the system group "${group.name}" are implicit`);
  }
  const wanted = [...new Set(userIds)];
  if (wanted.length) {
    const mapped = (await em.find(UserClient, { client: group.client.id, user: { $in: wanted } })).map(
      (row) => row.user.id,
    );
    const users = await em.find(
      User,
      {
        id: { $in: wanted },
        type: { $nin: [...GuestUserTypes] },
        $or: [{ client: group.client.id }, { id: { $in: mapped.length ? mapped : [0] } }],
      },
      { fields: ['id'], filters: NO_TENANT },
    );
    const missing = wanted.filter((id) => !users.some((user) => user.id === id));
    if (missing.length) throw new AppError('BAD_REQUEST', `Unknown users: ${missing.join(', ')}`);
  }
  await em.nativeDelete(GroupMember, { group: group.id });
  for (const userId of wanted) em.create(GroupMember, { group, user: userId });
}

type GroupWrite = GroupCreateInput | GroupUpdateInput | GroupPatchInput;

/** Applies the writable attributes; on PUT missing ones are erased, on PATCH they stay. */
function applyAttributes(group: Group, input: GroupWrite, partial: boolean): void {
  const take = <K extends 'description' | 'timeout' | 'pwdChange' | 'langCode3'>(key: K) => {
    if (!partial || input[key] !== undefined) group[key] = (input[key] ?? null) as Group[K];
  };
  if (input.name !== undefined) group.name = input.name;
  take('description');
  take('timeout');
  take('pwdChange');
  take('langCode3');
  if (!partial || input.viewsMap !== undefined) group.viewsMap = input.viewsMap ?? {};
  if (!partial || input.filterMap !== undefined) group.filterMap = input.filterMap ?? {};
  if (!partial || input.hasApiAccess !== undefined) group.hasApiAccess = input.hasApiAccess ?? false;
  // Guests never reach the API, whatever is sent.
  if (group.type === 'GUEST' && group.hasApiAccess) {
    throw new AppError('BAD_REQUEST', 'The Guests group never has API access');
  }
}

export async function createGroup(scope: Scope, input: GroupCreateInput) {
  assertMayManageGroups(scope);
  const group = await scope.em.transactional(async (em) => {
    await assertNameFree(em, scope.actor.clientId, input.name);
    const group = em.create(Group, {
      client: scope.actor.clientId,
      name: input.name,
      type: 'NORMAL',
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    applyAttributes(group, input, false);
    await em.flush();
    if (input.groupMembers) await setMembers(em, group, input.groupMembers);
    return group;
  });
  return getGroup(scope, group.id, input.format, false);
}

export async function updateGroup(scope: Scope, input: GroupUpdateInput | GroupPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    // Tenant first: another client's group is 404 whoever asks; then the role.
    const group = await loadVisible(scope, input.id, em);
    assertMayManageGroups(scope);
    assertVersion(group, input.version, 'Group');
    if (input.name !== undefined && input.name.toLowerCase() !== group.name.toLowerCase()) {
      await assertNameFree(em, group.client.id, input.name, group.id);
    }
    applyAttributes(group, input, partial);
    group.changedById = scope.actor.userId;
    if (input.groupMembers) await setMembers(em, group, input.groupMembers);
  });
  scope.em.clear();
  return getGroup(scope, input.id, input.format, false);
}

async function softDelete(em: EntityManager, scope: Scope, id: number): Promise<void> {
  const group = await loadVisible(scope, id, em);
  assertMayManageGroups(scope);
  if (group.type !== 'NORMAL') {
    throw new AppError('BAD_REQUEST', `The system group "${group.name}" cannot be deleted`);
  }
  markDeleted(group, scope.actor.userId);
  await em.flush();
}

export async function deleteGroup(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete(em, scope, id));
}

/**
 * Deletes several groups as one job, in one statement: the live NORMAL groups the caller sees (as
 * `softDelete` decides one by one); each id reports its own success.
 */
export function deleteGroupsAsync(scope: Scope, ids: number[]) {
  return runBulkAsJob(scope, 'groups.delete', ids, async (tx, wanted) => {
    if (!isClientAdmin(tx.actor)) return [];
    const rows = await tx.em.execute<{ id: number }[]>(
      `update groups set deleted = true, deleted_at = now(), deleted_by_id = ?, changed_by_id = ?,
              changed_at = now(), version = version + 1
        where id in (?) and not deleted and type = 'NORMAL' ${isSysadmin(tx.actor) ? '' : 'and client_id = ?'}
        returning id`,
      [tx.actor.userId, tx.actor.userId, wanted, ...(isSysadmin(tx.actor) ? [] : [tx.actor.clientId])],
    );
    return rows.map((row) => row.id);
  });
}

/**
 * The groups a user belongs to in a client: explicit NORMAL memberships plus the implicit system group
 * (All users for named users, Guests for guests). Permission schemes, API access and session length
 * all start from here.
 */
export async function effectiveGroups(
  em: EntityManager,
  clientId: number,
  user: { id: number; guest: boolean },
): Promise<Group[]> {
  const explicit = user.guest
    ? []
    : (await em.find(GroupMember, { user: user.id }, { filters: false })).map((row) => row.group.id);
  return em.find(
    Group,
    {
      client: clientId,
      type: { $ne: 'OWNER' },
      $or: [
        { type: user.guest ? 'GUEST' : 'ALL_USERS' },
        ...(explicit.length ? [{ id: { $in: explicit } }] : []),
      ],
    },
    { filters: NO_TENANT },
  );
}
