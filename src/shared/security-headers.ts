import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** A year, as HSTS is usually given once a site serves only https. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * Security headers on every answer, from @fastify/helmet (the well-kept set: nosniff, frame options,
 * referrer policy, cross-origin policies). Its Content-Security-Policy stays off here: the docs page
 * and GraphiQL run inline scripts, and API answers are JSON that no browser renders. HSTS is sent
 * only on https requests (directly or through a trusted proxy, TRUST_PROXY): over plain http a browser
 * ignores it, and a development server must not pin itself to https.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
    }
  });
}
