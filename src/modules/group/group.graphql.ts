import type { z } from 'zod';
import { builder, defined } from '../../graphql/builder.js';
import { AuditInfoRef, FormatEnum, pageRef } from '../../graphql/common.graphql.js';
import { pageCost } from '../../graphql/cost.js';
import type { GroupOutputSchema } from './group.schema.js';

type GroupOutput = z.infer<typeof GroupOutputSchema>;
type Member = NonNullable<GroupOutput['groupMembers']>[number];

const optional = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

const GroupMemberRef = builder.objectRef<Member>('GroupMember').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    username: t.exposeString('username'),
    fullName: t.exposeString('fullName', { nullable: true }),
  }),
});

const GroupRef = builder.objectRef<GroupOutput>('Group').implement({
  description: 'A group of users; All users, Guests and Owner are the system groups of every client.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.int({ nullable: true, resolve: (g) => optional(g.version) }),
    clientId: t.int({ nullable: true, resolve: (g) => optional(g.clientId) }),
    name: t.string({ nullable: true, resolve: (g) => optional(g.name) }),
    description: t.string({ nullable: true, resolve: (g) => optional(g.description) }),
    type: t.string({ nullable: true, resolve: (g) => optional(g.type) }),
    timeout: t.int({ nullable: true, resolve: (g) => optional(g.timeout) }),
    pwdChange: t.int({ nullable: true, resolve: (g) => optional(g.pwdChange) }),
    viewsMap: t.field({ type: 'JSON', nullable: true, resolve: (g) => optional(g.viewsMap) }),
    filterMap: t.field({ type: 'JSON', nullable: true, resolve: (g) => optional(g.filterMap) }),
    langCode3: t.string({ nullable: true, resolve: (g) => optional(g.langCode3) }),
    hasApiAccess: t.boolean({ nullable: true, resolve: (g) => optional(g.hasApiAccess) }),
    currentUsersNumber: t.int({ nullable: true, resolve: (g) => optional(g.currentUsersNumber) }),
    groupMembers: t.field({
      type: [GroupMemberRef],
      nullable: true,
      resolve: (g) => optional(g.groupMembers),
    }),
    deleted: t.boolean({ nullable: true, resolve: (g) => optional(g.deleted) }),
    created: t.field({ type: AuditInfoRef, nullable: true, resolve: (g) => optional(g.created) }),
    changed: t.field({ type: AuditInfoRef, nullable: true, resolve: (g) => optional(g.changed) }),
  }),
});

const GroupPageRef = pageRef('GroupPage', GroupRef);

const GroupInput = builder.inputType('GroupInput', {
  description:
    'Attributes to set; on update omitted ones stay, null clears. groupMembers replaces the members.',
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    timeout: t.int({ required: false }),
    pwdChange: t.int({ required: false }),
    viewsMap: t.field({ type: 'JSON', required: false }),
    filterMap: t.field({ type: 'JSON', required: false }),
    langCode3: t.string({ required: false }),
    hasApiAccess: t.boolean({ required: false }),
    groupMembers: t.intList({ required: false, description: 'user ids' }),
  }),
});

type GroupInputShape = typeof GroupInput.$inferInput;
const groupWrite = (input: GroupInputShape) =>
  defined({
    description: input.description,
    timeout: input.timeout,
    pwdChange: input.pwdChange,
    viewsMap: input.viewsMap as Record<string, number[]> | null | undefined,
    filterMap: input.filterMap as Record<string, number> | null | undefined,
    langCode3: input.langCode3,
    hasApiAccess: input.hasApiAccess ?? undefined,
    groupMembers: input.groupMembers ?? undefined,
  });

builder.queryFields((t) => ({
  groups: t.field({
    type: GroupPageRef,
    complexity: pageCost,
    args: {
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      includeAll: t.arg.boolean({ required: false }),
      includeGuest: t.arg.boolean({ required: false }),
      includePrivate: t.arg.boolean({ required: false }),
      format: t.arg({ type: FormatEnum, required: false }),
    },
    resolve: (_, args, { api }) =>
      api.groups.list(
        defined({
          page: args.page ?? 0,
          size: args.size ?? undefined,
          sort: args.sort ?? undefined,
          name: args.name ?? undefined,
          'include-all': args.includeAll ?? true,
          'include-guest': args.includeGuest ?? true,
          'include-private': args.includePrivate ?? false,
          'include-deleted': false,
          format: args.format ?? 'FULL',
        }),
      ),
  }),
  group: t.field({
    type: GroupRef,
    args: { id: t.arg.int({ required: true }), format: t.arg({ type: FormatEnum, required: false }) },
    resolve: (_, args, { api }) =>
      api.groups.get({ id: args.id, format: args.format ?? 'EDIT', 'include-deleted': false }),
  }),
}));

builder.mutationFields((t) => ({
  createGroup: t.field({
    type: GroupRef,
    args: { input: t.arg({ type: GroupInput, required: true }) },
    resolve: (_, { input }, { api }) =>
      api.groups.create({ format: 'EDIT', name: input.name ?? '', ...groupWrite(input) }),
  }),
  updateGroup: t.field({
    type: GroupRef,
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      input: t.arg({ type: GroupInput, required: true }),
    },
    resolve: (_, { id, version, input }, { api }) =>
      api.groups.patch({
        id,
        version,
        format: 'EDIT',
        ...defined({ name: input.name ?? undefined }),
        ...groupWrite(input),
      }),
  }),
  deleteGroup: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.groups.delete({ id });
      return true;
    },
  }),
}));
