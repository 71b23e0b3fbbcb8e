import type { EntityManager } from '@mikro-orm/postgresql';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Config } from '../../config.js';
import { type ClientRow, readClientRow, readServerRow, type ServerRow } from './mail-settings.store.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Where a mail is sent from: the database's mail settings of the installation and of the client. */
export interface MailContext {
  em: EntityManager;
  /** The client the mail is about (its sender name, reply-to and signature); null: the installation's. */
  clientId: number | null;
}

/** An SMTP server and sender, from the configuration or the installation's mail settings. */
export interface MailServer {
  /** Identifies the transport in the pool; holds the password, so never logged or answered. */
  key: string;
  transport: string | SMTPTransport.Options;
  /** host:port, for the administrator's test message. */
  label: string;
  fromName: string | null;
  fromAddress: string;
}

/** Splits `Name <address>` (MAIL_FROM) into its parts; a bare address has no name. */
export function parseSender(from: string): { name: string | null; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  if (!match) return { name: null, address: from.trim() };
  return { name: match[1]?.trim() || null, address: match[2]!.trim() };
}

/** The SMTP URL with its password left out, for administrators to see where the configuration sends. */
export function withoutPassword(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (url.password) url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return 'smtp://…';
  }
}

function serverFromConfig(config: Config): MailServer | null {
  if (!config.SMTP_URL) return null;
  const sender = parseSender(config.MAIL_FROM);
  const url = new URL(config.SMTP_URL);
  return {
    key: `url:${config.SMTP_URL}`,
    transport: config.SMTP_URL,
    label: `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
    fromName: sender.name,
    fromAddress: sender.address,
  };
}

/** The transport options of saved settings (nodemailer's SMTP transport). */
export function serverFromRow(row: ServerRow): MailServer | null {
  if (!row.host || !row.fromAddress) return null;
  const port = row.port ?? (row.security === 'TLS' ? 465 : 587);
  const transport: SMTPTransport.Options = {
    host: row.host,
    port,
    secure: row.security === 'TLS',
    requireTLS: row.security === 'STARTTLS',
    ignoreTLS: row.security === 'NONE',
    ...(row.username ? { auth: { user: row.username, pass: row.password ?? '' } } : {}),
    // An administrator waits for the test message: an unreachable server answers within seconds.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
  };
  return {
    key: `settings:${JSON.stringify(transport)}`,
    transport,
    label: `${row.host}:${port}`,
    fromName: row.fromName,
    fromAddress: row.fromAddress,
  };
}

/** The server mail goes through: the saved settings unless they defer to the configuration. */
export async function mailServer(em: EntityManager, config: Config): Promise<MailServer | null> {
  const row = await readServerRow(em);
  return row.useConfiguration ? serverFromConfig(config) : serverFromRow(row);
}

/** Whether mail can be sent at all (callers skip preparing mail that could not go out). */
export async function mailConfigured(em: EntityManager, config: Config): Promise<boolean> {
  return (await mailServer(em, config)) !== null;
}

/** The From header: the client's sender name, else the installation's, at the installation's address. */
export function senderOf(server: Pick<MailServer, 'fromName' | 'fromAddress'>, client: ClientRow | null) {
  const name = client?.senderName ?? server.fromName;
  return name ? { name, address: server.fromAddress } : server.fromAddress;
}

export function formatSender(sender: ReturnType<typeof senderOf>): string {
  return typeof sender === 'string' ? sender : `"${sender.name.replace(/"/g, "'")}" <${sender.address}>`;
}

/** The message as handed to nodemailer: sender, reply-to and signature of the client. */
export function composed(server: MailServer, client: ClientRow | null, mail: Mail) {
  const text = client?.signature ? `${mail.text}\r\n\r\n-- \r\n${client.signature}` : mail.text;
  return {
    ...mail,
    text,
    from: senderOf(server, client),
    ...(client?.replyTo ? { replyTo: client.replyTo } : {}),
  };
}

// One transport per SMTP server, reused by every request.
const transports = new Map<string, Transporter>();

function transportFor(server: MailServer): Transporter {
  let transport = transports.get(server.key);
  if (!transport) {
    transport = nodemailer.createTransport(server.transport);
    transports.set(server.key, transport);
  }
  return transport;
}

/**
 * Sends one plain-text mail; false when no SMTP server is set. Without a context only the
 * configuration (SMTP_URL, MAIL_FROM) is used; with one, the mail settings of the installation and of
 * the client (docs/ui.md, "Mail settings").
 */
export async function sendMail(config: Config, mail: Mail, context?: MailContext): Promise<boolean> {
  const server = context ? await mailServer(context.em, config) : serverFromConfig(config);
  if (!server) return false;
  const client = context?.clientId != null ? await readClientRow(context.em, context.clientId) : null;
  await transportFor(server).sendMail(composed(server, client, mail));
  return true;
}

/** Sends over a transport of its own, closed afterwards, so a failing test leaves no pooled connection. */
export async function sendOnce(server: MailServer, message: ReturnType<typeof composed>): Promise<void> {
  const transport = nodemailer.createTransport(server.transport);
  try {
    await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

/** Closes the pooled connections (server shutdown, tests). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
