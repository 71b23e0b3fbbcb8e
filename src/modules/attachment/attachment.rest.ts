import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure, signedIn } from '../../rest/procedure-call.js';
import { errorContent, type RawRoute, uploadErrorResponses } from '../../rest/raw-route.js';
import { sendBlob } from '../storage/serve.js';
import { receiveBlob } from '../storage/upload.js';
import { AttachmentDtoSchema } from './attachment.schema.js';
import { attachmentStore } from './attachment.service.js';
import { UploadedBlob } from './attachment-upload.js';

const tags = ['attachments'];
const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const fileHeadersDoc = {
  'Content-Disposition': {
    schema: { type: 'string' as const },
    description: 'inline for raster images, attachment for everything else',
  },
  'Content-Security-Policy': {
    schema: { type: 'string' as const },
    description: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  },
  'X-Content-Type-Options': { schema: { type: 'string' as const }, description: 'nosniff' },
  ETag: { schema: { type: 'string' as const }, description: 'the SHA-256 of the bytes' },
};

const downloadOperation = (thumbnail: boolean) => ({
  operationId: thumbnail ? 'attachments-thumbnail' : 'attachments-download',
  tags,
  summary: thumbnail
    ? "A PNG thumbnail (at most 256 px) of a concept's image attachment; SVG arrives rasterised"
    : "Download a concept's attachment (readers of the concept, as the concept's terms are shown to them)",
  description: thumbnail
    ? 'Made at upload with sharp for raster images and SVG (rasterised, so no script runs); 404 for other files. ' +
      'Follows the concept: its permissions, workflow visibility, soft deletion and tenant (docs/attachments.md).'
    : 'The bytes as uploaded, with the type sniffed from them at upload. Served so that HTML or SVG never runs ' +
      "in Polyterm's origin: nosniff, a sandboxing CSP, and `attachment` disposition for anything but raster " +
      'images. Only through a concept whose values name the key (docs/attachments.md).',
  parameters: [
    { name: 'id', in: 'path' as const, required: true, schema: { type: 'integer' as const } },
    { name: 'key', in: 'path' as const, required: true, schema: { type: 'string' as const } },
  ],
  responses: {
    200: {
      description: 'The file, with the type sniffed at upload',
      headers: fileHeadersDoc,
      content: { 'application/octet-stream': { schema: { type: 'string' as const, format: 'binary' } } },
    },
    304: { description: 'If-None-Match matched the ETag' },
    401: { description: 'Token missing or not valid', content: errorContent },
    404: {
      description: 'No such concept, or it does not show this attachment to the caller',
      content: errorContent,
    },
  },
});

export const attachmentPaths: ZodOpenApiPathsObject = {
  '/attachments': {
    post: {
      operationId: 'attachments-upload',
      tags,
      summary: 'Upload a file for the ATTACHMENT fields of a dictionary; set its key as a field value after',
      description:
        'multipart/form-data with the member `file` (and `dictionary-id`, or the query parameter). Streamed ' +
        'into storage, never held whole; more than MAX_FILE_SIZE bytes answers 413 and keeps nothing. The type ' +
        'is sniffed from the bytes: a name or Content-Type that says otherwise answers 400. Images get a ' +
        'thumbnail. Needs CONCEPT_CREATE, CONCEPT_UPDATE or CONCEPT_EDIT_FIELDS in a section. The answer ' +
        'is the attachment; its `key` becomes a value of an ATTACHMENT field through the concept calls ' +
        '(docs/attachments.md).',
      parameters: [{ name: 'dictionary-id', in: 'query', schema: { type: 'integer' } }],
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary' },
                'dictionary-id': { type: 'integer' },
              },
            },
          },
        },
      },
      responses: {
        201: { description: 'Stored', content: { 'application/json': { schema: AttachmentDtoSchema } } },
        ...uploadErrorResponses('No right to edit concepts in the dictionary'),
        404: { description: 'No such dictionary (or not readable)', content: errorContent },
      },
    },
  },
  '/concepts/{id}/attachments/{key}': { get: downloadOperation(false) },
  '/concepts/{id}/attachments/{key}/thumbnail': { get: downloadOperation(true) },
};

/** Upload (multipart, streamed into the blob store) and download of attachments. */
export function attachmentRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    app.post<{ Querystring: Record<string, string | undefined> }>('/attachments', async (request, reply) => {
      // Signed in before anything is read: anonymous callers never make the server store a file.
      if (!signedIn(request, reply)) return reply;
      const store = attachmentStore(createContext(request, reply).em);
      const received = await receiveBlob(request, store, {
        maxBytes: config.MAX_FILE_SIZE,
        clientId: request.gateActor?.clientId,
      });
      if ('status' in received) {
        const code = received.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
        if (received.status === 413) reply.header('connection', 'close');
        return sendError(reply, received.status, { code, message: received.message });
      }
      const dictionaryId = received.fields['dictionary-id'] ?? request.query['dictionary-id'];
      if (!dictionaryId || !/^\d{1,9}$/.test(dictionaryId)) {
        await store.delete(received.blob.key);
        return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'dictionary-id is required' });
      }
      // A refused upload (rights, a mislabelled file) keeps nothing: the blob goes before the answer.
      const attachment = await callProcedure(createContext, request, reply, (api) =>
        api.attachments
          .register({
            dictionaryId: Number(dictionaryId),
            upload: new UploadedBlob(received.blob, received.filename, received.declaredType),
          })
          .catch(async (error: unknown) => {
            await store.delete(received.blob.key);
            throw error;
          }),
      );
      if (attachment === undefined) return reply;
      return reply.code(201).type('application/json; charset=utf-8').send(attachment);
    });

    const download =
      (thumbnail: boolean) =>
      async (request: FastifyRequest<{ Params: { id: string; key: string } }>, reply: FastifyReply) => {
        const { id, key } = request.params;
        if (!/^\d{1,9}$/.test(id) || !KEY.test(key)) {
          return sendError(reply, 404, { code: 'NOT_FOUND', message: 'No such attachment' });
        }
        const context = createContext(request, reply);
        const file = await callProcedure(
          () => context,
          request,
          reply,
          (api) => api.attachments.download({ id: Number(id), key, thumbnail }),
        );
        if (file === undefined) return reply;
        return sendBlob(request, reply, attachmentStore(context.em), file.info, file.fileName);
      };

    app.get('/concepts/:id/attachments/:key', download(false));
    app.get('/concepts/:id/attachments/:key/thumbnail', download(true));
  };
  return { plugin, paths: attachmentPaths };
}
