import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { User } from '../user/user.entity.js';

/**
 * NORMAL groups are made by administrators. Every client has three system groups: ALL_USERS (every named
 * user, implicitly), GUEST (the guest accounts) and OWNER (stands for the creator of an object in
 * permission schemes; listed only with include-private).
 */
export const GroupTypes = ['NORMAL', 'ALL_USERS', 'GUEST', 'OWNER'] as const;
export type GroupType = (typeof GroupTypes)[number];

export const Group = defineEntity({
  name: 'Group',
  tableName: 'groups',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    /** Session length of members in seconds; null means the SESSION_TIMEOUT default. */
    timeout: p.integer().nullable(),
    /** Days a member's password stays valid; null means no forced change. */
    pwdChange: p.integer().nullable(),
    /** Dictionary id to the view ids members use. */
    viewsMap: p.json<Record<string, number[]>>().default('{}'),
    /** Dictionary id to the filter id applied to members' search results. */
    filterMap: p.json<Record<string, number>>().default('{}'),
    type: p.enum([...GroupTypes]).default('NORMAL'),
    langCode3: p.string().length(3).nullable(),
    hasApiAccess: p.boolean().default(false),
  },
});
export type Group = InferEntity<typeof Group>;

/** Explicit membership of NORMAL and GUEST groups (ALL_USERS is implicit, OWNER is per object). */
export const GroupMember = defineEntity({
  name: 'GroupMember',
  tableName: 'group_members',
  properties: {
    group: () => p.manyToOne(Group).primary().ref(),
    user: () => p.manyToOne(User).primary().ref(),
  },
});
export type GroupMember = InferEntity<typeof GroupMember>;
