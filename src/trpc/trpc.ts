import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { type CallWrites, trackWrites } from '../db/call-writes.js';
import { databaseErrorToAppError } from '../db/errors.js';
import { accessCacheOf } from '../modules/access/access-cache.js';
import { authenticate, LoginRefused, readToken } from '../modules/auth/auth.service.js';
import { idempotencyKeyOf, idempotentCall } from '../modules/idempotency/idempotent-call.js';
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
   * extend-session: 403 as the contract shows), so the REST token gate checks only that one is present.
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

/** tRPC brands the results of next(); a replayed answer is one the middleware makes itself. */
const REPLAYED = 'middlewareMarker' as Awaited<
  ReturnType<Parameters<Parameters<typeof t.middleware>[0]>[0]['next']>
>['marker'];
export const createCallerFactory = t.createCallerFactory;

/**
 * Domain errors (and database errors callers can cause) become TRPCErrors with the matching code, once.
 * A wait the error names goes out as Retry-After on the HTTP reply (REST and tRPC alike). A database
 * failure after the call committed is a 504 "saved", never a 503 "nothing written" (call-writes.ts).
 */
const mapErrors = t.middleware(async ({ ctx, type, next }) => {
  const writes: CallWrites = { committed: false };
  const result = await trackWrites(writes, () => next());
  // This server's own writes reach its access cache before the answer, not when the notification comes
  // round (src/modules/access/access-cache.ts): a logout or a role change holds for the next request.
  // Any mutation: not every write runs in a tracked transaction (a logout is one statement).
  if (type === 'mutation') accessCacheOf(ctx.em)?.clear();
  if (!result.ok) {
    const cause = result.error.cause;
    const appError = cause instanceof AppError ? cause : databaseErrorToAppError(cause, writes.committed);
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

/**
 * Requires an X-Auth-Token, whose validity the procedure judges itself (validate, extend-session): the
 * token is checked before the input, as on every other authed procedure.
 */
export const tokenHolderProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!readToken(ctx.req))
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
  return next();
});

/** Requires a valid X-Auth-Token; adds the actor and the domain scope, with the tenant filter bound. */
export const authedProcedure = publicProcedure.use(async ({ ctx, type, path, getRawInput, next }) => {
  const token = readToken(ctx.req);
  if (!token) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
  // REST requests were authenticated by the token gate before their body was read.
  const actor = ctx.req.gateActor ?? (await authenticate(ctx.em, token));
  if (!actor) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Token unknown or expired' });
  if (actor.apiLogin) ctx.apiRequests.count(ctx.req, actor.sessionId);
  ctx.em.setFilterParams('tenant', { clientId: actor.clientId });
  const scope: Scope = { em: ctx.em, actor, config: ctx.config, log: ctx.req.log };
  const call = () => next({ ctx: { actor, scope } });
  // GraphQL documents may hold several mutations: one request key cannot stand for each of them.
  const key = type === 'mutation' && ctx.transport !== 'graphql' ? idempotencyKeyOf(ctx.req) : undefined;
  const result = key
    ? await idempotentCall(
        { scope, key, procedure: path, input: await getRawInput() },
        call,
        (outcome) =>
          outcome.ok ? { status: ctx.response.status ?? null, response: outcome.data } : undefined,
        (answer) => {
          if (answer.status !== null) ctx.response.status = answer.status;
          ctx.reply.header('idempotent-replayed', 'true');
          return { ok: true as const, data: answer.response, marker: REPLAYED };
        },
      )
    : await call();
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
