import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** The error codes domain code may throw; each surface maps them once (REST status, tRPC code, GraphQL extension). */
export const AppErrorCodes = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
  'CONFLICT',
  'UNPROCESSABLE',
  'PAYLOAD_TOO_LARGE',
  'TOO_MANY_REQUESTS',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
] as const;
export type AppErrorCode = (typeof AppErrorCodes)[number];

export const httpStatusOf: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/** tRPC's names for the codes the API names otherwise (api-conventions.md): REST, tRPC and GraphQL say ours. */
const apiNameOfTrpcCode = { UNPROCESSABLE_CONTENT: 'UNPROCESSABLE', PARSE_ERROR: 'BAD_REQUEST' } as const;
type RenamedTrpcCode = keyof typeof apiNameOfTrpcCode;
export type ApiErrorCode =
  | Exclude<TRPC_ERROR_CODE_KEY, RenamedTrpcCode>
  | (typeof apiNameOfTrpcCode)[RenamedTrpcCode];

/** The code callers read for a tRPC error code (tRPC says UNPROCESSABLE_CONTENT where the API says UNPROCESSABLE). */
export function apiErrorCode(code: TRPC_ERROR_CODE_KEY): ApiErrorCode;
export function apiErrorCode(code: string): string;
export function apiErrorCode(code: string): string {
  return Object.hasOwn(apiNameOfTrpcCode, code) ? apiNameOfTrpcCode[code as RenamedTrpcCode] : code;
}

/** The one error type domain code throws. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Seconds after which the same request may succeed (TOO_MANY_REQUESTS, SERVICE_UNAVAILABLE); surfaces send Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const notFound = (what: string, id?: number | string): AppError =>
  new AppError('NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`);

export const staleVersion = (what: string): AppError =>
  new AppError(
    'CONFLICT',
    `${what} was changed since the version sent (or no version was sent); reload it and retry`,
  );
