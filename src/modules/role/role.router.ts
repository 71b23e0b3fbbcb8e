import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { RoleSchema, RolesForClientInputSchema } from './role.schema.js';
import * as roles from './role.service.js';

const tags = ['roles and permissions'];

export const roleRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/roles', tags, summary: "Roles of the current user's client" } })
    .input(z.void())
    .output(z.array(RoleSchema))
    .query(({ ctx }) => roles.listRoles(ctx.scope)),

  forClient: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/roles/find-roles-for-client',
        tags,
        summary: 'Roles used in a client (the token must act in it; system administrators: any)',
      },
    })
    .input(RolesForClientInputSchema)
    .output(z.array(RoleSchema))
    .query(({ ctx, input }) => roles.rolesForClient(ctx.scope, input.client_id)),
});
