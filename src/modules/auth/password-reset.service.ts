import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import { Client } from '../client/client.entity.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { assertPasswordAllowed } from '../user/password-policy.js';
import { User } from '../user/user.entity.js';
import { loginClientName } from './auth.service.js';
import { claimAttempt, resetKeys } from './login-throttle.js';
import { hashPassword } from './password.js';
import { PasswordReset } from './password-reset.entity.js';
import { Session } from './session.entity.js';
import { hashSecret, newSecret } from './tokens.js';

/** Where the reset link points: the UI's page, which posts the token to /api/v4/reset-password/confirm. */
function resetLink(config: Config, token: string): string {
  const base = (config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return `${base}/reset-password?token=${token}`;
}

/**
 * Stores a single-use reset secret for the user and e-mails the link. Returns false when the user has
 * no e-mail address or no SMTP server is configured.
 */
export async function sendPasswordResetLink(
  em: EntityManager,
  config: Config,
  user: Pick<User, 'id' | 'email' | 'username' | 'client'>,
): Promise<boolean> {
  if (!user.email || !(await mailConfigured(em, config))) return false;
  const token = newSecret();
  await em.insert(PasswordReset, {
    tokenHash: hashSecret(token),
    user: user.id,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + config.PASSWORD_RESET_TTL * 1000),
  });
  const minutes = Math.round(config.PASSWORD_RESET_TTL / 60);
  return sendMail(
    config,
    {
      to: user.email,
      subject: 'Reset your Polyterm password',
      text: [
        `A password reset was requested for the account ${user.username}.`,
        '',
        `Open this link within ${minutes} minutes to choose a new password; it works once:`,
        resetLink(config, token),
        '',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ].join('\r\n'),
    },
    { em, clientId: user.client.id },
  );
}

/**
 * Answers the same whether or not the user exists: the lookup and the mail run after the response,
 * so neither the answer nor its timing tells a caller which accounts exist. Requests are throttled per
 * account as sent and per address (docs/identity.md, "Login throttling").
 */
export async function requestPasswordReset(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  input: { username: string; client?: string | undefined },
  ipAddress: string | undefined,
): Promise<void> {
  const clientLogin = loginClientName(config, input.client);
  const keys = resetKeys(clientLogin, input.username, ipAddress ?? '');
  await claimAttempt(em, keys, config.LOGIN_THROTTLE_DELAY_MS, 'Too many password-reset requests');
  const fork = em.fork();
  const work = async () => {
    const client = await fork.findOne(Client, {
      [lowerOf('login_name')]: clientLogin.toLowerCase(),
      active: true,
    });
    if (!client) return;
    const user = await fork.findOne(
      User,
      {
        client,
        [lowerOf('username')]: input.username.trim().toLowerCase(),
        active: true,
        type: { $nin: ['GUEST', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN'] },
      },
      { filters: { tenant: false } },
    );
    if (!user || (user.expDate && user.expDate <= new Date())) return;
    await sendPasswordResetLink(fork, config, user);
  };
  work().catch((error: unknown) => log.error({ err: error }, 'password reset mail failed'));
}

/** Sets a new password with a reset secret; the secret then stops working and the user's sessions end. */
export async function confirmPasswordReset(
  em: EntityManager,
  config: Config,
  input: { token: string; password: string },
): Promise<void> {
  assertPasswordAllowed(config, input.password);
  const passwordHash = await hashPassword(input.password);
  await em.transactional(async (tem) => {
    const now = new Date();
    const reset = await tem.findOne(PasswordReset, {
      tokenHash: hashSecret(input.token),
      usedAt: null,
      expiresAt: { $gt: now },
    });
    if (!reset) throw new AppError('BAD_REQUEST', 'The reset link is unknown, used or expired');
    reset.usedAt = now;
    await tem.nativeUpdate(
      User,
      { id: reset.user.id },
      { passwordHash, passwordChangedAt: now, forcePasswordChange: false },
      { filters: false },
    );
    // Other outstanding links of the user die with this one.
    await tem.nativeUpdate(PasswordReset, { user: reset.user.id, usedAt: null }, { usedAt: now });
    await tem.nativeUpdate(Session, { user: reset.user.id, endedAt: null }, { endedAt: now });
  });
}
