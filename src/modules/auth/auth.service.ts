import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import type { Actor } from '../../shared/scope.js';
import { Client } from '../client/client.entity.js';
import { User } from '../user/user.entity.js';
import type { LoginInput, LoginResult } from './auth.schema.js';
import { verifyPassword } from './password.js';
import { Session } from './session.entity.js';
import { hashSecret, newSecret } from './tokens.js';

export const DEFAULT_CLIENT_LOGIN = 'admin';
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
}

/** A user may log in when active, not deleted, not past expDate, and the client is active. */
function mayLogIn(user: User, client: Client, now: Date): boolean {
  return (
    user.active && !user.deleted && (!user.expDate || user.expDate > now) && client.active && !client.deleted
  );
}

/**
 * Checks credentials and opens a session. Every failure answers the same message and spends the same
 * hashing time, so a caller cannot learn whether the client or user exists.
 */
export async function login(
  em: EntityManager,
  config: Config,
  input: LoginInput,
  ipAddress: string | undefined,
): Promise<LoginOutcome> {
  const now = new Date();
  const clientLogin = input.client?.trim() || DEFAULT_CLIENT_LOGIN;
  const client = await em.findOne(Client, { [lowerOf('login_name')]: clientLogin.toLowerCase() });
  const user = client
    ? await em.findOne(
        User,
        { client, [lowerOf('username')]: input.username.toLowerCase() },
        { filters: { tenant: false } },
      )
    : null;
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!client || !user || !passwordOk || !mayLogIn(user, client, now)) {
    return {
      result: { token: null, errorMessage: LOGIN_FAILED, code: 'UNAUTHORIZED', message: LOGIN_FAILED },
    };
  }
  const token = newSecret();
  const cookie = newSecret();
  const expiresAt = new Date(now.getTime() + config.SESSION_TIMEOUT * 1000);
  em.create(Session, {
    tokenHash: hashSecret(token),
    cookieHash: hashSecret(cookie),
    partId: cookie.slice(-4),
    user,
    client,
    language: input.language ?? 'eng',
    ipAddress: ipAddress ?? null,
    expiresAt,
    createdAt: now,
    lastUsedAt: now,
  });
  await em.flush();
  return { result: { token: { token, expirationTime: expiresAt.getTime() }, errorMessage: null }, cookie };
}

async function liveSession(em: EntityManager, token: string, now: Date) {
  const session = await em.findOne(
    Session,
    { tokenHash: hashSecret(token), endedAt: null, expiresAt: { $gt: now } },
    // One joined query: this runs on every authenticated request.
    { populate: ['user', 'client'], strategy: 'joined', filters: { tenant: false } },
  );
  if (!session) return null;
  const user = session.user.getEntity();
  const client = session.client.getEntity();
  return mayLogIn(user, client, now) ? session : null;
}

/** Resolves a token to the acting user, or null when unknown, ended or expired. */
export async function authenticate(em: EntityManager, token: string): Promise<Actor | null> {
  const now = new Date();
  const session = await liveSession(em, token, now);
  if (!session) return null;
  const user = session.user.getEntity();
  if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(Session, { id: session.id }, { lastUsedAt: now });
  }
  return {
    userId: user.id,
    username: user.username,
    fullName: user.fullName ?? null,
    clientId: session.client.id,
    homeClientId: user.client.id,
    roles: user.roles,
    sessionId: session.id,
  };
}

/** True when the token belongs to a live session. */
export async function validateToken(em: EntityManager, token: string): Promise<boolean> {
  return (await liveSession(em, token, new Date())) !== null;
}

/** Pushes the expiry of a live session SESSION_TIMEOUT seconds ahead; 403 when the token is not valid. */
export async function extendSession(em: EntityManager, token: string, config: Config): Promise<number> {
  const now = new Date();
  const session = await liveSession(em, token, now);
  if (!session) throw new AppError('FORBIDDEN', 'Token is not valid');
  const expiresAt = new Date(now.getTime() + config.SESSION_TIMEOUT * 1000);
  await em.nativeUpdate(Session, { id: session.id }, { expiresAt, lastUsedAt: now });
  return expiresAt.getTime();
}

/** Ends the session of the token. */
export async function logout(em: EntityManager, sessionId: number): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId, endedAt: null }, { endedAt: new Date() });
}
