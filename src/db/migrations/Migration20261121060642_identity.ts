import { Migration } from '@mikro-orm/migrations';

const audited = ['groups', 'permission_schemes', 'dictionaries', 'sections'];
const commonColumns = `"id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null, "created_at" timestamptz not null, "created_by_id" int null, "changed_at" timestamptz not null, "changed_by_id" int null, "client_id" int not null references "clients" ("id") on update cascade`;

/** Identity and access: client mappings, groups, guest settings, permission schemes, password resets. */
export class Migration20261121060642 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "users" add column "password_changed_at" timestamptz null, add column "origin_type" text check ("origin_type" in ('TERMWEB', 'OPENID', 'OIDC', 'SAML', 'LDAP', 'API')) null default 'TERMWEB';`,
    );
    this.addSql(`create index "users_client_full_name_index" on "users" ("client_id", lower("full_name"));`);
    this.addSql(`create index "users_client_created_at_index" on "users" ("client_id", "created_at");`);
    this.addSql(`create index "users_client_changed_at_index" on "users" ("client_id", "changed_at");`);
    this.addSql(
      `alter table "sessions" add column "guest" boolean not null default false, add column "timeout_seconds" int not null default 1800;`,
    );
    // Concurrency limits count the live sessions of a client.
    this.addSql(
      `create index "sessions_live_by_client_index" on "sessions" ("client_id", "guest") where "ended_at" is null;`,
    );

    this.addSql(
      `create table "user_clients" ("user_id" int not null references "users" ("id") on update cascade, "client_id" int not null references "clients" ("id") on update cascade, constraint "user_clients_pkey" primary key ("user_id", "client_id"));`,
    );
    this.addSql(`create index "user_clients_client_id_index" on "user_clients" ("client_id");`);

    this.addSql(
      `create table "groups" (${commonColumns}, "name" varchar(255) not null, "description" text null, "timeout" int null, "pwd_change" int null, "views_map" jsonb not null default '{}', "filter_map" jsonb not null default '{}', "type" text check ("type" in ('NORMAL', 'ALL_USERS', 'GUEST', 'OWNER')) not null default 'NORMAL', "lang_code3" varchar(3) null, "has_api_access" boolean not null default false);`,
    );
    this.addSql(
      `create unique index "groups_client_name_live_unique" on "groups" ("client_id", lower("name")) where not "deleted";`,
    );
    // One live system group of each kind per client.
    this.addSql(
      `create unique index "groups_client_system_type_unique" on "groups" ("client_id", "type") where not "deleted" and "type" <> 'NORMAL';`,
    );
    this.addSql(
      `create table "group_members" ("group_id" int not null references "groups" ("id") on update cascade, "user_id" int not null references "users" ("id") on update cascade, constraint "group_members_pkey" primary key ("group_id", "user_id"));`,
    );
    this.addSql(`create index "group_members_user_id_index" on "group_members" ("user_id");`);

    this.addSql(
      `create table "guest_settings" ("client_id" int not null references "clients" ("id") on update cascade on delete cascade, "version" int not null default 1, "enabled" boolean not null default false, "login_method" text check ("login_method" in ('NORMAL', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN')) not null default 'NORMAL', "user_id" int null references "users" ("id") on update cascade on delete set null, "enable_quick_filters" boolean not null default false, "enable_search_modes" boolean not null default false, "enable_commenting" boolean not null default false, constraint "guest_settings_pkey" primary key ("client_id"));`,
    );

    this.addSql(
      `create table "permission_schemes" (${commonColumns}, "name" varchar(255) not null, "description" text null, "grants" jsonb not null default '[]');`,
    );
    this.addSql(
      `create unique index "permission_schemes_client_name_live_unique" on "permission_schemes" ("client_id", lower("name")) where not "deleted";`,
    );

    this.addSql(
      `create table "dictionaries" (${commonColumns}, "name" varchar(255) not null, "permission_scheme_id" int null references "permission_schemes" ("id") on update cascade on delete set null);`,
    );
    this.addSql(`create index "dictionaries_client_id_index" on "dictionaries" ("client_id");`);
    this.addSql(
      `create table "sections" (${commonColumns}, "dictionary_id" int not null references "dictionaries" ("id") on update cascade, "name" varchar(255) not null, "permission_scheme_id" int null references "permission_schemes" ("id") on update cascade on delete set null);`,
    );
    this.addSql(`create index "sections_dictionary_id_index" on "sections" ("dictionary_id");`);

    for (const table of audited) {
      for (const column of ['created_by_id', 'changed_by_id', 'deleted_by_id']) {
        this.addSql(
          `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "users" ("id") on delete set null;`,
        );
      }
    }

    this.addSql(
      `create table "password_resets" ("id" serial primary key, "token_hash" varchar(64) not null unique, "user_id" int not null references "users" ("id") on update cascade, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null);`,
    );
    this.addSql(`create index "password_resets_user_id_index" on "password_resets" ("user_id");`);

    // Every existing client gets its system groups.
    this.addSql(
      `insert into "groups" ("client_id", "name", "type", "created_at", "changed_at")
       select c."id", g."name", g."type", now(), now()
       from "clients" c cross join (values ('All users', 'ALL_USERS'), ('Guests', 'GUEST'), ('Owner', 'OWNER')) as g("name", "type");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'password_resets',
      'sections',
      'dictionaries',
      'permission_schemes',
      'guest_settings',
      'group_members',
      'groups',
      'user_clients',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql(`drop index if exists "sessions_live_by_client_index";`);
    this.addSql(`alter table "sessions" drop column "guest", drop column "timeout_seconds";`);
    this.addSql(`drop index if exists "users_client_full_name_index";`);
    this.addSql(`drop index if exists "users_client_created_at_index";`);
    this.addSql(`drop index if exists "users_client_changed_at_index";`);
    this.addSql(`alter table "users" drop column "password_changed_at", drop column "origin_type";`);
  }
}
