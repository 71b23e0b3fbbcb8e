import type { z } from 'zod';
import { builder, defined } from '../../graphql/builder.js';
import { AuditInfoRef, pageRef } from '../../graphql/common.graphql.js';
import { pageCost } from '../../graphql/cost.js';
import { UserSummaryRef } from '../user/user.graphql.js';
import type { ClientOutputSchema } from './client.schema.js';

type ClientOutput = z.infer<typeof ClientOutputSchema>;

const ClientRef = builder.objectRef<ClientOutput>('Client').implement({
  description: 'A tenant. apiKey is visible to system and client administrators only.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.int({ nullable: true, resolve: (c) => c.version ?? null }),
    name: t.string({ nullable: true, resolve: (c) => c.name ?? null }),
    loginName: t.string({ nullable: true, resolve: (c) => c.loginName ?? null }),
    active: t.boolean({ nullable: true, resolve: (c) => c.active ?? null }),
    apiKey: t.string({ nullable: true, resolve: (c) => c.apiKey ?? null }),
    maxUsers: t.int({ nullable: true, resolve: (c) => c.maxUsers ?? null }),
    maxGuests: t.int({ nullable: true, resolve: (c) => c.maxGuests ?? null }),
    maxConcurrentUsers: t.int({ nullable: true, resolve: (c) => c.maxConcurrentUsers ?? null }),
    currentUsersNumber: t.int({ nullable: true, resolve: (c) => c.currentUsersNumber ?? null }),
    deleted: t.boolean({ nullable: true, resolve: (c) => c.deleted ?? null }),
    created: t.field({ type: AuditInfoRef, nullable: true, resolve: (c) => c.created ?? null }),
    changed: t.field({ type: AuditInfoRef, nullable: true, resolve: (c) => c.changed ?? null }),
    createdBy: t.field({
      type: UserSummaryRef,
      nullable: true,
      description: 'The creating user, batch-loaded',
      resolve: (c) => c.created?.id ?? null,
    }),
    changedBy: t.field({
      type: UserSummaryRef,
      nullable: true,
      description: 'The last changing user, batch-loaded',
      resolve: (c) => c.changed?.id ?? null,
    }),
  }),
});

const ClientPageRef = pageRef('ClientPage', ClientRef);

const ClientInput = builder.inputType('ClientInput', {
  description: 'Attributes to set; on update, omitted ones stay as they are and null clears a limit.',
  fields: (t) => ({
    name: t.string({ required: false }),
    loginName: t.string({ required: false }),
    active: t.boolean({ required: false }),
    maxUsers: t.int({ required: false }),
    maxGuests: t.int({ required: false }),
    maxConcurrentUsers: t.int({ required: false }),
  }),
});

const AdminUserInput = builder.inputType('AdminUserInput', {
  fields: (t) => ({
    username: t.string({ required: false }),
    email: t.string({ required: false }),
    password: t.string({ required: false }),
  }),
});

builder.queryFields((t) => ({
  clients: t.field({
    type: ClientPageRef,
    description: 'Clients visible to the caller (all of them for system administrators).',
    complexity: pageCost,
    args: {
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false, description: 'attribute[,ASC|DESC]' }),
      name: t.arg.string({ required: false, description: 'name or login name starts with' }),
      loginName: t.arg.string({ required: false }),
      includeDeleted: t.arg.boolean({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.clients.list(
        defined({
          page: args.page ?? 0,
          size: args.size ?? undefined,
          sort: args.sort ?? undefined,
          name: args.name ?? undefined,
          'login-name': args.loginName ?? undefined,
          'include-deleted': args.includeDeleted ?? false,
          format: 'FULL' as const,
        }),
      ),
  }),
  client: t.field({
    type: ClientRef,
    args: { id: t.arg.int({ required: true }), includeDeleted: t.arg.boolean({ required: false }) },
    resolve: (_, args, { api }) =>
      api.clients.get({ id: args.id, format: 'FULL', 'include-deleted': args.includeDeleted ?? false }),
  }),
}));

builder.mutationFields((t) => ({
  createClient: t.field({
    type: ClientRef,
    args: {
      input: t.arg({ type: ClientInput, required: true }),
      adminUser: t.arg({ type: AdminUserInput, required: false }),
    },
    resolve: (_, { input, adminUser }, { api }) =>
      api.clients.create(
        defined({
          format: 'FULL' as const,
          name: input.name ?? '',
          loginName: input.loginName ?? '',
          active: input.active ?? true,
          maxUsers: input.maxUsers,
          maxGuests: input.maxGuests,
          maxConcurrentUsers: input.maxConcurrentUsers,
          adminUser: adminUser ? (defined({ ...adminUser }) as Record<string, string>) : undefined,
        }),
      ),
  }),
  updateClient: t.field({
    type: ClientRef,
    description: 'Partial update; version must be the stored one (CONFLICT otherwise).',
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      input: t.arg({ type: ClientInput, required: true }),
    },
    resolve: (_, { id, version, input }, { api }) =>
      api.clients.patch(
        defined({
          id,
          version,
          format: 'FULL' as const,
          name: input.name ?? undefined,
          loginName: input.loginName ?? undefined,
          active: input.active ?? undefined,
          maxUsers: input.maxUsers,
          maxGuests: input.maxGuests,
          maxConcurrentUsers: input.maxConcurrentUsers,
        }),
      ),
  }),
  deleteClient: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.clients.delete({ id });
      return true;
    },
  }),
  generateNewApiKey: t.field({
    type: ClientRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.clients.generateNewApiKey({ clientId: id, format: 'FULL' }),
  }),
}));
