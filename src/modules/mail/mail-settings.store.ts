/**
 * The two tables of mail settings (migration mail_settings), read and written with plain SQL: the
 * installation's SMTP server (one row) and each client's sender details.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MailSecurities } from './mail-settings.schema.js';

export interface ServerRow {
  useConfiguration: boolean;
  host: string | null;
  port: number | null;
  security: (typeof MailSecurities)[number];
  username: string | null;
  password: string | null;
  fromAddress: string | null;
  fromName: string | null;
}

export interface ClientRow {
  senderName: string | null;
  replyTo: string | null;
  signature: string | null;
}

export const DEFAULT_SERVER_ROW: ServerRow = {
  useConfiguration: true,
  host: null,
  port: null,
  security: 'STARTTLS',
  username: null,
  password: null,
  fromAddress: null,
  fromName: null,
};

/** The installation's SMTP row; the defaults (use the configuration) when none was saved. */
export async function readServerRow(em: EntityManager): Promise<ServerRow> {
  const [row] = await em.getConnection().execute<ServerRow[]>(
    `select use_configuration as "useConfiguration", host, port, security, username, password,
            from_address as "fromAddress", from_name as "fromName"
       from mail_server_settings where id = 1`,
  );
  return row ?? DEFAULT_SERVER_ROW;
}

export async function writeServerRow(em: EntityManager, row: ServerRow): Promise<void> {
  await em.getConnection().execute(
    `insert into mail_server_settings
       (id, use_configuration, host, port, security, username, password, from_address, from_name, updated_at)
     values (1, ?, ?, ?, ?, ?, ?, ?, ?, now())
     on conflict (id) do update set use_configuration = excluded.use_configuration, host = excluded.host,
       port = excluded.port, security = excluded.security, username = excluded.username,
       password = excluded.password, from_address = excluded.from_address, from_name = excluded.from_name,
       updated_at = now()`,
    [
      row.useConfiguration,
      row.host,
      row.port,
      row.security,
      row.username,
      row.password,
      row.fromAddress,
      row.fromName,
    ],
  );
}

export async function readClientRow(em: EntityManager, clientId: number): Promise<ClientRow> {
  const [row] = await em.getConnection().execute<ClientRow[]>(
    `select sender_name as "senderName", reply_to as "replyTo", signature
       from client_mail_settings where client_id = ?`,
    [clientId],
  );
  return row ?? { senderName: null, replyTo: null, signature: null };
}

export async function writeClientRow(em: EntityManager, clientId: number, row: ClientRow): Promise<void> {
  await em.getConnection().execute(
    `insert into client_mail_settings (client_id, sender_name, reply_to, signature, updated_at)
     values (?, ?, ?, ?, now())
     on conflict (client_id) do update set sender_name = excluded.sender_name,
       reply_to = excluded.reply_to, signature = excluded.signature, updated_at = now()`,
    [clientId, row.senderName, row.replyTo, row.signature],
  );
}
