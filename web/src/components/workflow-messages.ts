import type { ApiProblem } from '../api';

/**
 * The server's validation messages of a refused workflow: a zod refusal comes through tRPC as the JSON of
 * its issues (path and message each), a domain refusal as one sentence. Each becomes one line of text.
 */
export function validationMessages(problem: ApiProblem): string[] {
  try {
    const issues = JSON.parse(problem.message) as { path?: (string | number)[]; message?: string }[];
    if (Array.isArray(issues)) {
      return issues.map((issue) => {
        const where = (issue.path ?? []).filter((part) => part !== 'definition').join('.');
        return where ? `${where}: ${issue.message ?? ''}` : (issue.message ?? '');
      });
    }
  } catch {
    // Not JSON: a sentence of the server.
  }
  return [problem.message];
}

/**
 * The server's messages of a refused definition by the path of what they are about ("transitions.4.votes.count"),
 * so each appears beside its control; `id` names the element holding them (aria-describedby).
 */
export interface PathProblems {
  at(path: string): string[];
  id(path: string): string;
}

export function pathProblems(problem: ApiProblem | null, scope: string): PathProblems {
  const byPath = new Map<string, string[]>();
  try {
    const issues = problem ? (JSON.parse(problem.message) as { path?: unknown[]; message?: string }[]) : [];
    if (Array.isArray(issues)) {
      for (const issue of issues) {
        const path = (issue.path ?? []).filter((part) => part !== 'definition').join('.');
        if (path) byPath.set(path, [...(byPath.get(path) ?? []), issue.message ?? '']);
      }
    }
  } catch {
    // A sentence of the server: about the whole definition, shown above the form only.
  }
  return {
    // A list control (values, ids) also shows the messages of its items.
    at: (path) =>
      [...byPath].filter(([key]) => key === path || key.startsWith(`${path}.`)).flatMap(([, list]) => list),
    id: (path) => `${scope}-${path.replace(/[^A-Za-z0-9]/g, '-')}-problems`,
  };
}
