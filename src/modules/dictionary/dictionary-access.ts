/**
 * Loading a dictionary for a use case, with the tenant rule first (another client's dictionary is 404
 * whoever asks, system administrators excepted), then the permission: unreadable is 404, readable but
 * not administrable is 403.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { deletedFilter, isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions, isDictionaryAdmin } from '../access/access.service.js';
import { recordStructureEvent } from '../events/structure-events.js';
import { Dictionary } from './dictionary.entity.js';

const NO_TENANT = { tenant: false } as const;

export async function findDictionary(
  scope: Scope,
  id: number,
  options: { em?: EntityManager; includeDeleted?: boolean } = {},
): Promise<Dictionary> {
  const em = options.em ?? scope.em;
  const where = isSysadmin(scope.actor) ? { id } : { id, client: scope.actor.clientId };
  const dictionary = await em.findOne(Dictionary, where, {
    filters: { ...NO_TENANT, ...deletedFilter(scope, options.includeDeleted ?? false) },
  });
  if (!dictionary) throw notFound('Dictionary', id);
  return dictionary;
}

/** The ids among `ids` the actor may read (DICT_READ in at least one section, or administration). */
export async function readableDictionaryIds(
  scope: Scope,
  dictionaries: readonly Dictionary[],
): Promise<Set<number>> {
  const administered = dictionaries.filter((d) => isDictionaryAdmin(scope.actor, d));
  const others = dictionaries.filter(
    (d) => !administered.includes(d) && d.client.id === scope.actor.clientId,
  );
  const permissions = others.length
    ? await dictionaryPermissions(
        scope,
        others.map((d) => d.id),
      )
    : [];
  return new Set([
    ...administered.map((d) => d.id),
    ...permissions.filter((p) => p.permissions.DICT_READ).map((p) => p.dictionaryId),
  ]);
}

/** A dictionary the actor may read; otherwise 404, so its existence is not revealed. */
export async function readableDictionary(
  scope: Scope,
  id: number,
  options: { em?: EntityManager; includeDeleted?: boolean } = {},
): Promise<Dictionary> {
  const dictionary = await findDictionary(scope, id, options);
  if (!(await readableDictionaryIds(scope, [dictionary])).has(dictionary.id))
    throw notFound('Dictionary', id);
  return dictionary;
}

/**
 * A dictionary whose structure the actor may change: administrators, its DICTIONARY_ADMIN, or a
 * DICT_UPDATE grant. Unreadable: 404; readable only: 403.
 */
export async function administrableDictionary(
  scope: Scope,
  id: number,
  options: { em?: EntityManager; includeDeleted?: boolean; permission?: 'DICT_UPDATE' | 'DICT_DELETE' } = {},
): Promise<Dictionary> {
  const dictionary = await findDictionary(scope, id, options);
  if (isDictionaryAdmin(scope.actor, dictionary)) return dictionary;
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', id);
  const [permissions] = await dictionaryPermissions(scope, [dictionary.id]);
  if (!permissions?.permissions.DICT_READ) throw notFound('Dictionary', id);
  if (!permissions.permissions[options.permission ?? 'DICT_UPDATE']) {
    throw new AppError('FORBIDDEN', 'You may not change the structure of this dictionary');
  }
  return dictionary;
}

/** What a structure change did, for its dictionary.structure.changed event (docs/events.md). */
export interface StructureChange {
  actorId: number | null;
  subject: 'section' | 'view' | 'domain' | 'definition';
  action: 'created' | 'updated' | 'deleted' | 'imported';
  id?: number;
}

/**
 * Structure changes move the start of the dictionary's history (history shows only later changes).
 * A plain update, not an entity change: the dictionary's own version must not move, or concurrent
 * changes to different sections, domains or views of one dictionary would answer 409.
 */
export async function markStructureChanged(
  em: EntityManager,
  dictionaryId: number,
  change: StructureChange,
): Promise<void> {
  await em.nativeUpdate(
    Dictionary,
    { id: dictionaryId },
    { structureChangedAt: new Date() },
    { filters: false },
  );
  await recordStructureEvent(em, dictionaryId, change);
}

/**
 * For lists of what belongs to dictionaries (views, filters, sync settings): nothing more for client
 * administrators, otherwise only the client's dictionaries the caller may read.
 */
export async function readableDictionariesWhere(
  scope: Scope,
  clientId: number,
): Promise<{ dictionary: { $in: number[] } }[]> {
  if (isClientAdmin(scope.actor)) return [];
  const dictionaries = await scope.em.find(Dictionary, { client: clientId }, { filters: NO_TENANT });
  return [{ dictionary: { $in: [...(await readableDictionaryIds(scope, dictionaries))] } }];
}
