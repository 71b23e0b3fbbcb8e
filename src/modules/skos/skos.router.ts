import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import type { ExportChunk } from '../tbx/tbx-export.service.js';
import { asExportJob } from '../tbx/tbx-export-job.js';
import { TbxMergeModes, TbxUpload } from '../tbx/tbx-import.service.js';
import { exportSkos, SKOS_EXPORT_JOB } from './skos-export.service.js';
import { importSkos } from './skos-import.service.js';
import { SkosFormats } from './skos-writers.js';

export const SkosImportInputSchema = z.object({
  // Only the upload route can make one: over /trpc an input never is an instance, so no path is forged.
  file: z.instanceof(TbxUpload).describe('the uploaded file, on disk'),
  format: z
    .enum(SkosFormats)
    .optional()
    .describe('turtle, rdfxml or jsonld; default: from the file name, else from its first characters'),
  'dictionary-id': z.number().int().positive().optional().describe('absent: a new dictionary'),
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .optional()
    .describe("a new dictionary's name (default: the concept scheme's title)"),
  merge: z
    .enum(TbxMergeModes)
    .default('ENTRY_ID')
    .describe(
      'ENTRY_ID: the same concept IRI updates; TERM: the same label in the same language; NONE: always new',
    ),
  'section-oid': z.string().min(1).max(64).optional().describe("new concepts' section (default: the first)"),
  'staging-area-id': z
    .number()
    .int()
    .positive()
    .optional()
    .describe('the entries wait in this staging area for review instead of being written (docs/staging.md)'),
  hidden: z
    .enum(['FORBIDDEN', 'DEPRECATED'])
    .default('FORBIDDEN')
    .describe('the status skos:hiddenLabel terms get'),
});

const codeList = z.array(z.string().trim().min(1).max(64)).max(1000).default([]);

export const SkosExportInputSchema = z.object({
  id: z.number().int().positive(),
  format: z.enum(SkosFormats).default('turtle'),
  'base-iri': z
    .url()
    .max(1000)
    .optional()
    .describe(
      'the namespace of the IRIs; default: SKOS_BASE_IRI (or the server address + /skos/) + dictionary id + /',
    ),
  deprecated: z
    .enum(['alt', 'hidden'])
    .default('alt')
    .describe('deprecated terms as skos:altLabel (default) or skos:hiddenLabel'),
  'include-unpublished': z
    .boolean()
    .default(false)
    .describe(
      'also terms of entries in unpublished workflow states; only for users who review in the workflow',
    ),
  languages: codeList.describe('language codes; default: all'),
  fields: codeList.describe('field oids (notes); default: all'),
  'filter-id': z.number().int().positive().optional().describe('a filter of the dictionary'),
  'saved-query-id': z
    .number()
    .int()
    .positive()
    .optional()
    .describe("only the concepts the caller's saved query finds in the dictionary (docs/exchange.md)"),
});

const SkosDownloadSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  chunks: z.custom<AsyncIterable<ExportChunk>>(
    (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
  ),
  jobTaskId: z.number().int().describe('the job recording the download; its result is the export summary'),
});

/**
 * SKOS import and export (docs/exchange.md). Both are reached through the REST-only routes of
 * skos.rest.ts (multipart upload, streamed download), which call these procedures for the checks.
 */
export const skosRouter = router({
  importFile: authedProcedure
    .input(SkosImportInputSchema)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await importSkos(ctx.scope, input.file, {
        format: input.format,
        dictionaryId: input['dictionary-id'],
        name: input.name,
        merge: input.merge,
        sectionOid: input['section-oid'],
        stagingAreaId: input['staging-area-id'],
        hidden: input.hidden,
      });
      return outcome.body;
    }),

  exportFile: authedProcedure
    .input(SkosExportInputSchema)
    .output(SkosDownloadSchema)
    .query(async ({ ctx, input }) => {
      // The document streams over HTTP only; a tRPC answer would have to hold it whole.
      if (ctx.transport !== 'rest') {
        throw new AppError(
          'BAD_REQUEST',
          'Download SKOS exports with GET /api/v4/dictionaries/export-skos/{id}',
        );
      }
      const download = await exportSkos(ctx.scope, {
        id: input.id,
        format: input.format,
        baseIri: input['base-iri'],
        origin: `${ctx.req.protocol}://${ctx.req.host}`,
        deprecatedHidden: input.deprecated === 'hidden',
        includeUnpublished: input['include-unpublished'],
        languages: input.languages,
        fields: input.fields,
        filterId: input['filter-id'],
        savedQueryId: input['saved-query-id'],
      });
      const job = await asExportJob(ctx.scope, download, SKOS_EXPORT_JOB);
      return { ...job, contentType: download.contentType };
    }),
});
