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

/**
 * The answer's schema for the OpenAPI document and GraphQL, without tRPC's output validation: a
 * maximal request's answer (64 KB of text dense with terms) is megabytes, and validating it is one
 * synchronous pass of hundreds of milliseconds that would hold the event loop (issue 38). The service
 * builds these answers member by member from typed code, so the validation could find nothing.
 */
function withDocumentedOutput<P extends { _def: object }>(procedure: P, schema: unknown): P {
  (procedure._def as { output?: unknown }).output = schema;
  return procedure;
}

/** Term decoration and term check (docs/decoration.md). */
export const decorationRouter = router({
  decorate: withDocumentedOutput(
    authedProcedure
      .meta({
        openapi: {
          method: 'POST',
          path: '/term-decoration',
          tags,
          summary: 'Find the terms of the termbase in segments of text, HTML or XLIFF',
          description:
            'Matches with UTF-16 offsets in the original segments, kind (exact, case-folded, accent-folded, stemmed) and score, status, preferred terms, translations and homonyms; optionally each segment decorated (HTML spans or XLIFF 2 <mrk type="term">). More than 100 segments or 64 KB of text: 413. When too many decorations are already running or waiting: 503 with Retry-After.',
          errorResponses: [400, 401, 404, 413, 503],
        },
        // The body as it is (no coercion of "12" into 12), and no conversion to a web Request.
        directRest: true,
      })
      .input(DecorationInputSchema)
      .mutation(({ ctx, input }) => decorate(ctx.scope, input)),
    DecorationResponseSchema,
  ),

  check: withDocumentedOutput(
    authedProcedure
      .meta({
        openapi: {
          method: 'POST',
          path: '/term-check',
          tags,
          summary: 'Check a translation against the termbase',
          description:
            'Forbidden and deprecated terms used (with replacements), source terms whose approved translations are missing from the target, and source terms without an equivalent in the target language. More than 64 KB of text on either side: 413. When too many decorations and checks are already running or waiting: 503 with Retry-After.',
          errorResponses: [400, 401, 404, 413, 503],
        },
        // The body as it is (no coercion of "12" into 12), and no conversion to a web Request.
        directRest: true,
      })
      .input(TermCheckInputSchema)
      .mutation(({ ctx, input }) => checkTerms(ctx.scope, input)),
    TermCheckResponseSchema,
  ),
});
