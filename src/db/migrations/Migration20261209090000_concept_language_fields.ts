import { Migration } from '@mikro-orm/migrations';

/**
 * Values of a concept in one language (docs/concepts.md, Language fields): what a TBX language section
 * (langSet/langSec) holds of its own, e.g. TBX-Basic's language-level sources and notes, kept at that
 * level instead of being copied onto every term. One row per concept and language tag (language, region,
 * script, as terms have them); `field_map` holds values of the dictionary's TERM-level fields by oid,
 * like a term's. Rows go with their concept (and its dictionary).
 */
export class Migration20261209090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "concept_language_fields" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade,
      "concept_id" int not null references "concepts" ("id") on update cascade on delete cascade,
      "language_code" varchar(64) not null,
      "region_code" varchar(64) null,
      "script_code" varchar(64) null,
      "field_map" jsonb not null default '{}'
    );`);
    this.addSql(
      `create unique index "concept_language_fields_key" on "concept_language_fields" ("concept_id", "language_code", coalesce("region_code", ''), coalesce("script_code", ''));`,
    );
    this.addSql(
      'create index "concept_language_fields_dictionary_index" on "concept_language_fields" ("dictionary_id");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "concept_language_fields";');
  }
}
