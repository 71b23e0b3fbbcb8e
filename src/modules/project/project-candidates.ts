import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';

export async function listCandidates(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function addCandidates(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function importCandidates(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function getCandidate(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function candidateDuplicates(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function commentCandidate(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function mergeCandidate(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function promoteCandidate(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
export async function rejectCandidate(_scope: Scope, ..._args: unknown[]): Promise<never> {
  throw new AppError('METHOD_NOT_SUPPORTED', 'not built yet');
}
