import { Migration } from '@mikro-orm/migrations';

const tenant = `"client_id" int not null references "clients" ("id") on update cascade on delete cascade`;
const ofProject = `"project_id" int not null references "projects" ("id") on delete cascade`;
const ofUser = (column: string) => `"${column}" int null references "users" ("id") on delete set null`;
const enumOf = (column: string, values: readonly string[], fallback: string) =>
  `"${column}" text not null default '${fallback}' check ("${column}" in (${values.map((v) => `'${v}'`).join(', ')}))`;

/**
 * Projects (docs/projects.md): terminology work on some dictionaries and languages, with the concepts it
 * covers (entries), proposed terms that are not concepts yet (candidates, each decision with who and
 * when), assignments typed and given to a user or a group, and a daily progress snapshot for the
 * burn-down. Dictionaries, languages and coordinators are arrays with GIN indexes: the list filters
 * ask "contains", and a project names a handful of each.
 */
export class Migration20270101090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "projects" (
      "id" serial primary key, "oid" varchar(64) null, "version" int not null default 1,
      "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null,
      "created_at" timestamptz not null default now(), "created_by_id" int null,
      "changed_at" timestamptz not null default now(), "changed_by_id" int null,
      ${tenant}, "name" varchar(255) not null, "description" text null,
      ${enumOf('status', ['DRAFT', 'ONGOING', 'DONE', 'SUSPENDED', 'ABANDONED'], 'DRAFT')},
      "dictionary_ids" int[] not null, "languages" text[] not null default '{}',
      "coordinator_ids" int[] not null default '{}', "due_at" timestamptz null, "instructions" text null,
      "transitions" jsonb not null default '{}' check (jsonb_typeof("transitions") = 'object'));`);
    this.addSql(
      `create index "projects_client_name_index" on "projects" ("client_id", lower("name"), "id");`,
    );
    this.addSql(`create index "projects_client_status_index" on "projects" ("client_id", "status", "id");`);
    this.addSql(`create index "projects_client_due_index" on "projects" ("client_id", "due_at", "id");`);
    this.addSql(
      `create index "projects_client_created_index" on "projects" ("client_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "projects_client_changed_index" on "projects" ("client_id", "changed_at", "id");`,
    );
    this.addSql(`create index "projects_dictionaries_index" on "projects" using gin ("dictionary_ids");`);
    this.addSql(`create index "projects_coordinators_index" on "projects" using gin ("coordinator_ids");`);

    this.addSql(`create table "project_entries" ("id" bigserial primary key, ${tenant}, ${ofProject},
      "concept_id" int not null references "concepts" ("id") on delete cascade,
      "dictionary_id" int not null, "added_at" timestamptz not null default now(), ${ofUser('added_by_id')});`);
    this.addSql(
      `create unique index "project_entries_unique" on "project_entries" ("project_id", "concept_id");`,
    );
    this.addSql(`create index "project_entries_concept_index" on "project_entries" ("concept_id");`);

    this.addSql(`create table "project_candidates" ("id" bigserial primary key, ${tenant}, ${ofProject},
      "terms" jsonb not null check (jsonb_typeof("terms") = 'array'), "definition" text null, "note" text null,
      "source" varchar(300) null, ${enumOf('status', ['OPEN', 'MERGED', 'PROMOTED', 'REJECTED'], 'OPEN')},
      "concept_id" int null references "concepts" ("id") on delete set null,
      "created_at" timestamptz not null default now(), ${ofUser('created_by_id')},
      "decided_at" timestamptz null, ${ofUser('decided_by_id')}, "decision_comment" text null);`);
    this.addSql(
      `create index "project_candidates_project_index" on "project_candidates" ("project_id", "status", "id");`,
    );
    this.addSql(`create table "project_candidate_comments" ("id" bigserial primary key, ${tenant},
      "candidate_id" bigint not null references "project_candidates" ("id") on delete cascade,
      ${ofUser('user_id')}, "text" text not null, "created_at" timestamptz not null default now());`);
    this.addSql(
      `create index "project_candidate_comments_candidate_index" on "project_candidate_comments" ("candidate_id", "id");`,
    );

    this.addSql(`create table "project_assignments" ("id" serial primary key, ${tenant}, ${ofProject},
      "version" int not null default 1,
      ${enumOf('type', ['DRAFTING', 'TRANSLATION', 'REVISION', 'VALIDATION'], 'DRAFTING')},
      "language_code" varchar(64) null,
      "assignee_user_id" int null references "users" ("id") on delete cascade,
      "assignee_group_id" int null references "groups" ("id") on delete cascade,
      "instructions" text null, "due_at" timestamptz null,
      ${enumOf('status', ['OPEN', 'DONE', 'CANCELLED'], 'OPEN')},
      "completed_at" timestamptz null, ${ofUser('completed_by_id')}, "result" jsonb null,
      "overdue_notified_at" timestamptz null,
      "created_at" timestamptz not null default now(), ${ofUser('created_by_id')},
      check (("assignee_user_id" is null) <> ("assignee_group_id" is null)));`);
    this.addSql(
      `create index "project_assignments_project_index" on "project_assignments" ("project_id", "id");`,
    );
    this.addSql(
      `create index "project_assignments_user_index" on "project_assignments" ("assignee_user_id", "status") where "assignee_user_id" is not null;`,
    );
    this.addSql(
      `create index "project_assignments_group_index" on "project_assignments" ("assignee_group_id", "status") where "assignee_group_id" is not null;`,
    );
    // The digest's sweep: open assignments past due and not yet announced.
    this.addSql(
      `create index "project_assignments_overdue_index" on "project_assignments" ("due_at") where "status" = 'OPEN' and "overdue_notified_at" is null;`,
    );

    this.addSql(`create table "project_snapshots" (${ofProject}, "day" date not null,
      "total" int not null, "remaining" int not null, primary key ("project_id", "day"));`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'project_snapshots',
      'project_assignments',
      'project_candidate_comments',
      'project_candidates',
      'project_entries',
      'projects',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
