import { z } from 'zod';
import { TbxExportSummarySchema } from '../modules/tbx/tbx-export.schema.js'; // tbx-export-report
import { BulkTransitionResultSchema } from '../modules/workflow/workflow-bulk.schema.js'; // bulk-result-26
import { MAX_ID } from './ids.js';

/** Who and when of a creation or change; time in ms epoch. */
export const AuditInfoSchema = z.object({
  id: z.number().int().nullable().describe('user id'),
  name: z.string().nullable().describe('user login'),
  fullName: z.string().nullable(),
  time: z.number().int().describe('ms epoch'),
  oid: z.string().nullable(),
});
export type AuditInfo = z.infer<typeof AuditInfoSchema>;

/** Attributes most top-level objects carry. */
export const commonDtoShape = {
  id: z.number().int(),
  oid: z.string().nullable(),
  version: z.number().int(),
  clientId: z.number().int(),
  deleted: z.boolean(),
  created: AuditInfoSchema,
  changed: AuditInfoSchema,
};

export const IdParamSchema = z.object({ id: z.number().int().positive().max(MAX_ID) });

/** What a finished TBX import reports (docs/tbx.md). */
export const ImportSummarySchema = z.object({
  dictionaryId: z.number().int().describe('the dictionary imported into (a new one when none was named)'),
  concepts: z.number().int().describe('concepts created'),
  terms: z.number().int().describe('terms created (in new and in merged concepts)'),
  updated: z.number().int().describe('existing concepts changed by a merge'),
  skipped: z.number().int().describe('entries that changed nothing or could not be written'),
  errors: z
    .array(z.object({ line: z.number().int(), message: z.string() }))
    .describe('values, terms or references left out, with the line of the file (the first 1000)'),
  errorCount: z.number().int().describe('all errors, also those beyond the first 1000'),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** Result of an async-capable operation: the result map when done in time, otherwise the job task id. */
/**
 * What a finished job yields: id to success, or one value (copy: new id; language replace: moved terms),
 * or a TBX import's summary.
 */
export const JobResultSchema = z.union([
  z.record(z.string(), z.boolean()),
  z.number(),
  z.boolean(),
  ImportSummarySchema,
  TbxExportSummarySchema, // tbx-export-report
  BulkTransitionResultSchema, // bulk-result-26
]);
export type JobResult = z.infer<typeof JobResultSchema>;

export const InvocationResultSchema = z.object({
  result: JobResultSchema.optional().describe(
    'id to success flag; a single value for copy (the new dictionary id), empty and reindex (true) and language replace (moved terms); the summary of a TBX import',
  ),
  jobTaskId: z.number().int().optional(),
});
export type InvocationResult = z.infer<typeof InvocationResultSchema>;

/** The body of every 4xx/5xx answer on REST. */
export const ErrorBodySchema = z.object({
  code: z
    .string()
    .describe(
      'BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, METHOD_NOT_SUPPORTED, CONFLICT, UNPROCESSABLE...',
    ),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
