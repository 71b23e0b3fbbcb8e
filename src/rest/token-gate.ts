import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readToken } from '../modules/auth/auth.service.js';
import { setMetricsRoute } from '../shared/metrics-route.js';
import type { Actor } from '../shared/scope.js';
import { sendError } from './error-body.js';
import { findRoute, pathOf, type RestRoute } from './route-table.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A REST-only route that needs no token (docs/api-conventions.md, "Open endpoints"). */
    open?: boolean;
  }
  interface FastifyRequest {
    /** The actor the token gate found for the request's token, reused by authedProcedure. */
    gateActor?: Actor;
  }
}

/** Resolves a token to its actor, or null when it is unknown, ended or expired. */
export type TokenAuthenticator = (token: string) => Promise<Actor | null>;

/**
 * A request without a valid X-Auth-Token to an operation that needs one answers 401 at once: before its
 * body is read or parsed, before its parameters are checked. So no body, however malformed or large, and
 * no query makes a caller without a live session learn anything but 401, and the server reads nothing
 * for them. The actor found is kept on the request, so authedProcedure does not look it up again;
 * procedures with `ownTokenCheck` (validate, extend-session) answer a token that is not valid themselves.
 * Open operations are the procedures marked `protect: false` (their OpenAPI entry has no security) and
 * the REST-only routes with `config.open`. A path no operation has is left to the 404/405 answers.
 */
export function registerTokenGate(
  app: FastifyInstance,
  routes: RestRoute[],
  authenticate: TokenAuthenticator,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const route = protectedRoute(app, request, routes);
    if (route === undefined) return;
    if (route !== null) setMetricsRoute(request, `${app.prefix}${route.template}`);
    const token = readToken(request);
    if (token === undefined) {
      return sendError(reply, 401, { code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
    }
    if (route?.meta.ownTokenCheck) return;
    const actor = await authenticate(token);
    if (!actor) return sendError(reply, 401, { code: 'UNAUTHORIZED', message: 'Token unknown or expired' });
    request.gateActor = actor;
  });
}

/**
 * The procedure route the request goes to when it needs a token, `null` for a REST-only route that
 * needs one, undefined when no token is needed (open, or no such operation).
 */
function protectedRoute(
  app: FastifyInstance,
  request: FastifyRequest,
  routes: RestRoute[],
): RestRoute | null | undefined {
  if (request.routeOptions.url !== `${app.prefix}/*`)
    return request.routeOptions.config.open ? undefined : null;
  const route = findRoute(routes, request.method, pathOf(app.prefix, request.url));
  return route && route.meta.openapi?.protect !== false ? route : undefined;
}
