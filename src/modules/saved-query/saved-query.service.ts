/**
 * Saved queries (docs/ui.md): each user's named searches in the client the session acts in, like the
 * search settings. Every statement names the caller's client and user, so no one reads or changes
 * another's list. Guests share one account and keep none.
 */
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { SavedQueryDto, SavedQuerySaveInput } from './saved-query.schema.js';

/** At most this many per user, so the list stays a menu. */
export const MAX_SAVED_QUERIES = 200;

interface Row {
  id: number;
  name: string;
  query: string;
  changed_at: Date;
}

const toDto = (row: Row): SavedQueryDto => ({
  id: row.id,
  name: row.name,
  query: row.query,
  changedAt: new Date(row.changed_at).getTime(),
});

function assertNamedUser(scope: Scope): void {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot keep saved queries');
}

/** The caller's saved queries, by name. */
export async function listSavedQueries(scope: Scope): Promise<SavedQueryDto[]> {
  assertNamedUser(scope);
  const rows = await scope.em.execute<Row[]>(
    `select id, name, query, changed_at from saved_queries where client_id = ? and user_id = ?
      order by lower(name), id`,
    [scope.actor.clientId, scope.actor.userId],
  );
  return rows.map(toDto);
}

/** Saves the query under its name; one of the same name (ignoring case) is replaced. */
export async function saveQuery(scope: Scope, input: SavedQuerySaveInput): Promise<SavedQueryDto> {
  assertNamedUser(scope);
  const { clientId, userId } = scope.actor;
  const query = input.query.replace(/^\?/, '');
  return scope.em.transactional(async (em) => {
    const [count] = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from saved_queries where client_id = ? and user_id = ? and lower(name) <> lower(?)`,
      [clientId, userId, input.name],
    );
    if ((count?.n ?? 0) >= MAX_SAVED_QUERIES) {
      throw new AppError('BAD_REQUEST', `At most ${MAX_SAVED_QUERIES} saved queries; delete one first`);
    }
    const [row] = await em.execute<Row[]>(
      `insert into saved_queries (client_id, user_id, name, query) values (?, ?, ?, ?)
       on conflict (client_id, user_id, lower(name))
       do update set name = excluded.name, query = excluded.query, changed_at = now()
       returning id, name, query, changed_at`,
      [clientId, userId, input.name, query],
    );
    return toDto(row!);
  });
}

/** Deletes one of the caller's saved queries; another user's (or none) is 404. */
export async function deleteSavedQuery(scope: Scope, id: number): Promise<boolean> {
  assertNamedUser(scope);
  const rows = await scope.em.execute<{ id: number }[]>(
    'delete from saved_queries where id = ? and client_id = ? and user_id = ? returning id',
    [id, scope.actor.clientId, scope.actor.userId],
  );
  if (rows.length === 0) throw notFound('Saved query', id);
  return true;
}
