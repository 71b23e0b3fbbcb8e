/**
 * Answers given before any route runs, in the `{code, message}` body of every other error
 * (docs/api-conventions.md): Node's HTTP parser refusing a request (headers too large: 431, a request
 * not received within REQUEST_TIMEOUT_MS: 408, anything malformed: 400), and Fastify's router refusing
 * a URL (a path parameter longer than maxParamLength: 414, bad URL encoding: 400). Fastify's own bodies
 * were `{error, message, statusCode}`.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-body.js';

const parserErrors: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request was not received in time; the connection is closed',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
    message: 'The request line and headers exceed the allowed size',
  },
};
const malformed = { status: 400, code: 'BAD_REQUEST', message: 'The request is not valid HTTP' };

/** Fastify's `clientErrorHandler`: the socket is answered once and closed. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = parserErrors[error.code ?? ''] ?? malformed;
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${code.replaceAll('_', ' ')}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const routerErrors: Record<string, { code: string; message: string }> = {
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: 'A path parameter of the URL is too long' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: 'The URL is not valid percent-encoding' },
};

/** Fastify's `frameworkErrors`: refusals of its router, before any hook or route. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = routerErrors[error.code];
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  sendError(reply, status, known ?? { code: 'BAD_REQUEST', message: error.message });
}
