import { Migration } from '@mikro-orm/migrations';

/**
 * Lemma and citation keys in one pass (issues 43 and 39: imports at the COPY floor). A profile of a
 * 20,000-term TBX import spent 8.1 of 31 s in `polyterm_lemma_keys`: the batch path and the row trigger
 * called it twice per batch (lemma keys, then citation keys), each call reading the stemming settings
 * again and folding and looking up every word in Hunspell again, once per occurrence.
 *
 * `polyterm_lemma_citation_keys` answers both arrays from one call: the settings are read once, and the
 * per-word work (fold, override, protection, lowering, Hunspell lemma, definite article) is done once
 * per DISTINCT word of the texts, set-based, then the keys are put back together in word order. The
 * expressions are those of `polyterm_lemma_keys` (Migration20270106090000_term_lemma_keys), which stays
 * for its other callers (decoration, term check, stem-keys.ts); test/stemming/lemma-citation-keys.test.ts
 * checks the two agree on every term name of the Icelandic Term Bank.
 */
const LEMMA_CITATION_KEYS = `create or replace function polyterm_lemma_citation_keys(p_dictionary int, p_language text,
    p_texts text[], out lemma_keys text[], out citation_keys text[])
  language plpgsql stable parallel safe as $$
  declare
    v_algorithm text;
    v_protected text[] := '{}';
    v_overrides jsonb := '{}';
    v_lexicon text;
    v_articles text[];
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
      return; -- no lexicon stems the language: both null, as polyterm_lemma_keys answers
    end if;
    with texts as (
      select t.ord, coalesce(t.name, '') as name from unnest(coalesce(p_texts, '{}')) with ordinality t(name, ord)),
    words as materialized (
      select t.ord, w.pos, w.word
        from texts t
        cross join lateral regexp_split_to_table(t.name, '[[:space:][:punct:]]+') with ordinality w(word, pos)
       where w.word <> ''),
    distinct_words as (select distinct w.word from words w),
    written as (
      -- An override replaces the word as written (keyed by its folded form).
      select d.word, o.written, public.polyterm_fold(o.written) as folded
        from distinct_words d
        cross join lateral (select public.polyterm_fold(d.word) as folded) f
        cross join lateral (select case when v_overrides ? f.folded then v_overrides ->> f.folded else d.word end as written) o),
    lemmas as (
      -- A protected word is keyed as written, folded, and is not looked up.
      select w.word, w.written, w.folded, p.stemmed, l.lower,
             case when p.stemmed then public.polyterm_hunspell_lemma(v_lexicon, l.lower) end as lemma
        from written w
        cross join lateral (select coalesce(not (w.folded = any(v_protected)), false) as stemmed) p
        cross join lateral (select public.polyterm_lower(w.written) as lower) l),
    word_keys as (
      select m.word,
             case when m.stemmed then public.polyterm_fold(coalesce(m.lemma, m.written)) else m.folded end as lemma_key,
             case when m.stemmed and m.lemma is not null and m.lemma <> m.lower
                       and exists (select 1 from unnest(v_articles) a where m.lower = m.lemma || a)
                    -- A label written in its definite form (Netið: net + the article -ið) cites its word.
                    then public.polyterm_fold(m.lemma)
                  else m.folded end as citation_key
        from lemmas m),
    text_keys as (
      select w.ord, string_agg(k.lemma_key, ' ' order by w.pos) as lemma_key,
             string_agg(k.citation_key, ' ' order by w.pos) as citation_key
        from words w join word_keys k on k.word = w.word
       group by w.ord)
    select coalesce(array_agg(coalesce(k.lemma_key, '') order by t.ord), '{}'),
           coalesce(array_agg(coalesce(k.citation_key, '') order by t.ord), '{}')
      into lemma_keys, citation_keys
      from texts t left join text_keys k on k.ord = t.ord;
  end $$;`;

const TRIGGER_FUNCTION = `create or replace function polyterm_terms_stem_key() returns trigger language plpgsql as $$
  declare
    v_keys record;
  begin
    new.stem_key := public.polyterm_stem_key(new.dictionary_id, new.language_code, new.name);
    new.stem_words := case when new.stem_key = '' then 0
                           else 1 + length(new.stem_key) - length(replace(new.stem_key, ' ', '')) end;
    select * into v_keys from public.polyterm_lemma_citation_keys(new.dictionary_id, new.language_code, array[new.name]);
    new.lemma_key := v_keys.lemma_keys[1];
    new.citation_key := v_keys.citation_keys[1];
    return new;
  end $$;`;

/** Migration20270106090000_term_lemma_keys's trigger function. */
const PREVIOUS_TRIGGER_FUNCTION = `create or replace function polyterm_terms_stem_key() returns trigger language plpgsql as $$
  begin
    new.stem_key := public.polyterm_stem_key(new.dictionary_id, new.language_code, new.name);
    new.stem_words := case when new.stem_key = '' then 0
                           else 1 + length(new.stem_key) - length(replace(new.stem_key, ' ', '')) end;
    new.lemma_key := (public.polyterm_lemma_keys(new.dictionary_id, new.language_code, array[new.name]))[1];
    new.citation_key := case when new.lemma_key is not null
      then (public.polyterm_lemma_keys(new.dictionary_id, new.language_code, array[new.name], true))[1] end;
    return new;
  end $$;`;

export class Migration20270107170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(LEMMA_CITATION_KEYS);
    this.addSql(TRIGGER_FUNCTION);
  }

  override async down(): Promise<void> {
    this.addSql(PREVIOUS_TRIGGER_FUNCTION);
    this.addSql('drop function if exists polyterm_lemma_citation_keys(int, text, text[]);');
  }
}
