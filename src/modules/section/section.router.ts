import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput, queryIdList } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  SectionCreateInputSchema,
  SectionListInputSchema,
  SectionOutputSchema,
  SectionPageSchema,
  SectionPatchInputSchema,
  SectionUpdateInputSchema,
} from './section.schema.js';
import * as sections from './section.service.js';

const tags = ['sections, fields, domains'];
const writeErrors = [400, 401, 403, 404, 409, 422];
const asyncNote =
  'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId (see /jobs/{id}).';

export const sectionRouter = router({
  clear: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sections/clear',
        tags,
        summary: 'Remove every concept of the sections, without history',
        description: asyncNote,
      },
    })
    .input(z.object({ 'section-id': queryIdList() }))
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await sections.clearSections(ctx.scope, input['section-id']);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),

  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/sections', tags, summary: 'Find sections you may read' } })
    .input(SectionListInputSchema)
    .output(SectionPageSchema)
    .query(({ ctx, input }) => sections.listSections(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/sections/rownum/{id}', tags, summary: 'Row position of a section' },
    })
    .input(SectionListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => sections.sectionRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/sections/{id}', tags, summary: 'Get a section' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(SectionOutputSchema)
    .query(({ ctx, input }) =>
      sections.getSection(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sections',
        tags,
        summary: 'Create a section',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(SectionCreateInputSchema)
    .output(SectionOutputSchema)
    .mutation(({ ctx, input }) => sections.createSection(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/sections/{id}',
        tags,
        summary: 'Update a section',
        errorResponses: writeErrors,
      },
    })
    .input(SectionUpdateInputSchema)
    .output(SectionOutputSchema)
    .mutation(({ ctx, input }) => sections.updateSection(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/sections/partial/{id}',
        tags,
        summary: 'Change some attributes of a section',
        errorResponses: writeErrors,
      },
    })
    .input(SectionPatchInputSchema)
    .output(SectionOutputSchema)
    .mutation(({ ctx, input }) => sections.updateSection(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/sections/{id}',
        tags,
        summary: 'Delete a section (not the last one, not one holding concepts)',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => sections.deleteSection(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/sections/async/{ids}',
        tags,
        summary: 'Delete several sections',
        description: asyncNote,
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await sections.deleteSectionsAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),
});
