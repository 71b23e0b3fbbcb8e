import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { isSysadmin, type Scope } from '../../shared/scope.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import type { Role } from './role.schema.js';

export const DICTIONARY_ADMIN_PREFIX = 'DICTIONARY_ADMIN@';

const FIXED_ROLES: Role[] = [
  { name: 'System administrator', systemname: 'SYSADMIN' },
  { name: 'Administrator', systemname: 'ADMIN' },
  { name: 'User editor', systemname: 'USEREDITOR' },
];

/** The key a DICTIONARY_ADMIN role names: the dictionary's oid, or its id for dictionaries without one. */
export const dictionaryRoleKey = (dictionary: { id: number; oid?: string | null }): string =>
  dictionary.oid ?? String(dictionary.id);

export const dictionaryAdminRole = (dictionary: { id: number; oid?: string | null }): string =>
  `${DICTIONARY_ADMIN_PREFIX}${dictionaryRoleKey(dictionary)}`;

async function rolesOfClient(em: EntityManager, clientId: number, withSysadmin: boolean): Promise<Role[]> {
  const dictionaries = await em.find(
    Dictionary,
    { client: clientId },
    { fields: ['id', 'oid', 'name'], orderBy: { name: 'ASC', id: 'ASC' }, filters: { tenant: false } },
  );
  return [
    ...FIXED_ROLES.filter((role) => withSysadmin || role.systemname !== 'SYSADMIN'),
    ...dictionaries.map((dictionary) => ({
      name: `Dictionary administrator: ${dictionary.name}`,
      systemname: dictionaryAdminRole(dictionary),
    })),
  ];
}

/**
 * Roles of the caller's client. SYSADMIN is listed for system administrators only, since only they
 * may assign it.
 */
export function listRoles(scope: Scope): Promise<Role[]> {
  return rolesOfClient(scope.em, scope.actor.clientId, isSysadmin(scope.actor));
}

/** Roles used in one client; the token must act in that client (system administrators: any). */
export function rolesForClient(scope: Scope, clientId: number): Promise<Role[]> {
  if (clientId !== scope.actor.clientId && !isSysadmin(scope.actor)) throw notFound('Client', clientId);
  return rolesOfClient(scope.em, clientId, isSysadmin(scope.actor));
}

/** Refuses role names that do not exist in the client (unknown names, dictionaries of other clients). */
export async function assertRolesExist(
  em: EntityManager,
  clientId: number,
  roles: readonly string[],
): Promise<void> {
  if (roles.length === 0) return;
  const known = new Set((await rolesOfClient(em, clientId, true)).map((role) => role.systemname));
  const unknown = roles.filter((role) => !known.has(role));
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', `Unknown roles: ${unknown.join(', ')}`);
}
