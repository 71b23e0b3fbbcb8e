import type { z } from 'zod';
import { builder, defined } from '../../graphql/builder.js';
import { AuditInfoRef, FormatEnum, pageRef } from '../../graphql/common.graphql.js';
import { pageCost } from '../../graphql/cost.js';
import { User } from './user.entity.js';
import type { UserLogItemSchema, UserOutputSchema } from './user.schema.js';

export interface UserSummary {
  id: number;
  username: string;
  fullName: string | null;
}

/** Users as they appear inside other objects; loaded in one query per request level, never one by one. */
export const UserSummaryRef = builder.loadableObjectRef<UserSummary, number>('UserSummary', {
  load: async (ids: number[], context) => {
    const users = await context.request.em.find(
      User,
      { id: { $in: ids } },
      { fields: ['id', 'username', 'fullName'], filters: false },
    );
    const byId = new Map(users.map((user) => [user.id, user]));
    return ids.map((id): UserSummary | Error => {
      const user = byId.get(id);
      return user
        ? { id, username: user.username, fullName: user.fullName ?? null }
        : new Error(`User ${id} not found`);
    });
  },
});

UserSummaryRef.implement({
  description: 'A user as shown in audit information.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    username: t.exposeString('username'),
    fullName: t.exposeString('fullName', { nullable: true }),
  }),
});

type UserOutput = z.infer<typeof UserOutputSchema>;
type UserLogItem = z.infer<typeof UserLogItemSchema>;

const UserLogItemRef = builder.objectRef<UserLogItem>('UserLogItem').implement({
  description: 'One login: when, from where, through the API or not.',
  fields: (t) => ({
    userLogin: t.exposeString('userLogin'),
    userId: t.exposeInt('userId'),
    clientLogin: t.exposeString('clientLogin'),
    loginTime: t.exposeFloat('loginTime'),
    logoutTime: t.exposeFloat('logoutTime', { nullable: true }),
    ipAddress: t.exposeString('ipAddress', { nullable: true }),
    apiLogin: t.exposeBoolean('apiLogin'),
    apiRequests: t.exposeInt('apiRequests'),
  }),
});

const GroupRefRef = builder.objectRef<{ id: number; name: string; type: string }>('GroupRef').implement({
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name'), type: t.exposeString('type') }),
});

const optional = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export const UserRef = builder.objectRef<UserOutput>('User').implement({
  description:
    'A user. email and expDate are shown to the user, administrators and user editors; lastLogins to administrators and user editors.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.int({ nullable: true, resolve: (u) => optional(u.version) }),
    clientId: t.int({ nullable: true, resolve: (u) => optional(u.clientId) }),
    username: t.string({ nullable: true, resolve: (u) => optional(u.username) }),
    fullName: t.string({ nullable: true, resolve: (u) => optional(u.fullName) }),
    email: t.string({ nullable: true, resolve: (u) => optional(u.email) }),
    title: t.string({ nullable: true, resolve: (u) => optional(u.title) }),
    expDate: t.float({ nullable: true, description: 'ms epoch', resolve: (u) => optional(u.expDate) }),
    type: t.string({ nullable: true, resolve: (u) => optional(u.type) }),
    active: t.boolean({ nullable: true, resolve: (u) => optional(u.active) }),
    roles: t.stringList({ nullable: true, resolve: (u) => optional(u.roles) }),
    clientIds: t.intList({ nullable: true, resolve: (u) => optional(u.clientIds) }),
    groups: t.field({ type: [GroupRefRef], nullable: true, resolve: (u) => optional(u.groups) }),
    forcePasswordChange: t.boolean({ nullable: true, resolve: (u) => optional(u.forcePasswordChange) }),
    lastLogins: t.field({ type: [UserLogItemRef], nullable: true, resolve: (u) => optional(u.lastLogins) }),
    deleted: t.boolean({ nullable: true, resolve: (u) => optional(u.deleted) }),
    created: t.field({ type: AuditInfoRef, nullable: true, resolve: (u) => optional(u.created) }),
    changed: t.field({ type: AuditInfoRef, nullable: true, resolve: (u) => optional(u.changed) }),
  }),
});

const UserPageRef = pageRef('UserPage', UserRef);

const UserInput = builder.inputType('UserInput', {
  description: 'Attributes to set; on update omitted ones stay, null clears. password ****** keeps it.',
  fields: (t) => ({
    username: t.string({ required: false }),
    fullName: t.string({ required: false }),
    email: t.string({ required: false }),
    title: t.string({ required: false }),
    expDate: t.float({ required: false, description: 'ms epoch' }),
    active: t.boolean({ required: false }),
    password: t.string({ required: false }),
    confirmPassword: t.string({ required: false }),
    roles: t.stringList({ required: false }),
    clientIds: t.intList({ required: false }),
    groups: t.intList({ required: false, description: 'group ids' }),
    forcePasswordChange: t.boolean({ required: false }),
    sendNotificationEmail: t.boolean({ required: false }),
  }),
});

type UserInputShape = {
  [K in keyof typeof UserInput.$inferInput]?: (typeof UserInput.$inferInput)[K] | null;
};
/** Optional scalars the procedures take as undefined (absent) or null (clear). */
const userWrite = (input: UserInputShape) =>
  defined({
    fullName: input.fullName,
    email: input.email,
    title: input.title,
    expDate: input.expDate,
    active: input.active ?? undefined,
    password: input.password,
    confirmPassword: input.confirmPassword,
    roles: input.roles ?? undefined,
    clientIds: input.clientIds ?? undefined,
    groups: input.groups ?? undefined,
    forcePasswordChange: input.forcePasswordChange ?? undefined,
    sendNotificationEmail: input.sendNotificationEmail ?? undefined,
  });

builder.queryFields((t) => ({
  users: t.field({
    type: UserPageRef,
    description: "Users of the token's client (own and mapped; never guests).",
    complexity: pageCost,
    args: {
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false }),
      login: t.arg.string({ required: false }),
      fullName: t.arg.string({ required: false }),
      clientId: t.arg.int({ required: false }),
      includeDeleted: t.arg.boolean({ required: false }),
      format: t.arg({ type: FormatEnum, required: false }),
    },
    resolve: (_, args, { api }) =>
      api.users.list(
        defined({
          page: args.page ?? 0,
          size: args.size ?? undefined,
          sort: args.sort ?? undefined,
          login: args.login ?? undefined,
          'full-name': args.fullName ?? undefined,
          client_id: args.clientId ?? undefined,
          'include-deleted': args.includeDeleted ?? false,
          format: args.format ?? 'FULL',
        }),
      ),
  }),
  user: t.field({
    type: UserRef,
    args: {
      id: t.arg.int({ required: true }),
      format: t.arg({ type: FormatEnum, required: false }),
      includeDeleted: t.arg.boolean({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.users.get({
        id: args.id,
        format: args.format ?? 'FULL',
        'include-deleted': args.includeDeleted ?? false,
      }),
  }),
  passwordSettings: t.field({
    type: builder.objectRef<{ regExp: string; msg: string }>('PasswordSettings').implement({
      fields: (f) => ({ regExp: f.exposeString('regExp'), msg: f.exposeString('msg') }),
    }),
    resolve: (_, __, { api }) => api.users.passwordSettings(),
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.field({
    type: UserRef,
    args: { input: t.arg({ type: UserInput, required: true }) },
    resolve: (_, { input }, { api }) =>
      api.users.create({ format: 'EDIT', username: input.username ?? '', ...userWrite(input) }),
  }),
  updateUser: t.field({
    type: UserRef,
    description: 'Partial update; version must be the stored one (CONFLICT otherwise).',
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      input: t.arg({ type: UserInput, required: true }),
    },
    resolve: (_, { id, version, input }, { api }) =>
      api.users.patch({
        id,
        version,
        format: 'EDIT',
        ...defined({ username: input.username ?? undefined }),
        ...userWrite(input),
      }),
  }),
  deleteUser: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.users.delete({ id });
      return true;
    },
  }),
  assignClients: t.int({
    description: 'Maps users to exactly these clients (system administrators); answers the number of users.',
    args: { users: t.arg.intList({ required: true }), clients: t.arg.intList({ required: true }) },
    resolve: (_, args, { api }) => api.users.assignClients({ users: args.users, clients: args.clients }),
  }),
  logoutUser: t.boolean({
    description: "Ends another user's sessions (administrators).",
    args: { userId: t.arg.int({ required: true }) },
    resolve: async (_, { userId }, { api }) => {
      await api.users.logoutUser({ 'user-id': userId });
      return true;
    },
  }),
}));
