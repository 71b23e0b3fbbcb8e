/**
 * Staging areas of a dictionary (docs/staging.md): its administrators create, change and delete them;
 * those who may use one see it, in lists and in user data. Counts come with each area in the same query.
 */

import { OptimisticLockError } from '@mikro-orm/core';
import { AppError, notFound, staleVersion } from '../../shared/errors.js';
import { likePrefix, pageRequest, parseSort, toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { sql } from '../tbx/tbx-import-context.js';
import { areaNameTaken, assertAreaNameFree, isUniqueViolation, StagingArea } from './staging.entity.js';
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

/** Creates an area (the dictionary's administrators; others who read it: 403). */
export async function createArea(scope: Scope, input: StagingAreaCreateInput): Promise<StagingAreaDto> {
  const standing = await readableStanding(scope, input.dictionaryId);
  if (!standing.review) {
    throw new AppError('FORBIDDEN', "Only the dictionary's administrators create staging areas");
  }
  const area = await saveArea(scope, async (em) => {
    await assertAreaNameFree(em, { dictionaryId: input.dictionaryId, name: input.name });
    return em.create(StagingArea, {
      client: scope.actor.clientId,
      dictionaryId: input.dictionaryId,
      name: input.name,
      description: input.description ?? null,
      openToReaders: input.openToReaders,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
  });
  return getArea(scope, area.id);
}

/**
 * Runs an area's change in a transaction of its own; the unique index's refusal of a name that a
 * concurrent request took after the check is the same 409, a stale version too.
 */
async function saveArea(
  scope: Scope,
  change: (em: Scope['em']) => Promise<StagingArea>,
  name?: string,
): Promise<StagingArea> {
  try {
    return await scope.em.transactional(async (em) => {
      const area = await change(em);
      await em.flush();
      return area;
    });
  } catch (error) {
    if (error instanceof OptimisticLockError) throw staleVersion('Staging area');
    if (isUniqueViolation(error)) throw areaNameTaken(name ?? '');
    throw error;
  }
}

/** The live area as an entity (the caller checked they may use it). */
async function areaEntity(em: Scope['em'], scope: Scope, id: number): Promise<StagingArea> {
  const area = await em.findOne(
    StagingArea,
    { id, client: scope.actor.clientId, deleted: false },
    { filters: false },
  );
  if (!area) throw notFound('Staging area', id);
  return area;
}

/** Renames, describes or opens an area to readers (administrators; version checked). */
export async function updateArea(scope: Scope, input: StagingAreaUpdateInput): Promise<StagingAreaDto> {
  const { area: seen } = await usableArea(scope, input.id, true);
  if (seen.version !== input.version) throw staleVersion('Staging area');
  await saveArea(
    scope,
    async (em) => {
      const area = await areaEntity(em, scope, seen.id);
      // The version read: a change made since is 409 (the entity's version is checked at the flush).
      if (area.version !== input.version) throw staleVersion('Staging area');
      if (input.name !== undefined && input.name !== area.name) {
        await assertAreaNameFree(em, { id: area.id, dictionaryId: area.dictionaryId, name: input.name });
        area.name = input.name;
      }
      if (input.description !== undefined) area.description = input.description;
      if (input.openToReaders !== undefined) area.openToReaders = input.openToReaders;
      area.changedById = scope.actor.userId;
      return area;
    },
    input.name,
  );
  return getArea(scope, seen.id);
}

/** Soft-deletes an area (administrators); its entries are hidden with it. */
export async function deleteArea(scope: Scope, id: number): Promise<void> {
  const { area: seen } = await usableArea(scope, id, true);
  await saveArea(scope, async (em) => {
    const area = await areaEntity(em, scope, seen.id);
    area.deleted = true;
    area.deletedAt = new Date();
    area.deletedById = scope.actor.userId;
    return area;
  });
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
