import { z } from 'zod';
import { crudProcedures } from '../../trpc/crud-procedures.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  AssignClientsInputSchema,
  PasswordSettingsSchema,
  UserCreateInputSchema,
  UserListInputSchema,
  UserOutputSchema,
  UserPageSchema,
  UserPatchInputSchema,
  UserUpdateInputSchema,
} from './user.schema.js';
import * as users from './user.service.js';
import { UserImportInputSchema, UserImportResultSchema } from './user-transfer.schema.js';
import { exportUsersXml, importUsersXml } from './user-transfer.service.js';

const tags = ['users'];

const assignClients = (path: `/${string}`, summary: string) =>
  authedProcedure
    .meta({ openapi: { method: 'PUT', path, tags, summary, errorResponses: [400, 401, 403, 404] } })
    .input(AssignClientsInputSchema)
    .output(z.number().int())
    .mutation(({ ctx, input }) => users.assignClients(ctx.scope, input.users, input.clients));

export const userRouter = router({
  passwordSettings: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/users/password-settings',
        tags,
        summary: 'The password rule in force (PASSWORD_REGEXP, PASSWORD_MESSAGE)',
      },
    })
    .input(z.void())
    .output(PasswordSettingsSchema)
    .query(({ ctx }) => ({ regExp: ctx.config.PASSWORD_REGEXP, msg: ctx.config.PASSWORD_MESSAGE })),

  ...crudProcedures({
    path: '/users',
    noun: 'user',
    tags,
    schemas: {
      list: UserListInputSchema,
      page: UserPageSchema,
      output: UserOutputSchema,
      create: UserCreateInputSchema,
      update: UserUpdateInputSchema,
      patch: UserPatchInputSchema,
    },
    service: {
      list: users.listUsers,
      rownum: users.userRownum,
      get: users.getUser,
      create: users.createUser,
      update: users.updateUser,
      remove: users.deleteUser,
      removeAsync: users.deleteUsersAsync,
    },
    summaries: {
      list: 'Find users of the client (own and mapped; guests are never listed)',
      create: 'Create a user in the client of the token (administrators)',
      update: 'Update a user (missing text attributes are erased)',
    },
  }),

  assignClients: assignClients(
    '/users/assign-clients',
    'Map users to clients (system administrators; previous mappings are removed)',
  ),

  assignClientsVariant: assignClients('/users/clients', 'Same as PUT /users/assign-clients'),

  logoutUser: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/logout-user',
        tags: ['authentication'],
        summary: "End another user's sessions (administrators)",
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 204,
    })
    .input(z.object({ 'user-id': z.number().int() }))
    .output(z.void())
    .mutation(({ ctx, input }) => users.logOutUser(ctx.scope, input['user-id'])),

  // REST serves these as a multipart upload and an XML download (user.rest.ts); tRPC and GraphQL
  // callers pass and receive the XML text.

  exportXml: authedProcedure
    .input(z.void())
    .output(z.string())
    .query(({ ctx }) => exportUsersXml(ctx.scope)),

  importXml: authedProcedure
    .input(UserImportInputSchema)
    .output(UserImportResultSchema)
    .mutation(({ ctx, input }) => importUsersXml(ctx.scope, input)),
});
