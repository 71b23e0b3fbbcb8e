import { type EntityName, type FilterQuery, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedRow } from '../db/common.properties.js';
import { lowerOf } from '../db/sql.js';
import type { Format } from './format.js';
import { type ListQuery, likePrefix, pageRequest, parseSort, toPage } from './paging.js';
import { deletedFilter, isSysadmin, type Scope } from './scope.js';

export interface ListSpec<T extends AuditedRow, P extends string> {
  entity: EntityName<T>;
  /** API sort attribute to entity property. */
  sortable: Record<string, P>;
  fallbackSort: P;
  /** Query filters beyond the list's own, e.g. tenant off when the where states the client. */
  filters?: Record<string, boolean>;
}

/** Text properties (and their columns) that sort as people read: ignoring case, then exactly. */
const TEXT_SORT_COLUMNS: Record<string, string> = {
  name: 'name',
  username: 'username',
  fullName: 'full_name',
  loginName: 'login_name',
  description: 'description',
};

function options<T extends AuditedRow, P extends string>(
  scope: Scope,
  spec: ListSpec<T, P>,
  input: ListQuery,
) {
  const sort = parseSort(input.sort, spec.sortable, spec.fallbackSort);
  const textColumn = TEXT_SORT_COLUMNS[sort.property];
  const folded = textColumn ? [{ [raw((alias) => `lower(${alias}.${textColumn})`)]: sort.direction }] : [];
  return {
    sort,
    orderBy: [...folded, { [sort.property]: sort.direction }, { id: sort.direction }] as never,
    filters: { ...(spec.filters ?? {}), ...deletedFilter(scope, input['include-deleted']) },
  };
}

/** One page of rows under a where, with the list's sort, paging and include-deleted rules. */
export async function findPage<T extends AuditedRow, P extends string, D>(
  scope: Scope,
  spec: ListSpec<T, P>,
  where: FilterQuery<T> | null,
  input: ListQuery,
  render: (rows: T[]) => Promise<D[]>,
) {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const { sort, orderBy, filters } = options(scope, spec, input);
  if (!where) return toPage<D>([], 0, request, sort.label);
  const [rows, total] = await (scope.em as EntityManager).findAndCount(spec.entity, where, {
    orderBy,
    filters,
    limit: request.size,
    offset: request.offset,
  });
  return toPage(await render(rows as T[]), total, request, sort.label);
}

/** 1-based position of a row under the same where and sort; 0 when it is not in the list. */
export async function rownumOf<T extends AuditedRow, P extends string>(
  scope: Scope,
  spec: ListSpec<T, P>,
  where: FilterQuery<T> | null,
  input: ListQuery,
  id: number,
): Promise<number> {
  if (!where) return 0;
  const { orderBy, filters } = options(scope, spec, input);
  const rows = await (scope.em as EntityManager).find(spec.entity, where, {
    orderBy,
    filters,
    fields: ['id'] as never,
  });
  return rows.findIndex((row) => (row as T).id === id) + 1;
}

/** Marks a row deleted by the actor (soft deletion keeps it for include-deleted and restore). */
export function markDeleted(
  row: AuditedRow & { deletedAt?: Date | null; deletedById?: number | null },
  actorId: number,
) {
  row.deleted = true;
  row.deletedAt = new Date();
  row.deletedById = actorId;
  row.changedById = actorId;
}

/** The client a list shows: the token's; another one only for system administrators (else nothing). */
export function listedClientId(scope: Scope, requested: number | undefined): number | null {
  if (requested === undefined || requested === scope.actor.clientId) return scope.actor.clientId;
  return isSysadmin(scope.actor) ? requested : null;
}

/** The `name` (starts with) and `name-eq` (equals) list filters, both ignoring case, on a name column. */
export function nameWhere<T>(input: Pick<ListQuery, 'name' | 'name-eq'>): FilterQuery<T>[] {
  const where: Record<string, unknown>[] = [];
  if (input.name) where.push({ name: { $ilike: likePrefix(input.name) } });
  if (input['name-eq']) where.push({ [lowerOf('name')]: input['name-eq'].toLowerCase() });
  return where as FilterQuery<T>[];
}

/** The sort attributes of the audit columns that every list offers. */
export const AUDIT_SORTS = { created: 'createdAt', changed: 'changedAt', modified: 'changedAt' } as const;

/**
 * The find and rownum calls of one list, from its where and its rendering: both see the same rows in
 * the same order.
 */
export function listCalls<
  T extends AuditedRow,
  P extends string,
  I extends ListQuery & { format: Format },
  D,
>(
  spec: ListSpec<T, P>,
  where: (scope: Scope, input: I) => Promise<FilterQuery<T> | null>,
  render: (scope: Scope, rows: readonly T[], format: Format) => Promise<D[]>,
) {
  return {
    list: async (scope: Scope, input: I) =>
      findPage(scope, spec, await where(scope, input), input, (rows) => render(scope, rows, input.format)),
    rownum: async (scope: Scope, id: number, input: I) =>
      rownumOf(scope, spec, await where(scope, input), input, id),
  };
}
