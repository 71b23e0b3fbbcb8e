import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { IdInput } from '../../shared/ids.js';
import { answerAsync, asyncNote } from '../../trpc/crud-procedures.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  AnalyzeInputSchema,
  AnalyzeResponseSchema,
  StemmingLanguagesSchema,
  StemmingSettingSchema,
  StemmingSettingsInputSchema,
} from './stemming.schema.js';
import * as stemming from './stemming.service.js';

const tags = ['stemming'];

/** Stemming languages, text analysis and per-dictionary settings (docs/decoration.md). */
export const stemmingRouter = router({
  languages: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stemming/languages',
        tags,
        summary: "The Snowball stemmers of the server's PostgreSQL and the language codes using them",
        errorResponses: [401],
      },
    })
    .input(z.object({}).optional())
    .output(StemmingLanguagesSchema)
    .query(({ ctx }) => stemming.stemmingLanguages(ctx.scope)),

  analyze: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/stemming/analyze',
        tags,
        summary: 'The words of a text with UTF-16 offsets, folded forms and stem keys',
        description:
          "Words as term decoration cuts them (Intl.Segmenter, so Chinese, Japanese and Thai too); keys as terms' stem keys are made, under the dictionary's settings when dictionaryId is given.",
        errorResponses: [400, 401, 404],
      },
      // The body as it is (no coercion of "12" into 12), and no conversion to a web Request.
      directRest: true,
    })
    .input(AnalyzeInputSchema)
    .output(AnalyzeResponseSchema)
    .mutation(({ ctx, input }) => stemming.analyze(ctx.scope, input)),

  settings: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/{id}/stemming',
        tags,
        summary: "A dictionary's stemming settings, per language that has any",
        errorResponses: [400, 401, 404],
      },
    })
    .input(IdInput)
    .output(z.array(StemmingSettingSchema))
    .query(({ ctx, input }) => stemming.stemmingSettings(ctx.scope, input.id)),

  putSettings: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/dictionaries/{id}/stemming',
        tags,
        summary:
          "Set one language's stemming (algorithm or none, protected words, overrides) and rebuild its terms' stem keys",
        description: `Result: the number of terms whose key changed. ${asyncNote}`,
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(StemmingSettingsInputSchema)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(ctx, await stemming.putStemmingSettings(ctx.scope, input)),
    ),

  rebuild: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/{id}/stemming/rebuild',
        tags,
        summary: 'Recompute the stem keys of every term of the dictionary (e.g. after a PostgreSQL upgrade)',
        description: `Result: the number of terms whose key changed. ${asyncNote}`,
        errorResponses: [401, 403, 404],
      },
    })
    .input(IdInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) =>
      answerAsync(ctx, await stemming.rebuildDictionaryStemKeys(ctx.scope, input.id)),
    ),
});
