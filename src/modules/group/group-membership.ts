import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { Group, GroupMember } from './group.entity.js';

export interface GroupRef {
  id: number;
  name: string;
  type: string;
}

/** Explicit groups of each user among the live groups of one client, in one query. */
export async function groupsOfUsers(
  em: EntityManager,
  clientId: number,
  userIds: readonly number[],
): Promise<Map<number, GroupRef[]>> {
  const byUser = new Map<number, GroupRef[]>();
  if (userIds.length === 0) return byUser;
  const memberships = await em.find(
    GroupMember,
    { user: { $in: [...userIds] }, group: { client: clientId, deleted: false } },
    { populate: ['group'], filters: false, orderBy: { group: { name: 'ASC' } } },
  );
  for (const membership of memberships) {
    const group = membership.group.getEntity();
    const list = byUser.get(membership.user.id) ?? [];
    list.push({ id: group.id, name: group.name, type: group.type });
    byUser.set(membership.user.id, list);
  }
  return byUser;
}

/**
 * Makes the user a member of exactly these groups of the client (NORMAL groups only: the system groups
 * have implicit members). Groups of other clients answer 400 as unknown.
 */
export async function setUserGroups(
  em: EntityManager,
  clientId: number,
  userId: number,
  groupIds: readonly number[],
): Promise<void> {
  const wanted = [...new Set(groupIds)];
  const groups = wanted.length
    ? await em.find(Group, { id: { $in: wanted }, client: clientId }, { filters: { tenant: false } })
    : [];
  const missing = wanted.filter((id) => !groups.some((group) => group.id === id));
  if (missing.length) throw new AppError('BAD_REQUEST', `Unknown groups: ${missing.join(', ')}`);
  const system = groups.filter((group) => group.type !== 'NORMAL');
  if (system.length) {
    throw new AppError(
      'BAD_REQUEST',
      `Members of system groups are implicit: ${system.map((g) => g.name).join(', ')}`,
    );
  }
  const clientGroups = await em.find(Group, { client: clientId }, { fields: ['id'], filters: false });
  await em.nativeDelete(GroupMember, { user: userId, group: { $in: clientGroups.map((g) => g.id) } });
  for (const group of groups) em.create(GroupMember, { group, user: userId });
  await em.flush();
}
