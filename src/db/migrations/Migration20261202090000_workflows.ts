import { Migration } from '@mikro-orm/migrations';

const tenant = `"client_id" int not null references "clients" ("id") on update cascade on delete cascade`;
const ofDictionary = `"dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade`;
const ofConcept = `"concept_id" int not null references "concepts" ("id") on update cascade on delete cascade`;
const ofUser = (column: string) => `"${column}" int null references "users" ("id") on delete set null`;
const enumOf = (column: string, values: readonly string[]) =>
  `"${column}" text check ("${column}" in (${values.map((v) => `'${v}'`).join(', ')})) not null`;

/**
 * Workflows (docs/workflows.md): definitions per dictionary (states and transitions as checked JSON),
 * the state of each governed entry (a concept, a language section of a concept, or a term), every
 * transition fired, votes on transitions that need them, and e-mail notifications waiting to be sent.
 * Entries without a state row are in the workflow's initial state, so switching a workflow on writes
 * nothing per entry.
 */
export class Migration20261202090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "workflows" ("id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null, "created_at" timestamptz not null, "created_by_id" int null, "changed_at" timestamptz not null, "changed_by_id" int null, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "description" text null, ${enumOf('unit', ['CONCEPT', 'LANGUAGE', 'TERM'])}, "enabled" boolean not null default false, "definition" jsonb not null check (jsonb_typeof("definition") = 'object'));`,
    );
    // At most one workflow governs a dictionary at a time.
    this.addSql(
      `create unique index "workflows_dictionary_enabled_unique" on "workflows" ("dictionary_id") where "enabled" and not "deleted";`,
    );
    this.addSql(
      `create index "workflows_client_dictionary_index" on "workflows" ("client_id", "dictionary_id", "name");`,
    );

    // language_code is '' for the CONCEPT unit, term_id 0 for CONCEPT and LANGUAGE: one unique key, no nulls.
    this.addSql(
      `create table "workflow_entry_states" ("id" bigserial primary key, ${tenant}, ${ofDictionary}, "workflow_id" int not null references "workflows" ("id") on delete cascade, ${ofConcept}, "language_code" varchar(64) not null default '', "term_id" int not null default 0, "state" varchar(64) not null, "category" varchar(16) not null, "version" int not null default 1, "entered_at" timestamptz not null default now(), ${ofUser('entered_by_id')}, ${ofUser('assignee_id')}, "revalidate_at" timestamptz null);`,
    );
    this.addSql(
      `create unique index "workflow_entry_states_entry_unique" on "workflow_entry_states" ("workflow_id", "concept_id", "language_code", "term_id");`,
    );
    this.addSql(
      `create index "workflow_entry_states_dictionary_state_index" on "workflow_entry_states" ("dictionary_id", "state", "language_code");`,
    );
    this.addSql(
      `create index "workflow_entry_states_concept_index" on "workflow_entry_states" ("concept_id");`,
    );
    this.addSql(
      `create index "workflow_entry_states_term_index" on "workflow_entry_states" ("term_id") where "term_id" <> 0;`,
    );
    this.addSql(
      `create index "workflow_entry_states_assignee_index" on "workflow_entry_states" ("assignee_id", "dictionary_id", "language_code") where "assignee_id" is not null;`,
    );
    this.addSql(
      `create index "workflow_entry_states_revalidate_index" on "workflow_entry_states" ("revalidate_at") where "revalidate_at" is not null;`,
    );

    this.addSql(
      `create table "workflow_transitions" ("id" bigserial primary key, ${tenant}, ${ofDictionary}, "workflow_id" int not null references "workflows" ("id") on delete cascade, ${ofConcept}, "language_code" varchar(64) not null default '', "term_id" int not null default 0, "transition" varchar(64) null, "from_state" varchar(64) not null, "to_state" varchar(64) not null, ${ofUser('user_id')}, "comment" text null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "workflow_transitions_concept_index" on "workflow_transitions" ("concept_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "workflow_transitions_dictionary_index" on "workflow_transitions" ("dictionary_id", "created_at");`,
    );

    // Votes count for the entry's current state only: a state change deletes them.
    this.addSql(
      `create table "workflow_votes" ("id" bigserial primary key, ${tenant}, "entry_state_id" bigint not null references "workflow_entry_states" ("id") on delete cascade, "transition" varchar(64) not null, "user_id" int not null references "users" ("id") on delete cascade, "comment" text null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create unique index "workflow_votes_entry_user_unique" on "workflow_votes" ("entry_state_id", "transition", "user_id");`,
    );

    this.addSql(
      `create table "workflow_notifications" ("id" bigserial primary key, ${tenant}, "user_id" int not null references "users" ("id") on delete cascade, ${ofDictionary}, "subject" text not null, "body" text not null, "digest" boolean not null default false, "created_at" timestamptz not null default now(), "sent_at" timestamptz null);`,
    );
    this.addSql(
      `create index "workflow_notifications_pending_index" on "workflow_notifications" ("user_id", "created_at") where "sent_at" is null;`,
    );
    // How a user wants workflow mail: each at once, or a digest every N hours.
    this.addSql(
      `create table "workflow_mail_settings" ("user_id" int primary key references "users" ("id") on delete cascade, ${tenant}, "digest_hours" int null check ("digest_hours" between 1 and 720), "last_digest_at" timestamptz null);`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'workflow_mail_settings',
      'workflow_notifications',
      'workflow_votes',
      'workflow_transitions',
      'workflow_entry_states',
      'workflows',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
