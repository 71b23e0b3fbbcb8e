import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  ExportDefinitionInputSchema,
  ImportStartInputSchema,
  ImportStartResultSchema,
  ProcessDictionaryInputSchema,
  ProcessFilterInputSchema,
  ProcessFilterResultSchema,
  ProcessResultSchema,
} from './definition.schema.js';
import { exportDefinition } from './definition-export.service.js';
import { processDictionary, processFilter, startImport } from './definition-import.service.js';

const tags = ['dictionaries'];

/**
 * Dictionary-definition export and import (docs/dictionary-definition.md). The download and the
 * multipart start are REST-only routes (definition.rest.ts) over `exportXml` and `importStart`.
 */
export const dictionaryDefinitionRouter = router({
  exportXml: authedProcedure
    .input(ExportDefinitionInputSchema)
    .output(z.object({ fileName: z.string(), xml: z.string() }))
    .query(({ ctx, input }) => exportDefinition(ctx.scope, input.id, input['include-filters'])),

  importStart: authedProcedure
    .input(ImportStartInputSchema)
    .output(ImportStartResultSchema)
    .mutation(({ ctx, input }) => startImport(ctx.scope, input.xml)),

  processDictionary: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/dictionaries/import-definition/process-dictionary',
        tags,
        summary: 'Write the imported structure into an existing dictionary or a new one',
        description:
          'A new dictionary needs a client administrator; merging into an existing one needs its administration ' +
          '(403/404, and the import stays open). The import ends here unless include-filters=true and the file ' +
          'holds filters. A run that fails (the file does not fit the dictionary) changes nothing, answers ' +
          'success=false with errorMessage and ends the import.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(ProcessDictionaryInputSchema)
    .output(ProcessResultSchema)
    .mutation(({ ctx, input }) =>
      processDictionary(ctx.scope, input['import-id'], input['dictionary-id'], input['include-filters']),
    ),

  processFilter: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/dictionaries/import-definition/process-filter',
        tags,
        summary: 'Write the imported filters, mapping the users, groups and fields the target lacks',
        description:
          'Users are found by username, groups by name, fields through process-dictionary. While something is ' +
          'missing and unmapped, the answer is the validation result (success=false, missing and existing ' +
          'objects; id 0 is the skip option) and the import stays open. Mapping values are ids of existing ' +
          'objects, or 0 to skip the filters that need the missing one.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(ProcessFilterInputSchema)
    .output(ProcessFilterResultSchema)
    .mutation(({ ctx, input }) => processFilter(ctx.scope, input)),
});
