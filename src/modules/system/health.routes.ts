import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { metricsRouteOf } from '../../shared/metrics-route.js';
import type { SearchRuntime } from '../search/search-runtime.js';

/** Liveness, readiness (database reachable) and Prometheus metrics. */
export function registerHealthRoutes(app: FastifyInstance, orm: MikroORM, search: SearchRuntime): void {
  app.get('/health', async () => ({ status: 'ok' }));

  // Ready when the database answers. Search names its engine; an unreachable Elasticsearch makes the
  // instance unready too (searches would fail), while writes still wait safely in the outbox.
  app.get('/ready', async (_request, reply) => {
    try {
      await orm.em.getConnection().execute('select 1');
    } catch (error) {
      app.log.warn({ err: error }, 'readiness: database unreachable');
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
    const status = await search.status();
    const body = {
      status: status.reachable ? 'ok' : 'unavailable',
      database: 'ok',
      search: {
        engine: status.engine,
        status: status.reachable ? 'ok' : 'unreachable',
        pendingChanges: status.pendingChanges,
      },
    };
    if (!status.reachable) app.log.warn('readiness: search engine unreachable');
    return status.reachable ? body : reply.code(503).send(body);
  });

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        route: metricsRouteOf(request),
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
