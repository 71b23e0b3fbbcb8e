import { Migration } from '@mikro-orm/migrations';

const tenant = `"client_id" int not null references "clients" ("id") on update cascade`;
const ofDictionary = `"dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade`;
const ofConcept = (column: string, nullable = false) =>
  `"${column}" int ${nullable ? 'null' : 'not null'} references "concepts" ("id") on update cascade on delete cascade`;
const enumOf = (column: string, values: readonly string[], fallback?: string) =>
  `"${column}" text check ("${column}" in (${values.map((v) => `'${v}'`).join(', ')})) not null${fallback ? ` default '${fallback}'` : ''}`;

/**
 * Concepts and terms in full: per-dictionary serial counters, relations, reference links, comments,
 * concept locks and concept history (docs/concepts.md).
 */
export class Migration20261121170000 extends Migration {
  override async up(): Promise<void> {
    // Serial numbers (cid, tid, relationId) come from this row, updated in the writer's transaction.
    this.addSql(
      `create table "dictionary_counters" ("dictionary_id" int primary key references "dictionaries" ("id") on update cascade on delete cascade, "last_cid" bigint not null default 0, "last_tid" int not null default 0, "last_relation_id" int not null default 0);`,
    );
    // Rows written before the counters existed: start each counter after what is already used (once).
    this.addSql(
      `insert into "dictionary_counters" ("dictionary_id", "last_cid", "last_tid")
         select d.id,
                coalesce((select max(c.cid::bigint) from concepts c where c.dictionary_id = d.id and c.cid ~ '^[0-9]{1,18}$'), 0),
                coalesce((select max(t.tid) from terms t where t.dictionary_id = d.id), 0)
           from dictionaries d;`,
    );

    this.addSql(
      `create unique index "concepts_dictionary_cid_unique" on "concepts" ("dictionary_id", "cid");`,
    );
    this.addSql(`create index "concepts_client_oid_index" on "concepts" ("client_id", "oid");`);
    this.addSql(`create unique index "terms_dictionary_tid_unique" on "terms" ("dictionary_id", "tid");`);
    this.addSql(`create index "terms_client_oid_index" on "terms" ("client_id", "oid");`);

    this.addSql(
      `create table "concept_relations" ("id" serial primary key, "oid" varchar(64) null, ${tenant}, ${ofDictionary}, ${ofConcept('source_concept_id')}, ${ofConcept('target_concept_id')}, "type" smallint not null check ("type" between 0 and 4), "attribute" smallint not null check ("attribute" between 0 and 11), "text" text null, "relation_id" int not null, "created_at" timestamptz not null, "created_by_id" int null references "users" ("id") on delete set null, check ("source_concept_id" <> "target_concept_id"));`,
    );
    this.addSql(
      `create index "concept_relations_source_index" on "concept_relations" ("source_concept_id");`,
    );
    this.addSql(
      `create index "concept_relations_target_index" on "concept_relations" ("target_concept_id");`,
    );

    this.addSql(
      `create table "ref_links" ("id" serial primary key, "oid" varchar(64) null, ${tenant}, ${ofDictionary}, ${ofConcept('source_concept_id')}, "source_term_id" int null references "terms" ("id") on update cascade on delete cascade, "source_field_oid" varchar(64) not null, ${enumOf('type', ['CONCEPT', 'TERM', 'URL'])}, "text" text not null, "dynamic_text" text null, "position" int not null check ("position" >= 0), "url" text null, "concept_id" int null references "concepts" ("id") on update cascade on delete set null, "term_id" int null references "terms" ("id") on update cascade on delete set null, "language_code" varchar(64) null, "invalid" boolean not null default false);`,
    );
    this.addSql(`create index "ref_links_source_concept_index" on "ref_links" ("source_concept_id");`);
    this.addSql(`create index "ref_links_concept_index" on "ref_links" ("concept_id");`);
    this.addSql(`create index "ref_links_term_index" on "ref_links" ("term_id");`);

    this.addSql(
      `create table "comments" ("id" serial primary key, "oid" varchar(64) null, ${tenant}, ${ofDictionary}, ${ofConcept('concept_id')}, ${enumOf('field_level', ['CONCEPT', 'TERM'])}, "entry_id" int not null, "text" text not null, "user_id" int null references "users" ("id") on delete set null, "author_name" varchar(255) null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "comments_entry_index" on "comments" ("entry_id", "field_level", "created_at");`,
    );
    this.addSql(`create index "comments_concept_index" on "comments" ("concept_id", "created_at");`);

    // One row per locked concept; a lock is live while it has not expired and its session has not ended.
    this.addSql(
      `create table "concept_locks" (${ofConcept('concept_id')} primary key, ${tenant}, "user_id" int not null references "users" ("id") on delete cascade, "session_id" int not null references "sessions" ("id") on delete cascade, "acquired_at" timestamptz not null, "expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "concept_locks_session_index" on "concept_locks" ("session_id");`);

    this.addSql(
      `create table "concept_history" ("id" serial primary key, "oid" varchar(64) null, ${tenant}, ${ofDictionary}, ${ofConcept('concept_id')}, "revision" int not null, ${enumOf('action', ['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'UNDO'])}, "user_id" int null references "users" ("id") on delete set null, "created_at" timestamptz not null, "changes" jsonb not null default '[]' check (jsonb_typeof("changes") = 'array'), "snapshot" jsonb not null, "restored_from_id" int null references "concept_history" ("id") on delete set null);`,
    );
    this.addSql(
      `create unique index "concept_history_concept_revision_unique" on "concept_history" ("concept_id", "revision");`,
    );
    this.addSql(
      `create index "concept_history_dictionary_index" on "concept_history" ("dictionary_id", "created_at", "id");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'concept_history',
      'concept_locks',
      'comments',
      'ref_links',
      'concept_relations',
      'dictionary_counters',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql(`drop index if exists "concepts_dictionary_cid_unique";`);
    this.addSql(`drop index if exists "concepts_client_oid_index";`);
    this.addSql(`drop index if exists "terms_dictionary_tid_unique";`);
    this.addSql(`drop index if exists "terms_client_oid_index";`);
  }
}
