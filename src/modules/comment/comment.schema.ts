import { z } from 'zod';
import { undocumentedAlias } from '../../shared/openapi-alias.js';
import { CommentLevels } from './comment.entity.js';

/** Longest comment text accepted (after trimming). */
export const COMMENT_TEXT_MAX = 16383;

const FieldLevelSchema = z.enum(CommentLevels);

/**
 * Which entry the comments belong to: `entry-id` is a concept id, or a term id with the field level
 * TERM, given as `field-level` or as `fieldLevel`, the Comment's own member (the contract's POST body is
 * a Comment). Both may be sent when they agree; none means CONCEPT.
 */
export const CommentTargetInputSchema = z.object({
  'entry-id': z.number().int().describe('a concept id, or a term id with field level TERM'),
  'field-level': FieldLevelSchema.describe(
    'CONCEPT (default): entry-id is a concept id; TERM: a term id',
  ).optional(),
  // The member of a Comment, which the contract's POST body is; a GET takes it too, undocumented.
  fieldLevel: undocumentedAlias(
    FieldLevelSchema,
    'field-level',
    'the same as field-level (the member of a Comment)',
  ).optional(),
});
export type CommentTargetInput = z.infer<typeof CommentTargetInputSchema>;

/**
 * POST body: a Comment with `text` filled (and `fieldLevel` TERM for a term; its other members are
 * ignored), plus the query parameters of the target, which the REST adapter merges into the body.
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
