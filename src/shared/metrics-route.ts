import type { FastifyRequest } from 'fastify';

/**
 * The route a request is counted under in metrics. The REST adapter serves every /api/v4 path from one
 * catch-all Fastify route, so it names the matched path template here; unmatched paths keep the
 * catch-all, which keeps the label set bounded whatever callers send.
 */
const templates = new WeakMap<FastifyRequest, string>();

export function setMetricsRoute(request: FastifyRequest, template: string): void {
  templates.set(request, template);
}

export function metricsRouteOf(request: FastifyRequest): string {
  return templates.get(request) ?? request.routeOptions.url ?? 'unknown';
}
