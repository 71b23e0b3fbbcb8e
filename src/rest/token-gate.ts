import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readToken } from '../modules/auth/auth.service.js';
import { setMetricsRoute } from '../shared/metrics-route.js';
import { sendError } from './error-body.js';
import { findRoute, pathOf, type RestRoute } from './route-table.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A REST-only route that needs no token (docs/api-conventions.md, "Open endpoints"). */
    open?: boolean;
  }
}

/**
 * A request without X-Auth-Token to an operation that needs one answers 401 at once: before its body is
 * read or parsed, before its parameters are checked. So no body, however malformed or large, and no
 * query makes an anonymous caller learn anything but 401, and the server reads nothing for them.
 * Open operations are the procedures marked `protect: false` (their OpenAPI entry has no security) and
 * the REST-only routes with `config.open`. A path no operation has is left to the 404/405 answers.
 * Whether a token that is present is valid is checked where the operation runs (authedProcedure).
 */
export function registerTokenGate(app: FastifyInstance, routes: RestRoute[]): void {
  app.addHook('onRequest', async (request, reply) => {
    if (readToken(request) !== undefined) return;
    const route = protectedRoute(app, request, routes);
    if (route === undefined) return;
    if (route !== null) setMetricsRoute(request, `${app.prefix}${route.template}`);
    return sendError(reply, 401, { code: 'UNAUTHORIZED', message: 'X-Auth-Token header missing' });
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
