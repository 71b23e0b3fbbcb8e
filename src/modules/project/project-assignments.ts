import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';

export async function listAssignments(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function createAssignment(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function myAssignments(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function getAssignment(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function patchAssignment(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function deleteAssignment(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function completeAssignment(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function assignmentEntries(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
