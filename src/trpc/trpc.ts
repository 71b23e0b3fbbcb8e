import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { databaseErrorToAppError } from '../db/errors.js';
import { authenticate, LoginRefused, readToken } from '../modules/auth/auth.service.js';
import { searchRuntimeOf } from '../modules/search/search-runtime.js';
import { AppError, type AppErrorCode, apiErrorCode } from '../shared/errors.js';
import { findUnstorableText, unstorableTextError } from '../shared/input-limits.js';
import { isClientAdmin, isSysadmin, type Scope } from '../shared/scope.js';
import type { Context } from './context.js';

/**
 * `successStatus` gives a REST success status other than 200 (201 created, 204 no content).
 * `directRest` serves the REST path of a hot procedure by a server-side call when the request is a plain
 * JSON object body without query string, instead of through trpc-to-openapi (src/rest/rest-adapter.ts).
 */
export type ProcedureMeta = OpenApiMeta<{
  successStatus?: 201 | 202 | 204;
  directRest?: true;
  /**
   * The procedure needs a token but answers one that is not valid itself (validate: false,
   * extend-session: 403), so the REST token gate checks only that one is present.
   */
  ownTokenCheck?: true;
}>;

const trpcCodeOf: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE_CONTENT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  GATEWAY_TIMEOUT: 'GATEWAY_TIMEOUT',
};

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // Internal errors never reach callers with their message or stack.
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        return { ...shape, message: 'Internal server error', data: { ...shape.data, stack: undefined } };
      }
      // A refused login carries the members of the REST body (token: null, errorMessage) in its data.
      const login: { token?: null; errorMessage?: string } =
        error.cause instanceof LoginRefused ? { token: null, errorMessage: error.message } : {};
      // data.code in the API's names (UNPROCESSABLE, not tRPC's UNPROCESSABLE_CONTENT), as REST and GraphQL.
      const code = apiErrorCode(shape.data.code);
      return { ...shape, data: { ...shape.data, code, ...login, stack: undefined } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Domain errors (and database errors callers can cause) become TRPCErrors with the matching code, once.
 * A wait the error names goes out as Retry-After on the HTTP reply (REST and tRPC alike).
 */
const mapErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    const appError = cause instanceof AppError ? cause : databaseErrorToAppError(cause);
    if (appError) {
      if (appError.retryAfterSeconds !== undefined)
        ctx.reply.header('retry-after', String(appError.retryAfterSeconds));
      throw new TRPCError({ code: trpcCodeOf[appError.code], message: appError.message, cause: appError });
    }
  }
  return result;
});

/**
 * trpc-to-openapi hands path parameters over still URL-encoded; decode them here, for REST calls only,
 * using the parameter names of the procedure's path template.
 */
const decodePathParameters = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const template = meta?.openapi?.path;
  if (ctx.transport !== 'rest' || !template?.includes('{')) return next();
  const names = Array.from(template.matchAll(/\{(.+?)\}/g), (match) => match[1] as string);
  const raw = await getRawInput();
  if (!raw || typeof raw !== 'object') return next();
  const decoded: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const name of names) {
    const value = decoded[name];
    if (typeof value === 'string') {
      try {
        decoded[name] = decodeURIComponent(value);
      } catch {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `Path parameter ${name} is not valid URL encoding`,
        });
      }
    }
  }
  return next({ getRawInput: async () => decoded });
});

/**
 * No NUL character or lone surrogate in any input: the HTTP boundary refuses them in bodies and
 * parameters already, but GraphQL string literals and multipart fields reach procedures without passing
 * there.
 */
const rejectUnstorableText = t.middleware(async ({ getRawInput, next }) => {
  const found = findUnstorableText(await getRawInput());
  if (found !== null) {
    throw unstorableTextError(found.path === '(value)' ? 'The input' : found.path, found.reason);
  }
  return next();
});

/** Open endpoints: login, features. Anything built on this tier must be listed as open in docs/api-conventions.md. */
export const publicProcedure = t.procedure.use(mapErrors).use(decodePathParameters).use(rejectUnstorableText);

/** Requires a valid X-Auth-Token; adds the actor and the domain scope, with the tenant filter bound. */
export const authedProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const token = readToken(ctx.req);
  if (!token) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
  // REST requests were authenticated by the token gate before their body was read.
  const actor = ctx.req.gateActor ?? (await authenticate(ctx.em, token));
  if (!actor) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Token unknown or expired' });
  if (actor.apiLogin) ctx.apiRequests.count(ctx.req, actor.sessionId);
  ctx.em.setFilterParams('tenant', { clientId: actor.clientId });
  const scope: Scope = { em: ctx.em, actor, config: ctx.config, log: ctx.req.log };
  const result = await next({ ctx: { actor, scope } });
  // A writer's next search sees its change: the outbox is applied before the answer (bounded wait).
  if (type === 'mutation' && result.ok) await searchRuntimeOf(ctx.em).afterWrite();
  return result;
});

export const clientAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isClientAdmin(ctx.actor))
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Client administrators only' });
  return next();
});

export const sysadminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isSysadmin(ctx.actor))
    throw new TRPCError({ code: 'FORBIDDEN', message: 'System administrators only' });
  return next();
});
