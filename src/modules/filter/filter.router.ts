import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  FilterCreateInputSchema,
  FilterListInputSchema,
  FilterOutputSchema,
  FilterPageSchema,
  FilterPatchInputSchema,
  FilterUpdateInputSchema,
} from './filter.schema.js';
import * as filters from './filter.service.js';

const tags = ['sections, fields, filters'];
const writeErrors = [400, 401, 403, 404, 409, 422];
const asyncNote =
  'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId (see /jobs/{id}).';

export const filterRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/filters',
        tags,
        summary: "Find the filters you may see (own, your groups', public)",
      },
    })
    .input(FilterListInputSchema)
    .output(FilterPageSchema)
    .query(({ ctx, input }) => filters.listFilters(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/filters/rownum/{id}', tags, summary: 'Row position of a filter' },
    })
    .input(FilterListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => filters.filterRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/filters/{id}', tags, summary: 'Get a filter' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(FilterOutputSchema)
    .query(({ ctx, input }) =>
      filters.getFilter(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/filters',
        tags,
        summary: 'Create a filter',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(FilterCreateInputSchema)
    .output(FilterOutputSchema)
    .mutation(({ ctx, input }) => filters.createFilter(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/filters/{id}',
        tags,
        summary: 'Update a filter',
        errorResponses: writeErrors,
      },
    })
    .input(FilterUpdateInputSchema)
    .output(FilterOutputSchema)
    .mutation(({ ctx, input }) => filters.updateFilter(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/filters/partial/{id}',
        tags,
        summary: 'Change some attributes of a filter',
        errorResponses: writeErrors,
      },
    })
    .input(FilterPatchInputSchema)
    .output(FilterOutputSchema)
    .mutation(({ ctx, input }) => filters.updateFilter(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/filters/{id}',
        tags,
        summary: 'Delete a filter (owner or administrator)',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => filters.deleteFilter(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/filters/async/{ids}',
        tags,
        summary: 'Delete several filters',
        description: asyncNote,
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await filters.deleteFiltersAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),
});
