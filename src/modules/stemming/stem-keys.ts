/**
 * The database's folding and stemming of request texts, as SQL pieces to put into one statement (see
 * selectEach): the same functions compute the stored keys of terms (polyterm_fold for `name_folded`,
 * polyterm_stem_keys for `stem_key`), so a text's keys equal a term's keys exactly when they match.
 */
import type { Sql } from '../../shared/sql.js';

/** The folded form of each text, in order (a json array of strings). */
export const foldedTextsSql = (texts: readonly string[]): Sql => ({
  text: `(select coalesce(json_agg(public.polyterm_fold(x) order by o), '[]'::json)
            from unnest(?::text[]) with ordinality u(x, o))`,
  params: [texts],
});

/**
 * Rows (d, keys): the stem key of each text under each dictionary's settings for `language`, where
 * dictionary null stands for every dictionary without settings of its own for the language (the default
 * algorithm of the language). `withLemmas` adds `lemmas`, each text's lemma key (polyterm_lemma_keys;
 * null where the algorithm is no lexicon), which tells how well a stemmed match matches.
 */
export const stemGroupsSql = (
  dictionaryIds: readonly number[],
  language: string,
  texts: readonly string[],
  withLemmas = false,
): Sql => ({
  text: `select g.d, public.polyterm_stem_keys(g.d, ?, ?::text[]) as keys${withLemmas ? ', public.polyterm_lemma_keys(g.d, ?, ?::text[]) as lemmas' : ''}
            from (select null::int as d
                  union all
                  select s.dictionary_id from stemming_settings s
                   where s.dictionary_id = any(?::int[]) and s.language_code = lower(?)) g`,
  params: [language, texts, ...(withLemmas ? [language, texts] : []), dictionaryIds, language],
});

/** stemGroupsSql as one json array of [dictionaryId, keys[]] pairs (see StemKeys). */
export const stemKeysSql = (
  dictionaryIds: readonly number[],
  language: string,
  texts: readonly string[],
): Sql => {
  const groups = stemGroupsSql(dictionaryIds, language, texts);
  return {
    text: `(select json_agg(json_build_array(s.d, s.keys)) from (${groups.text}) s)`,
    params: groups.params,
  };
};

/** Stem keys per dictionary: the dictionary's own, or the default ones. */
export class StemKeys {
  private readonly byDictionary = new Map<number | null, string[]>();

  constructor(pairs: [number | null, string[]][] | null) {
    for (const [dictionaryId, keys] of pairs ?? []) this.byDictionary.set(dictionaryId, keys);
  }

  /** The keys of the texts under this dictionary's settings. */
  of(dictionaryId: number): string[] {
    return this.byDictionary.get(dictionaryId) ?? this.byDictionary.get(null) ?? [];
  }

  /** Every distinct key set: dictionaries sharing the default share one. */
  all(): string[][] {
    return [...this.byDictionary.values()];
  }
}
