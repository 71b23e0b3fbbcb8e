/**
 * Mail settings (docs/ui.md, "Mail settings"): system administrators set the installation's SMTP
 * server (else the configuration's SMTP_URL and MAIL_FROM send); client administrators set their
 * client's sender name, reply-to address and signature, and send themselves a test message.
 * The SMTP password is write-only: answers say ****** when one is set.
 */
import { AppError } from '../../shared/errors.js';
import { isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { User } from '../user/user.entity.js';
import { PASSWORD_UNCHANGED } from '../user/user.schema.js';
import type {
  ClientMailSettingsDto,
  ClientMailSettingsInput,
  MailServerSettingsDto,
  MailServerSettingsInput,
  TestMailInput,
  TestMailResult,
} from './mail-settings.schema.js';
import { readClientRow, readServerRow, writeClientRow, writeServerRow } from './mail-settings.store.js';
import {
  closeMailTransports,
  composed,
  formatSender,
  mailServer,
  senderOf,
  sendOnce,
  withoutPassword,
} from './mailer.js';

function assertSysadmin(scope: Scope): void {
  if (!isSysadmin(scope.actor))
    throw new AppError('FORBIDDEN', "Only system administrators manage the installation's mail server");
}

function assertAdmin(scope: Scope): void {
  if (!isClientAdmin(scope.actor))
    throw new AppError('FORBIDDEN', "Only administrators manage the client's mail settings");
}

/** The installation's SMTP server (system administrators). */
export async function getServerSettings(scope: Scope): Promise<MailServerSettingsDto> {
  assertSysadmin(scope);
  const row = await readServerRow(scope.em);
  const { SMTP_URL, MAIL_FROM } = scope.config;
  return {
    useConfiguration: row.useConfiguration,
    host: row.host,
    port: row.port,
    security: row.security,
    username: row.username,
    password: row.password ? PASSWORD_UNCHANGED : null,
    fromAddress: row.fromAddress,
    fromName: row.fromName,
    configuration: { smtp: SMTP_URL ? withoutPassword(SMTP_URL) : null, from: MAIL_FROM },
  };
}

/** Saves the installation's SMTP server; ****** (or no password field) keeps the stored password. */
export async function updateServerSettings(
  scope: Scope,
  input: MailServerSettingsInput,
): Promise<MailServerSettingsDto> {
  assertSysadmin(scope);
  const before = await readServerRow(scope.em);
  const keep = input.password === undefined || input.password === PASSWORD_UNCHANGED;
  const username = input.username ?? null;
  await writeServerRow(scope.em, {
    useConfiguration: input.useConfiguration,
    host: input.host ?? null,
    port: input.port ?? null,
    security: input.security,
    username,
    // A password without a user to go with it is never sent; keeping it would only keep a secret.
    password: username ? (keep ? before.password : input.password || null) : null,
    fromAddress: input.fromAddress ?? null,
    fromName: input.fromName ?? null,
  });
  closeMailTransports();
  scope.log.info({ useConfiguration: input.useConfiguration }, 'mail server settings changed');
  return getServerSettings(scope);
}

async function clientDto(scope: Scope): Promise<ClientMailSettingsDto> {
  const row = await readClientRow(scope.em, scope.actor.clientId);
  const server = await mailServer(scope.em, scope.config);
  return {
    ...row,
    sender: server ? formatSender(senderOf(server, row)) : '',
    mailEnabled: server !== null,
  };
}

/** The acting client's sender name, reply-to address and signature (administrators). */
export async function getClientSettings(scope: Scope): Promise<ClientMailSettingsDto> {
  assertAdmin(scope);
  return clientDto(scope);
}

export async function updateClientSettings(
  scope: Scope,
  input: ClientMailSettingsInput,
): Promise<ClientMailSettingsDto> {
  assertAdmin(scope);
  await writeClientRow(scope.em, scope.actor.clientId, {
    senderName: input.senderName ?? null,
    replyTo: input.replyTo ?? null,
    signature: input.signature ?? null,
  });
  return clientDto(scope);
}

/** Why a send failed, in the server's words but without anything of the settings' secrets. */
function failureText(error: unknown, secrets: readonly (string | null)[]): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret) text = text.split(secret).join(PASSWORD_UNCHANGED);
  return text.slice(0, 500);
}

/**
 * Sends a test message with the client's settings, to the given address or the caller's own, and
 * waits for the SMTP server to take it: a refusal answers 422 with the server's reason.
 */
export async function sendTestMail(scope: Scope, input: TestMailInput): Promise<TestMailResult> {
  assertAdmin(scope);
  let to = input.to || null;
  if (!to) {
    const me = await scope.em.findOne(User, scope.actor.userId, { filters: { tenant: false } });
    to = me?.email ?? null;
  }
  if (!to)
    throw new AppError('BAD_REQUEST', 'You have no e-mail address: give one to send the test message to');
  const server = await mailServer(scope.em, scope.config);
  if (!server) throw new AppError('UNPROCESSABLE', 'No mail server is set: mail cannot be sent');
  const client = await readClientRow(scope.em, scope.actor.clientId);
  const message = composed(server, client, {
    to,
    subject: 'Polyterm test message',
    text: [
      'This is a test message of the mail settings of Polyterm.',
      `It was sent by ${scope.actor.username} through ${server.label}.`,
      'If you can read it, the mail settings work.',
    ].join('\r\n'),
  });
  try {
    await sendOnce(server, message);
  } catch (error) {
    const row = await readServerRow(scope.em);
    const configPassword = scope.config.SMTP_URL ? new URL(scope.config.SMTP_URL).password : null;
    const reason = failureText(error, [row.password, configPassword]);
    scope.log.warn({ server: server.label, reason }, 'the test message was not sent');
    throw new AppError('UNPROCESSABLE', `The mail server did not take the test message: ${reason}`);
  }
  scope.log.info({ server: server.label }, 'test message sent');
  return { to, from: formatSender(message.from), server: server.label };
}
