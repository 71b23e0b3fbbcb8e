import type {} from '@fastify/cookie';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import {
  ExtendResultSchema,
  LoginInputSchema,
  LoginResultSchema,
  ValidateResultSchema,
} from './auth.schema.js';
import * as auth from './auth.service.js';

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
        description: 'A failed login answers 401 with errorMessage and no token, whatever the reason.',
      },
    })
    .input(LoginInputSchema)
    .output(LoginResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await auth.login(ctx.em, ctx.config, input, ctx.req.ip);
      if (!outcome.cookie) {
        ctx.response.status = 401;
        return outcome.result;
      }
      ctx.reply.setCookie(auth.SESSION_COOKIE, outcome.cookie, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
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
      ctx.reply.clearCookie(auth.SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    }),

  validate: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/validate',
        tags,
        summary: 'Tell whether the token is valid',
        description: 'Without X-Auth-Token 401; with an unknown or expired token tokenValid is false.',
      },
    })
    .input(z.void())
    .output(ValidateResultSchema)
    .query(async ({ ctx }) => {
      const token = auth.readToken(ctx.req);
      if (!token) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
      return { tokenValid: await auth.validateToken(ctx.em, token) };
    }),

  extendSession: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/extend-session',
        tags,
        summary: 'Extend the validity of the token by SESSION_TIMEOUT seconds',
        description: 'Without X-Auth-Token 401; with a token that is not valid 403.',
      },
    })
    .input(z.void())
    .output(ExtendResultSchema)
    .mutation(async ({ ctx }) => {
      const token = auth.readToken(ctx.req);
      if (!token) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
      return { expires: await auth.extendSession(ctx.em, token, ctx.config) };
    }),
});
