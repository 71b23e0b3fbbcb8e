import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorCode } from '../shared/errors.js';

export interface ErrorIssue {
  path: string;
  message: string;
}
export interface ErrorBody {
  code: string;
  message: string;
  issues?: ErrorIssue[];
}

/**
 * Server errors whose message callers may see, nothing about the server's inside: 503 says "retry",
 * 504 "the database did not confirm the change: read it back first" (docs/reliability.md).
 */
const shownServerStatuses = new Set([503, 504]);
/** A busy or unreachable database is usually back within a second. */
const retryStatus = 503;

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  if (status === retryStatus) reply.header('retry-after', '1');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * An error answered before a route ran (the input boundary, body parsing), in the shape the caller's
 * surface reads: GraphQL's `errors` list, tRPC's error envelope, or our REST body.
 */
export function sendSurfaceError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
): FastifyReply {
  const path = request.url;
  if (path.startsWith('/graphql')) {
    if (status === retryStatus) reply.header('retry-after', '1');
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send({ errors: [{ message: body.message, extensions: { code: body.code } }] });
  }
  if (path.startsWith('/trpc/')) {
    if (status === retryStatus) reply.header('retry-after', '1');
    // JSON-RPC's codes as tRPC sends them: -32600 bad request, -32603 anything else.
    const rpcCode = status === 400 ? -32600 : -32603;
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send({
        error: { message: body.message, code: rpcCode, data: { code: body.code, httpStatus: status } },
      });
  }
  return sendError(reply, status, body);
}

interface TrpcErrorJson {
  code?: string;
  message?: string;
  issues?: Array<{ path?: PropertyKey[]; message?: string }>;
}

/** Reshapes trpc-to-openapi's error JSON into our `{code, message, issues?}` body. */
export function toErrorBody(status: number, json: TrpcErrorJson): ErrorBody {
  if (status >= 500 && !shownServerStatuses.has(status))
    return { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' };
  const code = json.code ? apiErrorCode(json.code) : 'BAD_REQUEST';
  if (json.issues?.length) {
    const issues = json.issues.map((issue) => ({
      path: (issue.path ?? []).map(String).join('.'),
      message: issue.message ?? 'invalid',
    }));
    const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    return { code, message: `Invalid input: ${summary.join('; ')}`, issues };
  }
  return { code, message: json.message ?? 'Request failed' };
}

/**
 * Answers a procedure's refusal (a TRPCError below 500) with our error body and its status; anything
 * else is rethrown for the server's error handler (500 without details).
 */
export function sendProcedureError(reply: FastifyReply, error: unknown): void {
  if (!(error instanceof TRPCError)) throw error;
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 500 && !shownServerStatuses.has(status)) throw error.cause ?? error;
  const cause = error.cause as { issues?: Array<{ path?: PropertyKey[]; message?: string }> } | undefined;
  sendError(
    reply,
    status,
    toErrorBody(status, { code: error.code, message: error.message, issues: cause?.issues }),
  );
}
