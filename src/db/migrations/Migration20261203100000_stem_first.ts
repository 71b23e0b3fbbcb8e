import { Migration } from '@mikro-orm/migrations';

/**
 * The first word of each term's stem key, indexed with the key's number of words: term decoration asks,
 * for the words of a text, how many words the longest term starting with each of them has, so that it
 * looks up only the spans that can be terms instead of every span as long as the longest term
 * (docs/decoration.md). Generated from `stem_key`, which the row trigger sets before it is computed.
 */
export class Migration20261203100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "terms" add column "stem_first" text collate "C" generated always as (split_part("stem_key", ' ', 1)) stored;`,
    );
    this.addSql(
      `create index "terms_stem_first_index" on "terms" ("dictionary_id", "language_code", "stem_first", "stem_words") where not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "terms_stem_first_index";');
    this.addSql('alter table "terms" drop column if exists "stem_first";');
  }
}
