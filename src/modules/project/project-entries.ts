import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';

export async function listEntries(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function addEntries(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function removeEntries(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function conceptProjects(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
