import { Migration } from '@mikro-orm/migrations';

/**
 * Search keys stored with each term (docs/search.md): `name_lower` and `name_folded` are generated
 * columns, so polyterm_lower and polyterm_fold run once when a name is written, not once per index,
 * per search row (fuzzy search compares every candidate's folded name) and per document the
 * Elasticsearch drain builds. Their collation is "C": the list order is by code point.
 */
/** The expression indexes of Migration20261122090000_search that the columns replace. */
const REPLACED_INDEXES = [
  'terms_search_folded_index',
  'terms_search_lower_index',
  'terms_search_folded_trgm_index',
  'terms_search_lower_trgm_index',
];

export class Migration20261123090000 extends Migration {
  override async up(): Promise<void> {
    for (const index of REPLACED_INDEXES) {
      this.addSql(`drop index if exists "${index}";`);
    }
    this.addSql(
      `alter table "terms"
         add column "name_lower" text collate "C" generated always as (polyterm_lower("name")) stored,
         add column "name_folded" text collate "C" generated always as (polyterm_fold("name")) stored;`,
    );
    // The list order (folded, name, id) and prefix ranges, per dictionary and language.
    this.addSql(
      `create index "terms_search_folded_index" on "terms" ("dictionary_id", "language_code", "name_folded", "name" collate "C", "id") where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_index" on "terms" ("dictionary_id", "language_code", "name_lower") where not "deleted";`,
    );
    // Substring search (ALWAYS_WILDCARD).
    this.addSql(
      `create index "terms_search_folded_trgm_index" on "terms" using gin ("name_folded" gin_trgm_ops) where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_trgm_index" on "terms" using gin ("name_lower" gin_trgm_ops) where not "deleted";`,
    );
    // Fuzzy search: only names whose length is within the edit distance can match.
    this.addSql(
      `create index "terms_search_folded_length_index" on "terms" ("dictionary_id", "language_code", char_length("name_folded")) where not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "terms_search_folded_length_index";');
    for (const index of REPLACED_INDEXES) {
      this.addSql(`drop index if exists "${index}";`);
    }
    this.addSql('alter table "terms" drop column "name_folded", drop column "name_lower";');
    this.addSql(
      `create index "terms_search_folded_index" on "terms" ("dictionary_id", "language_code", (polyterm_fold("name")) collate "C", "name" collate "C", "id") where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_index" on "terms" ("dictionary_id", "language_code", (polyterm_lower("name")) collate "C") where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_folded_trgm_index" on "terms" using gin ((polyterm_fold("name")) gin_trgm_ops) where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_trgm_index" on "terms" using gin ((polyterm_lower("name")) gin_trgm_ops) where not "deleted";`,
    );
  }
}
