import { Migration } from '@mikro-orm/migrations';

/** Statistics indexes, the profile's interface language and per-user search settings. */
export class Migration20261121130000 extends Migration {
  override async up(): Promise<void> {
    // Statistics aggregate the sessions of a client (or of everyone) by login time.
    this.addSql(`create index "sessions_client_created_at_index" on "sessions" ("client_id", "created_at");`);
    this.addSql(`create index "sessions_created_at_index" on "sessions" ("created_at");`);

    this.addSql(`alter table "users" add column "language" varchar(16) null;`);

    this.addSql(
      `create table "user_search_settings" ("id" serial primary key, "user_id" int not null references "users" ("id") on update cascade on delete cascade, "client_id" int not null references "clients" ("id") on update cascade on delete cascade, "session_id" int null references "sessions" ("id") on delete cascade, "version" int not null default 1, "settings" jsonb not null default '{}', "changed_at" timestamptz not null);`,
    );
    // One row per user and client; a guest session's own row besides.
    this.addSql(
      `create unique index "user_search_settings_user_client_unique" on "user_search_settings" ("user_id", "client_id") where "session_id" is null;`,
    );
    this.addSql(
      `create unique index "user_search_settings_session_unique" on "user_search_settings" ("session_id") where "session_id" is not null;`,
    );
    this.addSql(
      `create index "user_search_settings_client_id_index" on "user_search_settings" ("client_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "user_search_settings" cascade;`);
    this.addSql(`alter table "users" drop column "language";`);
    this.addSql(`drop index if exists "sessions_created_at_index";`);
    this.addSql(`drop index if exists "sessions_client_created_at_index";`);
  }
}
