import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { registerUploads } from '../../rest/multipart.js';
import { type ContextFactory, signedIn } from '../../rest/procedure-call.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { AppError, httpStatusOf } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { sendBlob } from '../storage/serve.js';
import { receiveBlob } from '../storage/upload.js';
import { FeedbackDtoSchema } from './feedback.schema.js';
import { getFeedback } from './feedback.service.js';
import { attachableFeedback, attachBlob, feedbackFile, feedbackStore } from './feedback-attachment.js';

const tags = ['feedback'];
const idParameter = { name: 'id', in: 'path' as const, required: true, schema: { type: 'integer' as const } };

export const feedbackPaths: ZodOpenApiPathsObject = {
  '/feedback/{id}/attachment': {
    post: {
      operationId: 'feedback-attach',
      tags,
      summary: 'Attach one file to feedback just sent (the sending session, within 30 minutes)',
      description:
        'multipart/form-data with the member `file`, at most FEEDBACK_MAX_FILE_SIZE bytes (413 beyond, nothing ' +
        'kept). The type is sniffed from the bytes. One file per feedback (409 for a second).',
      parameters: [idParameter],
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
          description: 'The feedback with its file',
          content: { 'application/json': { schema: FeedbackDtoSchema } },
        },
        400: { description: 'Not multipart, or no file', content: errorContent },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: { description: 'Not the sender, or guests may no longer send feedback', content: errorContent },
        404: { description: 'No such feedback sent from this session', content: errorContent },
        409: { description: 'A file is attached already, or the 30 minutes are over', content: errorContent },
        413: { description: 'File larger than FEEDBACK_MAX_FILE_SIZE', content: errorContent },
      },
    },
    get: {
      operationId: 'feedback-attachment',
      tags,
      summary: "The feedback's file (whoever may read the feedback)",
      description:
        'Served with its sniffed type, `nosniff` and a sandboxing CSP; as an attachment unless a raster image.',
      parameters: [idParameter],
      responses: {
        200: {
          description: 'The file',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        304: { description: 'Not modified (If-None-Match)' },
        401: { description: 'Token missing or not valid', content: errorContent },
        404: { description: 'No such feedback, or no file', content: errorContent },
      },
    },
  },
};

/** The domain scope of a REST-only call: the token gate's actor, with the tenant filter bound. */
function scopeOf(createContext: ContextFactory, request: FastifyRequest, reply: FastifyReply): Scope {
  const context = createContext(request, reply);
  const actor = request.gateActor!;
  context.em.setFilterParams('tenant', { clientId: actor.clientId });
  return { em: context.em, actor, config: context.config, log: request.log };
}

/** Answers a domain refusal with our error body; anything else goes to the server's error handler. */
async function answering(reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return sendError(reply, httpStatusOf[error.code], { code: error.code, message: error.message });
  }
}

const idOf = (request: FastifyRequest<{ Params: { id: string } }>) => {
  const id = Number(request.params.id);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) {
    throw new AppError('NOT_FOUND', `Feedback ${request.params.id} not found`);
  }
  return id;
};

/** Upload and download of the feedback's file; checks run before a byte of the body is read. */
export function feedbackRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);

    app.post<{ Params: { id: string } }>('/feedback/:id/attachment', async (request, reply) => {
      if (!signedIn(request, reply)) return reply;
      const scope = scopeOf(createContext, request, reply);
      return answering(reply, async () => {
        const id = idOf(request);
        await attachableFeedback(scope, id);
        const store = feedbackStore(scope.em);
        const received = await receiveBlob(request, store, {
          maxBytes: config.FEEDBACK_MAX_FILE_SIZE,
          limitName: 'FEEDBACK_MAX_FILE_SIZE',
          clientId: scope.actor.clientId,
        });
        if ('status' in received) {
          const code = received.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
          return sendError(reply, received.status, { code, message: received.message });
        }
        await attachBlob(scope, store, id, received.blob, received.filename);
        return reply.type('application/json; charset=utf-8').send(await getFeedback(scope, id));
      });
    });

    app.get<{ Params: { id: string } }>('/feedback/:id/attachment', async (request, reply) => {
      if (!signedIn(request, reply)) return reply;
      const scope = scopeOf(createContext, request, reply);
      return answering(reply, async () => {
        const store = feedbackStore(scope.em);
        const { info, fileName } = await feedbackFile(scope, store, idOf(request));
        return sendBlob(request, reply, store, info, fileName);
      });
    });
  };
  return { plugin, paths: feedbackPaths };
}
