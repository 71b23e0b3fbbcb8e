import { Migration } from '@mikro-orm/migrations';

/**
 * Saved queries of the web application (docs/ui.md, Saved queries): a user's named searches, kept per
 * user and client like the search settings. `query` is the search's URL query string (text, the picks,
 * the options); the server stores it and never interprets it, so the search screen can add parameters
 * without a migration.
 */
export class Migration20261211090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "saved_queries" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "user_id" int not null references "users" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "query" varchar(4000) not null,
      "created_at" timestamptz not null default now(),
      "changed_at" timestamptz not null default now()
    );`);
    this.addSql(
      'create unique index "saved_queries_owner_name" on "saved_queries" ("client_id", "user_id", lower("name"));',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "saved_queries";');
  }
}
