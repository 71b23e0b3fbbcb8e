import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure } from '../../rest/procedure-call.js';
import { oneQueryNumber, oneQueryValue, parseQuery, queryList } from '../../rest/query-params.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { AppError } from '../../shared/errors.js';
import { DEFINITION_MEMBER } from '../multiterm/multiterm.rest.js';
import { TbxExportFormats } from './tbx-export.service.js';
import { EXPORT_JOB_HEADERS } from './tbx-export-job.js'; // tbx-export-report
import { type PartialStatusMapping, parseStatusMapping } from './tbx-status-mapping.js';
import {
  jsonMember,
  targetOf,
  type UploadMember,
  UploadRefusal,
  uploadImportRoute,
} from './upload-import-route.js';

const tags = ['dictionaries'];

/** POST /dictionaries/import-tbx: TBX or MultiTerm XML (with its termbase definition), by the root element. */
const importRoute = uploadImportRoute({
  path: '/dictionaries/import-tbx',
  operationId: 'dictionaries-importTbx',
  summary:
    'Import a TBX file (v2 martif, v3 DCA or DCT) or MultiTerm XML into a new or an existing dictionary',
  description:
    'The file (member `file`) is streamed to disk and checked whole first: malformed XML, a wrong root, a DTD ' +
    'subset or an entity answers 400 with the line and reason, a file over MAX_FILE_SIZE 413, and nothing ' +
    'changes. The import then runs as a job in one transaction (GET /jobs/{id}: processed/total entries; ' +
    'once DONE, `result` is the summary {dictionaryId, concepts, terms, updated, skipped, errors, errorCount}). ' +
    'Answers 200 with the InvocationResult when done within ASYNC_THRESHOLD_MS, else 202 with jobTaskId. ' +
    'An existing dictionary needs CONCEPT_IMPORT in the section (or its administration); a new one a client ' +
    'administrator. MultiTerm XML (`<mtf>`) may come with its termbase definition (member `definition`, ' +
    'the .xdt), or as a zip of both, and a `field-mapping` (JSON; POST /dictionaries/import-multiterm/preview ' +
    'proposes one). A zip holding a TBX document and the files its xGraphic/xSource values name (as export-tbx ' +
    'with-files=true writes it) brings the files in as attachments (docs/attachments.md). Mapping of data ' +
    'categories, merging and limits: docs/tbx.md, docs/exchange.md.',
  members: [
    statusMappingParameter(
      "for this import, over the dictionary's mapping (a new dictionary keeps it as its own)",
    ),
    DEFINITION_MEMBER,
    {
      name: 'field-mapping',
      schema: { type: 'string' },
      bodyOnly: true,
      description: 'MultiTerm XML: the field mapping as JSON, [{name, field}] (field null: not imported)',
    },
  ],
  fieldBytes: 256 * 1024,
  call: (api, received) => {
    const statusMapping = statusMappingOf(received.param('status-mapping'));
    if ('error' in statusMapping) throw new UploadRefusal(statusMapping.error);
    return api.tbx.importFile({
      ...targetOf(received),
      'status-mapping': statusMapping.mapping,
      'field-mapping': jsonMember(received, 'field-mapping', false) as never,
    });
  },
});

export const tbxPaths: ZodOpenApiPathsObject = {
  ...importRoute.paths,
  '/dictionaries/export-tbx/{id}': {
    get: {
      operationId: 'dictionaries-exportTbx',
      tags,
      summary: "Download a dictionary's concepts as TBX (CONCEPT_EXPORT)",
      description:
        'Streamed, in concept id order: TBX-Basic v3 DCA (format=TBX, default), TBX-Basic v2 (TBX_V2), or ' +
        'every field under its own category in v3 (TBX_V3_FULL) or v2 (TBX_V2_FULL), or MultiTerm XML ' +
        '(MULTITERM_XML, docs/exchange.md). languages ' +
        '(comma list of codes), fields (comma list of field oids), filter-id and saved-query-id restrict what is written. Only ' +
        'sections with CONCEPT_EXPORT are exported. See docs/tbx.md.',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
        {
          name: 'format',
          in: 'query',
          schema: { type: 'string', enum: [...TbxExportFormats], default: 'TBX' },
        },
        { name: 'languages', in: 'query', schema: { type: 'string' } },
        { name: 'fields', in: 'query', schema: { type: 'string' } },
        { name: 'filter-id', in: 'query', schema: { type: 'integer' } },
        {
          name: 'saved-query-id',
          in: 'query',
          description:
            "only the concepts the caller's saved query finds in this dictionary (at most 100,000 terms found, else 400)",
          schema: { type: 'integer' },
        },
        {
          name: 'project-id',
          in: 'query',
          description:
            "only the concepts of this project (docs/projects.md); the dictionary must be one of the project's",
          schema: { type: 'integer' },
        },
        {
          name: 'include-unpublished',
          in: 'query',
          description:
            'true: also terms of entries in unpublished workflow states; only for users who review in the workflow (docs/workflows.md)',
          schema: { type: 'boolean', default: false },
        },
        { ...statusMappingParameter("whose reverse is written, over the dictionary's mapping"), in: 'query' },
        {
          name: 'with-files',
          in: 'query',
          description:
            'true: one zip (application/zip) with the TBX document and the files of ATTACHMENT fields, which ' +
            'xGraphic/xSource point at as files/<key>/<name>; the import reads it back (docs/attachments.md). ' +
            'MULTITERM_XML: one zip with the XML and its termbase definition (.xdt), as the import takes them',
          schema: { type: 'boolean', default: false },
        },
        {
          name: 'synonyms',
          in: 'query',
          description:
            'CSV, XLSX: JOINED (by "; " in one cell) or COLUMNS (each synonym a column of its own)',
          schema: { type: 'string', enum: ['JOINED', 'COLUMNS'], default: 'JOINED' },
        },
      ],
      responses: {
        200: {
          description: 'TBX attachment',
          headers: EXPORT_JOB_HEADERS, // tbx-export-report
          content: { 'application/x-tbx': { schema: { type: 'string' } } },
        },
        400: {
          description: 'Bad parameters (unknown language, field, filter or status)',
          content: errorContent,
        },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: {
          description: 'No CONCEPT_EXPORT in any section, or include-unpublished without review rights',
          content: errorContent,
        },
        404: { description: 'No such dictionary (or not readable)', content: errorContent },
      },
    },
  },
};

/** `status-mapping` of the import and the export (tbx-status-mapping.ts). */
function statusMappingParameter(what: string) {
  return {
    name: 'status-mapping',
    description:
      `Administrative status -> term status, ${what}: a comma list of status:termStatus, e.g. ` +
      '`deprecatedTerm:forbidden`; statuses preferredTerm, admittedTerm, deprecatedTerm, supersededTerm; ' +
      'term statuses preferred, admitted, deprecated, forbidden. Anything else answers 400.',
    schema: { type: 'string' as const },
  } satisfies UploadMember;
}

/** The REST form of a status mapping, or the 400 it answers. */
function statusMappingOf(text: string | undefined): { mapping?: PartialStatusMapping } | { error: string } {
  if (text === undefined || text.trim() === '') return {};
  try {
    return { mapping: parseStatusMapping(text) };
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
}

const ExportQuerySchema = z.object({
  format: oneQueryValue.optional(),
  languages: queryList.optional(),
  fields: queryList.optional(),
  'filter-id': oneQueryNumber.optional(),
  'saved-query-id': oneQueryNumber.optional(),
  'project-id': oneQueryNumber.optional(), // projects
  'include-unpublished': oneQueryValue.optional(),
  'status-mapping': oneQueryValue.optional(),
  'with-files': oneQueryValue.optional(),
  synonyms: oneQueryValue.optional(),
});

/** The multipart import and the streamed export; both run the tbx procedures. */
export function tbxRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    importRoute.register(app, config, createContext);

    app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
      '/dictionaries/export-tbx/:id',
      async (request, reply) => {
        if (!/^\d+$/.test(request.params.id)) {
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'id must be a dictionary id' });
        }
        const query = parseQuery(ExportQuerySchema, request.query);
        const statusMapping = statusMappingOf(query['status-mapping']);
        if ('error' in statusMapping) {
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: statusMapping.error });
        }
        const download = await callProcedure(createContext, request, reply, (api) =>
          api.tbx.exportFile({
            id: Number(request.params.id),
            format: (query.format?.toUpperCase() ?? 'TBX') as (typeof TbxExportFormats)[number],
            languages: query.languages ?? [],
            fields: query.fields ?? [],
            'filter-id': query['filter-id'],
            'saved-query-id': query['saved-query-id'],
            'project-id': query['project-id'], // projects
            'include-unpublished': query['include-unpublished'] === 'true',
            'status-mapping': statusMapping.mapping,
            'with-files': query['with-files'] === 'true',
            synonyms: (query.synonyms?.toUpperCase() ?? 'JOINED') as 'JOINED' | 'COLUMNS',
          }),
        );
        if (download === undefined) return reply;
        return sendDownload(request, reply, download);
      },
    );
  };
  return { plugin, paths: tbxPaths };
}

/** The download's media type by the format's extension (tbx-export.service.ts names the file). */
function contentTypeOf(fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
  if (extension === 'xlsx') return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (extension === 'csv') return 'text/csv; charset=UTF-8';
  if (extension === 'xml') return 'application/xml; charset=UTF-8';
  if (extension === 'zip') return 'application/zip';
  return 'application/x-tbx; charset=UTF-8';
}

/**
 * The document as it is produced; a failure after the first byte can only cut the connection. The job
 * recording it is named in X-Job-Task-Id: once the download ended, GET /jobs/{id} has its summary.
 */
function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  download: { fileName: string; chunks: AsyncIterable<string | Uint8Array>; jobTaskId: number }, // tbx-export-report
) {
  const body = Readable.from(download.chunks, { objectMode: false });
  body.on('error', (error) => request.log.error({ err: error }, 'TBX export failed while streaming'));
  return reply
    .type(contentTypeOf(download.fileName))
    .header('cache-control', 'no-store')
    .header('x-job-task-id', String(download.jobTaskId)) // tbx-export-report
    .header(
      'content-disposition',
      `attachment; filename="${download.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; ` +
        `filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
    )
    .send(body);
}
