import { z } from 'zod';
import { CommentLevels } from './comment.entity.js';

/** Longest comment text accepted (after trimming). */
export const COMMENT_TEXT_MAX = 16383;

/** Which entry the comments belong to: `entry-id` is a concept id, or a term id with `field-level=TERM`. */
export const CommentTargetInputSchema = z.object({
  'entry-id': z.number().int().describe('a concept id, or a term id with field-level=TERM'),
  'field-level': z
    .enum(CommentLevels)
    .default('CONCEPT')
    .describe('CONCEPT (default): entry-id is a concept id; TERM: a term id'),
});
export type CommentTargetInput = z.infer<typeof CommentTargetInputSchema>;

/**
 * POST body: a Comment with only `text` filled (its other members are ignored), plus the query
 * parameters of the target, which the REST adapter merges into the body.
 */
export const CommentCreateInputSchema = CommentTargetInputSchema.extend({
  text: z
    .string()
    .trim()
    .min(1, 'text is required')
    .max(COMMENT_TEXT_MAX, `text may hold at most ${COMMENT_TEXT_MAX} characters`)
    .describe(`trimmed, 1 to ${COMMENT_TEXT_MAX} characters`),
});
export type CommentCreateInput = z.infer<typeof CommentCreateInputSchema>;
