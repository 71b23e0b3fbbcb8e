import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  GroupCreateInputSchema,
  GroupListInputSchema,
  GroupOutputSchema,
  GroupPageSchema,
  GroupPatchInputSchema,
  GroupUpdateInputSchema,
} from './group.schema.js';
import * as groups from './group.service.js';

const tags = ['groups'];
const writeErrors = [400, 401, 403, 404, 409, 422];

export const groupRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/groups', tags, summary: 'Find groups of the client' } })
    .input(GroupListInputSchema)
    .output(GroupPageSchema)
    .query(({ ctx, input }) => groups.listGroups(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/groups/rownum/{id}', tags, summary: 'Row position of a group' },
    })
    .input(GroupListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => groups.groupRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/groups/{id}', tags, summary: 'Get a group' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(GroupOutputSchema)
    .query(({ ctx, input }) => groups.getGroup(ctx.scope, input.id, input.format, input['include-deleted'])),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/groups',
        tags,
        summary: 'Create a group (administrators)',
        errorResponses: [400, 401, 403, 422],
      },
      successStatus: 201,
    })
    .input(GroupCreateInputSchema)
    .output(GroupOutputSchema)
    .mutation(({ ctx, input }) => groups.createGroup(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/groups/{id}',
        tags,
        summary: 'Update a group',
        errorResponses: writeErrors,
      },
    })
    .input(GroupUpdateInputSchema)
    .output(GroupOutputSchema)
    .mutation(({ ctx, input }) => groups.updateGroup(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/groups/partial/{id}',
        tags,
        summary: 'Change some attributes of a group; groupMembers replaces the members',
        errorResponses: writeErrors,
      },
    })
    .input(GroupPatchInputSchema)
    .output(GroupOutputSchema)
    .mutation(({ ctx, input }) => groups.updateGroup(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/groups/{id}',
        tags,
        summary: 'Delete a group (not a system group)',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => groups.deleteGroup(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/groups/async/{ids}',
        tags,
        summary: 'Delete several groups',
        description:
          'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId.',
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await groups.deleteGroupsAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),
});
