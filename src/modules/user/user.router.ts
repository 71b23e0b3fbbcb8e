import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
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
const writeErrors = [400, 401, 403, 404, 409, 422];

const assignClients = (path: `/${string}`, summary: string) =>
  authedProcedure
    .meta({ openapi: { method: 'PUT', path, tags, summary, errorResponses: [400, 401, 403, 404] } })
    .input(AssignClientsInputSchema)
    .output(z.number().int())
    .mutation(({ ctx, input }) => users.assignClients(ctx.scope, input.users, input.clients));

export const userRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/users',
        tags,
        summary: 'Find users of the client (own and mapped; guests are never listed)',
      },
    })
    .input(UserListInputSchema)
    .output(UserPageSchema)
    .query(({ ctx, input }) => users.listUsers(ctx.scope, input)),

  rownum: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/users/rownum/{id}', tags, summary: 'Row position of a user' } })
    .input(UserListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => users.userRownum(ctx.scope, input.id, input)),

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

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/users/{id}', tags, summary: 'Get a user' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(UserOutputSchema)
    .query(({ ctx, input }) => users.getUser(ctx.scope, input.id, input.format, input['include-deleted'])),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/users',
        tags,
        summary: 'Create a user in the client of the token (administrators)',
        errorResponses: [400, 401, 403, 422],
      },
      successStatus: 201,
    })
    .input(UserCreateInputSchema)
    .output(UserOutputSchema)
    .mutation(({ ctx, input }) => users.createUser(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/{id}',
        tags,
        summary: 'Update a user (missing text attributes are erased)',
        errorResponses: writeErrors,
      },
    })
    .input(UserUpdateInputSchema)
    .output(UserOutputSchema)
    .mutation(({ ctx, input }) => users.updateUser(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/partial/{id}',
        tags,
        summary: 'Change some attributes of a user',
        errorResponses: writeErrors,
      },
    })
    .input(UserPatchInputSchema)
    .output(UserOutputSchema)
    .mutation(({ ctx, input }) => users.updateUser(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/users/{id}', tags, summary: 'Delete a user' },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => users.deleteUser(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/users/async/{ids}',
        tags,
        summary: 'Delete several users',
        description:
          'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId.',
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await users.deleteUsersAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
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
