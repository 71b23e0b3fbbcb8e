import { z } from 'zod';
import { queryIdList } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  ConceptCreateInputSchema,
  ConceptOutputSchema,
  ConceptReadOptionsSchema,
  ConceptUpdateInputSchema,
} from './concept.schema.js';
import * as concepts from './concept.service.js';
import { ConceptLabelSchema, ConceptLabelsInputSchema, conceptLabels } from './concept-labels.js'; // concept-labels
import { acquireLock, releaseLock, takeOverLock } from './concept-lock.service.js';

const tags = ['concepts'];
const readErrors = [400, 401, 404];
const writeErrors = [400, 401, 403, 404, 409];
const readOptions = ConceptReadOptionsSchema.shape;
const conceptId = z.object({ id: z.number().int() });
const lockQuery = z.object({ 'concept-id': z.number().int() });
const lockNote =
  'true when the caller holds the lock afterwards (false: another live session holds it). A lock lasts CONCEPT_LOCK_TIMEOUT seconds (acquiring again renews it) and ends with its session; while it is held, other users cannot update or delete the concept (409).';
const releaseNote =
  "true when the concept is unlocked afterwards. Client administrators may break another user's lock; others get false while someone else holds it.";

const lockProcedure = (
  path: `/${string}`,
  summary: string,
  description: string,
  input: z.ZodObject,
  acquire: boolean,
) =>
  authedProcedure
    .meta({ openapi: { method: 'PUT', path, tags, summary, description, errorResponses: [401, 403, 404] } })
    .input(input)
    .output(z.boolean())
    .mutation(({ ctx, input: args }) => {
      const id =
        (args as { id?: number; 'concept-id'?: number }).id ??
        (args as { 'concept-id': number })['concept-id'];
      return acquire ? acquireLock(ctx.scope, id) : releaseLock(ctx.scope, id);
    });

const permissionsProcedure = (path: `/${string}`) =>
  authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path,
        tags,
        summary: 'The concept with its concept and term permission maps filled',
        description: 'section-oid: the permissions the caller would have in that section of the dictionary.',
        errorResponses: readErrors,
      },
    })
    .input(conceptId.extend({ 'section-oid': z.string().optional() }))
    .output(ConceptOutputSchema)
    .query(({ ctx, input }) => concepts.conceptPermissions(ctx.scope, input.id, input['section-oid']));

export const conceptRouter = router({
  find: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts',
        tags,
        summary:
          'A concept by oid, term-oid or term-id (exactly one); several term-id values answer an array',
        errorResponses: readErrors,
      },
    })
    .input(
      z.object({
        ...readOptions,
        oid: z.string().optional(),
        'term-oid': z.string().optional(),
        'term-id': queryIdList().optional(),
      }),
    )
    .output(z.union([ConceptOutputSchema, z.array(ConceptOutputSchema)]))
    .query(({ ctx, input }) => concepts.findConcepts(ctx.scope, input)),

  findByTermId: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/find-by-term-id',
        tags,
        summary: 'The concept of a term',
        errorResponses: readErrors,
      },
    })
    .input(z.object({ ...readOptions, 'term-id': z.number().int() }))
    .output(ConceptOutputSchema)
    .query(({ ctx, input }) => concepts.getConceptByTerm(ctx.scope, { id: input['term-id'] }, input)),

  findByTermOid: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/find-by-term-oid',
        tags,
        summary: 'The concept of a term, by term oid',
        errorResponses: readErrors,
      },
    })
    .input(z.object({ ...readOptions, 'term-oid': z.string().min(1) }))
    .output(ConceptOutputSchema)
    .query(({ ctx, input }) => concepts.getConceptByTerm(ctx.scope, { oid: input['term-oid'] }, input)),

  // concept-labels: display labels of many concepts in one statement (the web app's task inbox).
  labels: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/labels',
        tags,
        summary: 'Display labels of several concepts: the first term in the first of the languages given',
        description: 'Concepts that do not exist, are deleted or that the caller may not read are left out.',
        errorResponses: [400, 401],
      },
    })
    .input(ConceptLabelsInputSchema)
    .output(z.array(ConceptLabelSchema))
    .query(({ ctx, input }) => conceptLabels(ctx.scope, input)),

  findByTermIds: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/find-by-term-ids',
        tags,
        summary: 'The concepts of several terms (each concept once, in the order of the terms)',
        errorResponses: readErrors,
      },
    })
    .input(z.object({ ...readOptions, 'term-ids': queryIdList() }))
    .output(z.array(ConceptOutputSchema))
    .query(({ ctx, input }) => concepts.getConceptsByTermIds(ctx.scope, input['term-ids'], input)),

  byOid: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/oid/{oid}',
        tags,
        summary: 'A concept by oid',
        errorResponses: readErrors,
      },
    })
    .input(z.object({ ...readOptions, oid: z.string().min(1) }))
    .output(ConceptOutputSchema)
    .query(({ ctx, input }) => concepts.getConceptByOid(ctx.scope, input.oid, input)),

  acquireLockByQuery: lockProcedure(
    '/concepts/acquire-lock',
    'Lock a concept for editing (query concept-id)',
    lockNote,
    lockQuery,
    true,
  ),
  releaseLockByQuery: lockProcedure(
    '/concepts/release-lock',
    'Release a concept lock (query concept-id)',
    releaseNote,
    lockQuery,
    false,
  ),
  permissionsById: permissionsProcedure('/concepts/permissions/{id}'),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/{id}',
        tags,
        summary: 'A concept',
        errorResponses: readErrors,
      },
    })
    .input(conceptId.extend(readOptions))
    .output(ConceptOutputSchema)
    .query(({ ctx, input }) => concepts.getConcept(ctx.scope, input.id, input)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/concepts',
        tags,
        summary: 'Create a concept with its terms, relations and links',
        description:
          'Needs CONCEPT_CREATE in the section. cid, tid and relationId are assigned by the server.',
        errorResponses: writeErrors,
      },
      successStatus: 201,
    })
    .input(ConceptCreateInputSchema)
    .output(ConceptOutputSchema)
    .mutation(({ ctx, input }) => concepts.createConcept(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/concepts/{id}',
        tags,
        summary: 'Replace a concept (version required)',
        description:
          'Missing attributes are erased, except terms, which must be sent (an empty array removes every term). Terms with an id are changed, terms without one are added, missing terms are deleted.',
        errorResponses: writeErrors,
      },
    })
    .input(ConceptUpdateInputSchema)
    .output(ConceptOutputSchema)
    .mutation(({ ctx, input }) => concepts.updateConcept(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/concepts/{id}/patch',
        tags,
        summary: 'Change some attributes of a concept (version required)',
        description:
          'Missing attributes stay. fieldMap keys sent replace those fields only (an empty array clears one). A terms array is applied (new terms added, sent terms changed, missing terms removed); terms null leaves the terms alone.',
        errorResponses: writeErrors,
      },
    })
    .input(ConceptUpdateInputSchema)
    .output(ConceptOutputSchema)
    .mutation(({ ctx, input }) => concepts.updateConcept(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/concepts/{id}',
        tags,
        summary: 'Delete a concept (soft; undo from its history restores it)',
        errorResponses: [401, 403, 404, 409],
      },
      successStatus: 204,
    })
    .input(conceptId)
    .output(z.void())
    .mutation(({ ctx, input }) => concepts.deleteConcept(ctx.scope, input.id)),

  acquireLock: lockProcedure(
    '/concepts/{id}/acquire-lock',
    'Lock a concept for editing',
    lockNote,
    conceptId,
    true,
  ),
  releaseLock: lockProcedure(
    '/concepts/{id}/release-lock',
    'Release a concept lock',
    releaseNote,
    conceptId,
    false,
  ),
  takeOverLock: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/concepts/{id}/take-over-lock',
        tags,
        summary: "Take over one's own lock held by another session",
        description:
          "true when the caller's session holds the lock afterwards: a lock of the caller's own user in another session (another tab or browser) moves to this one; false while another user holds it.",
        errorResponses: [401, 403, 404],
      },
    })
    .input(conceptId)
    .output(z.boolean())
    .mutation(({ ctx, input }) => takeOverLock(ctx.scope, input.id)),
  permissions: permissionsProcedure('/concepts/{id}/permissions'),
});
