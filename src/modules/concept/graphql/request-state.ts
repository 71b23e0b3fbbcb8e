/**
 * What one GraphQL request keeps for the concept fields: the caller's scope, resolved once, and the
 * DataLoaders of the type files; plus domainCall, which runs domain code with the procedures' error codes.
 */
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type DataLoader from 'dataloader';
import { databaseErrorToAppError } from '../../../db/errors.js';
import type { GraphQLContext } from '../../../graphql/builder.js';
import { AppError, type AppErrorCode } from '../../../shared/errors.js';
import type { Scope } from '../../../shared/scope.js';
import { authedProcedure, createCallerFactory, router } from '../../../trpc/trpc.js';
import type { ConceptDto } from '../concept.schema.js';
import type { FieldSummary } from './field-value.type.js';
import type { HistoryItemShape, HistoryKey } from './history-item.type.js';
import type { DomainKey, NamedSummary } from './named-summary.type.js';

/** MikroORM filters off: what a concept names (fields, domains, sections) is shown even when deleted. */
export const ANY_STATE = { tenant: false, notDeleted: false } as const;

interface RequestState {
  scope?: Promise<Scope>;
  concepts?: DataLoader<number, ConceptDto | null>;
  fields?: DataLoader<number, Map<string, FieldSummary>>;
  domains?: DataLoader<DomainKey, NamedSummary | null, string>;
  sections?: DataLoader<number, NamedSummary | null>;
  histories?: DataLoader<HistoryKey, HistoryItemShape[], string>;
}

const states = new WeakMap<GraphQLContext, RequestState>();
export function stateOf(context: GraphQLContext): RequestState {
  let state = states.get(context);
  if (!state) {
    state = {};
    states.set(context, state);
  }
  return state;
}

/**
 * The caller's domain scope, resolved once per GraphQL request through the authed tier (token, tenant
 * filter, API request count), so nested loads reuse one permission subject instead of one per batch.
 */
const callScopeTier = createCallerFactory(router({ scope: authedProcedure.query(({ ctx }) => ctx.scope) }));
function scopeOf(context: GraphQLContext): Promise<Scope> {
  const state = stateOf(context);
  state.scope ??= callScopeTier(context.request).scope();
  return state.scope;
}

const trpcCodeOf = (code: AppErrorCode): TRPC_ERROR_CODE_KEY =>
  code === 'UNPROCESSABLE' ? 'UNPROCESSABLE_CONTENT' : code;

export const trpcErrorOf = (appError: AppError) =>
  new TRPCError({ code: trpcCodeOf(appError.code), message: appError.message, cause: appError });

/** Domain code called outside a procedure: its AppErrors keep their code, as the procedures' would. */
export async function domainCall<T>(context: GraphQLContext, work: (scope: Scope) => Promise<T>): Promise<T> {
  const scope = await scopeOf(context);
  try {
    return await work(scope);
  } catch (error) {
    const appError = error instanceof AppError ? error : databaseErrorToAppError(error);
    if (!appError) throw error;
    throw trpcErrorOf(appError);
  }
}
