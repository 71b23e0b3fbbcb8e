/**
 * The staging screens' paths (docs/ui.md, "Staging areas"). The axe sweep (test/web/web-axe-sweep.test.ts)
 * visits each pattern, `:id` filled from its seeded data by the segment before it.
 */
export const STAGING_PAGES = ['/staging/:id', '/staging/:id/decisions', '/staging/entries/:id'] as const;

export type StagingRoute =
  | { page: 'areas' }
  | { page: 'area'; id: number }
  | { page: 'decisions'; id: number }
  | { page: 'entry'; id: number }
  | { page: 'none' };

export function stagingRoute(path: string): StagingRoute {
  if (path === '/staging') return { page: 'areas' };
  const entry = /^\/staging\/entries\/(\d+)$/.exec(path);
  if (entry) return { page: 'entry', id: Number(entry[1]) };
  const decisions = /^\/staging\/(\d+)\/decisions$/.exec(path);
  if (decisions) return { page: 'decisions', id: Number(decisions[1]) };
  const area = /^\/staging\/(\d+)$/.exec(path);
  if (area) return { page: 'area', id: Number(area[1]) };
  return { page: 'none' };
}

export const areaHref = (id: number) => `/staging/${id}`;
export const entryHref = (id: number) => `/staging/entries/${id}`;
export const decisionsHref = (id: number) => `/staging/${id}/decisions`;
