import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  DisplayAddTermInputSchema,
  DisplayConceptByTermInputSchema,
  DisplayConceptInputSchema,
  DisplayConceptSchema,
  DisplayCopyInputSchema,
  DisplayCopyTermInputSchema,
  DisplayCreateInputSchema,
  DisplayEditInputSchema,
  DisplayTermSchema,
  PrintInputSchema,
} from './display.schema.js';
import * as display from './display-concept.service.js';

const tags = ['display concepts'];
const readErrors = [400, 401, 404];
const stubErrors = [400, 401, 403, 404];
const notStored = 'Nothing is stored.';
const showNote =
  "Fields with a value, the languages with terms (by sortIndex); readOnly and hidden follow the caller's permissions and view. See docs/display-concepts.md.";

export const displayConceptRouter = router({
  // trpc-to-openapi needs one procedure per path shape: the id is optional in the spec.
  byTerm: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/display-concepts',
        tags,
        summary: 'The concept of a term (term-id), prepared for showing',
        description: showNote,
        errorResponses: readErrors,
      },
    })
    .input(DisplayConceptByTermInputSchema)
    .output(DisplayConceptSchema)
    .query(({ ctx, input }) => display.showConcept(ctx.scope, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/display-concepts/{id}',
        tags,
        summary: 'A concept prepared for showing',
        description: showNote,
        errorResponses: readErrors,
      },
    })
    .input(DisplayConceptInputSchema)
    .output(DisplayConceptSchema)
    .query(({ ctx, input }) => display.showConcept(ctx.scope, input)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/display-concepts/create/{dictionaryId}',
        tags,
        summary: 'A stub for a new concept',
        description: `Empty fields, the first section (by sortIndex) where the caller has CONCEPT_CREATE (403 when none), every language of the dictionary with a blank term where the caller may write terms. ${notStored}`,
        errorResponses: stubErrors,
      },
    })
    .input(DisplayCreateInputSchema)
    .output(DisplayConceptSchema)
    .mutation(({ ctx, input }) => display.createStub(ctx.scope, input.dictionaryId)),

  edit: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/display-concepts/edit/{conceptId}',
        tags,
        summary: 'A concept prepared for editing',
        description: `Every field and every language of the dictionary, with the concept; readOnly flags from the caller's permissions. ${notStored}`,
        errorResponses: readErrors,
      },
    })
    .input(DisplayEditInputSchema)
    .output(DisplayConceptSchema)
    .mutation(({ ctx, input }) => display.editConcept(ctx.scope, input.conceptId, input['term-id'])),

  copy: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/display-concepts/copy/{conceptId}',
        tags,
        summary: 'A copy of a concept as a stub for a new concept',
        description: `Same section (or the first where the caller has CONCEPT_CREATE; 403 when none), domains, values and terms, without ids. ${notStored}`,
        errorResponses: stubErrors,
      },
    })
    .input(DisplayCopyInputSchema)
    .output(DisplayConceptSchema)
    .mutation(({ ctx, input }) => display.copyStub(ctx.scope, input.conceptId)),

  addTerm: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/display-concepts/add-term/{conceptId}',
        tags,
        summary: 'A blank term for a concept',
        description: `Needs TERM_CREATE (403). ${notStored}`,
        errorResponses: stubErrors,
      },
    })
    .input(DisplayAddTermInputSchema)
    .output(DisplayTermSchema)
    .mutation(({ ctx, input }) => display.addTermStub(ctx.scope, input.conceptId, input['lang-code'])),

  copyTerm: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/display-concepts/copy-term/{termId}',
        tags,
        summary: 'A copy of a term as a stub for a new term of its concept',
        description: `Needs TERM_CREATE in the term's language (403). ${notStored}`,
        errorResponses: stubErrors,
      },
    })
    .input(DisplayCopyTermInputSchema)
    .output(DisplayTermSchema)
    .mutation(({ ctx, input }) => display.copyTermStub(ctx.scope, input.termId)),

  /** The print page; served as text/html by the REST-only routes of print.rest.ts. */
  printHtml: authedProcedure
    .input(PrintInputSchema)
    .output(z.string())
    .query(({ ctx, input }) => display.printConcept(ctx.scope, input.id)),
});
