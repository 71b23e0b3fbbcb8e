import { Migration } from '@mikro-orm/migrations';

const common = `"id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null references "users" ("id") on delete set null, "created_at" timestamptz not null, "created_by_id" int null references "users" ("id") on delete set null, "changed_at" timestamptz not null, "changed_by_id" int null references "users" ("id") on delete set null`;

/** API synchronization settings (docs/sync-settings.md). */
export class Migration20261121150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "sync_settings" (${common}, "client_id" int not null references "clients" ("id") on update cascade, "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade, "name" varchar(255) not null, "description" text null, "active" boolean not null default true, "languages" jsonb not null default '[]' check (jsonb_typeof("languages") = 'array'), "groups" jsonb not null default '[]' check (jsonb_typeof("groups") = 'array'), "filter_id" int null references "filters" ("id") on delete set null);`,
    );
    // One live name per client, ignoring case; also serves the client filter, name and name-eq.
    this.addSql(
      `create unique index "sync_settings_client_name_unique" on "sync_settings" ("client_id", lower("name")) where not "deleted";`,
    );
    // The client's list with include-deleted, sorted by name.
    this.addSql(`create index "sync_settings_client_id_index" on "sync_settings" ("client_id", "name");`);
    this.addSql(`create index "sync_settings_dictionary_id_index" on "sync_settings" ("dictionary_id");`);
    this.addSql(`create index "sync_settings_filter_id_index" on "sync_settings" ("filter_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sync_settings" cascade;`);
  }
}
