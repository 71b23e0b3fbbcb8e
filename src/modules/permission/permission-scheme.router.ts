import { z } from 'zod';
import { FormatSchema } from '../../shared/format.js';
import { IdInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  PermissionSchemeCreateInputSchema,
  PermissionSchemeListInputSchema,
  PermissionSchemeOutputSchema,
  PermissionSchemePageSchema,
  PermissionSchemePatchInputSchema,
  PermissionSchemeUpdateInputSchema,
} from './permission-scheme.schema.js';
import * as schemes from './permission-scheme.service.js';

const tags = ['roles and permissions'];
const writeErrors = [400, 401, 403, 404, 409, 422];

export const permissionSchemeRouter = router({
  byClient: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/permissionschemes/find-permissionschemes-by-client',
        tags,
        summary: 'Permission schemes of a client',
      },
    })
    .input(z.object({ client_id: z.number().int() }))
    .output(z.array(PermissionSchemeOutputSchema))
    .query(({ ctx, input }) => schemes.schemesOfClient(ctx.scope, input.client_id)),

  list: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/permissionschemes', tags, summary: 'Find permission schemes' },
    })
    .input(PermissionSchemeListInputSchema)
    .output(PermissionSchemePageSchema)
    .query(({ ctx, input }) => schemes.listSchemes(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/permissionschemes/rownum/{id}',
        tags,
        summary: 'Row position of a scheme',
      },
    })
    .input(PermissionSchemeListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => schemes.schemeRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/permissionschemes/{id}', tags, summary: 'Get a permission scheme' },
    })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(PermissionSchemeOutputSchema)
    .query(({ ctx, input }) =>
      schemes.getScheme(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/permissionschemes',
        tags,
        summary: 'Create a permission scheme (administrators)',
        errorResponses: [400, 401, 403, 422],
      },
      successStatus: 201,
    })
    .input(PermissionSchemeCreateInputSchema)
    .output(PermissionSchemeOutputSchema)
    .mutation(({ ctx, input }) => schemes.createScheme(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/permissionschemes/{id}',
        tags,
        summary: 'Update a permission scheme',
        errorResponses: writeErrors,
      },
    })
    .input(PermissionSchemeUpdateInputSchema)
    .output(PermissionSchemeOutputSchema)
    .mutation(({ ctx, input }) => schemes.updateScheme(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/permissionschemes/partial/{id}',
        tags,
        summary: 'Change some attributes of a permission scheme',
        errorResponses: writeErrors,
      },
    })
    .input(PermissionSchemePatchInputSchema)
    .output(PermissionSchemeOutputSchema)
    .mutation(({ ctx, input }) => schemes.updateScheme(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/permissionschemes/{id}',
        tags,
        summary: 'Delete a permission scheme that no dictionary or section uses',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => schemes.deleteScheme(ctx.scope, input.id)),
});
