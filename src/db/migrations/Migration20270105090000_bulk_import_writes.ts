import { Migration } from '@mikro-orm/migrations';

/**
 * Faster bulk writes (imports, docs/exchange.md):
 * - A term inserted with its stem key already set keeps it: the imports compute the keys of a whole
 *   batch in one polyterm_stem_keys call per language (tbx-import-writer.ts), where the row trigger paid
 *   the settings look-ups once per term. Every other insert (stem_key null) and every rename still goes
 *   through the trigger.
 * - History snapshots and changes are compressed with lz4, several times faster to write than pglz at
 *   about the same size (rows written before keep pglz; both are read alike), where the server has lz4.
 */
export class Migration20270105090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop trigger if exists "terms_stem_key" on "terms";');
    this.addSql(
      `create trigger "terms_stem_key" before update of "name", "language_code", "dictionary_id" on "terms" for each row execute function polyterm_terms_stem_key();`,
    );
    this.addSql(
      `create trigger "terms_stem_key_insert" before insert on "terms" for each row when (new."stem_key" is null) execute function polyterm_terms_stem_key();`,
    );
    // A server built without lz4 (the embedded PostgreSQL of the tests) keeps pglz.
    this.addSql(`do $$ begin
      alter table "concept_history" alter column "snapshot" set compression lz4, alter column "changes" set compression lz4;
    exception when feature_not_supported then null;
    end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "terms_stem_key_insert" on "terms";');
    this.addSql('drop trigger if exists "terms_stem_key" on "terms";');
    this.addSql(
      `create trigger "terms_stem_key" before insert or update of "name", "language_code", "dictionary_id" on "terms" for each row execute function polyterm_terms_stem_key();`,
    );
    this.addSql(
      `alter table "concept_history" alter column "snapshot" set compression default, alter column "changes" set compression default;`,
    );
  }
}
