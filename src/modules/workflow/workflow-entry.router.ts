import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import { MAX_ID } from '../../shared/ids.js';
import { answerAsync, asyncNote } from '../../trpc/crud-procedures.js';
import { authedProcedure } from '../../trpc/trpc.js';
import { BulkTransitionInputSchema, bulkTransition } from './workflow-bulk-transition.js';
import {
  ConceptWorkflowSchema,
  FireInputSchema,
  FireOutputSchema,
  TransitionLogItemSchema,
} from './workflow-entry.schema.js';
import * as entries from './workflow-entry.service.js';
import { InboxInputSchema, InboxItemSchema, inbox } from './workflow-inbox.js';
import { MailSettingsSchema, mailSettings, setMailSettings } from './workflow-mail.js';
import {
  EntryListInputSchema,
  EntryListItemSchema,
  entriesInState,
  StateCountInputSchema,
  StateCountSchema,
  stateCounts,
} from './workflow-statistics.js';

const tags = ['workflows'];
const ConceptIdInput = z.object({ conceptId: z.number().int().positive().max(MAX_ID) });

/** Entry states, firing and the transition log: spread into the workflow router. */
export const workflowEntryProcedures = {
  conceptStates: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/concepts/{conceptId}',
        tags,
        summary: "A concept's workflow entries (per its workflow's unit) with the transitions you may fire",
        errorResponses: [400, 401, 404],
      },
    })
    .input(ConceptIdInput)
    .output(ConceptWorkflowSchema)
    .query(({ ctx, input }) => entries.conceptWorkflow(ctx.scope, input.conceptId)),

  fire: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/workflows/transitions',
        tags,
        summary: 'Fire a transition on one entry (or vote for it); version required, 409 when stale',
        description:
          'Who may fire is what the transition names (groups, roles): administrators get no bypass. 403 for others, 404 for concepts you cannot read, 409 for a stale version, another state or a failed condition, 400 for a missing required comment, 422 for empty required fields.',
        errorResponses: [400, 401, 403, 404, 409, 422],
      },
    })
    .input(FireInputSchema)
    .output(FireOutputSchema)
    .mutation(({ ctx, input }) => entries.fireTransition(ctx.scope, input)),

  conceptTransitions: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/concepts/{conceptId}/transitions',
        tags,
        summary: "Every move of a concept's entries, oldest first (who, when, from, to, comment)",
        errorResponses: [401, 404],
      },
    })
    .input(ConceptIdInput)
    .output(z.array(TransitionLogItemSchema))
    .query(({ ctx, input }) => entries.conceptTransitions(ctx.scope, input.conceptId)),

  bulkTransition: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/workflows/bulk-transitions',
        tags,
        summary:
          'Fire one transition on many entries (concept ids or a filter) as a job; the result: {moved, waiting, skippedCount, skipped}',
        description: `Entries in other states or in sections you cannot read are left alone; entries failing the condition or required fields are skipped and listed (first 1,000) with the reason. A voted transition casts your vote on each entry: those whose votes then decide move, the others wait (a repeated vote is skipped). SET_FIELD actions apply to the moved entries. ${asyncNote}`,
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(BulkTransitionInputSchema)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => answerAsync(ctx, await bulkTransition(ctx.scope, input))),

  inbox: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/inbox',
        tags,
        summary: 'The entries assigned to you (assignee=me), by dictionary and language, newest move first',
        errorResponses: [400, 401, 403],
      },
    })
    .input(InboxInputSchema)
    .output(z.array(InboxItemSchema))
    .query(({ ctx, input }) => inbox(ctx.scope, input)),

  statistics: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/statistics',
        tags,
        summary:
          'Entries per state and language in a dictionary (entries that never moved count in the initial state)',
        errorResponses: [400, 401, 404],
      },
    })
    .input(StateCountInputSchema)
    .output(z.array(StateCountSchema))
    .query(({ ctx, input }) => stateCounts(ctx.scope, input['dictionary-id'])),

  entries: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/entries',
        tags,
        summary: 'The entries of a dictionary in a state (and language), by concept id',
        errorResponses: [400, 401, 404],
      },
    })
    .input(EntryListInputSchema)
    .output(z.array(EntryListItemSchema))
    .query(({ ctx, input }) => entriesInState(ctx.scope, input)),

  mailSettings: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/mail-settings',
        tags,
        summary: 'How you get workflow e-mail: each at once (digestHours null) or a digest every N hours',
        errorResponses: [401],
      },
    })
    .input(z.object({}))
    .output(MailSettingsSchema)
    .query(({ ctx }) => mailSettings(ctx.scope)),

  setMailSettings: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/workflows/mail-settings',
        tags,
        summary: 'Choose workflow e-mail at once (digestHours null) or as a digest every N hours (1 to 720)',
        errorResponses: [400, 401, 403],
      },
    })
    .input(MailSettingsSchema)
    .output(MailSettingsSchema)
    .mutation(({ ctx, input }) => {
      if (ctx.scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests get no workflow e-mail');
      return setMailSettings(ctx.scope, input);
    }),
};
