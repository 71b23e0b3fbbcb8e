import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure, uploadOfSignedInCaller } from '../../rest/procedure-call.js';
import { oneQueryFlag, oneQueryValue, parseQuery } from '../../rest/query-params.js';
import { errorContent, type RawRoute, uploadErrorResponses } from '../../rest/raw-route.js';
import { ImportStartResultSchema } from './definition.schema.js';

const tags = ['dictionaries'];

export const definitionPaths: ZodOpenApiPathsObject = {
  '/dictionaries/export-definition/{id}': {
    post: {
      operationId: 'dictionaries-exportDefinition',
      tags,
      summary: "Download a dictionary's structure as XML (its administrators)",
      description:
        'Languages with variants, fields with models and picklists, views, sections, domains and, with ' +
        'include-filters=true, the filters the caller may see. Format: docs/dictionary-definition.md.',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'include-filters', in: 'query', schema: { type: 'boolean', default: false } },
        { name: 'format', in: 'query', schema: { type: 'string', enum: ['XML'], default: 'XML' } },
      ],
      responses: {
        200: {
          description: 'XML attachment',
          content: { 'application/xml': { schema: { type: 'string' } } },
        },
        400: { description: 'Bad parameters', content: errorContent },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: { description: 'Not an administrator of the dictionary', content: errorContent },
        404: { description: 'No such dictionary (or not readable)', content: errorContent },
      },
    },
  },
  '/dictionaries/import-definition/start': {
    post: {
      operationId: 'dictionaries-importDefinitionStart',
      tags,
      summary: 'Start a dictionary-definition import with the file',
      description:
        'The file is read and checked completely: a malformed or invalid file (or one with a DOCTYPE) answers ' +
        '400 and opens nothing. Continue with process-dictionary within an hour.',
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'Import definition start result',
          content: { 'application/json': { schema: ImportStartResultSchema } },
        },
        ...uploadErrorResponses('Guests cannot import'),
      },
    },
  },
};

const ExportQuerySchema = z.object({
  format: oneQueryValue.optional(),
  'include-filters': oneQueryFlag.optional(),
});

/** The definition download and the multipart start; both run the dictionaryDefinitions procedures. */
export function definitionRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    app.post<{ Params: { id: string }; Querystring: Record<string, string> }>(
      '/dictionaries/export-definition/:id',
      async (request, reply) => {
        const id = Number(request.params.id);
        if (!Number.isInteger(id)) {
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'id must be a dictionary id' });
        }
        const query = parseQuery(ExportQuerySchema, request.query);
        const format = query.format ?? 'XML';
        if (format.toUpperCase() !== 'XML') {
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'format must be XML' });
        }
        const file = await callProcedure(createContext, request, reply, (api) =>
          api.dictionaryDefinitions.exportXml({
            id,
            'include-filters': query['include-filters'] ?? false,
          }),
        );
        if (file === undefined) return reply;
        return reply
          .type('application/xml; charset=UTF-8')
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
          .header('content-length', Buffer.byteLength(file.xml))
          .send(file.xml);
      },
    );

    app.post('/dictionaries/import-definition/start', async (request, reply) => {
      const upload = await uploadOfSignedInCaller(request, reply, {
        maxBytes: config.MAX_FILE_SIZE,
      });
      if (upload === undefined) return reply;
      const result = await callProcedure(createContext, request, reply, (api) =>
        api.dictionaryDefinitions.importStart({ xml: upload.buffer.toString('utf8') }),
      );
      return result === undefined ? reply : reply.type('application/json; charset=utf-8').send(result);
    });
  };
  return { plugin, paths: definitionPaths };
}
