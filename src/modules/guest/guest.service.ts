import { ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { DEFAULT_CLIENT_LOGIN } from '../auth/default-client.js';
import { hashPassword } from '../auth/password.js';
import { type OpenedSession, openSession } from '../auth/session-limits.js';
import { Client } from '../client/client.entity.js';
import { assertPasswordAllowed } from '../user/password-policy.js';
import { User, type UserType } from '../user/user.entity.js';
import { PASSWORD_UNCHANGED } from '../user/user.schema.js';
import type { GuestSettingsDto, GuestSettingsInput } from './guest.schema.js';
import { type GuestLoginMethod, GuestSettings } from './guest-settings.entity.js';

const userTypeOf: Record<GuestLoginMethod, UserType> = {
  NORMAL: 'GUEST',
  GUEST_AUTOLOGIN: 'GUEST_AUTOLOGIN',
  GUEST_CLIENT_AUTOLOGIN: 'GUEST_CLIENT_AUTOLOGIN',
};

function assertAdmin(scope: Scope): void {
  if (!isClientAdmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only administrators manage guest access');
}

async function isDefaultClient(em: EntityManager, clientId: number): Promise<boolean> {
  const client = await em.findOneOrFail(Client, clientId);
  return client.loginName.toLowerCase() === DEFAULT_CLIENT_LOGIN;
}

/** Guest settings of the token's client (administrators). */
export async function getGuestSettings(scope: Scope): Promise<GuestSettingsDto> {
  assertAdmin(scope);
  const { em } = scope;
  const clientId = scope.actor.clientId;
  const settings = await em.findOne(GuestSettings, { client: clientId }, { populate: ['user'] });
  const user = settings?.user?.getEntity();
  return {
    enabled: settings?.enabled ?? false,
    username: user?.username ?? null,
    password: user?.passwordHash ? PASSWORD_UNCHANGED : null,
    loginMethod: settings?.loginMethod ?? 'NORMAL',
    autoAlwaysDisabled: !(await isDefaultClient(em, clientId)),
    enableQuickFilters: settings?.enableQuickFilters ?? false,
    enableSearchModes: settings?.enableSearchModes ?? false,
    enableCommenting: settings?.enableCommenting ?? false,
    enableFeedback: settings?.enableFeedback ?? false,
  };
}

/**
 * Stores the guest settings and keeps the guest account in step: created on first use, renamed, its
 * type following the login method. GUEST_AUTOLOGIN is for the default client only.
 */
export async function updateGuestSettings(
  scope: Scope,
  input: GuestSettingsInput,
): Promise<GuestSettingsDto> {
  assertAdmin(scope);
  const clientId = scope.actor.clientId;
  const newPassword =
    input.password != null && input.password !== PASSWORD_UNCHANGED ? input.password : undefined;
  if (newPassword !== undefined) assertPasswordAllowed(scope.config, newPassword);
  const passwordHash = newPassword !== undefined ? await hashPassword(newPassword) : undefined;
  await scope.em.transactional(async (em) => {
    if (input.loginMethod === 'GUEST_AUTOLOGIN' && !(await isDefaultClient(em, clientId))) {
      throw new AppError('BAD_REQUEST', 'GUEST_AUTOLOGIN is available for the default client only');
    }
    const settings: GuestSettings =
      (await em.findOne(GuestSettings, { client: clientId }, { populate: ['user'] })) ??
      em.create(GuestSettings, { client: clientId });
    let user: User | null = settings.user?.getEntity() ?? null;
    const username = input.username ?? user?.username;
    if (input.enabled && !username) throw new AppError('BAD_REQUEST', 'A guest account needs a username');
    if (username) {
      const clash = await em.findOne(User, {
        client: clientId,
        [lowerOf('username')]: username.toLowerCase(),
        ...(user ? { id: { $ne: user.id } } : {}),
      });
      if (clash)
        throw new AppError('UNPROCESSABLE', `A user named "${username}" already exists in the client`);
      if (!user) {
        user = em.create(User, {
          client: clientId,
          username,
          fullName: 'Guest',
          type: userTypeOf[input.loginMethod],
          createdById: scope.actor.userId,
          changedById: scope.actor.userId,
        });
        settings.user = ref(user);
      }
      user.username = username;
      user.type = userTypeOf[input.loginMethod];
      if (passwordHash !== undefined) {
        user.passwordHash = passwordHash;
        user.passwordChangedAt = new Date();
      }
      user.changedById = scope.actor.userId;
    }
    if (input.enabled && input.loginMethod === 'NORMAL' && !user?.passwordHash) {
      throw new AppError('BAD_REQUEST', 'Guests who log in with a password need one: send password');
    }
    settings.enabled = input.enabled;
    settings.loginMethod = input.loginMethod;
    settings.enableQuickFilters = input.enableQuickFilters;
    settings.enableSearchModes = input.enableSearchModes;
    settings.enableCommenting = input.enableCommenting;
    settings.enableFeedback = input.enableFeedback;
  });
  scope.em.clear();
  return getGuestSettings(scope);
}

/** Whether the guest account may log in now: guest access of its client is enabled. */
export async function guestLoginOpen(em: EntityManager, clientId: number, userId: number): Promise<boolean> {
  const settings = await em.findOne(GuestSettings, { client: clientId });
  return settings?.enabled === true && settings.user?.id === userId;
}

/**
 * A guest session for automatic guest login, or null when the client offers none: GUEST_AUTOLOGIN
 * (default client, always) or GUEST_CLIENT_AUTOLOGIN (when the client is named in the address).
 * Null also when every guest place is taken.
 */
/** Live automatic guest sessions one address may hold; its oldest beyond this are ended. */
const AUTOMATIC_SESSIONS_PER_ADDRESS = 5;

/**
 * Every features call opens an automatic guest session. Without a cap, one visitor repeating the call
 * could fill the client's maxGuests (and its statistics); so an address keeps only its newest few.
 */
async function endSurplusAutomaticSessions(
  em: EntityManager,
  clientId: number,
  guestUserId: number,
  ipAddress: string | null,
) {
  await em.execute(
    `update sessions set ended_at = now()
      where id in (select id from sessions
                    where client_id = ? and user_id = ? and guest and ended_at is null and expires_at > now()
                      and ip_address is not distinct from ?
                    order by created_at desc, id desc offset ?)`,
    [clientId, guestUserId, ipAddress, AUTOMATIC_SESSIONS_PER_ADDRESS - 1],
  );
}

export async function automaticGuestSession(
  em: EntityManager,
  config: Config,
  clientLogin: string | undefined,
  ipAddress: string | null,
): Promise<OpenedSession | null> {
  const login = (config.MULTI_TENANT && clientLogin) || DEFAULT_CLIENT_LOGIN;
  const client = await em.findOne(Client, { [lowerOf('login_name')]: login.toLowerCase(), active: true });
  if (!client) return null;
  // Public call: no tenant is bound, and the client is named explicitly.
  const settings = await em.findOne(
    GuestSettings,
    { client: client.id },
    { populate: ['user'], filters: { tenant: false } },
  );
  const user = settings?.user?.getEntity();
  if (!settings?.enabled || !user?.active || user.deleted) return null;
  const named = clientLogin !== undefined;
  const automatic =
    (settings.loginMethod === 'GUEST_AUTOLOGIN' && login === DEFAULT_CLIENT_LOGIN) ||
    (settings.loginMethod === 'GUEST_CLIENT_AUTOLOGIN' && named);
  if (!automatic) return null;
  await endSurplusAutomaticSessions(em, client.id, user.id, ipAddress);
  try {
    return await openSession(em, config, {
      user,
      clientId: client.id,
      guest: true,
      apiLogin: false,
      language: 'eng',
      ipAddress,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'FORBIDDEN') return null;
    throw error;
  }
}
