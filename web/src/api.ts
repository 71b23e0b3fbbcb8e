import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/trpc/router';
import { tracked } from './live/quiet';
import { getSession, setSession } from './session';

/** The typed tRPC client: every call is checked against the server's router at compile time. */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: '/trpc',
      headers: () => {
        const token = getSession()?.token;
        return token ? { 'x-auth-token': token } : {};
      },
      fetch: async (input, init) => {
        const response = await tracked(fetch(input, init));
        // An expired or ended session: back to sign-in, keeping the page to return to.
        if (response.status === 401 && getSession()) setSession(null, 'expired');
        return response;
      },
    }),
  ],
});

export interface ApiProblem {
  code: string;
  message: string;
  status: number;
}

/**
 * tRPC sends a refused input as the JSON of its validation issues: read as the server's other messages
 * ("terms[0].name: Too big…", parts joined by "; "), so that the editor can place each beside its control.
 * problemOf keeps the JSON itself, which the administration forms and the workflow editor read by path.
 */
export function issuesAsText(message: string): string {
  if (!message.startsWith('[')) return message;
  try {
    const issues = JSON.parse(message) as { path?: (string | number)[]; message?: string }[];
    return issues
      .map((issue) => {
        const path = (issue.path ?? [])
          .map((part, index) => (typeof part === 'number' ? `[${part}]` : index ? `.${part}` : part))
          .join('');
        return path ? `${path}: ${issue.message}` : String(issue.message);
      })
      .join('; ');
  } catch {
    return message;
  }
}

/** The error of a tRPC call or a REST call as {code, message, status}. */
export function problemOf(error: unknown): ApiProblem {
  if (error instanceof TRPCClientError) {
    const data = error.data as { code?: string; httpStatus?: number } | undefined;
    return { code: data?.code ?? 'ERROR', message: error.message, status: data?.httpStatus ?? 0 };
  }
  if (error instanceof RestError) return error.problem;
  return { code: 'ERROR', message: error instanceof Error ? error.message : String(error), status: 0 };
}

export class RestError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.message);
  }
}

/** REST for what tRPC cannot carry from a browser: file uploads and downloads. */
export async function rest(path: string, init: RequestInit = {}): Promise<Response> {
  const token = getSession()?.token;
  const headers = new Headers(init.headers);
  if (token) headers.set('x-auth-token', token);
  const response = await tracked(fetch(`/api/v4${path}`, { ...init, headers }));
  if (response.ok) return response;
  if (response.status === 401 && getSession()) setSession(null, 'expired');
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  throw new RestError({
    code: body.code ?? 'ERROR',
    message: body.message ?? response.statusText,
    status: response.status,
  });
}
