import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';

export async function projectProgress(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function projectStatistics(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
