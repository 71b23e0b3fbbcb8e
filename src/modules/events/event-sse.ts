/**
 * GET /api/v4/events/stream: the change feed as Server-Sent Events (docs/events.md). Each event goes
 * out with its sequence as the SSE id, so a reconnecting EventSource resumes with Last-Event-ID; a
 * heartbeat (an id line and a comment) keeps proxies from closing a quiet stream and moves the id past
 * events the reader may not see.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendError, sendProcedureError } from '../../rest/error-body.js';
import type { ContextFactory } from '../../rest/procedure-call.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { appRouter } from '../../trpc/router.js';
import {
  EventFilterInputSchema,
  EventStreamInputSchema,
  type StreamItem,
  streamItemOf,
} from './event.schema.js';

const StreamQuerySchema = EventFilterInputSchema.extend({
  after: z.string().regex(/^\d+$/, 'after must be a sequence number').optional(),
});

export const eventStreamPaths = {
  '/events/stream': {
    get: {
      tags: ['events'],
      operationId: 'events-stream',
      summary: 'The change feed as Server-Sent Events',
      description:
        'Each event as an SSE message: `id` its sequence, `event` its type, `data` the event as JSON. ' +
        'Starts after `after` or the Last-Event-ID header (a reconnecting EventSource sends it), else ' +
        'with the events committed from now on. A comment line with an id goes out after 15 s of quiet.',
      requestParams: { query: StreamQuerySchema },
      responses: {
        200: {
          description: 'The stream',
          content: { 'text/event-stream': { schema: { type: 'string' as const } } },
        },
        400: { description: 'Invalid parameters', content: errorContent },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: { description: 'Guests cannot read the feed', content: errorContent },
      },
    },
  },
};

export function eventStreamRoutes(createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    app.get<{ Querystring: Record<string, string | undefined> }>('/events/stream', async (request, reply) => {
      const lastEventId = request.headers['last-event-id'];
      const query = StreamQuerySchema.safeParse(request.query);
      const resume =
        typeof lastEventId === 'string' && /^\d+$/.test(lastEventId) ? lastEventId : query.data?.after;
      // The procedure parses the query's own strings (the parsed filters are lists, which it would refuse).
      const raw = Object.fromEntries(
        Object.entries({
          type: request.query.type,
          'dictionary-id': request.query['dictionary-id'],
          after: resume,
        }).filter(([, value]) => value !== undefined),
      );
      const input = query.success ? EventStreamInputSchema.safeParse(raw) : query;
      if (!input.success) {
        const issue = input.error.issues[0];
        return sendError(reply, 400, {
          code: 'BAD_REQUEST',
          message: `${issue?.path.join('.') || 'query'}: ${issue?.message ?? 'invalid'}`,
        });
      }
      const abort = new AbortController();
      // The response's close: the client went away (the request's own close comes when its body is read).
      reply.raw.on('close', () => abort.abort());
      let stream: AsyncIterable<unknown>;
      try {
        const api = appRouter.createCaller(createContext(request, reply), { signal: abort.signal });
        stream = await api.events.subscribe(raw as never);
      } catch (error) {
        return sendProcedureError(reply, error);
      }
      const iterator = stream[Symbol.asyncIterator]();
      // The first item is awaited before the headers: a refusal (guest, bad type) is still a JSON error.
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (error) {
        return sendProcedureError(reply, error);
      }
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      reply.raw.write(': polyterm events\n\n');
      try {
        for (let item = first; !item.done && !abort.signal.aborted; item = await iterator.next()) {
          reply.raw.write(sseMessage(streamItemOf(item.value)));
        }
      } catch (error) {
        request.log.warn({ err: error }, 'event stream ended by an error');
      } finally {
        abort.abort();
        await iterator.return?.(undefined);
        reply.raw.end();
      }
    });
  };
  return { plugin, paths: eventStreamPaths };
}

function sseMessage(item: StreamItem): string {
  if ('event' in item) {
    return `id: ${item.event.sequence}\nevent: ${item.event.type}\ndata: ${JSON.stringify(item.event)}\n\n`;
  }
  return `id: ${item.heartbeat}\n: heartbeat\n\n`;
}
