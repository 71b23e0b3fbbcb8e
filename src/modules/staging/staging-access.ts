/**
 * Who uses and who reviews which staging area (docs/staging.md). The dictionary's administrators review
 * (client administrators, DICTIONARY_ADMIN@<dictionary>, or DICT_READ with DICT_UPDATE: the rule of
 * feedback and the structure pages); those who may write in the dictionary (CONCEPT_CREATE or
 * CONCEPT_IMPORT) use its areas, and every named reader uses an area open to readers. Everyone else,
 * guests and other clients included: 404, as if the area did not exist.
 */

import { AppError, notFound } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions } from '../access/access.service.js';
import { sql } from '../tbx/tbx-import-context.js';

/** The caller's standing in one live dictionary of the acting client. */
export interface DictionaryStanding {
  review: boolean;
  write: boolean;
  read: boolean;
  importing: boolean;
}

const cache = new WeakMap<Scope, Promise<Map<number, DictionaryStanding>>>();

async function load(scope: Scope): Promise<Map<number, DictionaryStanding>> {
  const rows = await sql<{ id: number }[]>(
    scope.em,
    'select id from dictionaries where client_id = ? and not deleted order by id',
    [scope.actor.clientId],
  );
  const standing = new Map<number, DictionaryStanding>();
  if (scope.actor.guest || rows.length === 0) return standing;
  const ids = rows.map((row) => row.id);
  if (isClientAdmin(scope.actor)) {
    for (const id of ids) standing.set(id, { review: true, write: true, read: true, importing: true });
    return standing;
  }
  for (const { dictionaryId, permissions: p } of await dictionaryPermissions(scope, ids)) {
    if (!p.DICT_READ) continue;
    standing.set(dictionaryId, {
      review: !!p.DICT_UPDATE,
      write: !!(p.DICT_UPDATE || p.CONCEPT_CREATE || p.CONCEPT_IMPORT),
      read: true,
      importing: !!p.CONCEPT_IMPORT,
    });
  }
  return standing;
}

/** The caller's standing in each live dictionary they read (once per request). */
export function stagingReach(scope: Scope): Promise<Map<number, DictionaryStanding>> {
  let reach = cache.get(scope);
  if (!reach) {
    reach = load(scope);
    cache.set(scope, reach);
  }
  return reach;
}

/** An area as access decisions need it. */
export interface AreaRow {
  id: number;
  client_id: number;
  dictionary_id: number;
  name: string;
  open_to_readers: boolean;
  version: number;
}

/** Whether the caller may use an area (suggest, import into it, see their own entries). */
export const mayUse = (standing: DictionaryStanding | undefined, area: Pick<AreaRow, 'open_to_readers'>) =>
  !!standing && (standing.review || standing.write || area.open_to_readers);

/** A live area of the acting client the caller may use; `review` asks for a reviewer (others who see it: 403). */
export async function usableArea(
  scope: Scope,
  id: number,
  review = false,
): Promise<{ area: AreaRow; standing: DictionaryStanding }> {
  const [area] = await sql<AreaRow[]>(
    scope.em,
    `select a.id, a.client_id, a.dictionary_id, a.name, a.open_to_readers, a.version
       from staging_areas a where a.id = ? and a.client_id = ? and not a.deleted`,
    [id, scope.actor.clientId],
  );
  if (!area) throw notFound('Staging area', id);
  const standing = (await stagingReach(scope)).get(area.dictionary_id);
  if (!standing || !mayUse(standing, area)) throw notFound('Staging area', id);
  if (review && !standing.review) {
    throw new AppError('FORBIDDEN', "Only the dictionary's administrators review and manage staging areas");
  }
  return { area, standing };
}

/** The caller's standing in a dictionary they read; 404 otherwise. */
export async function readableStanding(scope: Scope, dictionaryId: number): Promise<DictionaryStanding> {
  const standing = (await stagingReach(scope)).get(dictionaryId);
  if (!standing) throw notFound('Dictionary', dictionaryId);
  return standing;
}
