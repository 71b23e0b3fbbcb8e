import type { AnyRouter } from '@trpc/server';
import type { ProcedureMeta } from '../trpc/trpc.js';

export interface RestRoute {
  method: string;
  /** Path template relative to /api/v4, e.g. `/clients/{id}`. */
  template: string;
  pattern: RegExp;
  procedurePath: string;
  meta: ProcedureMeta;
}

const normalize = (path: string): string => `/${path.replace(/^\/+|\/+$/g, '')}`;

/** Static segments sort before parameters, so `/users/export` wins over `/users/{id}` whatever the declaration order. */
function specificity(template: string): string {
  return template
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '1' : '0'))
    .join('');
}

type ProcedureLike = { _def: { meta?: unknown } };

/** Every procedure with `meta.openapi`, most specific path first. */
export function buildRouteTable(router: AnyRouter): RestRoute[] {
  const procedures = router._def.procedures as Record<string, ProcedureLike>;
  const routes: RestRoute[] = [];
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta as ProcedureMeta | undefined;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    const template = normalize(openapi.path);
    const source = template.replace(/\{(.+?)\}/g, (_, name: string) => `(?<${name}>[^/]+)`);
    routes.push({
      method: openapi.method,
      template,
      pattern: new RegExp(`^${source}$`, 'i'),
      procedurePath,
      meta,
    });
  }
  return routes.sort((a, b) => specificity(a.template).localeCompare(specificity(b.template)));
}

/**
 * The router as trpc-to-openapi should see it: procedures in route-table order, because its handler
 * takes the first matching route in declaration order.
 */
export function routerInRouteOrder<R extends AnyRouter>(router: R, routes: RestRoute[]): R {
  const procedures = router._def.procedures as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const route of routes) ordered[route.procedurePath] = procedures[route.procedurePath];
  for (const [path, procedure] of Object.entries(procedures)) ordered[path] ??= procedure;
  return { ...router, _def: { ...router._def, procedures: ordered } };
}

/** The path of a request relative to the adapter's prefix, without query string and outer slashes. */
export const pathOf = (prefix: string, url: string): string =>
  `/${url
    .slice(prefix.length)
    .split('?')[0]!
    .replace(/^\/+|\/+$/g, '')}`;

export const findRoute = (routes: RestRoute[], method: string, path: string): RestRoute | undefined =>
  routes.find((route) => route.method === method && route.pattern.test(path));

export const allowedMethods = (routes: RestRoute[], path: string): string[] => [
  ...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method)),
];
