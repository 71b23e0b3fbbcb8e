import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { verifyPassword } from '../auth/password.js';
import { Session } from '../auth/session.entity.js';
import type { User } from '../user/user.entity.js';
import { assertMayChange, type UserField } from '../user/user.policy.js';
import { PASSWORD_UNCHANGED } from '../user/user.schema.js';
import { assertUsernameFree, loadVisibleUser, toTarget, updateUser } from '../user/user.service.js';
import type { PasswordChangeInput, Profile, ProfileUpdateInput } from './profile.schema.js';

/** The profile is the account of a person or integration; a guest account is shared, so guests have none. */
function assertHasProfile(scope: Scope): void {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests have no profile');
}

function toProfile(user: User): Profile {
  return {
    user: {
      id: user.id,
      version: user.version,
      clientId: user.client.id,
      username: user.username,
      fullName: user.fullName ?? null,
      email: user.email ?? null,
      title: user.title ?? null,
      language: user.language ?? null,
      forcePasswordChange: user.forcePasswordChange,
      type: user.type,
      roles: user.roles,
      passwordChanged: user.passwordChangedAt?.getTime() ?? null,
    },
  };
}

/** The caller's own account. */
export async function getProfile(scope: Scope): Promise<Profile> {
  assertHasProfile(scope);
  return toProfile(await loadVisibleUser(scope, scope.actor.userId));
}

/**
 * Changes the caller's own attributes (rule 1 of the users matrix, checked by the users policy) and the
 * preferred interface language, which the current session takes over at once.
 */
export async function updateProfile(scope: Scope, input: ProfileUpdateInput): Promise<Profile> {
  assertHasProfile(scope);
  const sent = input.user;
  const language = sent.language ?? null;
  await scope.em.transactional(async (em) => {
    const user = await loadVisibleUser(scope, scope.actor.userId, { em, lock: true });
    assertVersion(user, sent.version, 'Profile');
    const next = {
      username: sent.username ?? user.username,
      fullName: sent.fullName ?? null,
      email: sent.email ?? null,
      title: sent.title ?? null,
    };
    const changed: UserField[] = [];
    for (const key of ['username', 'fullName', 'email', 'title'] as const) {
      if (next[key] !== (user[key] ?? null)) changed.push(key);
    }
    const forcePasswordChange = sent.forcePasswordChange ?? user.forcePasswordChange;
    if (forcePasswordChange !== user.forcePasswordChange) changed.push('forcePasswordChange');
    assertMayChange(scope.actor, toTarget(user), changed);
    if (changed.includes('username')) await assertUsernameFree(em, user.client.id, next.username, user.id);
    if (changed.length === 0 && language === (user.language ?? null)) return;
    Object.assign(user, next, { forcePasswordChange, language, changedById: scope.actor.userId });
  });
  if (language) await scope.em.nativeUpdate(Session, { id: scope.actor.sessionId }, { language });
  scope.em.clear();
  return getProfile(scope);
}

/**
 * Changes the caller's password: the current one must be right, the new one must equal confirmPassword
 * and satisfy the password settings (all 400 otherwise). Clears forcePasswordChange.
 */
export async function changeOwnPassword(scope: Scope, input: PasswordChangeInput): Promise<Profile> {
  assertHasProfile(scope);
  const user = await loadVisibleUser(scope, scope.actor.userId);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('BAD_REQUEST', 'The current password is wrong');
  }
  if (input.password !== input.confirmPassword) {
    throw new AppError('BAD_REQUEST', 'password and confirmPassword differ');
  }
  if (input.password === PASSWORD_UNCHANGED) {
    throw new AppError('BAD_REQUEST', `${PASSWORD_UNCHANGED} cannot be a new password`);
  }
  // The users service applies rule 1, the password settings, hashing and the forcePasswordChange reset.
  await updateUser(
    scope,
    {
      id: user.id,
      version: user.version,
      username: user.username,
      password: input.password,
      confirmPassword: input.confirmPassword,
      format: 'ID',
    },
    true,
  );
  scope.em.clear();
  return getProfile(scope);
}
