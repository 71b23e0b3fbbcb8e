import type { ComponentType, LazyExoticComponent } from 'react';

/**
 * The contract between the administration shell (AdminScreen) and its pages. pages-identity.ts and
 * pages-structure.ts each export `const pages: AdminPageRoute[]`; the shell renders the first whose
 * pattern matches the path, passing the named parts of the pattern in `params`.
 */
export interface AdminPageProps {
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface AdminPageRoute {
  /** e.g. '/admin/dictionaries/:id/languages'; a `:name` part matches one path segment. */
  pattern: string;
  page: LazyExoticComponent<ComponentType<AdminPageProps>>;
}

/** The params of `path` when it matches `pattern`, else null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.replace(/\/+$/, '').split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = have[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/** The page for `path`: literal patterns win over ones with params (/admin/users/guest before /admin/users/:id). */
export function findPage(
  routes: AdminPageRoute[],
  path: string,
): { route: AdminPageRoute; params: Record<string, string> } | null {
  const literalFirst = [...routes].sort(
    (a, b) => Number(a.pattern.includes(':')) - Number(b.pattern.includes(':')),
  );
  for (const route of literalFirst) {
    const params = matchPattern(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}
