import type { FastifyPluginAsync } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure, uploadOfSignedInCaller } from '../../rest/procedure-call.js';
import { errorContent, flag, type RawRoute, uploadErrorResponses } from '../../rest/raw-route.js';
import { UserImportResultSchema } from './user-transfer.schema.js';

export const userTransferPaths: ZodOpenApiPathsObject = {
  '/users/export': {
    get: {
      operationId: 'users-export',
      tags: ['users'],
      summary: 'Export the users of the client as XML (administrators)',
      description:
        'Users with password hashes, roles, groups and client mappings; see docs/user-transfer.md.',
      responses: {
        200: {
          description: 'XML attachment',
          content: { 'application/xml': { schema: { type: 'string' } } },
        },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: { description: 'Not allowed', content: errorContent },
      },
    },
  },
  '/users/import': {
    post: {
      operationId: 'users-import',
      tags: ['users'],
      summary: 'Import users and groups from an export file (administrators)',
      description:
        'Without overwrite, a username or group name already taken gets a suffix _1, _2...; a malformed file ' +
        'answers 400 and changes nothing.',
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary' },
                fileName: { type: 'string' },
                'overwrite-user': { type: 'boolean', default: false },
                'overwrite-group': { type: 'boolean', default: false },
              },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'UserImportResult',
          content: { 'application/json': { schema: UserImportResultSchema } },
        },
        ...uploadErrorResponses('Not allowed'),
      },
    },
  },
};

/** The XML download and the multipart upload of users; both run the users procedures. */
export function userTransferRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    app.get('/users/export', async (request, reply) => {
      const xml = await callProcedure(createContext, request, reply, (api) => api.users.exportXml());
      if (xml === undefined) return reply;
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/xml; charset=UTF-8')
        .header('content-disposition', `attachment; filename="users-${date}.xml"`)
        .header('content-length', Buffer.byteLength(xml))
        .send(xml);
    });

    app.post('/users/import', async (request, reply) => {
      const upload = await uploadOfSignedInCaller(request, reply, {
        maxBytes: config.MAX_FILE_SIZE,
      });
      if (upload === undefined) return reply;
      const result = await callProcedure(createContext, request, reply, (api) =>
        api.users.importXml({
          xml: upload.buffer.toString('utf8'),
          'overwrite-user': flag(upload.fields['overwrite-user']),
          'overwrite-group': flag(upload.fields['overwrite-group']),
        }),
      );
      return result === undefined ? reply : reply.type('application/json; charset=utf-8').send(result);
    });
  };
  return { plugin, paths: userTransferPaths };
}
