import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';

/** Refuses a new password that does not satisfy the configured password settings. */
export function assertPasswordAllowed(config: Config, password: string): void {
  if (!new RegExp(config.PASSWORD_REGEXP).test(password)) {
    throw new AppError('BAD_REQUEST', config.PASSWORD_MESSAGE);
  }
}
