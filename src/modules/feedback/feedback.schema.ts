import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';
import { filterText } from '../../shared/input-limits.js';
import { pageSchema } from '../../shared/paging.js';
import { queryBoolean } from '../../shared/query.js';
import { FeedbackStatuses, FeedbackTargets } from './feedback.entity.js';

/** Longest feedback or answer text, after trimming: a message, not a document (attach one instead). */
export const FEEDBACK_TEXT_MAX = 4000;
const NAME_MAX = 255;
const EMAIL_MAX = 320;

const id = z.number().int().positive().max(MAX_ID);
const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(FEEDBACK_TEXT_MAX, `${what} may hold at most ${FEEDBACK_TEXT_MAX} characters`)
    .describe(`trimmed, 1 to ${FEEDBACK_TEXT_MAX} characters`);

/**
 * What the feedback is about: exactly one of dictionaryId, conceptId and termId. The caller must be
 * able to read it (404 otherwise, as if it did not exist).
 */
export const FeedbackCreateInputSchema = z
  .object({
    dictionaryId: id.optional().describe('feedback on the dictionary as a whole'),
    conceptId: id.optional().describe('feedback on a concept'),
    termId: id.optional().describe('feedback on a term'),
    text: text('text'),
    senderName: z
      .string()
      .trim()
      .max(NAME_MAX)
      .optional()
      .describe('guests only: how the answer may address them (named users are known by their account)'),
    senderEmail: z
      .email()
      .max(EMAIL_MAX)
      .optional()
      .describe('guests only: where the answer goes (named users get it at their account address)'),
  })
  .refine(
    (input) =>
      [input.dictionaryId, input.conceptId, input.termId].filter((v) => v !== undefined).length === 1,
    { message: 'Give exactly one of dictionaryId, conceptId and termId' },
  );
export type FeedbackCreateInput = z.infer<typeof FeedbackCreateInputSchema>;

export const FeedbackAnswerInputSchema = z.object({
  id: id.describe('the feedback'),
  text: text('text'),
  close: z.boolean().default(false).describe('close the feedback with this answer'),
});
export type FeedbackAnswerInput = z.infer<typeof FeedbackAnswerInputSchema>;

/** Sortable attributes of the list. */
export const FEEDBACK_SORTS = { created: 'createdAt', changed: 'changedAt', status: 'status' } as const;

export const FeedbackListInputSchema = z.object({
  size: z.number().int().min(1).optional().describe('page size (default 20, capped at MAX_PAGE_SIZE)'),
  page: z.number().int().min(0).default(0).describe('0-based page number'),
  sort: filterText()
    .optional()
    .describe(`${Object.keys(FEEDBACK_SORTS).join(', ')}, with ,ASC or ,DESC; default created,DESC`),
  status: z.enum(FeedbackStatuses).optional(),
  dictionaryId: id.optional(),
  target: z.enum(FeedbackTargets).optional(),
  conceptId: id.optional(),
  mine: queryBoolean()
    .default(false)
    .describe('only what the caller sent (what a named user who administers nothing sees anyway)'),
});
export type FeedbackListInput = z.infer<typeof FeedbackListInputSchema>;

export const FeedbackAnswerDtoSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  authorName: z.string().nullable(),
  date: z.number().int().describe('ms epoch'),
});

export const FeedbackAttachmentDtoSchema = z.object({
  fileName: z.string(),
  contentType: z.string().describe('as sniffed from the bytes'),
  size: z.number().int().describe('bytes'),
  url: z.string().describe('GET it with the token (REST): /api/v4/feedback/{id}/attachment'),
});

export const FeedbackDtoSchema = z.object({
  id: z.number().int(),
  dictionaryId: z.number().int(),
  dictionaryName: z.string(),
  target: z.enum(FeedbackTargets),
  conceptId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  targetLabel: z.string().nullable().describe('the concept or term as the sender saw it'),
  text: z.string(),
  status: z.enum(FeedbackStatuses),
  senderId: z.number().int().nullable().describe('null for guests and deleted accounts'),
  senderName: z.string().nullable(),
  senderEmail: z.string().nullable().describe("shown to the dictionary's administrators and the sender only"),
  guest: z.boolean().describe('sent by a guest'),
  attachment: FeedbackAttachmentDtoSchema.nullable(),
  answers: z.array(FeedbackAnswerDtoSchema).describe('oldest first; empty when answersWithheld'),
  answersWithheld: z
    .boolean()
    .describe(
      'the sender no longer reads the target (its section or workflow state): its name and the answers are withheld from them',
    ),
  created: z.number().int().describe('ms epoch'),
  changed: z.number().int().describe('ms epoch'),
  closed: z.number().int().nullable().describe('ms epoch'),
  mayManage: z.boolean().describe('the caller may answer, close, reopen and delete it'),
});
export type FeedbackDto = z.infer<typeof FeedbackDtoSchema>;

export const FeedbackPageSchema = pageSchema(FeedbackDtoSchema);

export const FeedbackOptionsSchema = z.object({
  allowed: z
    .boolean()
    .describe('the caller may send feedback (guests: when the guest settings enableFeedback)'),
  askSender: z
    .boolean()
    .describe('a guest: name and e-mail are asked for, since the guest account has neither'),
  maxFileSize: z.number().int().describe('bytes: FEEDBACK_MAX_FILE_SIZE'),
  maxTextLength: z.number().int(),
  manages: z.boolean().describe('the caller manages the feedback of at least one dictionary'),
});
export type FeedbackOptions = z.infer<typeof FeedbackOptionsSchema>;
