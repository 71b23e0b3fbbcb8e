import { Migration } from '@mikro-orm/migrations';
import { type HunspellLexicon, packagedHunspell } from '../../modules/stemming/hunspell.js';
import { stemKeysFunction } from './Migration20261221090000_stem_fold_first.js';

/**
 * A morphological path for languages without a Snowball stemmer (issue 38, docs/decoration.md):
 * Icelandic first, from the Hunspell dictionary of the npm package `dictionary-is` (CC BY-SA 3.0, read
 * from node_modules, not copied).
 * - `stemming_lexicons`: an algorithm that is not a Snowball dictionary but a lexicon: its Hunspell
 *   stems and suffix rules, and light suffix stripping for the words the dictionary does not know;
 * - `stemming_hunspell_stems` / `stemming_hunspell_suffixes`: the dictionary's flagged stems (7,871
 *   for Icelandic) and suffix rules (12,937), loaded in well under a second;
 * - `polyterm_hunspell_lemma(algorithm, word)`: the word itself when it is a stem, else the least (in
 *   code-point order) stem that a suffix rule of one of its flags turns into the word; null if none;
 * - `polyterm_lexicon_stem(algorithm, word)`: the lemma's (or, for an unknown word, the word without
 *   its definite article's suffix) inflectional ending taken off, letters mapped (Icelandic ö -> a,
 *   the u-umlaut: mappa, möppu); the same on both sides, so a term and a text meet at one key;
 * - `polyterm_stem_keys` stems words of a lexicon algorithm with it (from their lower-case, unfolded
 *   form: the dictionary has accents); `stemming_languages` maps is/isl/ice to `icelandic`;
 * - Icelandic terms are rekeyed (the search outbox trigger sends their concepts to Elasticsearch).
 * Another language: load its dictionary package with `loadLexicon` in a new migration, with its own
 * suffix lists (or none: lemmas only), and map its codes in `stemming_languages`.
 */
interface LexiconRules {
  /** Definite article suffixes, longest first, one taken off an unknown word... */
  articleSuffixes: string[];
  /** ...and then these again while one fits (a name ending like an article, "skrunrein", and its definite forms end alike). */
  againSuffixes: string[];
  /** Inflectional endings, longest first, one taken off. */
  suffixes: string[];
  /** No suffix is taken off if fewer letters would remain... */
  minStem: number;
  /** ...nor an article suffix if fewer than these ("skanni" is no "ska" + -nni). */
  articleMinStem: number;
  /** Letters mapped after stripping (PostgreSQL translate()). */
  translateFrom: string;
  translateTo: string;
}

const ICELANDIC: LexiconRules = {
  articleSuffixes: byLength([
    'innar',
    'inni',
    'inum',
    'inu',
    'inn',
    'ins',
    'ina',
    'in',
    'ið',
    'num',
    'nir',
    'nar',
    'nna',
    'nni',
    'unni',
    'nnar',
    'unnar',
    'nn',
    'nu',
    'ns',
    'na',
  ]),
  againSuffixes: byLength(['in', 'inn', 'ið', 'ins']),
  // Case and number endings, the imperative's clitic pronoun (opnaðu, smelltu) and the middle voice (birtist).
  suffixes: byLength(['um', 'ar', 'ir', 'ur', 'an', 'a', 'i', 'u', 's', 'aðu', 'du', 'tu', 'ast']),
  minStem: 3,
  articleMinStem: 4,
  translateFrom: 'ö',
  translateTo: 'a',
};

function byLength(suffixes: string[]): string[] {
  return [...suffixes].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sqlArray = (values: readonly string[]) => `array[${values.map(sqlText).join(', ')}]::text[]`;

/** Statements loading a lexicon's rules and Hunspell data (one dollar-quoted block per table). */
export function loadLexicon(algorithm: string, lexicon: HunspellLexicon, rules: LexiconRules): string[] {
  const stems = lexicon.stems.map(([stem, flags]) => `${stem}\t${flags.join(',')}`).join('\n');
  const suffixes = lexicon.suffixes
    .map((r) => `${r.flag}\t${r.strip}\t${r.append}\t${r.condition}`)
    .join('\n');
  for (const block of [stems, suffixes]) if (block.includes('$lexicon$')) throw new Error('bad lexicon');
  return [
    `insert into "stemming_lexicons" ("algorithm", "article_suffixes", "again_suffixes", "suffixes", "min_stem", "article_min_stem", "translate_from", "translate_to")
       values (${sqlText(algorithm)}, ${sqlArray(rules.articleSuffixes)}, ${sqlArray(rules.againSuffixes)}, ${sqlArray(rules.suffixes)}, ${rules.minStem}, ${rules.articleMinStem},
               ${sqlText(rules.translateFrom)}, ${sqlText(rules.translateTo)});`,
    `insert into "stemming_hunspell_stems" ("algorithm", "stem", "flags")
       select ${sqlText(algorithm)}, split_part(l, E'\\t', 1), string_to_array(split_part(l, E'\\t', 2), ',')
         from regexp_split_to_table($lexicon$${stems}$lexicon$, E'\\n') l;`,
    `insert into "stemming_hunspell_suffixes" ("algorithm", "flag", "strip", "append", "condition")
       select ${sqlText(algorithm)}, split_part(l, E'\\t', 1), split_part(l, E'\\t', 2), split_part(l, E'\\t', 3),
              split_part(l, E'\\t', 4)
         from regexp_split_to_table($lexicon$${suffixes}$lexicon$, E'\\n') l;`,
  ];
}

const TABLES = [
  `create table "stemming_lexicons" (
     "algorithm" text collate "C" primary key,
     "article_suffixes" text[] not null default '{}',
     "again_suffixes" text[] not null default '{}',
     "suffixes" text[] not null default '{}',
     "min_stem" int not null default 3,
     "article_min_stem" int not null default 3,
     "translate_from" text not null default '',
     "translate_to" text not null default '');`,
  `create table "stemming_hunspell_stems" (
     "algorithm" text collate "C" not null references "stemming_lexicons" ("algorithm") on delete cascade,
     "stem" text collate "C" not null,
     "flags" text[] not null,
     primary key ("algorithm", "stem"));`,
  `create table "stemming_hunspell_suffixes" (
     "algorithm" text collate "C" not null references "stemming_lexicons" ("algorithm") on delete cascade,
     "flag" text not null,
     "strip" text not null,
     "append" text collate "C" not null,
     "condition" text not null);`,
  `create index "stemming_hunspell_suffixes_append_index" on "stemming_hunspell_suffixes" ("algorithm", "append");`,
];

const FUNCTIONS = [
  `create function polyterm_hunspell_lemma(p_algorithm text, p_word text) returns text
     language sql stable parallel safe as $$
     select case
       when exists (select 1 from public.stemming_hunspell_stems s where s.algorithm = p_algorithm and s.stem = p_word)
         then p_word
       -- The rules' conditions are tested only on candidates that are stems (offset 0 keeps the join first).
       else (select min(m.stem collate "C")
               from (select c.stem, c.condition
                       from (select left(p_word, length(p_word) - length(r.append)) || r.strip as stem, r.flag, r.condition
                               from public.stemming_hunspell_suffixes r
                              where r.algorithm = p_algorithm
                                and r.append = any (array(select right(p_word, n) from generate_series(0, length(p_word)) n))) c
                       join public.stemming_hunspell_stems s
                         on s.algorithm = p_algorithm and s.stem = c.stem and c.flag = any (s.flags)
                     offset 0) m
              where m.stem ~ m.condition)
     end $$;`,
  `create function polyterm_lexicon_stem(p_algorithm text, p_word text) returns text
     language plpgsql stable parallel safe as $$
     declare
       v_lexicon public.stemming_lexicons;
       v_word text := public.polyterm_lower(p_word);
       v_lemma text;
       v_suffix text;
       v_stripped boolean;
       v_suffixes text[];
     begin
       select * into v_lexicon from public.stemming_lexicons l where l.algorithm = p_algorithm;
       if not found or v_word = '' then
         return v_word;
       end if;
       v_lemma := public.polyterm_hunspell_lemma(p_algorithm, v_word);
       if v_lemma is not null then
         v_word := v_lemma;
       else
         -- An unknown word: its definite article's suffix off, then the "again" ones while one fits
         -- (so that a name ending like an article and its own definite forms end alike).
         v_suffixes := v_lexicon.article_suffixes;
         loop
           v_stripped := false;
           foreach v_suffix in array v_suffixes loop
             if right(v_word, length(v_suffix)) = v_suffix
                and length(v_word) - length(v_suffix) >= v_lexicon.article_min_stem then
               v_word := left(v_word, length(v_word) - length(v_suffix));
               v_stripped := true;
               exit;
             end if;
           end loop;
           exit when not v_stripped;
           v_suffixes := v_lexicon.again_suffixes;
         end loop;
       end if;
       foreach v_suffix in array v_lexicon.suffixes loop
         if right(v_word, length(v_suffix)) = v_suffix and length(v_word) - length(v_suffix) >= v_lexicon.min_stem then
           v_word := left(v_word, length(v_word) - length(v_suffix));
           exit;
         end if;
       end loop;
       return translate(v_word, v_lexicon.translate_from, v_lexicon.translate_to);
     end $$;`,
];

const ICELANDIC_CODES = ['is', 'isl', 'ice'];

/** Rewrites the Icelandic terms whose key the function now computes differently (the row trigger sets it). */
const REKEY = `update "terms" set "name" = "name"
   where lower("language_code") in (${ICELANDIC_CODES.map(sqlText).join(', ')})
     and "stem_key" is distinct from public.polyterm_stem_key("dictionary_id", "language_code", "name");`;

export class Migration20261230140000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of TABLES) this.addSql(sql);
    for (const sql of loadLexicon('icelandic', packagedHunspell('dictionary-is'), ICELANDIC))
      this.addSql(sql);
    for (const sql of FUNCTIONS) this.addSql(sql);
    this.addSql(stemKeysFunction(true, true, true));
    this.addSql(
      `insert into "stemming_languages" ("code", "algorithm")
         values ${ICELANDIC_CODES.map((code) => `(${sqlText(code)}, 'icelandic')`).join(', ')}
         on conflict ("code") do nothing;`,
    );
    this.addSql(REKEY);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "stemming_languages" where "algorithm" = 'icelandic';`);
    this.addSql(`update "stemming_settings" set "algorithm" = null where "algorithm" = 'icelandic';`);
    this.addSql(stemKeysFunction(true, true));
    this.addSql('drop function if exists polyterm_lexicon_stem(text, text);');
    this.addSql('drop function if exists polyterm_hunspell_lemma(text, text);');
    this.addSql('drop table if exists "stemming_hunspell_suffixes";');
    this.addSql('drop table if exists "stemming_hunspell_stems";');
    this.addSql('drop table if exists "stemming_lexicons";');
    this.addSql(REKEY);
  }
}
