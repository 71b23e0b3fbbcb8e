import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../trpc/context.js';
import { type AppRouter, appRouter } from '../trpc/router.js';
import { sendError, sendProcedureError } from './error-body.js';
import { readSingleFile, type UploadedFile, type UploadLimits } from './multipart.js';

export type ContextFactory = (req: FastifyRequest, reply: FastifyReply) => Context;
type Caller = ReturnType<AppRouter['createCaller']>;

/**
 * Runs procedures for a REST-only route (upload, download) through a server-side caller, so the route
 * gets the same authentication, permission checks and validation as every other path. A failure is
 * answered with our error body and the matching status; the function then returns undefined.
 */
export async function callProcedure<T>(
  createContext: ContextFactory,
  request: FastifyRequest,
  reply: FastifyReply,
  call: (api: Caller) => Promise<T>,
): Promise<T | undefined> {
  try {
    return await call(appRouter.createCaller(createContext(request, reply)));
  } catch (error) {
    sendProcedureError(reply, error);
    return undefined;
  }
}

/**
 * Whether the request comes from a live session. The token gate (token-gate.ts) has already
 * authenticated every caller of a REST-only route before its body is read, and kept the actor on the
 * request, so this costs no lookup; the 401 here only guards a route registered outside the gate.
 */
export function signedIn(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.gateActor) return true;
  sendError(reply, 401, { code: 'UNAUTHORIZED', message: 'Token unknown or expired' });
  return false;
}

/**
 * Reads the one file of a multipart upload once the caller is known to be signed in, so that anonymous
 * callers never make the server buffer a file. A refusal is answered here; the function then returns
 * undefined.
 */
export async function uploadOfSignedInCaller(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: UploadLimits,
): Promise<UploadedFile | undefined> {
  if (!signedIn(request, reply)) return undefined;
  return readSingleFile(request, limits);
}
