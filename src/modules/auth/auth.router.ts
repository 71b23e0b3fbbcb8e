import type {} from '@fastify/cookie';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router, tokenHolderProcedure } from '../../trpc/trpc.js';
import {
  ExtendResultSchema,
  LoginInputSchema,
  LoginResultSchema,
  ValidateResultSchema,
} from './auth.schema.js';
import * as auth from './auth.service.js';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.service.js';
import { switchClient, UserDataSchema } from './user-data.js';

const tags = ['authentication'];

export const authRouter = router({
  login: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/login',
        tags,
        protect: false,
        contentTypes: ['application/x-www-form-urlencoded', 'application/json'],
        summary: 'Log in; answers a token for X-Auth-Token and sets the JSESSIONID cookie',
        description:
          'Bad credentials answer 401 with errorMessage and no token, whatever the reason. Right credentials ' +
          'refused by a client limit (concurrent users, guests) or by API access rules answer 403 with the reason. ' +
          'After repeated failures for the account or from the address, 429 with Retry-After (seconds) until ' +
          'the wait is over, without checking the password.',
        errorResponses: [400, 429, 500],
      },
    })
    .input(LoginInputSchema)
    .output(LoginResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await auth.login(ctx.em, ctx.config, input, ctx.req.ip);
      if (!outcome.cookie) {
        // REST answers the contract's body with 401/403; tRPC and GraphQL callers get an error instead of
        // a success without a token, carrying the same members (src/trpc/trpc.ts adds them to its data).
        if (ctx.transport !== 'rest') throw auth.loginRefusedError(outcome);
        ctx.response.status = outcome.status ?? 401;
        return outcome.result;
      }
      ctx.reply.setCookie(auth.SESSION_COOKIE, outcome.cookie, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        // https directly or through a trusted proxy (TRUST_PROXY): the cookie never travels in clear.
        secure: ctx.req.protocol === 'https',
      });
      return outcome.result;
    }),

  logout: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/logout', tags, summary: 'End the session of the token' },
      successStatus: 204,
    })
    .input(z.void())
    .output(z.void())
    .mutation(async ({ ctx }) => {
      await auth.logout(ctx.em, ctx.actor.sessionId);
      // The session's request count is final now: write it instead of waiting for the timer.
      if (ctx.actor.apiLogin) await ctx.apiRequests.flush();
      ctx.reply.clearCookie(auth.SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    }),

  validate: tokenHolderProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/validate',
        tags,
        summary: 'Tell whether the token is valid',
        description: 'Without X-Auth-Token 401; with an unknown or expired token tokenValid is false.',
      },
      ownTokenCheck: true,
    })
    .input(z.void())
    .output(ValidateResultSchema)
    .query(async ({ ctx }) => {
      return { tokenValid: await auth.validateToken(ctx.em, auth.readToken(ctx.req)!) };
    }),

  extendSession: tokenHolderProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/extend-session',
        tags,
        summary: 'Extend the validity of the token by SESSION_TIMEOUT seconds',
        description: 'Without X-Auth-Token 401; with a token that is not valid 403 (as the contract shows).',
      },
      ownTokenCheck: true,
    })
    .input(z.void())
    .output(ExtendResultSchema)
    .mutation(async ({ ctx }) => {
      return { expires: await auth.extendSession(ctx.em, auth.readToken(ctx.req)!) };
    }),

  switchClient: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/switch-client',
        tags,
        summary: 'Move the session to another client (mapped clients; system administrators: any)',
        errorResponses: [400, 401, 404],
      },
    })
    .input(z.strictObject({ client_id: z.number().int() }))
    .output(UserDataSchema)
    .mutation(({ ctx, input }) => switchClient(ctx.scope, input.client_id)),

  resetPassword: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/reset-password',
        tags,
        protect: false,
        summary: 'E-mail a single-use password-reset link when the user exists',
        description:
          'Always answers 200 with an empty body, so the answer never tells whether the user exists. ' +
          'Repeated requests for the account or from the address answer 429 with Retry-After (seconds).',
        errorResponses: [400, 429],
      },
    })
    .input(
      z.object({
        username: z.string().trim().min(1).max(128),
        client: z.string().max(64).optional().describe('client login name (multi-tenant installations)'),
      }),
    )
    .output(z.void())
    .mutation(({ ctx, input }) => requestPasswordReset(ctx.em, ctx.config, ctx.req.log, input, ctx.req.ip)),

  confirmPasswordReset: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/reset-password/confirm',
        tags,
        protect: false,
        summary: 'Set a new password with the secret of a reset link',
        description:
          "The secret works once and expires after PASSWORD_RESET_TTL seconds; the user's sessions end.",
        errorResponses: [400],
      },
      successStatus: 204,
    })
    .input(z.object({ token: z.string().min(1).max(256), password: z.string().min(1).max(1024) }))
    .output(z.void())
    .mutation(({ ctx, input }) => confirmPasswordReset(ctx.em, ctx.config, input)),
});
