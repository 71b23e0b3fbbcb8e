import { Migration } from '@mikro-orm/migrations';

/**
 * Term search (docs/search.md):
 * - the folding functions both engines share: Elasticsearch documents get their keys from these same
 *   functions, so PostgreSQL and Elasticsearch agree on every match and on the order;
 * - the indexes of the PostgreSQL engine (prefix, substring, fuzzy, duplicates, merge=TERM);
 * - the transactional outbox: statement triggers record every concept whose terms, domains or values
 *   changed, in the writer's own transaction, whatever code path wrote them.
 */
export class Migration20261122090000 extends Migration {
  override async up(): Promise<void> {
    // All three are trusted extensions: the database owner may create them.
    this.addSql('create extension if not exists unaccent;');
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql('create extension if not exists fuzzystrmatch;');

    // Function bodies name their schema: index builds run with a restricted search_path (PostgreSQL 17+).
    // Unicode lower case whatever the database's locale (a "C" database lowers ASCII only).
    this.addSql(`do $$ begin
      if exists (select 1 from pg_collation where collname = 'und-x-icu') then
        create function polyterm_lower(value text) returns text language sql immutable strict parallel safe
          as 'select lower(value collate "und-x-icu")';
      else
        create function polyterm_lower(value text) returns text language sql immutable strict parallel safe
          as 'select lower(value)';
      end if;
    end $$;`);
    // Case and accent folding (Á→a, ß→ss, Þ→th, æ→ae). unaccent() is only STABLE because its dictionary
    // could change; naming the dictionary makes the wrapper safe to index.
    this.addSql(`create function polyterm_fold(value text) returns text language sql immutable strict parallel safe
      as $$ select public.polyterm_lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;`);
    // The words of a text for field-value search: folded, split at spaces and punctuation (duplicates
    // kept: they change no match, and leaving them is much cheaper than sorting them out).
    this.addSql(`create function polyterm_words(value text) returns text[] language sql immutable strict parallel safe
      as $$ select array_remove(regexp_split_to_array(public.polyterm_fold(value), '[[:space:][:punct:]]+'), '') $$;`);
    // The words of a field map, each as "<field oid>\u0001<word>".
    this.addSql(`create function polyterm_field_words(field_map jsonb) returns text[] language sql immutable strict parallel safe
      as $$ select coalesce(array_agg(entry.key || chr(1) || word), '{}')
              from jsonb_each(field_map) entry,
                   jsonb_array_elements_text(case jsonb_typeof(entry.value) when 'array' then entry.value else jsonb_build_array(entry.value) end) item,
                   unnest(public.polyterm_words(item)) word $$;`);

    // PostgreSQL engine: order (folded, name, id) and prefix ranges, per dictionary and language.
    this.addSql(
      `create index "terms_search_folded_index" on "terms" ("dictionary_id", "language_code", (polyterm_fold("name")) collate "C", "name" collate "C", "id") where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_index" on "terms" ("dictionary_id", "language_code", (polyterm_lower("name")) collate "C") where not "deleted";`,
    );
    // Substring (ALWAYS_WILDCARD) and the fuzzy pre-filter.
    this.addSql(
      `create index "terms_search_folded_trgm_index" on "terms" using gin ((polyterm_fold("name")) gin_trgm_ops) where not "deleted";`,
    );
    this.addSql(
      `create index "terms_search_lower_trgm_index" on "terms" using gin ((polyterm_lower("name")) gin_trgm_ops) where not "deleted";`,
    );
    // TBX merge=TERM and exact-name lookups.
    this.addSql(
      `create index "terms_dictionary_language_name_index" on "terms" ("dictionary_id", "language_code", "name") where not "deleted";`,
    );

    this.addSql(
      `create table "search_outbox" ("id" bigserial primary key, "concept_id" int null, "term_id" int null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create function polyterm_outbox_terms() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          -- Gone rows cannot be read back: their ids go along so that their documents are removed.
          insert into search_outbox (concept_id, term_id) select concept_id, id from old_rows;
        elsif tg_op = 'UPDATE' then
          insert into search_outbox (concept_id)
            select concept_id from new_rows union select concept_id from old_rows;
        else
          insert into search_outbox (concept_id) select distinct concept_id from new_rows;
        end if;
        return null;
      end $$;`);
    this.addSql(`create function polyterm_outbox_concepts() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into search_outbox (concept_id) select distinct concept_id from old_rows;
        else
          insert into search_outbox (concept_id) select distinct concept_id from new_rows;
        end if;
        return null;
      end $$;`);
    this.addSql(`create function polyterm_outbox_concept_rows() returns trigger language plpgsql as $$
      begin
        insert into search_outbox (concept_id) select id from new_rows;
        return null;
      end $$;`);
    // A trigger with transition tables serves one event.
    for (const [event, transition] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const) {
      this.addSql(
        `create trigger "terms_search_outbox_${event}" after ${event} on "terms" referencing ${transition} for each statement execute function polyterm_outbox_terms();`,
      );
    }
    this.addSql(
      `create trigger "concept_domains_search_outbox_insert" after insert on "concept_domains" referencing new table as new_rows for each statement execute function polyterm_outbox_concepts();`,
    );
    this.addSql(
      `create trigger "concept_domains_search_outbox_delete" after delete on "concept_domains" referencing old table as old_rows for each statement execute function polyterm_outbox_concepts();`,
    );
    // Section, deletion and concept values change what a concept's term documents hold.
    this.addSql(
      `create trigger "concepts_search_outbox_update" after update on "concepts" referencing new table as new_rows for each statement execute function polyterm_outbox_concept_rows();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "concepts_search_outbox_update" on "concepts";');
    this.addSql('drop trigger if exists "concept_domains_search_outbox_delete" on "concept_domains";');
    this.addSql('drop trigger if exists "concept_domains_search_outbox_insert" on "concept_domains";');
    for (const event of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger if exists "terms_search_outbox_${event}" on "terms";`);
    }
    this.addSql('drop function if exists polyterm_outbox_concept_rows();');
    this.addSql('drop function if exists polyterm_outbox_concepts();');
    this.addSql('drop function if exists polyterm_outbox_terms();');
    this.addSql('drop table if exists "search_outbox";');
    this.addSql('drop index if exists "terms_dictionary_language_name_index";');
    this.addSql('drop index if exists "terms_search_lower_trgm_index";');
    this.addSql('drop index if exists "terms_search_folded_trgm_index";');
    this.addSql('drop index if exists "terms_search_lower_index";');
    this.addSql('drop index if exists "terms_search_folded_index";');
    this.addSql('drop function if exists polyterm_field_words(jsonb);');
    this.addSql('drop function if exists polyterm_words(text);');
    this.addSql('drop function if exists polyterm_fold(text);');
    this.addSql('drop function if exists polyterm_lower(text);');
  }
}
