import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  SavedQueryDtoSchema,
  SavedQueryIdInputSchema,
  SavedQuerySaveInputSchema,
} from './saved-query.schema.js';
import * as saved from './saved-query.service.js';

const tags = ['user interface'];

export const savedQueryRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/saved-queries',
        tags,
        summary: "The caller's saved queries (web application searches), by name",
        description: 'Guests: 403.',
        errorResponses: [401, 403],
      },
    })
    .input(z.object({}))
    .output(z.array(SavedQueryDtoSchema))
    .query(({ ctx }) => saved.listSavedQueries(ctx.scope)),

  save: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/saved-queries',
        tags,
        summary: 'Save a search under a name (one of the same name, any case, is replaced)',
        description: `Guests: 403. An empty name, a query that is no URL query string, or a ${saved.MAX_SAVED_QUERIES + 1}st query: 400.`,
        errorResponses: [400, 401, 403],
      },
    })
    .input(SavedQuerySaveInputSchema)
    .output(SavedQueryDtoSchema)
    .mutation(({ ctx, input }) => saved.saveQuery(ctx.scope, input)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/saved-queries/{id}',
        tags,
        summary: 'Delete one of your saved queries',
        description: "Another user's saved query answers 404, as one that does not exist.",
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(SavedQueryIdInputSchema)
    .output(z.boolean())
    .mutation(({ ctx, input }) => saved.deleteSavedQuery(ctx.scope, input.id)),
});
