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
