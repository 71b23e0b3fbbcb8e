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
 * Reads the one file of a multipart upload once the token is known to be valid, so that anonymous
 * callers never make the server buffer a file. A refusal is answered here; the function then returns
 * undefined.
 */
export async function uploadOfSignedInCaller(
  createContext: ContextFactory,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: UploadLimits,
): Promise<UploadedFile | undefined> {
  const session = await callProcedure(createContext, request, reply, (api) => api.auth.validate());
  if (session === undefined) return undefined;
  if (!session.tokenValid) {
    sendError(reply, 401, { code: 'UNAUTHORIZED', message: 'Token unknown or expired' });
    return undefined;
  }
  return readSingleFile(request, limits);
}
