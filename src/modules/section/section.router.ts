import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { queryIdList } from '../../shared/ids.js';
import { answerAsync, asyncNote, crudProcedures } from '../../trpc/crud-procedures.js';
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

const tags = ['sections'];

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
    .mutation(async ({ ctx, input }) =>
      answerAsync(ctx, await sections.clearSections(ctx.scope, input['section-id'])),
    ),

  ...crudProcedures({
    path: '/sections',
    noun: 'section',
    tags,
    schemas: {
      list: SectionListInputSchema,
      page: SectionPageSchema,
      output: SectionOutputSchema,
      create: SectionCreateInputSchema,
      update: SectionUpdateInputSchema,
      patch: SectionPatchInputSchema,
    },
    service: {
      list: sections.listSections,
      rownum: sections.sectionRownum,
      get: sections.getSection,
      create: sections.createSection,
      update: sections.updateSection,
      remove: sections.deleteSection,
      removeAsync: sections.deleteSectionsAsync,
    },
    summaries: {
      list: 'Find sections you may read',
      delete: 'Delete a section (not the last one, not one holding concepts)',
    },
  }),
});
