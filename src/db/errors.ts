import {
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  OptimisticLockError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { AppError } from '../shared/errors.js';

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
  return undefined;
}
