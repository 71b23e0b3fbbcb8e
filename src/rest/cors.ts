import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * One CORS policy for REST, tRPC and GraphQL: pages of the configured origins (CORS_ORIGINS) may call the
 * API; no other origin is granted anything. No credentials are allowed: the API authenticates with the
 * X-Auth-Token header, which a page sends explicitly, so a foreign page can never ride on a cookie.
 */
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** Request headers a client sends: JSON or form bodies, the token, a request id, tRPC's batch/stream flag. */
const ALLOWED_HEADERS = 'Content-Type, X-Auth-Token, X-Request-Id, Idempotency-Key, trpc-accept';
/** Answer headers a page may read besides the simple ones. */
const EXPOSED_HEADERS = 'Retry-After, Content-Disposition, X-Request-Id, Idempotent-Replayed';
/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

export function registerCors(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins);
  const grant = (reply: FastifyReply, origin: string) => {
    reply.header('access-control-allow-origin', origin);
  };
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'];
    if (preflight) {
      // Answered here, before any route, body parser or token check: a preflight carries none of them.
      if (origin && allowed.has(origin)) {
        grant(reply, origin);
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
        reply.header('access-control-allow-headers', ALLOWED_HEADERS);
        reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
      }
      return reply.code(204).send();
    }
    if (origin && allowed.has(origin)) {
      grant(reply, origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
  });
  // The answer depends on Origin whenever a policy is set: caches must keep one copy per origin. Added
  // on sending, since handlers set their own Vary (tRPC on the web Response it hands to Fastify).
  if (allowed.size === 0) return;
  app.addHook('onSend', async (_request, reply, payload) => {
    if (payload instanceof Response) {
      payload.headers.set('vary', withOrigin(payload.headers.get('vary')));
    } else {
      reply.header('vary', withOrigin(reply.getHeader('vary')));
    }
    return payload;
  });
}

/** A Vary value that names Origin once. */
function withOrigin(vary: unknown): string {
  const values = String(vary ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return values.some((item) => item.toLowerCase() === 'origin' || item === '*')
    ? values.join(', ')
    : [...values, 'Origin'].join(', ');
}
