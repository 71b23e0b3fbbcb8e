import { Migration } from '@mikro-orm/migrations';

/**
 * Staging areas (docs/staging.md): named areas of a dictionary where imported entries and suggestions
 * wait for review, the staged entries (the import's entry model as JSON, with the concept the import's
 * merge would take them into) and one row per decision, never changed. Indexes serve the entry list's
 * filters (status, source, import job, target) under its sorts, the counts per area and the decisions.
 */
export class Migration20270106120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "staging_areas" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "description" text null,
      "open_to_readers" boolean not null default false,
      "version" int not null default 1,
      "deleted" boolean not null default false,
      "deleted_at" timestamptz null,
      "deleted_by_id" int null references "users" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "created_by_id" int null references "users" ("id") on delete set null,
      "changed_at" timestamptz not null default now(),
      "changed_by_id" int null references "users" ("id") on delete set null
    );`);
    this.addSql(
      `create unique index "staging_areas_name_unique" on "staging_areas" ("dictionary_id", lower("name")) where not "deleted";`,
    );
    this.addSql(
      `create index "staging_areas_client_index" on "staging_areas" ("client_id", "dictionary_id");`,
    );
    this.addSql(`create table "staged_entries" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "staging_area_id" int not null references "staging_areas" ("id") on update cascade on delete cascade,
      "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade,
      "status" text not null default 'PENDING' check ("status" in ('PENDING', 'ACCEPTED', 'REJECTED')),
      "source" text not null check ("source" in ('IMPORT', 'SUGGESTION')),
      "format" text null,
      "import_job_id" int null,
      "file_name" varchar(255) null,
      "line" int null,
      "entry_id" varchar(255) null,
      "target_concept_id" int null references "concepts" ("id") on update cascade on delete set null,
      "merge" text not null check ("merge" in ('ENTRY_ID', 'TERM', 'NONE')),
      "label" varchar(255) not null default '',
      "languages" text[] not null default '{}',
      "terms_text" text not null default '',
      "comment" text null,
      "entry" jsonb not null,
      "version" int not null default 1,
      "created_at" timestamptz not null default now(),
      "created_by_id" int null references "users" ("id") on delete set null,
      "changed_at" timestamptz not null default now(),
      "decided_at" timestamptz null,
      "decided_by_id" int null references "users" ("id") on delete set null,
      "concept_id" int null references "concepts" ("id") on update cascade on delete set null
    );`);
    for (const [name, columns] of [
      ['area_status', '"staging_area_id", "status", "created_at", "id"'],
      ['area_created', '"staging_area_id", "created_at", "id"'],
      ['area_changed', '"staging_area_id", "changed_at"'],
      ['area_creator', '"staging_area_id", "created_by_id", "created_at"'],
      ['import_job', '"import_job_id"'],
      ['target', '"target_concept_id"'],
    ] as const) {
      this.addSql(`create index "staged_entries_${name}_index" on "staged_entries" (${columns});`);
    }
    this.addSql(`create index "staged_entries_languages_index" on "staged_entries" using gin ("languages");`);
    this.addSql(`create table "staging_decisions" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "staging_area_id" int not null references "staging_areas" ("id") on update cascade on delete cascade,
      "staged_entry_id" int not null references "staged_entries" ("id") on update cascade on delete cascade,
      "decision" text not null check ("decision" in ('ACCEPTED', 'REJECTED', 'EDITED')),
      "reason" text null,
      "concept_id" int null references "concepts" ("id") on update cascade on delete set null,
      "workflow_state" varchar(255) null,
      "merge" text null,
      "decided_by_id" int null references "users" ("id") on delete set null,
      "decided_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "staging_decisions_entry_index" on "staging_decisions" ("staged_entry_id", "decided_at");`,
    );
    this.addSql(
      `create index "staging_decisions_area_index" on "staging_decisions" ("staging_area_id", "decided_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "staging_decisions";');
    this.addSql('drop table if exists "staged_entries";');
    this.addSql('drop table if exists "staging_areas";');
  }
}
