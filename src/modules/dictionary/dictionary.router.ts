import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { answerAsync, asyncNote } from '../../trpc/crud-procedures.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { DATA_CATEGORIES } from '../field/data-categories.js';
import { DataCategorySchema } from '../field/field.schema.js';
import {
  DictionaryCreateInputSchema,
  DictionaryListInputSchema,
  DictionaryOutputSchema,
  DictionaryPageSchema,
  DictionaryUpdateInputSchema,
} from './dictionary.schema.js';
import * as dictionaries from './dictionary.service.js';
import * as dictionaryJobs from './dictionary-jobs.service.js';

const tags = ['dictionaries'];

export const dictionaryRouter = router({
  dataCategories: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/data-categories',
        tags,
        summary: 'Every TBX and system data category with its levels, field type and picklist values',
      },
    })
    .input(z.void())
    .output(z.array(DataCategorySchema))
    .query(() =>
      DATA_CATEGORIES.map((category) => ({
        key: category.key,
        name: category.name,
        id: category.id,
        fieldType: category.fieldType,
        levels: [...category.levels],
        picklistItems: category.picklistItems.map((item) => ({ ...item })),
      })),
    ),

  list: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/dictionaries', tags, summary: 'Find the dictionaries you may read' },
    })
    .input(DictionaryListInputSchema)
    .output(DictionaryPageSchema)
    .query(({ ctx, input }) => dictionaries.listDictionaries(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/rownum/{id}',
        tags,
        summary: 'Row position of a dictionary',
      },
    })
    .input(DictionaryListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => dictionaries.dictionaryRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/{id}',
        tags,
        summary: 'Get a dictionary with its structure',
      },
    })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(DictionaryOutputSchema)
    .query(({ ctx, input }) =>
      dictionaries.getDictionary(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries',
        tags,
        summary: 'Create a dictionary (administrators); it gets one section named like it',
        errorResponses: [400, 401, 403, 422],
      },
      successStatus: 201,
    })
    .input(DictionaryCreateInputSchema)
    .output(DictionaryOutputSchema)
    .mutation(({ ctx, input }) => dictionaries.createDictionary(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/dictionaries/{id}',
        tags,
        summary: 'Update a dictionary: its attributes, languages and fields become what is sent',
        errorResponses: [400, 401, 403, 404, 409, 422],
      },
    })
    .input(DictionaryUpdateInputSchema)
    .output(DictionaryOutputSchema)
    .mutation(({ ctx, input }) => dictionaries.updateDictionary(ctx.scope, input)),

  delete: authedProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/dictionaries/{id}', tags, summary: 'Delete a dictionary' },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => dictionaries.deleteDictionary(ctx.scope, input.id)),

  copy: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/copy/{id}',
        tags,
        summary: 'Copy a dictionary (administrators); result: the new dictionary id',
        description: `copy-data (default false) also copies the concepts and terms. ${asyncNote}`,
      },
    })
    .input(
      IdInput.extend({
        name: z.string().trim().max(255).optional().describe('default: "Copy of <name>"'),
        'copy-data': queryBoolean().default(false),
      }),
    )
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(
        ctx,
        await dictionaryJobs.copyDictionary(ctx.scope, input.id, input.name, input['copy-data']),
      ),
    ),

  empty: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/empty/{id}',
        tags,
        summary: 'Erase every concept and term of a dictionary (its structure stays)',
        description: asyncNote,
      },
    })
    .input(IdInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(ctx, await dictionaryJobs.emptyDictionary(ctx.scope, input.id)),
    ),

  reindex: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/reindex/{id}',
        tags,
        summary: "Rebuild the dictionary's search index from the stored terms",
        description: asyncNote,
      },
    })
    .input(IdInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(ctx, await dictionaryJobs.reindexDictionary(ctx.scope, input.id)),
    ),

  languageReplace: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/language-replace',
        tags,
        summary: 'Move the terms of one language variant to another; result: the number of moved terms',
        description: `from-id and to-id are <language>[;[region];[script]] (e.g. eng;US); the match is exact. ${asyncNote}`,
      },
    })
    .input(
      z.object({
        'dictionary-id': z.number().int(),
        'from-id': z.string().min(1).max(200),
        'to-id': z.string().min(1).max(200),
      }),
    )
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(
        ctx,
        await dictionaryJobs.replaceLanguage(
          ctx.scope,
          input['dictionary-id'],
          input['from-id'],
          input['to-id'],
        ),
      ),
    ),
});
