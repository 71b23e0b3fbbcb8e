import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';

/** A named search of the web application: the search screen's URL query string, stored as sent. */
export const SavedQueryDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  query: z.string().describe('URL query string of the search screen (q, d, lang, sec, dom, filter, mode...)'),
  changedAt: z.number().int().describe('when it was last saved, ms epoch'),
});
export type SavedQueryDto = z.infer<typeof SavedQueryDtoSchema>;

export const SavedQuerySaveInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(255)
    // PostgreSQL text holds no NUL, and a name is one line.
    .regex(/^\P{Cc}*$/u, 'name must not hold control characters'),
  query: z
    .string()
    .trim()
    .max(4000)
    .regex(/^[^\s<>"\p{Cc}]*$/u, 'query must be a URL query string')
    .describe('without the leading ?; a saved query of the same name (any case) is replaced'),
});
export type SavedQuerySaveInput = z.infer<typeof SavedQuerySaveInputSchema>;

export const SavedQueryIdInputSchema = z.object({ id: z.number().int().positive().max(MAX_ID) });
