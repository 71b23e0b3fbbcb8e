import { Migration } from '@mikro-orm/migrations';

/**
 * Mail settings kept in the database (docs/ui.md, "Mail settings"): the installation's SMTP server
 * (one row, system administrators), which replaces SMTP_URL and MAIL_FROM while use_configuration is
 * off, and each client's sender name, reply-to address and signature. The SMTP password is stored for
 * the mailer to use and never answered back.
 */
export class Migration20261230140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "mail_server_settings" (
      "id" smallint primary key default 1 check ("id" = 1),
      "use_configuration" boolean not null default true,
      "host" varchar(255) null,
      "port" integer null check ("port" between 1 and 65535),
      "security" varchar(16) not null default 'STARTTLS' check ("security" in ('NONE', 'STARTTLS', 'TLS')),
      "username" varchar(255) null,
      "password" varchar(1024) null,
      "from_address" varchar(320) null,
      "from_name" varchar(255) null,
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create table "client_mail_settings" (
      "client_id" integer primary key references "clients" ("id") on update cascade on delete cascade,
      "sender_name" varchar(255) null,
      "reply_to" varchar(320) null,
      "signature" varchar(2000) null,
      "updated_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "client_mail_settings";');
    this.addSql('drop table if exists "mail_server_settings";');
  }
}
