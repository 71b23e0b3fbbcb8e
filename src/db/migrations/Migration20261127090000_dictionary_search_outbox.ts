import { Migration } from '@mikro-orm/migrations';

/**
 * A dictionary deleted (or brought back) reaches the search index through the outbox like any other
 * change: a row with its id, written in the deleting transaction. The drainer then removes the
 * dictionary's documents, or writes them again (docs/search.md, "Keeping the index in step"). The
 * dictionaries deleted before this migration are queued once, so their leftover documents go too.
 */
export class Migration20261127090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "search_outbox" add column "dictionary_id" int null;');
    this.addSql(`create function polyterm_outbox_dictionary() returns trigger language plpgsql as $$
      begin
        insert into search_outbox (dictionary_id) values (new.id);
        return null;
      end $$;`);
    // A row trigger: transition tables cannot go with a column list, and dictionaries change one at a time.
    this.addSql(
      `create trigger "dictionaries_search_outbox_deleted" after update of "deleted" on "dictionaries" for each row when (old."deleted" is distinct from new."deleted") execute function polyterm_outbox_dictionary();`,
    );
    this.addSql(
      'insert into "search_outbox" ("dictionary_id") select "id" from "dictionaries" where "deleted";',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "dictionaries_search_outbox_deleted" on "dictionaries";');
    this.addSql('drop function if exists polyterm_outbox_dictionary();');
    this.addSql('delete from "search_outbox" where "dictionary_id" is not null and "concept_id" is null;');
    this.addSql('alter table "search_outbox" drop column "dictionary_id";');
  }
}
