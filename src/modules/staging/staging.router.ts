import { z } from 'zod';
import { IdInput } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  AcceptInputSchema,
  AcceptOneResultSchema,
  AcceptResultSchema,
  BulkAcceptInputSchema,
  BulkRejectInputSchema,
  DecisionListInputSchema,
  RejectInputSchema,
  RejectResultSchema,
  StagedEntryDetailSchema,
  StagedEntryDtoSchema,
  StagedEntryListInputSchema,
  StagedEntryPageSchema,
  StagedEntryUpdateInputSchema,
  StagingAreaCreateInputSchema,
  StagingAreaDtoSchema,
  StagingAreaListInputSchema,
  StagingAreaPageSchema,
  StagingAreaUpdateInputSchema,
  StagingDecisionPageSchema,
  SuggestInputSchema,
} from './staging.schema.js';
import * as areas from './staging-areas.service.js';
import * as read from './staging-entries.read.js';
import * as write from './staging-entries.write.js';

const tags = ['staging'];
const E = (...codes: number[]) => [400, 401, ...codes];

/** Staging areas and their entries (docs/staging.md); imports take `staging-area-id` (tbx-import-target.ts). */
export const stagingRouter = router({
  listAreas: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/{dictionaryId}/staging-areas',
        tags,
        summary: "A page of the dictionary's staging areas the caller may use",
        description:
          'Readers who may not write see only areas open to readers. Sort name (default), created, changed.',
        errorResponses: E(404),
      },
    })
    .input(StagingAreaListInputSchema)
    .output(StagingAreaPageSchema)
    .query(({ ctx, input }) => areas.listAreas(ctx.scope, input)),

  createArea: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/dictionaries/{dictionaryId}/staging-areas',
        tags,
        summary: "Create a staging area (the dictionary's administrators)",
        description: 'A name used by another live area of the dictionary (ignoring case) is 409.',
        errorResponses: E(403, 404, 409),
      },
      successStatus: 201,
    })
    .input(StagingAreaCreateInputSchema)
    .output(StagingAreaDtoSchema)
    .mutation(({ ctx, input }) => areas.createArea(ctx.scope, input)),

  getArea: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/staging-areas/{id}',
        tags,
        summary: 'One staging area with its counts',
        description:
          'With counts of PENDING, ACCEPTED and REJECTED entries and mayReview. 404 for those who may not use it.',
        errorResponses: [401, 404],
      },
    })
    .input(IdInput)
    .output(StagingAreaDtoSchema)
    .query(({ ctx, input }) => areas.getArea(ctx.scope, input.id)),

  updateArea: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/staging-areas/{id}',
        tags,
        summary: "Rename, describe or open a staging area to readers (the dictionary's administrators)",
        description:
          'Send the version read (stale: 409); a name another live area of the dictionary has is 409.',
        errorResponses: E(403, 404, 409),
      },
    })
    .input(StagingAreaUpdateInputSchema)
    .output(StagingAreaDtoSchema)
    .mutation(({ ctx, input }) => areas.updateArea(ctx.scope, input)),

  deleteArea: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/staging-areas/{id}',
        tags,
        summary: "Delete a staging area with its entries (the dictionary's administrators)",
        description:
          'Soft deletion: the area and its entries disappear from every list; decisions stay recorded.',
        errorResponses: [401, 403, 404],
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => areas.deleteArea(ctx.scope, input.id)),

  listEntries: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/staging-areas/{id}/entries',
        tags,
        summary: "A page of an area's staged entries (reviewers: all; others: their own)",
        description:
          'Filters status, source, language, import-job-id, target (NEW, EXISTING), text; sort created (default), changed, status, label.',
        errorResponses: E(404),
      },
    })
    .input(StagedEntryListInputSchema)
    .output(StagedEntryPageSchema)
    .query(({ ctx, input }) => read.listEntries(ctx.scope, input)),

  suggest: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/staging-areas/{id}/entries',
        tags,
        summary: 'Suggest a new concept, or a change to one (conceptId), for review',
        description:
          "The entry is the import's entry model (docs/staging.md). With conceptId it merges into that concept (ENTRY_ID); otherwise by merge (default TERM). Users of the area only.",
        errorResponses: E(404),
      },
      successStatus: 201,
    })
    .input(SuggestInputSchema)
    .output(StagedEntryDtoSchema)
    .mutation(({ ctx, input }) => write.suggest(ctx.scope, input)),

  acceptEntries: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/staging-areas/{id}/entries/accept',
        tags,
        summary: 'Accept many entries in one transaction (reviewers): ids or filter',
        description: 'Entries that are not PENDING are counted in skipped, never 409.',
        errorResponses: E(403, 404),
      },
    })
    .input(BulkAcceptInputSchema)
    .output(AcceptResultSchema)
    .mutation(({ ctx, input }) => write.acceptEntries(ctx.scope, input)),

  rejectEntries: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/staging-areas/{id}/entries/reject',
        tags,
        summary: 'Reject many entries (reviewers): ids or filter',
        description:
          'Entries that are not PENDING are counted in skipped. Each rejection is a decision with the reason.',
        errorResponses: E(403, 404),
      },
    })
    .input(BulkRejectInputSchema)
    .output(RejectResultSchema)
    .mutation(({ ctx, input }) => write.rejectEntries(ctx.scope, input)),

  listDecisions: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/staging-areas/{id}/decisions',
        tags,
        summary: "A page of an area's decisions, newest first (reviewers)",
        description:
          'Filters decision (ACCEPTED, REJECTED, EDITED) and user-id. Who, when, what: reason, concept written, workflow state, merge.',
        errorResponses: E(403, 404),
      },
    })
    .input(DecisionListInputSchema)
    .output(StagingDecisionPageSchema)
    .query(({ ctx, input }) => read.listDecisions(ctx.scope, input)),

  getEntry: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/staged-entries/{id}',
        tags,
        summary: 'One staged entry beside the concept it would change, with the difference and decisions',
        description:
          "diff lists what accepting now would change (the import merge's planning against the concept as it is); target is that concept's id, version and terms.",
        errorResponses: [401, 404],
      },
    })
    .input(IdInput)
    .output(StagedEntryDetailSchema)
    .query(({ ctx, input }) => read.getEntry(ctx.scope, input.id)),

  updateEntry: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/staged-entries/{id}',
        tags,
        summary: 'Edit a PENDING entry (reviewers; its author): content, comment, target concept',
        description:
          'Send the version read (stale: 409). conceptId null makes it a new concept. Recorded as an EDITED decision.',
        errorResponses: E(403, 404, 409),
      },
    })
    .input(StagedEntryUpdateInputSchema)
    .output(StagedEntryDtoSchema)
    .mutation(({ ctx, input }) => write.updateEntry(ctx.scope, input)),

  acceptEntry: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/staged-entries/{id}/accept',
        tags,
        summary: 'Accept an entry into the dictionary through the import merge (reviewers)',
        description:
          'Optional merge (default: the entry’s) and workflowState (accepted terms start there). Not PENDING: 409.',
        errorResponses: E(403, 404, 409),
      },
    })
    .input(AcceptInputSchema)
    .output(AcceptOneResultSchema)
    .mutation(({ ctx, input }) => write.acceptEntry(ctx.scope, input)),

  rejectEntry: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/staged-entries/{id}/reject',
        tags,
        summary: 'Reject an entry (reviewers; its author withdraws it)',
        description: 'Optional reason; an entry no longer PENDING is 409.',
        errorResponses: E(403, 404, 409),
      },
    })
    .input(RejectInputSchema)
    .output(StagedEntryDtoSchema)
    .mutation(({ ctx, input }) => write.rejectEntry(ctx.scope, input)),
});
