import { Migration } from '@mikro-orm/migrations';

/**
 * Feedback (docs/feedback.md): what readers send about a dictionary, a concept or a term, with an
 * optional attachment held by the storage module, and the answers of the dictionary's administrators.
 * Concepts and terms are soft-deleted, so their rows stay; should one go for good, its feedback stays
 * with the dictionary (set null). Indexes serve the list's filters (status, dictionary, target, sender)
 * under its sorts (created, changed), and the open count of the statistics.
 */
export class Migration20270103090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "feedback" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade,
      "target" text not null check ("target" in ('DICTIONARY', 'CONCEPT', 'TERM')),
      "concept_id" int null references "concepts" ("id") on update cascade on delete set null,
      "term_id" int null references "terms" ("id") on update cascade on delete set null,
      "target_label" varchar(255) null,
      "text" text not null,
      "status" text not null default 'OPEN' check ("status" in ('OPEN', 'ANSWERED', 'CLOSED')),
      "sender_id" int null references "users" ("id") on delete set null,
      "sender_guest" boolean not null default false,
      "sender_name" varchar(255) null,
      "sender_email" varchar(320) null,
      "session_id" int null,
      "attachment_key" varchar(255) null,
      "attachment_name" varchar(255) null,
      "attachment_type" varchar(255) null,
      "attachment_size" bigint null,
      "created_at" timestamptz not null default now(),
      "changed_at" timestamptz not null default now(),
      "closed_at" timestamptz null,
      "closed_by_id" int null references "users" ("id") on delete set null
    );`);
    for (const [name, columns] of [
      ['client_status', '"client_id", "status", "created_at"'],
      ['client_changed', '"client_id", "changed_at"'],
      ['dictionary_status', '"dictionary_id", "status", "created_at"'],
      ['dictionary_target', '"dictionary_id", "target", "created_at"'],
      ['dictionary_changed', '"dictionary_id", "changed_at"'],
      ['concept', '"concept_id"'],
      ['term', '"term_id"'],
      ['sender', '"sender_id", "created_at"'],
    ] as const) {
      this.addSql(`create index "feedback_${name}_index" on "feedback" (${columns});`);
    }
    this.addSql(`create table "feedback_answers" (
      "id" serial primary key,
      "feedback_id" int not null references "feedback" ("id") on update cascade on delete cascade,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "text" text not null,
      "author_id" int null references "users" ("id") on delete set null,
      "author_name" varchar(255) null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index "feedback_answers_feedback_index" on "feedback_answers" ("feedback_id", "created_at");`,
    );
    // Guests send feedback only where the client allows it, as with comments (enable_commenting).
    this.addSql(`alter table "guest_settings" add column "enable_feedback" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "guest_settings" drop column if exists "enable_feedback";');
    this.addSql('drop table if exists "feedback_answers";');
    this.addSql('drop table if exists "feedback";');
  }
}
