import { InvocationResultSchema } from '../../shared/common.schema.js';
import { answerAsync, asyncNote } from '../../trpc/crud-procedures.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { ConceptOutputSchema } from '../concept/concept.schema.js';
import {
  ConceptHistoryInputSchema,
  ConceptUndoInputSchema,
  DictionaryHistoryInputSchema,
  DictionaryUndoInputSchema,
  HistoryPageSchema,
} from './history.schema.js';
import * as history from './history.service.js';
import { undoConcept, undoDictionary } from './history-undo.js';

const tags = ['comments and history'];

/** Concept and dictionary history and undo (docs/history.md). Path parameters are camelCase for trpc-to-openapi. */
export const historyRouter = router({
  concept: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/history/concept/{conceptId}',
        tags,
        summary: "A concept's history items, newest first",
        description:
          'Readers of the concept with CONCEPT_VIEW_HISTORY; a deleted concept keeps its history. format SHORT leaves the snapshots out.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(ConceptHistoryInputSchema)
    .output(HistoryPageSchema)
    .query(({ ctx, input }) => history.conceptHistory(ctx.scope, input)),

  dictionary: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/history/dictionary/{dictionaryId}',
        tags,
        summary: "A dictionary's history items since its last structure change, newest first",
        description: 'Administrators of the dictionary. format SHORT leaves the snapshots out.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(DictionaryHistoryInputSchema)
    .output(HistoryPageSchema)
    .query(({ ctx, input }) => history.dictionaryHistory(ctx.scope, input)),

  conceptUndo: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/history/concept-undo',
        tags,
        summary: 'Restore the state a history item recorded, as a new change; answers the concept',
        description:
          'Needs CONCEPT_UPDATE or RESTORE_STATE; bringing a deleted concept back also CONCEPT_CREATE, bringing terms back TERM_CREATE. Items older than the last structure change of the dictionary answer 400; an edit lock of another user 409.',
        errorResponses: [400, 401, 403, 404, 409],
      },
    })
    .input(ConceptUndoInputSchema)
    .output(ConceptOutputSchema)
    .mutation(({ ctx, input }) => undoConcept(ctx.scope, input)),

  dictionaryUndo: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/history/dictionary-undo',
        tags,
        summary:
          'Return every concept changed after a history item to its state at that item (result: concept id to success)',
        description: `Administrators of the dictionary. Concepts created after the item are deleted. ${asyncNote}`,
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(DictionaryUndoInputSchema)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => answerAsync(ctx, await undoDictionary(ctx.scope, input))),
});
