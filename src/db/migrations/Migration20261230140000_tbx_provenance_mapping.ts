import { Migration } from '@mikro-orm/migrations';

/**
 * TBX (issues 37 and 38). `concept_history.provenance`: on the items a TBX import writes, who created
 * and last changed the concept and its terms according to the file (names and dates of its
 * transactions), shown by the history calls (docs/history.md); null on every other item.
 * `tbx_settings`: a dictionary's default mapping of TBX administrative statuses to term statuses
 * (docs/tbx.md); a dictionary without a row uses the built-in rule.
 */
export class Migration20261230140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "concept_history" add column "provenance" jsonb null;');
    this.addSql(
      `create table "tbx_settings" (
         "dictionary_id" int not null primary key references "dictionaries" ("id") on delete cascade,
         "client_id" int not null references "clients" ("id") on delete cascade,
         "status_mapping" jsonb not null default '{}',
         "changed_at" timestamptz not null default now());`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "tbx_settings";');
    this.addSql('alter table "concept_history" drop column if exists "provenance";');
  }
}
