import { z } from 'zod';
import { IdInput } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { CommentDtoSchema } from '../concept/concept.schema.js';
import { CommentCreateInputSchema, CommentTargetInputSchema } from './comment.schema.js';
import * as comments from './comment.service.js';

const tags = ['comments and history'];

/** Comments on concepts and terms (docs/comments.md). */
export const commentRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/comments',
        tags,
        summary:
          'Comments on a concept (or on a term with field-level=TERM or fieldLevel=TERM), newest first',
        errorResponses: [400, 401, 404],
      },
    })
    .input(CommentTargetInputSchema)
    .output(z.array(CommentDtoSchema))
    .query(({ ctx, input }) => comments.listComments(ctx.scope, input)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/comments',
        tags,
        summary:
          'Comment on a concept (or on a term with field-level=TERM, or the body member fieldLevel TERM); the body needs only text',
        description:
          'Readers of the concept may comment; guests only when the guest settings enableCommenting.',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(CommentCreateInputSchema)
    .output(CommentDtoSchema)
    .mutation(({ ctx, input }) => comments.createComment(ctx.scope, input)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/comments/{id}',
        tags,
        summary: 'Delete a comment (its author or an administrator of the dictionary)',
        errorResponses: [401, 403, 404],
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => comments.deleteComment(ctx.scope, input.id)),
});
