import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/** The authenticated caller. `clientId` is the client the session acts in (switch-client moves it). */
export interface Actor {
  userId: number;
  username: string;
  fullName: string | null;
  clientId: number;
  homeClientId: number;
  roles: readonly string[];
  sessionId: number;
  /** A guest session: no roles, the Guests group's permissions only. */
  guest: boolean;
  /** Logged in with the client's API key. */
  apiLogin: boolean;
}

export const isSysadmin = (actor: Actor): boolean => actor.roles.includes('SYSADMIN');
/** System administrators count as client administrators of whatever client they act in. */
export const isClientAdmin = (actor: Actor): boolean => isSysadmin(actor) || actor.roles.includes('ADMIN');

/** What every domain function receives: a request-scoped entity manager, the caller, settings, a logger. */
export interface Scope {
  em: EntityManager;
  actor: Actor;
  config: Config;
  log: FastifyBaseLogger;
}

/** `include-deleted` is honoured only for system and client administrators. */
export const mayIncludeDeleted = (scope: Scope, requested: boolean): boolean =>
  requested && isClientAdmin(scope.actor);

/** ORM filter options that lift soft-deletion hiding when the caller asked and may. */
export const deletedFilter = (scope: Scope, requested: boolean): Record<string, boolean> =>
  mayIncludeDeleted(scope, requested) ? { notDeleted: false } : {};

/** Guests are anonymous visitors: they never see who the client's users are or how they are grouped. */
export function assertNotGuest(scope: Scope, what: string): void {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', `Guests cannot read ${what}`);
}
