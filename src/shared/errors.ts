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
