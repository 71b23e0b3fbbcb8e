import { Migration } from '@mikro-orm/migrations';
import { APOSTROPHES, ELISIONS } from '../../modules/stemming/elisions.js';

/**
 * Stem keys, second version (issue 38, docs/decoration.md):
 * - words are folded before they are stemmed, so an accent-less spelling ("electricite", "educacion")
 *   gets the stem of the accented word; both sides (term names here, text words in decoration) go
 *   through this one function;
 * - French, Italian and Catalan names lose their elided articles and pronouns (l' d' qu'... with ' or
 *   ’), as the text's words do in text-tokens.ts: "bougie d'allumage" is keyed `bougi allumag`;
 * - `stemming_settings.acronym_case`: whether a term written in capitals ("IT") matches only text in
 *   capitals (`exact`, the default) or any case (`fold`).
 * The terms whose key changes are rewritten (only those), and the search outbox trigger queues their
 * concepts, so Elasticsearch documents get the new keys too. The elided words come from the one list
 * text-tokens.ts reads (elisions.ts).
 */
/**
 * The word the stemmer gets: folded, but for й, a letter of its own that unaccent would make и (the
 * Russian stemmer knows -ой, not -ои); the key folds the stem afterwards, on both sides alike.
 */
const FOLDED_FOR_STEMMER = `replace(public.polyterm_fold(replace(public.polyterm_lower(v_word), 'й', U&'\\E000')), U&'\\E000', 'й')`;

/**
 * polyterm_stem_keys; `lexicons` (Migration20261230140000_isl): an algorithm of stemming_lexicons is
 * stemmed by polyterm_lexicon_stem (Hunspell lemmas and suffix stripping) instead of a Snowball dictionary.
 */
export const stemKeysFunction = (foldFirst: boolean, elision: boolean, lexicons = false) => {
  const apostrophes = APOSTROPHES.replaceAll("'", "''");
  const elisionCases = ELISIONS.map(
    ({ codes, words }) =>
      `when lower(p_language) in (${codes.map((c) => `'${c}'`).join(', ')}) then '(^|[^[:alnum:]])(${words.join('|')})[${apostrophes}]'`,
  ).join(' ');
  return `create or replace function polyterm_stem_keys(p_dictionary int, p_language text, p_texts text[])
      returns text[] language plpgsql stable parallel safe as $$
      declare
        v_algorithm text;
        v_protected text[] := '{}';
        v_overrides jsonb := '{}';
        v_dictionary regdictionary;
        v_result text[] := '{}';
        v_text text;
        v_word text;
        v_folded text;
        v_stem text[];
        v_key text;
        v_elision text;${lexicons ? '\n        v_lexicon text;' : ''}
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
        ${
          lexicons
            ? `if v_algorithm is not null and v_algorithm <> 'none' then
          select l.algorithm into v_lexicon from public.stemming_lexicons l where l.algorithm = v_algorithm;
        end if;
        if v_lexicon is null and v_algorithm is not null and v_algorithm <> 'none' then`
            : `if v_algorithm is not null and v_algorithm <> 'none' then`
        }
          v_dictionary := ('public.polyterm_stem_' || v_algorithm)::regdictionary;
        end if;
        ${elision ? `v_elision := case ${elisionCases} end;` : ''}
        foreach v_text in array coalesce(p_texts, '{}') loop
          v_key := null;
          if v_elision is not null then
            v_text := regexp_replace(v_text, v_elision, '\\1', 'gi');
          end if;
          foreach v_word in array regexp_split_to_array(coalesce(v_text, ''), '[[:space:][:punct:]]+') loop
            continue when v_word = '';
            v_folded := public.polyterm_fold(v_word);
            -- An override stands for another word (mice -> mouse), stemmed like it.
            if v_overrides ? v_folded then
              v_word := v_overrides ->> v_folded;
              v_folded := public.polyterm_fold(v_word);
            end if;
            ${
              lexicons
                ? `if v_lexicon is not null and not (v_folded = any(v_protected)) then
              v_folded := public.polyterm_fold(public.polyterm_lexicon_stem(v_lexicon, v_word));
            els`
                : ''
            }if v_dictionary is not null and not (v_folded = any(v_protected)) then
              v_stem := ts_lexize(v_dictionary, ${foldFirst ? FOLDED_FOR_STEMMER : 'public.polyterm_lower(v_word)'});
              if cardinality(v_stem) > 0 then
                v_folded := public.polyterm_fold(v_stem[1]);
              end if;
            end if;
            v_key := case when v_key is null then v_folded else v_key || ' ' || v_folded end;
          end loop;
          v_result := v_result || coalesce(v_key, '');
        end loop;
        return v_result;
      end $$;`;
};

/** Rewrites the terms whose key the function now computes differently (the row trigger sets it). */
const REKEY = `update "terms" set "name" = "name"
   where "stem_key" is distinct from public.polyterm_stem_key("dictionary_id", "language_code", "name");`;

export class Migration20261221090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(stemKeysFunction(true, true));
    this.addSql(
      `alter table "stemming_settings" add column "acronym_case" text not null default 'exact' check ("acronym_case" in ('exact', 'fold'));`,
    );
    this.addSql(REKEY);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "stemming_settings" drop column if exists "acronym_case";');
    this.addSql(stemKeysFunction(false, false));
    this.addSql(REKEY);
  }
}
