import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  ViewCreateInputSchema,
  ViewListInputSchema,
  ViewOutputSchema,
  ViewPageSchema,
  ViewPatchInputSchema,
  ViewUpdateInputSchema,
} from './view.schema.js';
import * as views from './view.service.js';

const tags = ['sections, fields, views'];
const writeErrors = [400, 401, 403, 404, 409, 422];
const asyncNote =
  'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId (see /jobs/{id}).';

export const viewRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/views', tags, summary: 'Find views' } })
    .input(ViewListInputSchema)
    .output(ViewPageSchema)
    .query(({ ctx, input }) => views.listViews(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/views/rownum/{id}', tags, summary: 'Row position of a view' },
    })
    .input(ViewListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => views.viewRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/views/{id}', tags, summary: 'Get a view' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(ViewOutputSchema)
    .query(({ ctx, input }) => views.getView(ctx.scope, input.id, input.format, input['include-deleted'])),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/views',
        tags,
        summary: 'Create a view',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(ViewCreateInputSchema)
    .output(ViewOutputSchema)
    .mutation(({ ctx, input }) => views.createView(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/views/{id}',
        tags,
        summary: 'Update a view',
        errorResponses: writeErrors,
      },
    })
    .input(ViewUpdateInputSchema)
    .output(ViewOutputSchema)
    .mutation(({ ctx, input }) => views.updateView(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/views/partial/{id}',
        tags,
        summary: 'Change some attributes of a view',
        errorResponses: writeErrors,
      },
    })
    .input(ViewPatchInputSchema)
    .output(ViewOutputSchema)
    .mutation(({ ctx, input }) => views.updateView(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/views/{id}',
        tags,
        summary: 'Delete a view that no section or group uses',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => views.deleteView(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/views/async/{ids}',
        tags,
        summary: 'Delete several views',
        description: asyncNote,
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await views.deleteViewsAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),
});
