import {
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  OptimisticLockError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { AppError } from '../shared/errors.js';
import { COMMIT_UNKNOWN, STATEMENT_TIMEOUT } from './timeouts.js';

/** What callers read when the database cannot take their request (503). */
export const DATABASE_UNAVAILABLE = 'The database is busy or unreachable; retry shortly';

/** What callers read when the database did not confirm a commit (504): it may have happened. */
export const COMMIT_UNCONFIRMED =
  'The database did not confirm the change in time; it may have been saved: read it back before sending it again';

/** What callers read when the change was committed and the database failed while the answer was built. */
export const CHANGE_SAVED =
  'The change was saved, but the database did not answer while the reply was prepared: read it back instead of sending it again';

/**
 * The answer to a database that did not serve the request: 503 when nothing of it was committed (the
 * same request may be sent again; Retry-After 1), 504 when its commit went unanswered, or when the
 * request had committed (`committed`) before the database failed.
 */
export function databaseOutageError(error: unknown, committed = false): AppError | undefined {
  if (isCommitUnknown(error)) return new AppError('GATEWAY_TIMEOUT', COMMIT_UNCONFIRMED);
  if (committed && isDatabaseUnavailable(error)) return new AppError('GATEWAY_TIMEOUT', CHANGE_SAVED);
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE, 1);
  return undefined;
}

/**
 * Turns database failures that callers can cause into AppErrors; anything else stays a server error.
 * `committed`: the request committed a change before this failure (call-writes.ts).
 */
export function databaseErrorToAppError(error: unknown, committed = false): AppError | undefined {
  if (error instanceof UniqueConstraintViolationException) {
    return new AppError('UNPROCESSABLE', 'An equal object already exists');
  }
  if (error instanceof OptimisticLockError) {
    return new AppError('CONFLICT', 'The object was changed by someone else meanwhile; reload it and retry');
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new AppError(
      'BAD_REQUEST',
      'The request refers to an object that does not exist or is still in use',
    );
  }
  if (error instanceof NotNullConstraintViolationException) {
    return new AppError('BAD_REQUEST', 'A required attribute is missing');
  }
  const dataException = dataExceptionOf(error);
  if (dataException)
    return new AppError('BAD_REQUEST', `A value of the request is not valid: ${dataException}`);
  return databaseOutageError(error, committed);
}

/**
 * What a database that cannot serve now answers: a broken or refused connection (class 08, except the
 * two below), a shutting-down or starting server (57P01-57P03), no connection slot left (53300), a
 * statement cancelled by a server-side timeout (57014), our own statement timeout, and socket errors.
 * Not 08P01 (protocol violation): PostgreSQL answers it to bytes the request itself sent, such as a NUL
 * inside SQL text. Not 08007 (COMMIT_UNKNOWN): that write may have committed.
 */
const UNAVAILABLE_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  STATEMENT_TIMEOUT,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Messages of pg and knex failures that carry no code: the pool lent no connection in time, a new
 * connection did not open in time, the server dropped the connection, or the connection was closed
 * after a statement timeout (the rollback that follows then finds it closed).
 */
const UNAVAILABLE_MESSAGES = [
  /^Knex: Timeout acquiring a connection/,
  /^timeout expired$/,
  /^Connection terminated/,
  /^Client was closed and is not queryable$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/**
 * True when the database could not take the request and nothing of it was committed, so the same
 * request may well succeed a moment later: callers get 503 instead of a 500. Never for an error the
 * request caused (bad input, a constraint, a syntax error: classes 22, 23, 42 and the like), nor for a
 * commit that may have happened (COMMIT_UNKNOWN). MikroORM wraps driver errors in a DriverException that
 * keeps their own properties (code, message), not their name.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const chain = causes(error);
  return (
    !chain.some((current) => codeOf(current) === COMMIT_UNKNOWN) &&
    chain.some((current) => {
      const code = codeOf(current);
      return code === undefined ? isUnavailableMessage(current) : UNAVAILABLE_CODES.has(code);
    })
  );
}

/** True when a COMMIT (or a write outside a transaction) was sent and its answer never came. */
export function isCommitUnknown(error: unknown): boolean {
  return causes(error).some((current) => codeOf(current) === COMMIT_UNKNOWN);
}

/**
 * PostgreSQL's message for a data exception (SQLSTATE class 22: a number beyond the column's range, text
 * that is not a number or a date, a value too long), which only a value of the request can cause: the
 * schemas bound what they can, and this keeps whatever slips past them a 400 instead of a 500. The
 * message names the value and the type, never other data.
 */
function dataExceptionOf(error: unknown): string | undefined {
  const exception = causes(error).find((current) => codeOf(current)?.startsWith('22'));
  if (!exception) return undefined;
  const message = exception.message.split(' - ').pop() ?? '';
  return message.length > 0 && message.length <= 300 ? message : 'out of range or malformed';
}

/** The error and its causes, at most five deep. */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < 5; current = current.cause) {
    chain.push(current);
  }
  return chain;
}

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function isUnavailableMessage(error: Error): boolean {
  return (
    error.name === 'KnexTimeoutError' || UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message))
  );
}
