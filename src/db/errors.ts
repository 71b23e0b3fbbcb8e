import {
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  OptimisticLockError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { AppError } from '../shared/errors.js';

/** What callers read when the database cannot take their request (503). */
export const DATABASE_UNAVAILABLE = 'The database is busy or unreachable; retry shortly';

/** Turns database failures that callers can cause into AppErrors; anything else stays a server error. */
export function databaseErrorToAppError(error: unknown): AppError | undefined {
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
  if (isDatabaseUnavailable(error)) {
    return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE);
  }
  return undefined;
}

/**
 * SQLSTATEs and socket errors of a database that cannot serve now: a connection failure (class 08),
 * a shutting-down or starting server (57P01-57P03), no connection slot left (53300).
 */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * True when the database could not take the statement at all: the pool had no connection to lend
 * within its timeout, or the server refused or dropped the connection. Nothing was written, and the
 * same request may well succeed a moment later, so callers get 503 instead of a 500. MikroORM wraps
 * knex's KnexTimeoutError in a DriverException that keeps its message, not its name.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (current.name === 'KnexTimeoutError' || current.message.startsWith('Knex: Timeout acquiring')) {
      return true;
    }
    current = current.cause;
  }
  return false;
}
