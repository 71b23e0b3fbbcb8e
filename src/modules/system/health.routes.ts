import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { checkDatabase } from '../../db/readiness.js';
import { metricsRouteOf } from '../../shared/metrics-route.js';
import type { SearchRuntime } from '../search/search-runtime.js';

/** Liveness, readiness (database reachable) and Prometheus metrics. */
export function registerHealthRoutes(app: FastifyInstance, orm: MikroORM, search: SearchRuntime): void {
  app.get('/health', async () => ({ status: 'ok' }));

  // Ready when the database answers. Search says which engine serves it: while Elasticsearch is
  // unavailable PostgreSQL answers with the same results, so the instance stays ready ("degraded"),
  // and writes wait in the outbox (docs/reliability.md).
  app.get('/ready', async (_request, reply) => {
    const database = await checkDatabase(orm, app.log);
    if (database.database !== 'ok') return reply.code(503).send({ status: 'unavailable', ...database });
    const { engine, servedBy, outage, pendingChanges } = await search.status();
    return {
      status: 'ok',
      database: 'ok',
      search: {
        engine,
        status: outage ? 'degraded' : 'ok',
        servedBy,
        ...(outage ? { reason: outage.reason, since: outage.since.toISOString() } : {}),
        pendingChanges,
      },
    };
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
