import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  DecorationInputSchema,
  DecorationResponseSchema,
  TermCheckInputSchema,
  TermCheckResponseSchema,
} from './decoration.schema.js';
import { decorate } from './decoration.service.js';
import { checkTerms } from './term-check.service.js';

const tags = ['decoration'];

/** Term decoration and term check (docs/decoration.md). */
export const decorationRouter = router({
  decorate: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/term-decoration',
        tags,
        summary: 'Find the terms of the termbase in segments of text, HTML or XLIFF',
        description:
          'Matches with UTF-16 offsets in the original segments, kind (exact, case-folded, accent-folded, stemmed) and score, status, preferred terms, translations and homonyms; optionally each segment decorated (HTML spans or XLIFF 2 <mrk type="term">). More than 100 segments or 64 KB of text: 413.',
        errorResponses: [400, 401, 404, 413],
      },
    })
    .input(DecorationInputSchema)
    .output(DecorationResponseSchema)
    .mutation(({ ctx, input }) => decorate(ctx.scope, input)),

  check: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/term-check',
        tags,
        summary: 'Check a translation against the termbase',
        description:
          'Forbidden and deprecated terms used (with replacements), source terms whose approved translations are missing from the target, and source terms without an equivalent in the target language.',
        errorResponses: [400, 401, 404, 413],
      },
    })
    .input(TermCheckInputSchema)
    .output(TermCheckResponseSchema)
    .mutation(({ ctx, input }) => checkTerms(ctx.scope, input)),
});
