import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';

export async function listProjects(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function getProject(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function createProject(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function updateProject(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function deleteProject(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function setProjectStatus(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
