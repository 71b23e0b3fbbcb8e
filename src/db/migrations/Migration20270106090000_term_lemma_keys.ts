import { Migration } from '@mikro-orm/migrations';
import { LEMMA_KEYS as PREVIOUS_LEMMA_KEYS } from './Migration20270104090000_lemma_keys.js';

/**
 * Lemma keys, faster and stored (issue 38, docs/decoration.md "Lemma keys"): term check with an
 * Icelandic target went from 557 to 968 ms at p50 when the lemma ranking came in, each Hunspell lemma
 * costing about a millisecond of PostgreSQL CPU, for the text's words and per matched term.
 *
 * 1. Terms keep their lemma keys: `terms.lemma_key` and `terms.citation_key` (polyterm_lemma_keys of
 *    the name: its words' Hunspell lemmas, and its words as written, folded) beside `stem_key`, set by
 *    the same row trigger and by the imports' batch path, null where no lexicon stems the term's
 *    language. Decoration and term check read them with the matched terms instead of computing them
 *    per request. A settings change rebuilds them with the stem keys (stemming.service.ts).
 * 2. `polyterm_hunspell_lemma` reads a full-form table, `stemming_hunspell_forms`: every form a suffix
 *    rule makes of a flagged stem (its condition met), with the least such stem, built once from the
 *    stems and rules (205,805 forms of 7,871 Icelandic stems; 90,640 distinct). One index probe per
 *    word instead of undoing every rule whose appended letters end the word and probing the stems for
 *    each (about 440 probes, 0.75 ms). The answers are the same: a form is in the table exactly when
 *    undoing one of its rules gives a stem with that rule's flag whose ending meets the condition.
 *    A lexicon loaded later (loadLexicon) gets its forms with `lexiconFormsSql`; until it does, the
 *    function undoes the rules as before.
 * 3. A term's citation key reads a word written in its definite form as the word itself: *Netið* (the
 *    Internet; net + the article -ið) cites `net` as *Net* (Network) does, so "netsins" (of the net)
 *    finds both at one level, as two concepts named by forms of one noun, instead of *Net* alone. Only
 *    the definite article (the lexicon's article suffixes right after the lemma): a participle
 *    (*sendandi*, of senda), a plural (*gagnaskrár*) or another word class keeps its own citation.
 */
const LEMMA_KEYS = `create or replace function polyterm_lemma_keys(p_dictionary int, p_language text, p_texts text[],
    p_citation boolean default false)
  returns text[] language plpgsql stable parallel safe as $$
  declare
    v_algorithm text;
    v_protected text[] := '{}';
    v_overrides jsonb := '{}';
    v_lexicon text;
    v_articles text[];
    v_lower text;
    v_lemma text;
    v_result text[] := '{}';
    v_text text;
    v_word text;
    v_folded text;
    v_key text;
  begin
    select s.algorithm, s.protected_words, s.overrides into v_algorithm, v_protected, v_overrides
      from public.stemming_settings s
     where s.dictionary_id = p_dictionary and s.language_code = lower(p_language);
    if not found then
      v_protected := '{}';
      v_overrides := '{}';
    end if;
    if v_algorithm is null then
      select l.algorithm into v_algorithm from public.stemming_languages l where l.code = lower(p_language);
    end if;
    select l.algorithm, l.article_suffixes into v_lexicon, v_articles
      from public.stemming_lexicons l where l.algorithm = v_algorithm;
    if v_lexicon is null then
      return null;
    end if;
    foreach v_text in array coalesce(p_texts, '{}') loop
      v_key := null;
      foreach v_word in array regexp_split_to_array(coalesce(v_text, ''), '[[:space:][:punct:]]+') loop
        continue when v_word = '';
        v_folded := public.polyterm_fold(v_word);
        if v_overrides ? v_folded then
          v_word := v_overrides ->> v_folded;
          v_folded := public.polyterm_fold(v_word);
        end if;
        if not (v_folded = any(v_protected)) then
          v_lower := public.polyterm_lower(v_word);
          v_lemma := public.polyterm_hunspell_lemma(v_lexicon, v_lower);
          if not p_citation then
            v_folded := public.polyterm_fold(coalesce(v_lemma, v_word));
          elsif v_lemma is not null and v_lemma <> v_lower
                and exists (select 1 from unnest(v_articles) a where v_lower = v_lemma || a) then
            -- A label written in its definite form (Netið: net + the article -ið) cites its word.
            v_folded := public.polyterm_fold(v_lemma);
          end if;
        end if;
        v_key := case when v_key is null then v_folded else v_key || ' ' || v_folded end;
      end loop;
      v_result := v_result || coalesce(v_key, '');
    end loop;
    return v_result;
  end $$;`;
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

const FORMS_TABLE = `create table "stemming_hunspell_forms" (
    "algorithm" text collate "C" not null references "stemming_lexicons" ("algorithm") on delete cascade,
    "form" text collate "C" not null,
    "lemma" text collate "C" not null,
    primary key ("algorithm", "form"));`;

/** A lexicon's full forms: each suffix rule applied to each stem carrying its flag, where its condition holds. */
export const lexiconFormsSql = (
  algorithm: string,
) => `insert into "stemming_hunspell_forms" ("algorithm", "form", "lemma")
  select s.algorithm, left(s.stem, length(s.stem) - length(r.strip)) || r.append, min(s.stem collate "C")
    from "stemming_hunspell_stems" s
    cross join unnest(s.flags) f(flag)
    join "stemming_hunspell_suffixes" r on r.algorithm = s.algorithm and r.flag = f.flag
   where s.algorithm = '${algorithm.replaceAll("'", "''")}' and right(s.stem, length(r.strip)) = r.strip and s.stem ~ r.condition
   group by 1, 2
  on conflict do nothing;`;

/** The rule walk of Migration20261230140000_isl, kept for a lexicon without forms. */
const RULE_WALK = `(select min(m.stem collate "C")
               from (select c.stem, c.condition
                       from (select left(p_word, length(p_word) - length(r.append)) || r.strip as stem, r.flag, r.condition
                               from public.stemming_hunspell_suffixes r
                              where r.algorithm = p_algorithm
                                and r.append = any (array(select right(p_word, n) from generate_series(0, length(p_word)) n))) c
                       join public.stemming_hunspell_stems s
                         on s.algorithm = p_algorithm and s.stem = c.stem and c.flag = any (s.flags)
                     offset 0) m
              where m.stem ~ m.condition)`;

const LEMMA_FUNCTION = `create or replace function polyterm_hunspell_lemma(p_algorithm text, p_word text) returns text
  language sql stable parallel safe as $$
  select case
    when exists (select 1 from public.stemming_hunspell_stems s where s.algorithm = p_algorithm and s.stem = p_word)
      then p_word
    when exists (select 1 from public.stemming_hunspell_forms f where f.algorithm = p_algorithm)
      then (select f.lemma from public.stemming_hunspell_forms f where f.algorithm = p_algorithm and f.form = p_word)
    else ${RULE_WALK}
  end $$;`;

const PREVIOUS_LEMMA_FUNCTION = `create or replace function polyterm_hunspell_lemma(p_algorithm text, p_word text) returns text
  language sql stable parallel safe as $$
  select case
    when exists (select 1 from public.stemming_hunspell_stems s where s.algorithm = p_algorithm and s.stem = p_word)
      then p_word
    else ${RULE_WALK}
  end $$;`;

export class Migration20270106090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(FORMS_TABLE);
    // The one lexicon so far (Migration20261230140000_isl).
    this.addSql(lexiconFormsSql('icelandic'));
    this.addSql(LEMMA_FUNCTION);
    this.addSql(LEMMA_KEYS);
    this.addSql(
      `alter table "terms" add column "lemma_key" text collate "C" null, add column "citation_key" text collate "C" null;`,
    );
    this.addSql(TRIGGER_FUNCTION);
    this.addSql(FILL);
  }

  override async down(): Promise<void> {
    this.addSql(PREVIOUS_LEMMA_KEYS);
    this.addSql(PREVIOUS_LEMMA_FUNCTION);
    this.addSql('drop table if exists "stemming_hunspell_forms";');
    this.addSql(PREVIOUS_TRIGGER_FUNCTION);
    this.addSql(
      'alter table "terms" drop column if exists "lemma_key", drop column if exists "citation_key";',
    );
  }
}
