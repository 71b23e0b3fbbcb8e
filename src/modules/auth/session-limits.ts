import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';
import { Client } from '../client/client.entity.js';
import type { Group } from '../group/group.entity.js';
import { effectiveGroups } from '../group/group.service.js';
import type { User } from '../user/user.entity.js';
import { Session } from './session.entity.js';
import { hashSecret, newSecret } from './tokens.js';

export interface OpenedSession {
  token: string;
  cookie: string;
  expiresAt: Date;
}

interface LiveCounts {
  named: number;
  guests: number;
}

/**
 * Users online now: distinct named users with a live session, plus every live guest session. Sessions
 * of accounts that can no longer be used (deleted, deactivated, past their expiry date) hold no place:
 * their tokens are refused anyway.
 */
async function liveCounts(em: EntityManager, clientId: number, now: Date): Promise<LiveCounts> {
  const [row] = await em.execute<{ named: number; guests: number }[]>(
    `select count(distinct s.user_id) filter (where not s.guest)::int as named,
            count(*) filter (where s.guest)::int as guests
     from sessions s join users u on u.id = s.user_id
     where s.client_id = ? and s.ended_at is null and s.expires_at > ?
       and not u.deleted and u.active and (u.exp_date is null or u.exp_date > ?)`,
    [clientId, now, now],
  );
  return { named: row?.named ?? 0, guests: row?.guests ?? 0 };
}

/**
 * Refuses a session beyond maxConcurrentUsers (named users plus guests) or, for guests, maxGuests.
 * The client row is locked, so concurrent logins are counted one after the other. A named user who is
 * already online does not take a second slot.
 */
async function assertSessionSlot(em: EntityManager, clientId: number, user: User, guest: boolean, now: Date) {
  const client = await em.findOneOrFail(Client, clientId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (client.maxConcurrentUsers == null && (!guest || client.maxGuests == null)) return;
  const counts = await liveCounts(em, clientId, now);
  if (guest && client.maxGuests != null && counts.guests >= client.maxGuests) {
    throw new AppError(
      'FORBIDDEN',
      `All ${client.maxGuests} guest places of the client are taken; try later`,
    );
  }
  if (client.maxConcurrentUsers == null) return;
  const online =
    !guest && (await em.count(Session, { user: user.id, endedAt: null, expiresAt: { $gt: now } }));
  if (!online && counts.named + counts.guests >= client.maxConcurrentUsers) {
    throw new AppError(
      'FORBIDDEN',
      `The client has reached its maximum of ${client.maxConcurrentUsers} concurrent users; try later`,
    );
  }
}

type GroupRules = Pick<Group, 'timeout' | 'pwdChange' | 'hasApiAccess' | 'type'>;

/** Session length: the longest timeout of the user's groups that set one, otherwise SESSION_TIMEOUT. */
export function sessionTimeoutOf(config: Config, groups: readonly GroupRules[]): number {
  const timeouts = groups
    .map((group) => group.timeout)
    .filter((timeout): timeout is number => timeout != null);
  return timeouts.length ? Math.max(...timeouts) : config.SESSION_TIMEOUT;
}

/**
 * Whether the user's password is older than the shortest `pwdChange` (days) of the user's groups; the
 * login then sets forcePasswordChange, which the user clears by choosing a new password.
 */
export function passwordChangeDue(user: User, groups: readonly GroupRules[], now: Date): boolean {
  const days = groups.map((group) => group.pwdChange).filter((value): value is number => value != null);
  if (days.length === 0) return false;
  const since = user.passwordChangedAt ?? user.createdAt;
  return now.getTime() - since.getTime() > Math.min(...days) * 86_400_000;
}

/** API logins need membership of a group with API access; guest groups never have it. */
export const hasApiAccess = (groups: readonly GroupRules[]): boolean =>
  groups.some((group) => group.hasApiAccess && group.type !== 'GUEST');

export interface SessionRequest {
  user: User;
  clientId: number;
  guest: boolean;
  apiLogin: boolean;
  language: string;
  ipAddress: string | null;
  /** The user's groups in the client, when the caller has them already (one query per login). */
  groups?: readonly GroupRules[];
}

/** Opens a session within the client's limits; only hashes of the token and cookie value are stored. */
export async function openSession(
  em: EntityManager,
  config: Config,
  request: SessionRequest,
): Promise<OpenedSession> {
  const now = new Date();
  const groups =
    request.groups ??
    (await effectiveGroups(em, request.clientId, { id: request.user.id, guest: request.guest }));
  const timeoutSeconds = sessionTimeoutOf(config, groups);
  const token = newSecret();
  const cookie = newSecret();
  const expiresAt = new Date(now.getTime() + timeoutSeconds * 1000);
  await em.transactional(async (tem) => {
    await assertSessionSlot(tem, request.clientId, request.user, request.guest, now);
    tem.create(Session, {
      tokenHash: hashSecret(token),
      cookieHash: hashSecret(cookie),
      partId: cookie.slice(-4),
      user: request.user.id,
      client: request.clientId,
      language: request.language,
      ipAddress: request.ipAddress,
      apiLogin: request.apiLogin,
      guest: request.guest,
      timeoutSeconds,
      expiresAt,
      createdAt: now,
      lastUsedAt: now,
    });
  });
  return { token, cookie, expiresAt };
}
