/** The result of a bulk transition job (docs/workflows.md, Bulk transitions). */
import { z } from 'zod';

export const SkippedEntrySchema = z.object({
  conceptId: z.number().int(),
  languageCode: z.string().nullable(),
  termId: z.number().int().nullable(),
  reason: z.string().describe('why it did not move: a condition, empty required fields, a repeated vote'),
});
export type SkippedEntry = z.infer<typeof SkippedEntrySchema>;

export const BulkTransitionResultSchema = z.object({
  moved: z.number().int().describe('entries moved'),
  waiting: z.number().int().describe('voted transitions: entries that got your vote and wait for more'),
  skippedCount: z
    .number()
    .int()
    .describe('entries that did not move although they were in a state it leaves'),
  skipped: z.array(SkippedEntrySchema).describe('the first 1,000 of them, with the reason'),
});
export type BulkTransitionResult = z.infer<typeof BulkTransitionResultSchema>;
