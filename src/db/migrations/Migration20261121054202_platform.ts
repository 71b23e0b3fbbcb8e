import { Migration } from '@mikro-orm/migrations';

/** The platform: clients, users, sessions and job tasks. */
export class Migration20261121054202 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clients" ("id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null, "created_at" timestamptz not null, "created_by_id" int null, "changed_at" timestamptz not null, "changed_by_id" int null, "name" varchar(255) not null, "login_name" varchar(64) not null, "active" boolean not null default true, "api_key" varchar(64) not null, "max_users" int null, "max_guests" int null, "max_concurrent_users" int null);`,
    );

    this.addSql(
      `create table "job_tasks" ("id" serial primary key, "client_id" int not null, "user_id" int null, "type" varchar(64) not null, "status" text check ("status" in ('RUNNING', 'DONE', 'FAILED')) not null default 'RUNNING', "result" jsonb null, "message" text null, "created_at" timestamptz not null, "finished_at" timestamptz null);`,
    );
    this.addSql(`create index "job_tasks_client_id_index" on "job_tasks" ("client_id");`);

    this.addSql(
      `create table "users" ("id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null, "created_at" timestamptz not null, "created_by_id" int null, "changed_at" timestamptz not null, "changed_by_id" int null, "client_id" int not null, "username" varchar(128) not null, "full_name" varchar(255) null, "email" varchar(320) null, "title" varchar(255) null, "password_hash" varchar(255) null, "type" text check ("type" in ('NORMAL', 'GUEST', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN', 'EXTSYSADMIN', 'LEGACY', 'ROLEBASED')) not null default 'NORMAL', "active" boolean not null default true, "exp_date" timestamptz null, "roles" text[] not null default '{}', "force_password_change" boolean not null default false);`,
    );

    this.addSql(
      `create table "sessions" ("id" serial primary key, "token_hash" varchar(64) not null, "cookie_hash" varchar(64) not null, "part_id" varchar(4) not null, "user_id" int not null, "client_id" int not null, "language" varchar(16) not null default 'eng', "ip_address" varchar(64) null, "api_login" boolean not null default false, "api_requests" int not null default 0, "created_at" timestamptz not null, "last_used_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null);`,
    );
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "sessions_expires_at_index" on "sessions" ("expires_at");`);

    this.addSql(
      `alter table "users" add constraint "users_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "sessions" add constraint "sessions_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade;`,
    );

    // Names are unique among live rows, ignoring case; deleted rows keep theirs without blocking reuse.
    this.addSql(
      `create unique index "clients_name_live_unique" on "clients" (lower("name")) where not "deleted";`,
    );
    this.addSql(
      `create unique index "clients_login_name_live_unique" on "clients" (lower("login_name")) where not "deleted";`,
    );
    this.addSql(`create index "clients_created_at_index" on "clients" ("created_at");`);
    this.addSql(`create index "clients_changed_at_index" on "clients" ("changed_at");`);
    this.addSql(
      `create unique index "users_client_username_live_unique" on "users" ("client_id", lower("username")) where not "deleted";`,
    );
    this.addSql(`create index "users_client_id_index" on "users" ("client_id");`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create index "sessions_client_id_index" on "sessions" ("client_id");`);

    for (const table of ['clients', 'users']) {
      for (const column of ['created_by_id', 'changed_by_id', 'deleted_by_id']) {
        this.addSql(
          `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "users" ("id") on delete set null;`,
        );
      }
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "job_tasks" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "clients" cascade;`);
  }
}
