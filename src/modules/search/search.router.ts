import { z } from 'zod';
import { pageRequest, pageSchema, toPage } from '../../shared/paging.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  DuplicatesInputSchema,
  TermListEntrySchema,
  TermSearchInputSchema,
  TermSearchResponseSchema,
  TermSuggestionInputSchema,
} from './search.schema.js';
import * as search from './search.service.js';

const tags = ['terms'];

const DuplicatesQuerySchema = DuplicatesInputSchema.extend({
  size: z.number().int().min(1).optional().describe('page size; with size or page the answer is a Page'),
  page: z.number().int().min(0).optional(),
  sort: z.string().optional().describe('accepted for compatibility; duplicates come by name, then id'),
});

/** Term search, duplicate check and suggestions (docs/search.md). */
export const searchRouter = router({
  search: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/terms/search',
        tags,
        summary: 'Search terms of one language in dictionaries (prefix, substring, exact, normalized, fuzzy)',
        description:
          'Sorted by folded name, then name, then id; page with the searchAfter/searchBefore cursors of the response, or open the list at termOid. docs/search.md explains every option. Under an enabled workflow the search lists only the states the caller may see (hidden never; unpublished only for reviewers), and workflowStates narrows it to some states (docs/workflows.md).',
        errorResponses: [400, 401, 404],
      },
      directRest: true,
    })
    .input(TermSearchInputSchema)
    .output(TermSearchResponseSchema)
    .query(({ ctx, input }) => search.searchTerms(ctx.scope, input)),

  duplicates: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/terms/duplicates',
        tags,
        summary: 'Terms whose name equals `term` ignoring case and accents, in the dictionary and language',
        description:
          'A list, or a Page when size or page is given (size defaults to 10). A given region or script also matches terms without one.',
        errorResponses: [400, 401, 404],
      },
    })
    .input(DuplicatesQuerySchema)
    .output(z.union([z.array(TermListEntrySchema), pageSchema(TermListEntrySchema)]))
    .query(async ({ ctx, input }) => {
      if (input.size === undefined && input.page === undefined) {
        return (await search.findDuplicates(ctx.scope, input)).entries;
      }
      const request = pageRequest(
        { size: input.size ?? 10, page: input.page ?? 0 },
        ctx.config.MAX_PAGE_SIZE,
      );
      const { entries, total } = await search.findDuplicates(ctx.scope, input, request);
      return toPage(entries, total, request, 'name,ASC');
    }),

  suggestion: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/terms/suggestion',
        tags,
        summary: 'Suggest a term: creates a concept with the suggested terms and answers the first term id',
        description:
          'Query dictionary-id (required) and section-oid (default: the first section the caller may create concepts in). Field keys may be oids, names or TBX data categories.',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(TermSuggestionInputSchema)
    .output(z.number().int())
    .mutation(({ ctx, input }) => search.suggestTerm(ctx.scope, input)),
});
