/**
 * Staging areas of a dictionary (docs/staging.md): its administrators create, change and delete them;
 * those who may use one see it, in lists and in user data. Counts come with each area in the same query.
 */

import { AppError, notFound, staleVersion } from '../../shared/errors.js';
import { likePrefix, pageRequest, parseSort, toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { sql } from '../tbx/tbx-import-context.js';
import type {
  StagingAreaCreateInput,
  StagingAreaDto,
  StagingAreaListInput,
  StagingAreaUpdateInput,
} from './staging.schema.js';
import { mayUse, readableStanding, stagingReach, usableArea } from './staging-access.js';

const AREA_SORTS = { name: 'lower(a.name)', created: 'a.created_at', changed: 'a.changed_at' } as const;

interface AreaListRow {
  id: number;
  version: number;
  client_id: number;
  dictionary_id: number;
  dictionary_name: string;
  name: string;
  description: string | null;
  open_to_readers: boolean;
  deleted: boolean;
  pending: number;
  accepted: number;
  rejected: number;
  created_by_id: number | null;
  created_by_name: string | null;
  created_at: Date;
  changed_at: Date;
}

/** Areas with their dictionary name, creator and counts; `where` over `a` (staging_areas). */
const AREA_SELECT = `select a.id, a.version, a.client_id, a.dictionary_id, d.name as dictionary_name, a.name,
    a.description, a.open_to_readers, a.deleted, a.created_by_id,
    coalesce(u.full_name, u.username) as created_by_name, a.created_at, a.changed_at,
    coalesce(c.pending, 0)::int as pending, coalesce(c.accepted, 0)::int as accepted,
    coalesce(c.rejected, 0)::int as rejected
  from staging_areas a
  join dictionaries d on d.id = a.dictionary_id
  left join users u on u.id = a.created_by_id
  left join lateral (
    select count(*) filter (where s.status = 'PENDING') as pending,
           count(*) filter (where s.status = 'ACCEPTED') as accepted,
           count(*) filter (where s.status = 'REJECTED') as rejected
      from staged_entries s where s.staging_area_id = a.id
  ) c on true`;

function areaDto(row: AreaListRow, review: boolean): StagingAreaDto {
  return {
    id: row.id,
    version: row.version,
    clientId: row.client_id,
    dictionaryId: row.dictionary_id,
    dictionaryName: row.dictionary_name,
    name: row.name,
    description: row.description,
    openToReaders: row.open_to_readers,
    deleted: row.deleted,
    counts: { pending: row.pending, accepted: row.accepted, rejected: row.rejected },
    createdBy: row.created_by_id === null ? null : { id: row.created_by_id, name: row.created_by_name ?? '' },
    created: new Date(row.created_at).getTime(),
    changed: new Date(row.changed_at).getTime(),
    mayReview: review,
  };
}

/** Areas by id, in the order given (the caller checked they may see them). */
export async function areasByIds(scope: Scope, ids: readonly number[]): Promise<StagingAreaDto[]> {
  if (ids.length === 0) return [];
  const rows = await sql<AreaListRow[]>(
    scope.em,
    `${AREA_SELECT} where a.id = any(?::int[]) and a.client_id = ?`,
    [ids, scope.actor.clientId],
  );
  const reach = await stagingReach(scope);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [areaDto(row, !!reach.get(row.dictionary_id)?.review)] : [];
  });
}

/** One area the caller may use (404 otherwise). */
export async function getArea(scope: Scope, id: number): Promise<StagingAreaDto> {
  await usableArea(scope, id);
  const [area] = await areasByIds(scope, [id]);
  if (!area) throw notFound('Staging area', id);
  return area;
}

/** A page of the dictionary's live areas the caller may use. */
export async function listAreas(scope: Scope, input: StagingAreaListInput) {
  const standing = await readableStanding(scope, input.dictionaryId);
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const sort = parseSort(input.sort, AREA_SORTS, AREA_SORTS.name);
  const label = input.sort ? sort.label : 'name,ASC';
  const where = [
    'a.client_id = ?',
    'a.dictionary_id = ?',
    'not a.deleted',
    ...(standing.review || standing.write ? [] : ['a.open_to_readers']),
    ...(input.name ? [`lower(a.name) like ?`] : []),
  ].join(' and ');
  const params = [
    scope.actor.clientId,
    input.dictionaryId,
    ...(input.name ? [likePrefix(input.name.toLowerCase())] : []),
  ];
  const [count] = await sql<{ n: number }[]>(
    scope.em,
    `select count(*)::int as n from staging_areas a where ${where}`,
    params,
  );
  const rows = await sql<AreaListRow[]>(
    scope.em,
    `${AREA_SELECT} where ${where} order by ${sort.property} ${sort.direction}, a.id limit ? offset ?`,
    [...params, request.size, request.offset],
  );
  return toPage(
    rows.map((row) => areaDto(row, standing.review)),
    count?.n ?? 0,
    request,
    label,
  );
}

function nameTaken(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** Creates an area (the dictionary's administrators; others who read it: 403). */
export async function createArea(scope: Scope, input: StagingAreaCreateInput): Promise<StagingAreaDto> {
  const standing = await readableStanding(scope, input.dictionaryId);
  if (!standing.review) {
    throw new AppError('FORBIDDEN', "Only the dictionary's administrators create staging areas");
  }
  let id: number;
  try {
    const [row] = await sql<{ id: number }[]>(
      scope.em,
      `insert into staging_areas (client_id, dictionary_id, name, description, open_to_readers, created_by_id, changed_by_id)
       values (?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        scope.actor.clientId,
        input.dictionaryId,
        input.name,
        input.description ?? null,
        input.openToReaders,
        scope.actor.userId,
        scope.actor.userId,
      ],
    );
    id = row!.id;
  } catch (error) {
    if (nameTaken(error))
      throw new AppError('CONFLICT', `A staging area named "${input.name}" already exists`);
    throw error;
  }
  return getArea(scope, id);
}

/** Renames, describes or opens an area to readers (administrators; version checked). */
export async function updateArea(scope: Scope, input: StagingAreaUpdateInput): Promise<StagingAreaDto> {
  const { area } = await usableArea(scope, input.id, true);
  if (area.version !== input.version) throw staleVersion('Staging area');
  const sets: string[] = [];
  const params: unknown[] = [];
  const change = (column: string, value: unknown) => {
    if (value === undefined) return;
    sets.push(`${column} = ?`);
    params.push(value);
  };
  change('name', input.name);
  change('description', input.description);
  change('open_to_readers', input.openToReaders);
  try {
    const updated = await sql<{ id: number }[]>(
      scope.em,
      `update staging_areas set ${[...sets, 'version = version + 1', 'changed_at = now()', 'changed_by_id = ?'].join(', ')}
        where id = ? and version = ? returning id`,
      [...params, scope.actor.userId, area.id, input.version],
    );
    if (updated.length === 0) throw staleVersion('Staging area');
  } catch (error) {
    if (nameTaken(error))
      throw new AppError('CONFLICT', `A staging area named "${input.name}" already exists`);
    throw error;
  }
  return getArea(scope, area.id);
}

/** Soft-deletes an area (administrators); its entries are hidden with it. */
export async function deleteArea(scope: Scope, id: number): Promise<void> {
  const { area } = await usableArea(scope, id, true);
  await sql(
    scope.em,
    `update staging_areas set deleted = true, deleted_at = now(), deleted_by_id = ?, version = version + 1
      where id = ? and not deleted`,
    [scope.actor.userId, area.id],
  );
}

/** The live areas the caller may use in the acting client, for user data. */
export async function userStagingAreas(
  scope: Scope,
): Promise<{ id: number; name: string; dictionaryId: number }[]> {
  const reach = await stagingReach(scope);
  if (reach.size === 0) return [];
  const rows = await sql<{ id: number; name: string; dictionary_id: number; open_to_readers: boolean }[]>(
    scope.em,
    `select a.id, a.name, a.dictionary_id, a.open_to_readers from staging_areas a
      where a.client_id = ? and not a.deleted and a.dictionary_id = any(?::int[])
      order by a.dictionary_id, lower(a.name), a.id`,
    [scope.actor.clientId, [...reach.keys()]],
  );
  return rows
    .filter((row) => mayUse(reach.get(row.dictionary_id), row))
    .map((row) => ({ id: row.id, name: row.name, dictionaryId: row.dictionary_id }));
}
