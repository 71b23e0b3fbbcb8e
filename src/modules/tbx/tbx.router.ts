import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { MtfFieldMappingSchema } from '../multiterm/mtf-field-mapping.js';
import { exportTbx, TbxExportFormats } from './tbx-export.service.js';
import { asExportJob } from './tbx-export-job.js';
import { importTbx, TbxMergeModes, TbxUpload } from './tbx-import.service.js';
import {
  TbxSettingsInputSchema,
  TbxSettingsSchema,
  TbxSettingsUpdateSchema,
  tbxSettings,
  updateTbxSettings,
} from './tbx-settings.js';
import { StatusMappingSchema } from './tbx-status-mapping.js';

const codeList = z.array(z.string().trim().min(1).max(64)).max(1000).default([]);

export const TbxImportInputSchema = z.object({
  // Only the upload route can make one: over /trpc an input never is an instance, so no path is forged.
  file: z.instanceof(TbxUpload).describe('the uploaded file, on disk'),
  'dictionary-id': z.number().int().positive().optional().describe('absent: a new dictionary'),
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .optional()
    .describe("a new dictionary's name (default: the file's title)"),
  merge: z
    .enum(TbxMergeModes)
    .default('ENTRY_ID')
    .describe('ENTRY_ID: same entry id updates; TERM: same term in the same language; NONE: always new'),
  'section-oid': z.string().min(1).max(64).optional().describe("new concepts' section (default: the first)"),
  'staging-area-id': z
    .number()
    .int()
    .positive()
    .optional()
    .describe('the entries wait in this staging area for review instead of being written (docs/staging.md)'),
  'status-mapping': StatusMappingSchema.optional().describe(
    "administrative status -> term status for this import, over the dictionary's mapping (a new dictionary keeps it as its own)",
  ),
  'field-mapping': MtfFieldMappingSchema.optional().describe(
    'MultiTerm XML: where each MultiTerm field goes (POST /dictionaries/import-multiterm/preview proposes it)',
  ),
});

export const TbxExportInputSchema = z.object({
  id: z.number().int().positive(),
  format: z
    .enum(TbxExportFormats)
    .default('TBX')
    .describe(
      'TBX: TBX-Basic v3 DCA; TBX_V2: TBX-Basic v2 (martif); TBX_V3_FULL, TBX_V2_FULL: every field (docs/tbx.md); MULTITERM_XML: MultiTerm XML; CSV, XLSX: one concept a row (docs/exchange.md)',
    ),
  languages: codeList.describe('language codes; default: all'),
  fields: codeList.describe('field oids; default: all'),
  'filter-id': z.number().int().positive().optional(),
  'saved-query-id': z
    .number()
    .int()
    .positive()
    .optional()
    .describe("only the concepts the caller's saved query finds in the dictionary (docs/exchange.md)"),
  'project-id': z.number().int().positive().optional().describe('only the concepts of this project'), // projects
  'include-unpublished': z
    .boolean()
    .default(false)
    .describe(
      'also terms of entries in unpublished workflow states; only for users who review in the workflow (docs/workflows.md)',
    ),
  'status-mapping': StatusMappingSchema.optional().describe(
    "administrative status -> term status whose reverse is written, over the dictionary's mapping",
  ),
  'with-files': z
    .boolean()
    .default(false)
    .describe(
      'TBX formats: one zip with the document and the files of ATTACHMENT fields (docs/attachments.md); MULTITERM_XML: one zip with the XML and its termbase definition (.xdt)',
    ),
  synonyms: z
    .enum(['JOINED', 'COLUMNS'])
    .default('JOINED')
    .describe('CSV, XLSX: synonyms joined by "; " in one cell, or each in a column of its own (same header)'),
});

const TbxDownloadSchema = z.object({
  fileName: z.string(),
  chunks: z.custom<AsyncIterable<string | Uint8Array>>(
    (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
  ),
  jobTaskId: z.number().int().describe('the job recording the download; its result is the export summary'),
});

/**
 * TBX import and export (docs/tbx.md). Both are reached through the REST-only routes of tbx.rest.ts
 * (multipart upload, streamed download), which call these procedures for authentication and checks.
 */
export const tbxRouter = router({
  settings: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dictionaries/tbx-settings/{dictionaryId}',
        tags: ['dictionaries'],
        summary: "A dictionary's TBX settings: its administrative status mapping (docs/tbx.md)",
        description:
          'Readers of the dictionary. statusMapping is the mapping in effect, the built-in rule where the dictionary names none.',
        errorResponses: [400, 401, 404],
      },
    })
    .input(TbxSettingsInputSchema)
    .output(TbxSettingsSchema)
    .query(({ ctx, input }) => tbxSettings(ctx.scope, input.dictionaryId)),

  updateSettings: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/dictionaries/tbx-settings/{dictionaryId}',
        tags: ['dictionaries'],
        summary: "Replace a dictionary's TBX settings (its administrative status mapping)",
        description:
          'Administrators of the dictionary. Imports that send no status-mapping (or only some statuses) and every export use it.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(TbxSettingsUpdateSchema)
    .output(TbxSettingsSchema)
    .mutation(({ ctx, input }) => updateTbxSettings(ctx.scope, input)),

  importFile: authedProcedure
    .input(TbxImportInputSchema)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await importTbx(ctx.scope, input.file, {
        dictionaryId: input['dictionary-id'],
        name: input.name,
        merge: input.merge,
        sectionOid: input['section-oid'],
        stagingAreaId: input['staging-area-id'],
        statusMapping: input['status-mapping'],
        fieldMapping: input['field-mapping'],
      });
      return outcome.body;
    }),

  exportFile: authedProcedure
    .input(TbxExportInputSchema)
    .output(TbxDownloadSchema)
    .query(async ({ ctx, input }) => {
      // The document streams over HTTP only; a tRPC answer would have to hold it whole.
      if (ctx.transport !== 'rest') {
        throw new AppError(
          'BAD_REQUEST',
          'Download TBX exports with GET /api/v4/dictionaries/export-tbx/{id}',
        );
      }
      const download = await exportTbx(ctx.scope, {
        id: input.id,
        format: input.format,
        languages: input.languages,
        fields: input.fields,
        filterId: input['filter-id'],
        savedQueryId: input['saved-query-id'],
        projectId: input['project-id'], // projects
        includeUnpublished: input['include-unpublished'],
        statusMapping: input['status-mapping'],
        withFiles: input['with-files'],
        synonyms: input.synonyms,
      });
      return asExportJob(ctx.scope, download);
    }),
});
