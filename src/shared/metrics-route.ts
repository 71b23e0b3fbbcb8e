import type { FastifyRequest } from 'fastify';

/**
 * The route a request is counted under in metrics. The REST adapter serves every /api/v4 path from one
 * catch-all Fastify route, so it names the matched path template here, as the tRPC hook names the
 * procedure; unmatched paths keep the catch-all, which keeps the label set bounded whatever callers send.
 */
const templates = new WeakMap<FastifyRequest, string>();

export function setMetricsRoute(request: FastifyRequest, template: string): void {
  templates.set(request, template);
}

export function metricsRouteOf(request: FastifyRequest): string {
  return templates.get(request) ?? request.routeOptions.url ?? 'unknown';
}

/**
 * The metrics route of a tRPC request (`/trpc/concepts.get`, `/trpc/a,b?batch=1`): the procedure when
 * it is one this server has, `/trpc/(batch)` for a batch of them, else the catch-all `/trpc/:path`.
 */
export function trpcMetricsRoute(url: string, procedures: ReadonlySet<string>): string {
  const path = url.slice(url.indexOf('/trpc/') + '/trpc/'.length).split('?')[0] ?? '';
  let names: string[];
  try {
    names = decodeURIComponent(path).split(',');
  } catch {
    return '/trpc/:path';
  }
  if (!names.every((name) => procedures.has(name))) return '/trpc/:path';
  return names.length === 1 ? `/trpc/${names[0]}` : '/trpc/(batch)';
}
