import { notFound } from '../../shared/errors.js';
import { isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions } from '../access/access.service.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { DICTIONARY_ADMIN_PREFIX } from '../role/role.service.js';
import { getUser } from '../user/user.service.js';
import { type MenuViewer, menuFor } from './menu.js';
import type { AdminRights, MenuItem, SessionData, SideMenu } from './ui.schema.js';

/** Session data: the caller as a FULL User. */
export async function sessionData(scope: Scope): Promise<SessionData> {
  return { user: await getUser(scope, scope.actor.userId, 'FULL', false) };
}

/**
 * The acting client's dictionaries whose structure the caller may change, as the server decides those
 * calls (administrableDictionary): DICTIONARY_ADMIN@…, or DICT_READ with DICT_UPDATE or DICT_DELETE
 * granted to one of the caller's groups by a permission scheme.
 */
async function administeredDictionaries(scope: Scope): Promise<AdminRights['dictionaries']> {
  if (scope.actor.guest) return [];
  const rows = await scope.em
    .getConnection()
    .execute<{ id: number }[]>(
      'select id from dictionaries where client_id = ? and not deleted order by id',
      [scope.actor.clientId],
    );
  if (rows.length === 0) return [];
  const permissions = await dictionaryPermissions(
    scope,
    rows.map((row) => row.id),
  );
  return permissions
    .filter(({ permissions: p }) => p.DICT_READ && (p.DICT_UPDATE || p.DICT_DELETE))
    .map(({ dictionaryId, permissions: p }) => ({
      id: dictionaryId,
      update: p.DICT_UPDATE,
      delete: p.DICT_DELETE,
    }));
}

/** What the caller may administer: roles, and the dictionaries granted to them (the pages' "who sees what"). */
export async function adminRights(scope: Scope): Promise<AdminRights> {
  const { actor } = scope;
  return {
    sysadmin: isSysadmin(actor),
    admin: isClientAdmin(actor),
    userEditor: actor.roles.includes('USEREDITOR'),
    dictionaries: await administeredDictionaries(scope),
  };
}

async function viewerOf(scope: Scope): Promise<MenuViewer> {
  const { actor } = scope;
  const guestSettings = actor.guest
    ? await scope.em.findOne(GuestSettings, { client: actor.clientId })
    : null;
  return {
    sysadmin: isSysadmin(actor),
    admin: isClientAdmin(actor),
    userEditor: actor.roles.includes('USEREDITOR'),
    // A DICTIONARY_ADMIN@… role, or a scheme's grant: the same rule the structure calls follow.
    dictionaryAdmin:
      actor.roles.some((role) => role.startsWith(DICTIONARY_ADMIN_PREFIX)) ||
      (!isClientAdmin(actor) && (await administeredDictionaries(scope)).length > 0),
    guest: actor.guest,
    guestSearchModes: guestSettings?.enableSearchModes === true,
    licensing: Boolean(scope.config.LICENSE_PUBLIC_KEY),
  };
}

const withoutSide = ({ items: _items, ...top }: SideMenu): MenuItem => top;

/** The top menu of the administration view, filtered by the caller's roles. */
export async function topMenu(scope: Scope): Promise<MenuItem[]> {
  return menuFor(await viewerOf(scope)).map(withoutSide);
}

/** The side menu of the top item at `idx` of the caller's top menu; 404 beyond its end. */
export async function sideMenu(scope: Scope, idx: number): Promise<SideMenu> {
  const side = menuFor(await viewerOf(scope))[idx];
  if (!side) throw notFound('Top menu item', idx);
  return side;
}
