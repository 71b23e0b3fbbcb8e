import { z } from 'zod';
import { IdInput } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  FeedbackAnswerInputSchema,
  FeedbackCreateInputSchema,
  FeedbackDtoSchema,
  FeedbackListInputSchema,
  FeedbackOptionsSchema,
  FeedbackPageSchema,
} from './feedback.schema.js';
import * as feedback from './feedback.service.js';

const tags = ['feedback'];

/** Feedback on dictionaries, concepts and terms (docs/feedback.md); the attachment is REST (feedback.rest.ts). */
export const feedbackRouter = router({
  options: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/feedback/options',
        tags,
        description:
          'Guests may send only when the guest settings enableFeedback; they are asked for a name and an address. `manages`: the caller administers the feedback of at least one dictionary.',
        summary: 'Whether the caller may send feedback, and its limits (FEEDBACK_MAX_FILE_SIZE)',
        errorResponses: [401],
      },
    })
    .input(z.object({}))
    .output(FeedbackOptionsSchema)
    .query(({ ctx }) => feedback.feedbackOptions(ctx.scope)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/feedback',
        tags,
        summary: 'Send feedback on a dictionary, a concept or a term (any reader of it)',
        description:
          'Exactly one of dictionaryId, conceptId, termId. Guests only when the guest settings enableFeedback ' +
          '(else 403). Ten in a row per sender, then 429 with Retry-After (docs/feedback.md). Attach a file ' +
          'afterwards with POST /feedback/{id}/attachment from the same session.',
        errorResponses: [400, 401, 403, 404, 429],
      },
      successStatus: 201,
    })
    .input(FeedbackCreateInputSchema)
    .output(FeedbackDtoSchema)
    .mutation(({ ctx, input }) => feedback.createFeedback(ctx.scope, input, ctx.req.ip)),

  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/feedback',
        tags,
        description:
          'Administrators of a dictionary see its feedback, named senders their own (`mine`: only that). Filters status, dictionaryId, target, conceptId; sort created (default created,DESC), changed or status. Guests list nothing.',
        summary: "A page of feedback: the caller's dictionaries' (administrators) and their own",
        errorResponses: [400, 401],
      },
    })
    .input(FeedbackListInputSchema)
    .output(FeedbackPageSchema)
    .query(({ ctx, input }) => feedback.listFeedback(ctx.scope, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/feedback/{id}',
        tags,
        description:
          'With its answers, oldest first. 404 for everyone else, guests and other clients included.',
        summary: "One feedback (its dictionary's administrators, its named sender)",
        errorResponses: [401, 404],
      },
    })
    .input(IdInput)
    .output(FeedbackDtoSchema)
    .query(({ ctx, input }) => feedback.getFeedback(ctx.scope, input.id)),

  answer: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/feedback/{id}/answers',
        tags,
        description:
          'The status becomes ANSWERED, or CLOSED with close=true. A sender answering their own feedback gets 403.',
        summary: 'Answer feedback (its dictionary’s administrators); the sender gets the answer by e-mail',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(FeedbackAnswerInputSchema)
    .output(FeedbackDtoSchema)
    .mutation(({ ctx, input }) => feedback.answerFeedback(ctx.scope, input)),

  close: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/feedback/{id}/close',
        tags,
        description: 'Closing closed feedback changes nothing and sends no mail.',
        summary: 'Close feedback (its dictionary’s administrators); the sender is told',
        errorResponses: [401, 403, 404],
      },
    })
    .input(IdInput)
    .output(FeedbackDtoSchema)
    .mutation(({ ctx, input }) => feedback.closeFeedback(ctx.scope, input.id)),

  reopen: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/feedback/{id}/reopen',
        tags,
        description: 'ANSWERED when it has answers, else OPEN; feedback that is not closed stays as it is.',
        summary: 'Open closed feedback again (its dictionary’s administrators)',
        errorResponses: [401, 403, 404],
      },
    })
    .input(IdInput)
    .output(FeedbackDtoSchema)
    .mutation(({ ctx, input }) => feedback.reopenFeedback(ctx.scope, input.id)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/feedback/{id}',
        tags,
        description: 'For spam and duplicates: nothing is kept, the file included.',
        summary:
          'Delete feedback for good, with its answers and attachment (its dictionary’s administrators)',
        errorResponses: [401, 403, 404],
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => feedback.deleteFeedback(ctx.scope, input.id)),
});
