/**
 * The projects screens' paths (docs/ui.md, "Projects"). The axe sweep (test/web/web-axe-sweep.test.ts)
 * visits each pattern, `:id` filled from its seeded data by the segment before it.
 */
export const PROJECT_PAGES = [
  '/projects/new',
  '/projects/:id',
  '/projects/:id/candidates',
  '/projects/assignments/:id',
] as const;

export type ProjectRoute =
  | { page: 'list' }
  | { page: 'new' }
  | { page: 'project'; id: number }
  | { page: 'candidates'; id: number }
  | { page: 'assignment'; id: number }
  | { page: 'none' };

export function projectRoute(path: string): ProjectRoute {
  if (path === '/projects') return { page: 'list' };
  if (path === '/projects/new') return { page: 'new' };
  const assignment = /^\/projects\/assignments\/(\d+)$/.exec(path);
  if (assignment) return { page: 'assignment', id: Number(assignment[1]) };
  const project = /^\/projects\/(\d+)(\/candidates)?$/.exec(path);
  if (project) return { page: project[2] ? 'candidates' : 'project', id: Number(project[1]) };
  return { page: 'none' };
}

export const projectHref = (id: number) => `/projects/${id}`;
export const assignmentHref = (id: number) => `/projects/assignments/${id}`;
/** A concept opened as an entry of an assignment: the concept page shows the "next entry" bar. */
export const entryHref = (conceptId: number, assignmentId: number) =>
  `/concepts/${conceptId}?assignment=${assignmentId}`;
