import { z } from 'zod';
import { crudProcedures } from '../../trpc/crud-procedures.js';
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

  ...crudProcedures({
    path: '/permissionschemes',
    noun: 'permission scheme',
    tags,
    schemas: {
      list: PermissionSchemeListInputSchema,
      page: PermissionSchemePageSchema,
      output: PermissionSchemeOutputSchema,
      create: PermissionSchemeCreateInputSchema,
      update: PermissionSchemeUpdateInputSchema,
      patch: PermissionSchemePatchInputSchema,
    },
    service: {
      list: schemes.listSchemes,
      rownum: schemes.schemeRownum,
      get: schemes.getScheme,
      create: schemes.createScheme,
      update: schemes.updateScheme,
      remove: schemes.deleteScheme,
      removeAsync: schemes.deleteSchemesAsync,
    },
    summaries: {
      list: 'Find permission schemes',
      create: 'Create a permission scheme (administrators)',
      delete: 'Delete a permission scheme that no dictionary or section uses',
    },
  }),
});
