import { Migration } from '@mikro-orm/migrations';

/**
 * Terms keep their lemma keys (issue 38, docs/decoration.md "Lemma keys"): `terms.lemma_key` and
 * `terms.citation_key` (polyterm_lemma_keys of the name: its words' Hunspell lemmas, and its words as
 * written, folded) beside `stem_key`, set by the same row trigger and by the imports' batch path, null
 * where no lexicon stems the term's language. Decoration and term check read them with the matched
 * terms instead of computing them per request (each Hunspell lemma costs about a millisecond of
 * PostgreSQL CPU: term check with an Icelandic target went from 557 to 968 ms at p50 when they were
 * computed per request). A settings change rebuilds them with the stem keys (stemming.service.ts).
 */
const TRIGGER_FUNCTION = `create or replace function polyterm_terms_stem_key() returns trigger language plpgsql as $$
  begin
    new.stem_key := public.polyterm_stem_key(new.dictionary_id, new.language_code, new.name);
    new.stem_words := case when new.stem_key = '' then 0
                           else 1 + length(new.stem_key) - length(replace(new.stem_key, ' ', '')) end;
    new.lemma_key := (public.polyterm_lemma_keys(new.dictionary_id, new.language_code, array[new.name]))[1];
    new.citation_key := case when new.lemma_key is not null
      then (public.polyterm_lemma_keys(new.dictionary_id, new.language_code, array[new.name], true))[1] end;
    return new;
  end $$;`;

const PREVIOUS_TRIGGER_FUNCTION = `create or replace function polyterm_terms_stem_key() returns trigger language plpgsql as $$
  begin
    new.stem_key := public.polyterm_stem_key(new.dictionary_id, new.language_code, new.name);
    new.stem_words := case when new.stem_key = '' then 0
                           else 1 + length(new.stem_key) - length(replace(new.stem_key, ' ', '')) end;
    return new;
  end $$;`;

/** Existing terms of the (dictionary, language) pairs a lexicon stems: every other key stays null. */
const FILL = `with lexicon_languages as (
    select p.dictionary_id, p.language_code
      from (select distinct dictionary_id, language_code from "terms") p
     where public.polyterm_lemma_keys(p.dictionary_id, p.language_code, '{}') is not null)
  update "terms" t
     set "lemma_key" = (public.polyterm_lemma_keys(t.dictionary_id, t.language_code, array[t.name]))[1],
         "citation_key" = (public.polyterm_lemma_keys(t.dictionary_id, t.language_code, array[t.name], true))[1]
    from lexicon_languages l
   where t.dictionary_id = l.dictionary_id and t.language_code = l.language_code;`;

export class Migration20270106090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "terms" add column "lemma_key" text collate "C" null, add column "citation_key" text collate "C" null;`,
    );
    this.addSql(TRIGGER_FUNCTION);
    this.addSql(FILL);
  }

  override async down(): Promise<void> {
    this.addSql(PREVIOUS_TRIGGER_FUNCTION);
    this.addSql(
      'alter table "terms" drop column if exists "lemma_key", drop column if exists "citation_key";',
    );
  }
}
