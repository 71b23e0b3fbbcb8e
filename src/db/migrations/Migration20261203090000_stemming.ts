import { Migration } from '@mikro-orm/migrations';

/**
 * Stemming (docs/decoration.md): one stemmer for both search engines, PostgreSQL's built-in Snowball.
 * - `polyterm_stem_<language>` dictionaries: Snowball without stop words (the built-in `<language>_stem`
 *   ones answer nothing for "the" or "die", which would drop words out of a multiword term's key);
 * - `stemming_languages`: language codes (ISO 639-1, 639-2/B and /T) and their algorithm, only for the
 *   algorithms this server's PostgreSQL has (15 has 28, 16 and later add Estonian);
 * - `stemming_settings`: per dictionary and language, the algorithm (or 'none'), protected words and
 *   explicit stem overrides;
 * - `terms.stem_key`: the stems of a term's words, folded, joined by one space; set by a row trigger
 *   whenever a name is written (whatever code path writes it), recomputed by the stemming rebuild job
 *   when settings change, and carried into the Elasticsearch documents as `stemKey`;
 * - `terms.stem_words`: the number of words of the key, so decoration knows how long a span can match.
 */
const ALGORITHM_CODES: Record<string, string[]> = {
  arabic: ['ar', 'ara'],
  armenian: ['hy', 'hye', 'arm'],
  basque: ['eu', 'eus', 'baq'],
  catalan: ['ca', 'cat'],
  danish: ['da', 'dan'],
  dutch: ['nl', 'nld', 'dut'],
  english: ['en', 'eng'],
  estonian: ['et', 'est'],
  finnish: ['fi', 'fin'],
  french: ['fr', 'fra', 'fre'],
  german: ['de', 'deu', 'ger'],
  greek: ['el', 'ell', 'gre'],
  hindi: ['hi', 'hin'],
  hungarian: ['hu', 'hun'],
  indonesian: ['id', 'ind'],
  irish: ['ga', 'gle'],
  italian: ['it', 'ita'],
  lithuanian: ['lt', 'lit'],
  nepali: ['ne', 'nep'],
  norwegian: ['no', 'nor', 'nb', 'nob', 'nn', 'nno'],
  portuguese: ['pt', 'por'],
  romanian: ['ro', 'ron', 'rum'],
  russian: ['ru', 'rus'],
  serbian: ['sr', 'srp'],
  spanish: ['es', 'spa'],
  swedish: ['sv', 'swe'],
  tamil: ['ta', 'tam'],
  turkish: ['tr', 'tur'],
  yiddish: ['yi', 'yid'],
};

export class Migration20261203090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "stemming_languages" ("code" text collate "C" primary key, "algorithm" text not null);`,
    );
    const rows = Object.entries(ALGORITHM_CODES).flatMap(([algorithm, codes]) =>
      codes.map((code) => `('${code}', '${algorithm}')`),
    );
    // Only the algorithms this PostgreSQL has get a dictionary and codes.
    this.addSql(`do $$
      declare
        algorithm text;
      begin
        for algorithm in
          select substr(d.dictname, 1, length(d.dictname) - 5) from pg_ts_dict d
            join pg_ts_template t on t.oid = d.dicttemplate
           where t.tmplname = 'snowball' and d.dictname like '%\\_stem'
        loop
          execute format('create text search dictionary public.%I (template = snowball, language = %s)',
                         'polyterm_stem_' || algorithm, algorithm);
        end loop;
      end $$;`);
    this.addSql(
      `insert into "stemming_languages" ("code", "algorithm")
         select v.code, v.algorithm from (values ${rows.join(', ')}) v(code, algorithm)
          where exists (select 1 from pg_ts_dict d where d.dictname = 'polyterm_stem_' || v.algorithm);`,
    );
    this.addSql(`create table "stemming_settings" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade,
      "language_code" varchar(64) not null,
      "algorithm" text null,
      "protected_words" text[] not null default '{}',
      "overrides" jsonb not null default '{}',
      "version" int not null default 1,
      "changed_at" timestamptz not null default now(),
      "changed_by_id" int null references "users" ("id") on delete set null,
      unique ("dictionary_id", "language_code"));`);

    // The stem keys of texts (term names, or the tokens of a text to decorate) under a dictionary's
    // settings for a language: words split at spaces and punctuation, each stemmed from its lower-case
    // form (stemmers expect accents) and folded, joined by one space. Overrides (word -> the word it
    // stands for, in lower case) and protected words are keyed by folded words. PL/pgSQL so that the settings are read once for many texts.
    this.addSql(`create function polyterm_stem_keys(p_dictionary int, p_language text, p_texts text[])
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
        if v_algorithm is not null and v_algorithm <> 'none' then
          v_dictionary := ('public.polyterm_stem_' || v_algorithm)::regdictionary;
        end if;
        foreach v_text in array coalesce(p_texts, '{}') loop
          v_key := null;
          foreach v_word in array regexp_split_to_array(coalesce(v_text, ''), '[[:space:][:punct:]]+') loop
            continue when v_word = '';
            v_folded := public.polyterm_fold(v_word);
            -- An override stands for another word (mice -> mouse), stemmed like it.
            if v_overrides ? v_folded then
              v_word := v_overrides ->> v_folded;
              v_folded := public.polyterm_fold(v_word);
            end if;
            if v_dictionary is not null and not (v_folded = any(v_protected)) then
              v_stem := ts_lexize(v_dictionary, public.polyterm_lower(v_word));
              if cardinality(v_stem) > 0 then
                v_folded := public.polyterm_fold(v_stem[1]);
              end if;
            end if;
            v_key := case when v_key is null then v_folded else v_key || ' ' || v_folded end;
          end loop;
          v_result := v_result || coalesce(v_key, '');
        end loop;
        return v_result;
      end $$;`);
    this.addSql(`create function polyterm_stem_key(p_dictionary int, p_language text, p_text text)
      returns text language sql stable parallel safe
      as $$ select (public.polyterm_stem_keys(p_dictionary, p_language, array[p_text]))[1] $$;`);

    this.addSql(
      `alter table "terms" add column "stem_key" text collate "C" null, add column "stem_words" smallint null;`,
    );
    this.addSql(`create function polyterm_terms_stem_key() returns trigger language plpgsql as $$
      begin
        new.stem_key := public.polyterm_stem_key(new.dictionary_id, new.language_code, new.name);
        new.stem_words := case when new.stem_key = '' then 0
                               else 1 + length(new.stem_key) - length(replace(new.stem_key, ' ', '')) end;
        return new;
      end $$;`);
    this.addSql(
      `create trigger "terms_stem_key" before insert or update of "name", "language_code", "dictionary_id" on "terms" for each row execute function polyterm_terms_stem_key();`,
    );
    // Existing terms: their keys now, in this transaction (the search outbox trigger queues their
    // concepts, so Elasticsearch documents get their stemKey too).
    this.addSql(`update "terms" set "name" = "name";`);
    // Decoration and the `stemmed` search option look keys up per dictionary and language.
    this.addSql(
      `create index "terms_stem_key_index" on "terms" ("dictionary_id", "language_code", "stem_key") where not "deleted";`,
    );
    // The longest term (in words) of a dictionary and language bounds the spans decoration looks up.
    this.addSql(
      `create index "terms_stem_words_index" on "terms" ("dictionary_id", "language_code", "stem_words") where not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "terms_stem_key" on "terms";');
    this.addSql('drop function if exists polyterm_terms_stem_key();');
    this.addSql('alter table "terms" drop column if exists "stem_key", drop column if exists "stem_words";');
    this.addSql('drop function if exists polyterm_stem_key(int, text, text);');
    this.addSql('drop function if exists polyterm_stem_keys(int, text, text[]);');
    this.addSql('drop table if exists "stemming_settings";');
    this.addSql('drop table if exists "stemming_languages";');
    this.addSql(`do $$
      declare
        name text;
      begin
        for name in select dictname from pg_ts_dict where dictname like 'polyterm\\_stem\\_%' loop
          execute format('drop text search dictionary public.%I', name);
        end loop;
      end $$;`);
  }
}
