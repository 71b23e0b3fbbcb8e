import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure } from '../../rest/procedure-call.js';
import { oneQueryNumber, oneQueryValue, parseQuery, queryList } from '../../rest/query-params.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { targetOf, uploadImportRoute } from '../tbx/upload-import-route.js';
import { SkosFormats } from './skos-writers.js';

const tags = ['dictionaries'];

const jobHeader = {
  'X-Job-Task-Id': {
    description:
      'the job recording the download: once the download ended, GET /jobs/{id} answers DONE with its summary',
    schema: { type: 'integer' as const },
  },
};

const importRoute = uploadImportRoute({
  path: '/dictionaries/import-skos',
  operationId: 'dictionaries-importSkos',
  summary: 'Import a SKOS vocabulary (Turtle, RDF/XML or JSON-LD) into a new or an existing dictionary',
  description:
    'The file (member `file`) is read whole first: a file that is no RDF in its format, or holds no ' +
    'skos:Concept, answers 400 and nothing changes; over MAX_FILE_SIZE 413. The import then runs as a job in ' +
    'one transaction (GET /jobs/{id}: processed/total concepts; once DONE, `result` is the summary ' +
    '{dictionaryId, concepts, terms, updated, skipped, errors, errorCount}). 200 when done within ' +
    'ASYNC_THRESHOLD_MS, else 202 with jobTaskId. Mapping and merging: docs/exchange.md.',
  members: [
    { name: 'format', schema: { type: 'string', enum: [...SkosFormats] }, queryOnly: true },
    { name: 'hidden', schema: { type: 'string', enum: ['FORBIDDEN', 'DEPRECATED'], default: 'FORBIDDEN' } },
  ],
  call: (api, received) =>
    api.skos.importFile({
      ...targetOf(received),
      format: (received.param('format')?.toLowerCase() || undefined) as
        | (typeof SkosFormats)[number]
        | undefined,
      hidden: (received.param('hidden')?.toUpperCase() ?? 'FORBIDDEN') as 'FORBIDDEN' | 'DEPRECATED',
    }),
});

export const skosPaths: ZodOpenApiPathsObject = {
  ...importRoute.paths,
  '/dictionaries/export-skos/{id}': {
    get: {
      operationId: 'dictionaries-exportSkos',
      tags,
      summary: "Download a dictionary's concepts as SKOS (CONCEPT_EXPORT)",
      description:
        'Streamed, in concept id order: one skos:ConceptScheme, its domains as skos:Collection, every concept as ' +
        'skos:Concept with labels, notes and broader/narrower/related. Only sections with CONCEPT_EXPORT are ' +
        'exported. languages (comma list of codes), fields (comma list of field oids) and filter-id restrict what ' +
        'is written, as in the TBX export. Mapping and IRIs: docs/exchange.md.',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
        {
          name: 'format',
          in: 'query',
          schema: { type: 'string', enum: [...SkosFormats], default: 'turtle' },
        },
        {
          name: 'base-iri',
          in: 'query',
          description:
            'namespace of the IRIs; default: SKOS_BASE_IRI (or the server address + /skos/) + dictionary id + /',
          schema: { type: 'string', format: 'uri' },
        },
        {
          name: 'deprecated',
          in: 'query',
          schema: { type: 'string', enum: ['alt', 'hidden'], default: 'alt' },
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
          name: 'include-unpublished',
          in: 'query',
          description:
            'true: also terms of entries in unpublished workflow states; only for users who review in the workflow',
          schema: { type: 'boolean', default: false },
        },
      ],
      responses: {
        200: {
          description: 'SKOS attachment',
          headers: jobHeader,
          content: {
            'text/turtle': { schema: { type: 'string' } },
            'application/rdf+xml': { schema: { type: 'string' } },
            'application/ld+json': { schema: { type: 'string' } },
          },
        },
        400: {
          description: 'Bad parameters (a language, field or filter not of the dictionary)',
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

const ExportQuerySchema = z.object({
  format: oneQueryValue.optional(),
  'base-iri': oneQueryValue.optional(),
  deprecated: oneQueryValue.optional(),
  'include-unpublished': oneQueryValue.optional(),
  languages: queryList.optional(),
  fields: queryList.optional(),
  'filter-id': oneQueryNumber.optional(),
  'saved-query-id': oneQueryNumber.optional(),
});

/** The multipart import and the streamed export; both run the skos procedures. */
export function skosRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    importRoute.register(app, config, createContext);

    app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
      '/dictionaries/export-skos/:id',
      async (request, reply) => {
        if (!/^\d+$/.test(request.params.id)) {
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'id must be a dictionary id' });
        }
        const query = parseQuery(ExportQuerySchema, request.query);
        const download = await callProcedure(createContext, request, reply, (api) =>
          api.skos.exportFile({
            id: Number(request.params.id),
            format: (query.format?.toLowerCase() ?? 'turtle') as (typeof SkosFormats)[number],
            'base-iri': query['base-iri'] || undefined,
            deprecated: (query.deprecated?.toLowerCase() ?? 'alt') as 'alt' | 'hidden',
            'include-unpublished': query['include-unpublished'] === 'true',
            languages: query.languages ?? [],
            fields: query.fields ?? [],
            'filter-id': query['filter-id'],
            'saved-query-id': query['saved-query-id'],
          }),
        );
        if (download === undefined) return reply;
        const body = Readable.from(download.chunks, { objectMode: false });
        body.on('error', (error) => request.log.error({ err: error }, 'SKOS export failed while streaming'));
        return reply
          .type(`${download.contentType}; charset=UTF-8`)
          .header('cache-control', 'no-store')
          .header('x-job-task-id', String(download.jobTaskId))
          .header(
            'content-disposition',
            `attachment; filename="${download.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; ` +
              `filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
          )
          .send(body);
      },
    );
  };
  return { plugin, paths: skosPaths };
}
