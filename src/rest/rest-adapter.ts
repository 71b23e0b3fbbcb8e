import formbody from '@fastify/formbody';
import type { AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createOpenApiNodeHttpHandler, type OpenApiRouter } from 'trpc-to-openapi';
import { setMetricsRoute } from '../shared/metrics-route.js';
import { rawJsonOf } from '../shared/raw-json.js';
import type { Context } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/trpc.js';
import { sendError, sendProcedureError, toErrorBody } from './error-body.js';
import { registerJsonBodyParser } from './json-body.js';
import { containRestCoercion, withRestCoercion } from './rest-coercion.js';
import {
  allowedMethods,
  buildRouteTable,
  findRoute,
  pathOf,
  type RestRoute,
  routerInRouteOrder,
} from './route-table.js';
import { registerTokenGate, type TokenAuthenticator } from './token-gate.js';

export interface RestAdapterOptions {
  router: AnyRouter;
  createContext: (req: FastifyRequest, reply: FastifyReply) => Context;
  /** REST-only routes (downloads, uploads, scripts): registered first, so they win over procedures. */
  rawRoutes: FastifyPluginAsync[];
  maxBodySize: number;
  /** Checks a token before the body is read (src/rest/token-gate.ts). */
  authenticate: TokenAuthenticator;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

interface CapturedResponse {
  /** The context trpc-to-openapi created, to tell a deliberate status (failed login) from an error. */
  context?: Context;
  status: number;
  headers: Record<string, string | string[] | number>;
  body: string | undefined;
}

/** A stand-in for Node's ServerResponse that records what trpc-to-openapi answers, so we can reshape it. */
function captureResponse(reply: FastifyReply, captured: CapturedResponse) {
  const raw = reply.raw;
  return {
    get statusCode() {
      return captured.status;
    },
    set statusCode(value: number) {
      captured.status = value;
    },
    setHeader(name: string, value: string | string[] | number) {
      captured.headers[name.toLowerCase()] = value;
    },
    end(data?: string) {
      captured.body = data;
    },
    headersSent: false,
    finished: false,
    socket: raw.socket,
    connection: raw.socket,
    once: raw.once.bind(raw),
    on: raw.on.bind(raw),
    off: raw.off.bind(raw),
    emit: raw.emit.bind(raw),
    removeListener: raw.removeListener.bind(raw),
  };
}

/**
 * The Fastify request as trpc-to-openapi wants to see a Node request: the path relative to /api/v4 and
 * the event methods of the raw request. A child object, so Fastify's own request stays untouched.
 */
function nodeRequest(request: FastifyRequest, url: string) {
  const raw = request.raw;
  return Object.create(request, {
    url: { value: url },
    socket: { value: raw.socket },
    once: { value: raw.once.bind(raw) },
    on: { value: raw.on.bind(raw) },
    off: { value: raw.off.bind(raw) },
    destroy: { value: raw.destroy.bind(raw) },
  }) as FastifyRequest;
}

/**
 * Prepares the body as trpc-to-openapi wants it: JSON only, so a form body (login) or no body at all
 * (logout, extend-session) is handed over as a JSON object, and query parameters of POST/PUT
 * (comments `entry-id`, undo `history-item-id`...) are merged in, the body winning on a clash.
 */
function prepareBody(request: FastifyRequest): void {
  if (!BODY_METHODS.has(request.method)) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  if (body === undefined || body === null || body === '') {
    request.body = { ...query };
  } else if (typeof body === 'object' && !Array.isArray(body)) {
    request.body = { ...query, ...(body as Record<string, unknown>) };
  }
  request.headers['content-type'] = 'application/json';
}

/**
 * The `/api/v4` scope: REST paths of every procedure with `meta.openapi`, through trpc-to-openapi, with
 * the contract's conventions applied here once (see design.md for each gap this closes).
 */
export const restAdapter: FastifyPluginAsync<RestAdapterOptions> = async (app: FastifyInstance, options) => {
  await app.register(formbody);
  registerJsonBodyParser(app);
  // Fastify reads text/plain as a string by default, which every procedure then found empty (400 with each
  // member missing); a body is JSON or a form here, anything else is 415 like XML.
  app.removeContentTypeParser('text/plain');

  const routes = buildRouteTable(options.router);
  // trpc-to-openapi's coercion of strings stays inside its calls (rest-coercion.ts).
  const procedures = options.router._def.procedures as Record<string, { _def: { inputs?: unknown[] } }>;
  containRestCoercion(routes.map((route) => procedures[route.procedurePath]!));
  // Before any route: a missing token is answered before a body is read.
  registerTokenGate(app, routes, options.authenticate);
  for (const route of options.rawRoutes) await app.register(route);

  const callerOf = createCallerFactory(options.router);
  const successStatus = new Map(routes.map((route) => [route.procedurePath, route.meta.successStatus]));
  const handler = createOpenApiNodeHttpHandler({
    router: routerInRouteOrder(options.router, routes) as OpenApiRouter,
    maxBodySize: options.maxBodySize,
    createContext: ({ req, res }) => {
      const response = res as unknown as { reply: FastifyReply; captured: CapturedResponse };
      const context = options.createContext(req as unknown as FastifyRequest, response.reply);
      response.captured.context = context;
      return context;
    },
    responseMeta: ({ ctx, paths, errors }) => {
      if (errors.length > 0) return {};
      const status = (ctx as Context | undefined)?.response.status ?? successStatus.get(paths?.[0] ?? '');
      return status ? { status } : {};
    },
    onError: ({ error, req }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        (req as unknown as FastifyRequest).log.error({ err: error.cause ?? error }, 'request failed');
      }
    },
  });

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    handler: async (request, reply) => {
      const relativeUrl = request.url.slice(app.prefix.length) || '/';
      const path = pathOf(app.prefix, request.url);
      const route = findRoute(routes, request.method, path);
      if (!route) {
        const allowed = allowedMethods(routes, path);
        if (allowed.length > 0) {
          reply.header('allow', allowed.join(', '));
          return sendError(reply, 405, {
            code: 'METHOD_NOT_SUPPORTED',
            message: `${request.method} is not supported on ${path}; use ${allowed.join(' or ')}`,
          });
        }
        return sendError(reply, 404, {
          code: 'NOT_FOUND',
          message: `No endpoint ${request.method} /api/v4${path}`,
        });
      }
      setMetricsRoute(request, `${app.prefix}${route.template}`);
      if (route.meta.directRest && isPlainJsonObjectCall(request)) {
        return answerDirectly(request, reply, options, callerOf, route);
      }
      prepareBody(request);
      const captured: CapturedResponse = { status: 200, headers: {}, body: undefined };
      const res = Object.assign(captureResponse(reply, captured), { reply, captured });
      await withRestCoercion(() => handler(nodeRequest(request, relativeUrl) as never, res as never));
      return finish(reply, captured);
    },
  });
};

/**
 * A request whose input is exactly its body: JSON, a plain object, no query string to merge and coerce.
 * Anything else takes the general path, so both paths give the same answer to the same request.
 */
function isPlainJsonObjectCall(request: FastifyRequest): boolean {
  const body = request.body;
  return (
    !request.url.includes('?') &&
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (request.headers['content-type'] ?? '').startsWith('application/json')
  );
}

type CallerFactory = ReturnType<typeof createCallerFactory>;

/**
 * Runs a `directRest` procedure through a server-side caller: the same middlewares (token, scope,
 * errors), input and output validation as the general path, without trpc-to-openapi's conversion to and
 * from a web Request (about a fifth of a search's server time). Status and body as finish() sends them.
 */
async function answerDirectly(
  request: FastifyRequest,
  reply: FastifyReply,
  options: RestAdapterOptions,
  callerOf: CallerFactory,
  route: RestRoute,
): Promise<FastifyReply> {
  const context = options.createContext(request, reply);
  const procedure = route.procedurePath
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], callerOf(context)) as (
    input: unknown,
  ) => Promise<unknown>;
  try {
    const output = await procedure(request.body);
    const status = context.response.status ?? route.meta.successStatus ?? 200;
    if (status === 204) return reply.code(204).type('text/plain; charset=utf-8').send();
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(rawJsonOf(output) ?? JSON.stringify(output ?? null));
  } catch (error) {
    try {
      sendProcedureError(reply, error);
      return reply;
    } catch (internal) {
      // As on the general path: logged here, answered without details.
      request.log.error({ err: internal }, 'request failed');
      return sendError(reply, 500, toErrorBody(500, {}));
    }
  }
}

/** Sends what trpc-to-openapi answered, with our error body and the 204 text/plain of the contract. */
function finish(reply: FastifyReply, captured: CapturedResponse): FastifyReply {
  for (const [name, value] of Object.entries(captured.headers)) {
    if (name !== 'content-type' && name !== 'content-length') reply.header(name, value);
  }
  const deliberate = captured.context?.response.status === captured.status;
  if (captured.status >= 400 && !deliberate) {
    let json = {};
    try {
      json = captured.body ? JSON.parse(captured.body) : {};
    } catch {
      // keep the default body
    }
    return sendError(reply, captured.status, toErrorBody(captured.status, json));
  }
  // No payload at all: Fastify then keeps the text/plain Content-Type the contract asks for.
  if (captured.status === 204) return reply.code(204).type('text/plain; charset=utf-8').send();
  return reply
    .code(captured.status)
    .type('application/json; charset=utf-8')
    .send(captured.body ?? 'null');
}
