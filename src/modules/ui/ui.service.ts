import { notFound } from '../../shared/errors.js';
import { isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { DICTIONARY_ADMIN_PREFIX } from '../role/role.service.js';
import { getUser } from '../user/user.service.js';
import { type MenuViewer, menuFor } from './menu.js';
import type { MenuItem, SessionData, SideMenu } from './ui.schema.js';

/** Session data: the caller as a FULL User. */
export async function sessionData(scope: Scope): Promise<SessionData> {
  return { user: await getUser(scope, scope.actor.userId, 'FULL', false) };
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
    dictionaryAdmin: actor.roles.some((role) => role.startsWith(DICTIONARY_ADMIN_PREFIX)),
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
