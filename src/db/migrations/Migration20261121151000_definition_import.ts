import { Migration } from '@mikro-orm/migrations';

/** Open dictionary-definition imports (start -> process-dictionary -> process-filter). */
export class Migration20261121151000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "definition_imports" ("id" uuid primary key, "client_id" int not null references "clients" ("id") on update cascade on delete cascade, "user_id" int not null references "users" ("id") on update cascade on delete cascade, "state" text check ("state" in ('UPLOADED', 'FILTERS')) not null default 'UPLOADED', "definition" jsonb not null, "dictionary_id" int null references "dictionaries" ("id") on delete cascade, "dictionary_new" boolean not null default false, "oid_map" jsonb not null default '{}', "created_at" timestamptz not null, "expires_at" timestamptz not null);`,
    );
    // An import is looked up by id and owner; expired ones are swept by expiry.
    this.addSql(`create index "definition_imports_user_id_index" on "definition_imports" ("user_id");`);
    this.addSql(`create index "definition_imports_expires_at_index" on "definition_imports" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "definition_imports" cascade;`);
  }
}
