import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { TRPCError } from '@trpc/server';
import { createFetch } from '@whatwg-node/fetch';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse } from 'graphql';
import { createGraphQLError, createYoga, type Plugin } from 'graphql-yoga';
import { databaseOutageError } from '../db/errors.js';
import { readToken } from '../modules/auth/auth.service.js';
import { sendSurfaceError } from '../rest/error-body.js';
import { apiErrorCode } from '../shared/errors.js';
import { jsonNestingExceeds, MAX_GRAPHQL_TOKENS, MAX_JSON_DEPTH } from '../shared/input-limits.js';
import type { Context } from '../trpc/context.js';
import { appRouter } from '../trpc/router.js';
import { createCallerFactory } from '../trpc/trpc.js';
import type { GraphQLContext } from './builder.js';
import { limitOperationCost } from './cost-limit.js';
import { CallerDocuments, DOCUMENTS_AT_ONCE } from './pool-share.js';
import { schema } from './schema.js';
import { graphqlFileLimit } from './uploads.js';

const createCaller = createCallerFactory(appRouter);

interface GraphQLErrorLike {
  message: string;
  originalError?: unknown;
  path?: ReadonlyArray<string | number>;
}

// Structural checks: graphql can be loaded twice (ESM and CJS builds), which breaks instanceof.
const isGraphQLErrorLike = (error: unknown): error is GraphQLErrorLike =>
  typeof error === 'object' && error !== null && 'message' in error && 'originalError' in error;
const isTrpcError = (error: unknown): error is TRPCError =>
  error instanceof TRPCError || (error instanceof Error && error.name === 'TRPCError');

/**
 * Procedure errors keep their code in `extensions.code`; anything unexpected is logged with its cause,
 * as REST logs a 500, and masked.
 */
export const maskErrorWith =
  (log: Pick<FastifyBaseLogger, 'error'>) =>
  (error: unknown): Error => {
    const original = isGraphQLErrorLike(error) ? error.originalError : error;
    const path = isGraphQLErrorLike(error) ? error.path : undefined;
    if (isTrpcError(original) && original.code !== 'INTERNAL_SERVER_ERROR') {
      const zodIssues = (
        original.cause as { issues?: Array<{ path: PropertyKey[]; message: string }> } | undefined
      )?.issues;
      const message = zodIssues?.length
        ? `Invalid input: ${zodIssues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ')}`
        : original.message;
      return createGraphQLError(message, {
        ...(path ? { path } : {}),
        extensions: { code: apiErrorCode(original.code) },
      });
    }
    const outage = databaseOutageError(original);
    if (outage) {
      return createGraphQLError(outage.message, {
        ...(path ? { path } : {}),
        extensions: { code: outage.code },
      });
    }
    // Errors of the request itself (parsing, validation, variables of the wrong type) have no path:
    // they arise before any resolver runs, and are the caller's to fix.
    if (isGraphQLErrorLike(error) && !path) {
      return createGraphQLError(error.message, {
        ...('locations' in error ? { nodes: undefined } : {}),
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    log.error({ err: original, path: path?.join('.') }, 'GraphQL resolver failed');
    return createGraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };

/**
 * graphql-yoga's log calls, into ours. Yoga logs at error level every error its mask replaced, the
 * expected ones (not found, conflict, bad input) included, and those are no server faults. maskErrorWith
 * has already logged the unexpected ones, with their path: yoga's own error lines go to debug.
 */
export const yogaLogging = (log: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn'>) => ({
  debug: (...args: unknown[]) => log.debug({ yoga: args }, 'graphql-yoga'),
  info: (...args: unknown[]) => log.info({ yoga: args }, 'graphql-yoga'),
  warn: (...args: unknown[]) => log.warn({ yoga: args }, 'graphql-yoga'),
  error: (...args: unknown[]) => log.debug({ yoga: args }, 'graphql-yoga: error masked for the caller'),
});

/**
 * graphql-js parses recursively: a document of 20,000 nested selections overflowed the stack (a 500).
 * The nesting is counted before parsing, and the parser's own `maxTokens` bounds the rest.
 */
const limitDocuments = (maxTokens: number): Plugin => ({
  onParse({ setParseFn }) {
    setParseFn((source, options) => {
      const text = typeof source === 'string' ? source : source.body;
      if (jsonNestingExceeds(text)) {
        throw createGraphQLError(`The document is nested more than ${MAX_JSON_DEPTH} levels deep`, {
          extensions: { code: 'BAD_REQUEST' },
        });
      }
      return parse(source, { ...options, maxTokens });
    });
  },
});

/**
 * Validation errors (an unknown field, a missing argument) are the caller's to fix, as syntax errors and
 * wrong variables are: `BAD_REQUEST`, as docs/api-conventions.md says, not yoga's own
 * GRAPHQL_VALIDATION_FAILED. Yoga only fills the code when none is set, whichever runs first.
 */
const validationErrorsAreBadRequests: Plugin = {
  onValidate() {
    return ({ valid, result }) => {
      if (valid) return;
      for (const error of result) {
        const extensions = error.extensions as Record<string, unknown>;
        if (extensions.code === undefined || extensions.code === 'GRAPHQL_VALIDATION_FAILED') {
          extensions.code = 'BAD_REQUEST';
        }
      }
    };
  },
};

/** Serves GraphQL at /graphql, and GraphiQL (bundled, no CDN) when a browser opens it. */
export function registerGraphQL(
  app: FastifyInstance,
  createContext: (req: FastifyRequest, reply: FastifyReply) => Context,
  maxFileSize: number,
): void {
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // The server's one CORS policy applies (src/rest/cors.ts), not yoga's, which grants every origin.
    cors: false,
    renderGraphiQL,
    graphiql: { title: 'Polyterm GraphiQL', headers: JSON.stringify({ 'X-Auth-Token': '' }) },
    maskedErrors: { maskError: maskErrorWith(app.log) },
    plugins: [limitDocuments(MAX_GRAPHQL_TOKENS), validationErrorsAreBadRequests, limitOperationCost],
    logging: yogaLogging(app.log),
    context: ({ req, reply }) => {
      const request = createContext(req, reply);
      return { request, api: createCaller(request) };
    },
    // Uploads (the multipart request specification, tbx-files.graphql.ts) are read into memory by the
    // Fetch API's form reader: one file, at most GRAPHQL_MAX_FILE_BYTES (uploads.ts; REST streams larger ones to disk).
    fetchAPI: createFetch({
      formDataLimits: {
        files: 1,
        fileSize: graphqlFileLimit(maxFileSize),
        fieldSize: 1024 * 1024,
        fields: 10,
      },
    }),
  });

  const documents = new CallerDocuments();
  // In a scope of its own: a multipart body is left to yoga, which reads the request stream itself.
  void app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    routeGraphQL(scope, yoga, documents);
  });
}

function routeGraphQL(
  app: FastifyInstance,
  yoga: ReturnType<typeof createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>>,
  documents: CallerDocuments,
): void {
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      // The token's hash would do as well; the token itself never leaves this map.
      const caller = readToken(req) ?? `address ${req.ip}`;
      if (req.method !== 'OPTIONS' && !documents.take(caller)) {
        reply.header('retry-after', '1');
        return sendSurfaceError(req, reply, 429, {
          code: 'TOO_MANY_REQUESTS',
          message: `At most ${DOCUMENTS_AT_ONCE} GraphQL requests of one caller run at a time; retry shortly`,
        });
      }
      let response: Response;
      try {
        response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      } finally {
        if (req.method !== 'OPTIONS') documents.release(caller);
      }
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });
}
