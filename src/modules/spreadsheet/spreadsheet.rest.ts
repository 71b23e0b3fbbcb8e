/**
 * The spreadsheet import's multipart routes (docs/exchange.md): the upload is streamed to disk as the
 * TBX import's is (tbx.rest.ts receiveFile), then the spreadsheet procedures run on it. The mapping
 * travels as a JSON form member beside the file.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure, signedIn } from '../../rest/procedure-call.js';
import { errorContent, type RawRoute, uploadErrorResponses } from '../../rest/raw-route.js';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { optionalNumber, type Received, receiveFile } from '../tbx/tbx.rest.js';
import { TbxMergeModes } from '../tbx/tbx-import.service.js';
import { SheetPreviewSchema } from './spreadsheet.router.js';

const tags = ['dictionaries'];
/** A mapping of a few hundred columns fits. */
const MAPPING_BYTES = 256 * 1024;

const fileMember = { file: { type: 'string' as const, format: 'binary' as const } };

export const spreadsheetPaths: ZodOpenApiPathsObject = {
  '/dictionaries/import-spreadsheet/preview': {
    post: {
      operationId: 'dictionaries-previewSpreadsheet',
      tags,
      summary: "Read a spreadsheet's first rows and propose how its columns map to terms and fields",
      description:
        'CSV (UTF-8 with or without BOM, UTF-16, Windows-1252; comma, semicolon, tab or bar, detected) or XLSX ' +
        '(formulas as values, merged cells, several sheets). Members: `file`, optionally `sheet`, `delimiter`, ' +
        '`encoding` to read it otherwise. Answers the first 20 rows and the proposed mapping, to send with the ' +
        'file to POST /dictionaries/import-spreadsheet. Nothing is stored. See docs/exchange.md.',
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                ...fileMember,
                sheet: { type: 'string' },
                delimiter: { type: 'string' },
                encoding: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'The rows and the proposal',
          content: { 'application/json': { schema: SheetPreviewSchema } },
        },
        ...uploadErrorResponses('Never (any signed-in user may preview a file)'),
      },
    },
  },
  '/dictionaries/import-spreadsheet': {
    post: {
      operationId: 'dictionaries-importSpreadsheet',
      tags,
      summary: 'Import a CSV or XLSX file by a column mapping into a new or an existing dictionary',
      description:
        'Members: `file` and `mapping` (JSON, the SheetMapping the preview proposes, changed as needed); ' +
        '`dictionary-id`, `name`, `merge`, `section-oid` as for POST /dictionaries/import-tbx, whose job, merge ' +
        'modes, one transaction, limits and error summary (rows as lines) it shares. See docs/exchange.md.',
      parameters: [
        { name: 'dictionary-id', in: 'query', schema: { type: 'integer' } },
        { name: 'name', in: 'query', schema: { type: 'string' } },
        {
          name: 'merge',
          in: 'query',
          schema: { type: 'string', enum: [...TbxMergeModes], default: 'ENTRY_ID' },
        },
        { name: 'section-oid', in: 'query', schema: { type: 'string' } },
      ],
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'mapping'],
              properties: {
                ...fileMember,
                mapping: { type: 'string', description: 'the SheetMapping as JSON' },
                'dictionary-id': { type: 'integer' },
                name: { type: 'string' },
                merge: { type: 'string', enum: [...TbxMergeModes] },
                'section-oid': { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'Done in time',
          content: { 'application/json': { schema: InvocationResultSchema } },
        },
        202: {
          description: 'Still running',
          content: { 'application/json': { schema: InvocationResultSchema } },
        },
        ...uploadErrorResponses('No CONCEPT_IMPORT in the section, or not an administrator (new dictionary)'),
        404: { description: 'No such dictionary (or not readable)', content: errorContent },
        422: { description: 'The name of the new dictionary is taken', content: errorContent },
      },
    },
  },
};

/** The mapping member as JSON (400 when it is no JSON; its shape is the procedure's to check). */
function mappingOf(fields: Record<string, string>, reply: FastifyReply): unknown {
  const text = fields.mapping;
  if (text === undefined) {
    sendError(reply, 400, { code: 'BAD_REQUEST', message: 'The multipart member "mapping" is missing' });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    sendError(reply, 400, { code: 'BAD_REQUEST', message: 'mapping: not JSON' });
    return undefined;
  }
}

function refused(received: Received, reply: FastifyReply): boolean {
  if (!('status' in received)) return false;
  const code = received.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
  sendError(reply, received.status, { code, message: received.message });
  return true;
}

export function spreadsheetRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    app.post('/dictionaries/import-spreadsheet/preview', async (request, reply) => {
      if (!signedIn(request, reply)) return reply;
      const received = await receiveFile(request, config.MAX_FILE_SIZE);
      if (refused(received, reply) || 'status' in received) return reply;
      try {
        const { fields } = received;
        const preview = await callProcedure(createContext, request, reply, (api) =>
          api.spreadsheet.preview({
            file: received.upload,
            sheet: fields.sheet || undefined,
            delimiter: (fields.delimiter || undefined) as never,
            encoding: (fields.encoding || undefined) as never,
          }),
        );
        if (preview === undefined) return reply;
        return reply.type('application/json; charset=utf-8').send(preview);
      } finally {
        await received.upload.discard();
      }
    });

    app.post<{ Querystring: Record<string, string | undefined> }>(
      '/dictionaries/import-spreadsheet',
      async (request, reply) => {
        if (!signedIn(request, reply)) return reply;
        const received = await receiveFile(request, config.MAX_FILE_SIZE, MAPPING_BYTES);
        if (refused(received, reply) || 'status' in received) return reply;
        const { upload, fields } = received;
        try {
          const mapping = mappingOf(fields, reply);
          if (mapping === undefined) return reply;
          const param = (name: string) => fields[name] ?? request.query[name];
          const result = await callProcedure(createContext, request, reply, (api) =>
            api.spreadsheet.importFile({
              file: upload,
              mapping: mapping as never,
              'dictionary-id': optionalNumber(param('dictionary-id')),
              name: param('name'),
              merge: (param('merge')?.toUpperCase() ?? 'ENTRY_ID') as (typeof TbxMergeModes)[number],
              'section-oid': param('section-oid') || undefined,
            }),
          );
          if (result === undefined) return reply;
          return reply
            .code(result.jobTaskId !== undefined ? 202 : 200)
            .type('application/json; charset=utf-8')
            .send(result);
        } finally {
          if (!upload.claimed) await upload.discard();
        }
      },
    );
  };
  return { plugin, paths: spreadsheetPaths };
}
