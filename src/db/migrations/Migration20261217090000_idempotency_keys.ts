import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency-Key (docs/reliability.md, Sending a write again): one row per key a client's user sent,
 * inserted in the transaction of the change it guards, so the key exists exactly when the change does.
 * `fingerprint` is the hash of the procedure and its input; `answered`, `status` and `response` are the
 * stored answer, written after the commit (not answered: being built, or lost). A null status is the
 * procedure's own success status.
 */
export class Migration20261217090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" (
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "key" varchar(255) not null,
      "fingerprint" char(64) not null,
      "answered" boolean not null default false,
      "status" smallint null,
      "response" jsonb null,
      "created_at" timestamptz not null default now(),
      primary key ("client_id", "user_id", "key")
    );`);
    this.addSql('create index "idempotency_keys_created_at" on "idempotency_keys" ("created_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "idempotency_keys";');
  }
}
