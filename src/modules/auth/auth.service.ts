import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import type { Actor } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { accessCacheOf } from '../access/access-cache.js';
import { Client } from '../client/client.entity.js';
import { effectiveGroups } from '../group/group.service.js';
import { guestLoginOpen } from '../guest/guest.service.js';
import { isGuestType, User } from '../user/user.entity.js';
import type { LoginInput, LoginResult } from './auth.schema.js';
import { DEFAULT_CLIENT_LOGIN } from './default-client.js';
import { claimAttempt, loginKeys, releaseAttempt } from './login-throttle.js';
import { verifyPassword } from './password.js';
import { Session } from './session.entity.js';
import { hasApiAccess, openSession, passwordChangeDue } from './session-limits.js';
import { hashSecret } from './tokens.js';

export { DEFAULT_CLIENT_LOGIN };
export const SESSION_COOKIE = 'JSESSIONID';
const LOGIN_FAILED = 'Invalid client, username or password';
/** Last-use time is written at most this often, so that reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export function readToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-auth-token'];
  const token = Array.isArray(header) ? header[0] : header;
  return token?.trim() || undefined;
}

export interface LoginOutcome {
  result: LoginResult;
  /** JSESSIONID value for the cookie; absent when the login failed. */
  cookie?: string;
  /** 401 for bad credentials, 403 when the credentials are right but a limit or rule refuses. */
  status?: 401 | 403;
}

/** A user may log in when active, not deleted, not past expDate, and the client is active. */
function mayLogIn(user: User, client: Client, now: Date): boolean {
  return (
    user.active && !user.deleted && (!user.expDate || user.expDate > now) && client.active && !client.deleted
  );
}

const failed = (message: string, status: 401 | 403): LoginOutcome => ({
  result: {
    token: null,
    errorMessage: message,
    code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
    message,
  },
  status,
});

/** The body of a refused login, carried by the tRPC error the non-REST surfaces answer. */
export class LoginRefused extends Error {
  override readonly name = 'LoginRefused';
  constructor(readonly body: LoginResult) {
    super(body.errorMessage ?? LOGIN_FAILED);
  }
}

/** A refused login as an UNAUTHORIZED (bad credentials) or FORBIDDEN (a limit or rule) tRPC error. */
export function loginRefusedError(outcome: LoginOutcome): TRPCError {
  const refusal = new LoginRefused(outcome.result);
  return new TRPCError({
    code: outcome.status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED',
    message: refusal.message,
    cause: refusal,
  });
}

/** Compares two SHA-256 hex digests in constant time (a stored API key hash and the sent key's). */
const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** In a single-tenant installation every login goes to the default client, whatever is sent. */
export const loginClientName = (config: Config, requested: string | undefined): string =>
  (config.MULTI_TENANT && requested?.trim()) || DEFAULT_CLIENT_LOGIN;

/**
 * Checks credentials and opens a session, throttled: failed logins per account and address, per account
 * and per address lead to growing waits, answered TOO_MANY_REQUESTS without checking the password
 * (docs/identity.md, "Login throttling"). Right credentials (a session, or a 403 refusal) do not count.
 */
export async function login(
  em: EntityManager,
  config: Config,
  input: LoginInput,
  ipAddress: string | undefined,
): Promise<LoginOutcome> {
  const clientLogin = loginClientName(config, input.client);
  const keys = loginKeys(clientLogin, input.username, ipAddress ?? '');
  const claim = await claimAttempt(em, keys, config.LOGIN_THROTTLE_DELAY_MS, 'Too many failed logins');
  const outcome = await checkCredentials(em, config, input, clientLogin, ipAddress);
  if (outcome.status !== 401) await releaseAttempt(em, claim);
  return outcome;
}

/**
 * Every credential failure answers the same message and spends the same hashing time, so a caller cannot
 * learn whether the client or user exists. With the client's API key the session is an API login, allowed
 * to members of a group with API access.
 */
async function checkCredentials(
  em: EntityManager,
  config: Config,
  input: LoginInput,
  clientLogin: string,
  ipAddress: string | undefined,
): Promise<LoginOutcome> {
  const now = new Date();
  const client = await em.findOne(Client, { [lowerOf('login_name')]: clientLogin.toLowerCase() });
  const user = client
    ? await em.findOne(
        User,
        { client, [lowerOf('username')]: input.username.toLowerCase() },
        { filters: { tenant: false } },
      )
    : null;
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!client || !user || !passwordOk || !mayLogIn(user, client, now)) return failed(LOGIN_FAILED, 401);
  const guest = isGuestType(user.type);
  if (guest && !(await guestLoginOpen(em, client.id, user.id))) return failed(LOGIN_FAILED, 401);
  // The user's groups decide API access, password age and session length: loaded once.
  const groups = await effectiveGroups(em, client.id, { id: user.id, guest });
  // An empty apiKey is an absent one: forms such as Swagger UI's "Try it out" send `apiKey=` unasked.
  const apiLogin = input.apiKey !== undefined && input.apiKey !== '';
  if (apiLogin) {
    if (!sameHash(hashSecret(input.apiKey ?? ''), client.apiKeyHash)) return failed(LOGIN_FAILED, 401);
    if (guest || !hasApiAccess(groups)) return failed('The user is in no group with API access', 403);
  }
  if (!guest && !user.forcePasswordChange && passwordChangeDue(user, groups, now)) {
    await em.nativeUpdate(User, { id: user.id }, { forcePasswordChange: true }, { filters: false });
  }
  try {
    const session = await openSession(em, config, {
      user,
      clientId: client.id,
      guest,
      apiLogin,
      language: input.language || user.language || 'eng',
      ipAddress: ipAddress ?? null,
      groups,
    });
    return {
      result: {
        token: { token: session.token, expirationTime: session.expiresAt.getTime() },
        errorMessage: null,
      },
      cookie: session.cookie,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'FORBIDDEN') return failed(error.message, 403);
    throw error;
  }
}

/** A live session with what authentication needs of its user, as one row. */
interface LiveSession {
  id: number;
  clientId: number;
  guest: boolean;
  apiLogin: boolean;
  timeoutSeconds: number;
  lastUsedAt: Date;
  userId: number;
  username: string;
  fullName: string | null;
  homeClientId: number;
  roles: string[];
  /** The session's expiry or the user's expiry date, whichever comes first: a cached hit past it is a miss. */
  validUntil: number;
}

/**
 * The token's session when it is live and its user and client may log in (as mayLogIn). Raw SQL,
 * one round trip: this runs on every authenticated request.
 */
async function liveSession(em: EntityManager, token: string, now: Date): Promise<LiveSession | null> {
  const [row] = await boundRows<{
    id: number;
    client_id: number;
    guest: boolean;
    api_login: boolean;
    timeout_seconds: number;
    last_used_at: Date;
    user_id: number;
    username: string;
    full_name: string | null;
    home_client_id: number;
    roles: string[];
    valid_until: Date;
  }>(
    em,
    {
      text: `select s.id, s.client_id, s.guest, s.api_login, s.timeout_seconds, s.last_used_at,
            u.id as user_id, u.username, u.full_name, u.client_id as home_client_id, u.roles,
            least(s.expires_at, u.exp_date::timestamptz) as valid_until
       from sessions s join users u on u.id = s.user_id join clients c on c.id = s.client_id
      where s.token_hash = ? and s.ended_at is null and s.expires_at > ?
        and u.active and not u.deleted and (u.exp_date is null or u.exp_date > ?)
        and c.active and not c.deleted`,
      params: [hashSecret(token), now, now],
    },
    { prepared: true },
  );
  if (!row) return null;
  return {
    id: row.id,
    clientId: row.client_id,
    guest: row.guest,
    apiLogin: row.api_login,
    timeoutSeconds: row.timeout_seconds,
    lastUsedAt: new Date(row.last_used_at),
    userId: row.user_id,
    username: row.username,
    fullName: row.full_name,
    homeClientId: row.home_client_id,
    roles: row.roles,
    validUntil: new Date(row.valid_until).getTime(),
  };
}

/**
 * liveSession through the server's access cache (src/modules/access/access-cache.ts): a warm token
 * costs no round trip. Only live sessions are kept, by the token's hash; a kept one past its expiry is
 * read again. Any write to sessions, users or clients that could end one empties the cache.
 */
async function cachedLiveSession(em: EntityManager, token: string, now: Date): Promise<LiveSession | null> {
  const region = accessCacheOf(em)?.region<LiveSession>('sessions');
  if (!region) return liveSession(em, token, now);
  const key = hashSecret(token);
  const kept = region.get(key);
  if (kept && kept.validUntil > now.getTime()) return kept;
  const epoch = region.begin();
  const session = await liveSession(em, token, now);
  if (session) region.set(key, session, epoch);
  else region.delete(key);
  return session;
}

/**
 * Roles hold in the user's home client. A user acting in a client they are mapped to acts there as an
 * ordinary user (a client administrator of A is no administrator of B); system administrators keep theirs.
 */
export function rolesActingIn(
  roles: readonly string[],
  homeClientId: number,
  clientId: number,
  guest: boolean,
): string[] {
  if (guest) return [];
  if (roles.includes('SYSADMIN') || clientId === homeClientId) return [...roles];
  return [];
}

/** Resolves a token to the acting user, or null when unknown, ended or expired. */
export async function authenticate(em: EntityManager, token: string): Promise<Actor | null> {
  const now = new Date();
  const session = await cachedLiveSession(em, token, now);
  if (!session) return null;
  if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    // A cached session is a shared object: later requests see the touch and skip it.
    session.lastUsedAt = now;
    await em.nativeUpdate(Session, { id: session.id }, { lastUsedAt: now });
  }
  return {
    userId: session.userId,
    username: session.username,
    fullName: session.fullName,
    clientId: session.clientId,
    homeClientId: session.homeClientId,
    roles: rolesActingIn(session.roles, session.homeClientId, session.clientId, session.guest),
    sessionId: session.id,
    guest: session.guest,
    apiLogin: session.apiLogin,
  };
}

/** True when the token belongs to a live session. */
export async function validateToken(em: EntityManager, token: string): Promise<boolean> {
  return (await cachedLiveSession(em, token, new Date())) !== null;
}

/** Pushes the expiry of a live session its length ahead (group timeout or SESSION_TIMEOUT); 403 when not valid. */
export async function extendSession(em: EntityManager, token: string): Promise<number> {
  const now = new Date();
  const session = await liveSession(em, token, now);
  // The contract answers 403 here, not the 401 of other operations (rest-api-v4.md, Auth token).
  if (!session) throw new AppError('FORBIDDEN', 'Token is not valid');
  const expiresAt = new Date(now.getTime() + session.timeoutSeconds * 1000);
  await em.nativeUpdate(Session, { id: session.id }, { expiresAt, lastUsedAt: now });
  return expiresAt.getTime();
}

/** Ends the session of the token. */
export async function logout(em: EntityManager, sessionId: number): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId, endedAt: null }, { endedAt: new Date() });
}
