import { Migration } from '@mikro-orm/migrations';

/**
 * Lemma keys (issue 38, docs/decoration.md "Homonyms"): how well a stemmed match matches, for languages
 * stemmed by a lexicon (Icelandic). Different words can share a stem key (the text's "Sendu" and the
 * terms *senda* and *sendandi*); the Hunspell lemma tells them apart where the dictionary knows the
 * word. `polyterm_lemma_keys(dictionary, language, texts, citation)` answers, for each text, its
 * words joined by one space as stem keys are: each word's Hunspell lemma (or the word itself when the
 * dictionary does not know it), folded; with `citation`, the words themselves, folded (a term's name
 * as written, its citation form). Null for a language whose algorithm is not a lexicon: there, every
 * stemmed match is as good as another. The dictionary's overrides and protected words apply as in
 * polyterm_stem_keys. Nothing is stored: decoration asks for the text's words and for the terms it found.
 */
export const LEMMA_KEYS = `create or replace function polyterm_lemma_keys(p_dictionary int, p_language text, p_texts text[],
    p_citation boolean default false)
  returns text[] language plpgsql stable parallel safe as $$
  declare
    v_algorithm text;
    v_protected text[] := '{}';
    v_overrides jsonb := '{}';
    v_lexicon text;
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
    select l.algorithm into v_lexicon from public.stemming_lexicons l where l.algorithm = v_algorithm;
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
        if not p_citation and not (v_folded = any(v_protected)) then
          v_folded := public.polyterm_fold(coalesce(
            public.polyterm_hunspell_lemma(v_lexicon, public.polyterm_lower(v_word)), v_word));
        end if;
        v_key := case when v_key is null then v_folded else v_key || ' ' || v_folded end;
      end loop;
      v_result := v_result || coalesce(v_key, '');
    end loop;
    return v_result;
  end $$;`;

export class Migration20270104090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(LEMMA_KEYS);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists polyterm_lemma_keys(int, text, text[], boolean);');
  }
}
