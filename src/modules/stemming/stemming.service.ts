/**
 * Stemming (docs/decoration.md): PostgreSQL's Snowball stemmers are the one stemmer of both search
 * engines. Terms carry a stem key (Migration20261203090000_stemming); settings per dictionary and
 * language change how keys are made, and a rebuild job recomputes the keys of the terms concerned.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows, selectEach } from '../../shared/sql.js';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { administrableDictionary, readableDictionary } from '../dictionary/dictionary-access.js';
import { type JobProgress, runAsJob } from '../jobs/job-runner.js';
import { readLanguageCodes } from './language-codes.js';
import { foldedTextsSql, StemKeys, stemKeysSql } from './stem-keys.js';
import type {
  AnalyzeInput,
  AnalyzeResponse,
  StemmingLanguages,
  StemmingSetting,
  StemmingSettingsInput,
} from './stemming.schema.js';
import { wordTokens } from './text-tokens.js';

/**
 * One rule with decoration and term search: a dictionary of another tenant is 404, a system
 * administrator's call included (an administrator works in a tenant through its own account).
 */
async function ownTenant(scope: Scope, dictionary: Promise<Dictionary>): Promise<Dictionary> {
  const found = await dictionary;
  if (found.client.id !== scope.actor.clientId) throw notFound('Dictionary', found.id);
  return found;
}

/** The stemmers this server's PostgreSQL has, with the language codes that use them. */
export async function stemmingLanguages(scope: Scope): Promise<StemmingLanguages> {
  const rows = await boundRows<{ algorithm: string; codes: string[]; version: string }>(scope.em, {
    text: `select algorithm, array_agg(code order by length(code), code) as codes,
                  current_setting('server_version') as version
             from stemming_languages group by algorithm order by algorithm`,
    params: [],
  });
  return {
    engine: 'postgresql-snowball',
    engineVersion: rows[0]?.version ?? '',
    languages: rows.map((row) => ({ algorithm: row.algorithm, langCodes: row.codes })),
  };
}

/** The algorithm in force for a dictionary (or none given) and language; null: no stemming. */
const algorithmSql = (dictionaryId: number | null, language: string) => ({
  text: `(select nullif(coalesce(
            (select s.algorithm from stemming_settings s where s.dictionary_id = ? and s.language_code = lower(?)),
            (select l.algorithm from stemming_languages l where l.code = lower(?))), 'none'))`,
  params: [dictionaryId, language, language],
});

/** The words of a text with their offsets, folded forms and stem keys. */
export async function analyze(scope: Scope, input: AnalyzeInput): Promise<AnalyzeResponse> {
  if (input.dictionaryId !== undefined) await ownTenant(scope, readableDictionary(scope, input.dictionaryId));
  const dictionaryId = input.dictionaryId ?? null;
  // Read as the dictionaries hold it: en and ENG analyse as eng, under eng's settings.
  const [langCode] = await readLanguageCodes(scope, 'langCode', [input.langCode], {
    dictionaryIds: dictionaryId === null ? [] : [dictionaryId],
  });
  const tokens = wordTokens(input.text, langCode!);
  const surfaces = tokens.map((token) => token.surface);
  const [row] = await boundRows<{
    folded: string[];
    stems: [number | null, string[]][];
    algorithm: string | null;
  }>(
    scope.em,
    selectEach({
      folded: foldedTextsSql(surfaces),
      stems: stemKeysSql(dictionaryId === null ? [] : [dictionaryId], langCode!, surfaces),
      algorithm: algorithmSql(dictionaryId, langCode!),
    }),
  );
  const stems = new StemKeys(row!.stems).of(dictionaryId ?? -1);
  return {
    langCode: langCode!,
    algorithm: row!.algorithm,
    tokens: tokens.map((token, index) => ({
      ...token,
      folded: row!.folded[index] ?? '',
      stem: stems[index] ?? '',
    })),
  };
}

interface SettingRow {
  language_code: string;
  algorithm: string | null;
  protected_words: string[];
  overrides: Record<string, string>;
  version: number;
  acronym_case: 'exact' | 'fold';
}

const settingOf = (row: SettingRow): StemmingSetting => ({
  langCode: row.language_code,
  algorithm: row.algorithm,
  protectedWords: row.protected_words,
  overrides: row.overrides,
  acronymCase: row.acronym_case,
  version: row.version,
});

/** A dictionary's stemming settings, one per language that has any. */
export async function stemmingSettings(scope: Scope, dictionaryId: number): Promise<StemmingSetting[]> {
  await ownTenant(scope, readableDictionary(scope, dictionaryId));
  const rows = await boundRows<SettingRow>(scope.em, {
    text: `select language_code, algorithm, protected_words, overrides, acronym_case, version
             from stemming_settings where dictionary_id = ? order by language_code`,
    params: [dictionaryId],
  });
  return rows.map(settingOf);
}

/** Ids per rebuild statement: each batch commits on its own, so a long rebuild holds no long locks. */
const REBUILD_BATCH = 5000;

/**
 * Recomputes the stem keys of a dictionary's terms (of one language, or all), a batch of ids at a time,
 * and their lemma and citation keys (a lexicon's settings changed). Rewriting `name` to itself runs
 * the row trigger that owns the rule; only terms whose key changes are written (and so queued for Elasticsearch by the outbox trigger). Answers how many changed.
 */
export async function rebuildStemKeys(
  em: EntityManager,
  dictionaryId: number,
  language: string | null,
  progress: JobProgress = async () => {},
): Promise<number> {
  const languageCondition = language === null ? 'true' : 'lower(language_code) = lower(?)';
  const languageParams = language === null ? [] : [language];
  const [range] = await boundRows<{ low: number | null; high: number | null }>(em, {
    text: `select min(id) as low, max(id) as high from terms where dictionary_id = ? and ${languageCondition}`,
    params: [dictionaryId, ...languageParams],
  });
  if (range?.low == null || range.high == null) return 0;
  const total = range.high - range.low + 1;
  let changed = 0;
  for (let from = range.low - 1; from < range.high; from += REBUILD_BATCH) {
    const rows = await boundRows<{ id: number }>(em, {
      text: `update terms set name = name
              where dictionary_id = ? and ${languageCondition} and id > ? and id <= ?
                and (stem_key is distinct from polyterm_stem_key(dictionary_id, language_code, name)
                     or lemma_key is distinct from (polyterm_lemma_keys(dictionary_id, language_code, array[name]))[1]
                     or citation_key is distinct from (polyterm_lemma_keys(dictionary_id, language_code, array[name], true))[1])
             returning id`,
      params: [dictionaryId, ...languageParams, from, from + REBUILD_BATCH],
    });
    changed += rows.length;
    await progress(Math.min(from + REBUILD_BATCH, range.high) - range.low + 1, total);
  }
  return changed;
}

/**
 * A dictionary copy's stemming settings: the source's, per language. Written before the copy's terms
 * (in the copy's transaction), so the row trigger gives them their keys under these settings.
 */
export async function copyStemmingSettings(
  em: EntityManager,
  sourceId: number,
  targetId: number,
  actorId: number | null,
): Promise<void> {
  await em.execute(
    `insert into stemming_settings (client_id, dictionary_id, language_code, algorithm, protected_words, overrides, acronym_case, changed_by_id)
     select s.client_id, ?, s.language_code, s.algorithm, s.protected_words, s.overrides, s.acronym_case, ?
       from stemming_settings s where s.dictionary_id = ?`,
    [targetId, actorId, sourceId],
  );
}

/** Saves one language's settings of a dictionary and starts the rebuild of its terms' stem keys. */
export async function putStemmingSettings(scope: Scope, input: StemmingSettingsInput) {
  const dictionary = await ownTenant(scope, administrableDictionary(scope, input.id));
  // One rule (language-codes.ts): settings saved for en apply to the dictionary's eng terms; xx is 400.
  const [code] = await readLanguageCodes(scope, 'langCode', [input.langCode], {
    dictionaryIds: [dictionary.id],
  });
  const language = code!.toLowerCase();
  const algorithm = input.algorithm?.toLowerCase() ?? null;
  if (algorithm !== null && algorithm !== 'none') {
    const known = (await stemmingLanguages(scope)).languages.some((l) => l.algorithm === algorithm);
    if (!known) {
      throw new AppError(
        'BAD_REQUEST',
        `algorithm: no Snowball algorithm "${algorithm}" (see GET /stemming/languages)`,
      );
    }
  }
  // Words are kept folded (keys are folded, so "Mice" and "mice" are one override); what an override
  // stands for is kept in lower case, since the stemmer reads it with its accents.
  await boundRows(scope.em, {
    text: `insert into stemming_settings as s (client_id, dictionary_id, language_code, algorithm, protected_words, overrides, changed_by_id, acronym_case)
           values (?, ?, ?, ?,
                   array(select distinct public.polyterm_fold(w) from unnest(?::text[]) w order by 1),
                   (select coalesce(jsonb_object_agg(public.polyterm_fold(k), public.polyterm_lower(v)), '{}'::jsonb)
                      from jsonb_each_text(?::jsonb) e(k, v)),
                   ?, ?)
           on conflict (dictionary_id, language_code) do update
              set algorithm = excluded.algorithm, acronym_case = excluded.acronym_case, protected_words = excluded.protected_words,
                  overrides = excluded.overrides, changed_by_id = excluded.changed_by_id,
                  changed_at = now(), version = s.version + 1
           returning id`,
    params: [
      dictionary.client.id,
      dictionary.id,
      language,
      algorithm,
      input.protectedWords ?? [],
      JSON.stringify(input.overrides ?? {}),
      scope.actor.userId ?? null,
      input.acronymCase ?? 'exact',
    ],
  });
  return runAsJob(scope, 'stemming.rebuild', (em, progress) =>
    rebuildStemKeys(em, dictionary.id, language, progress),
  );
}

/** Recomputes every stem key of a dictionary (after a PostgreSQL upgrade changed its stemmers). */
export async function rebuildDictionaryStemKeys(scope: Scope, dictionaryId: number) {
  const dictionary = await ownTenant(scope, administrableDictionary(scope, dictionaryId));
  return runAsJob(scope, 'stemming.rebuild', (em, progress) =>
    rebuildStemKeys(em, dictionary.id, null, progress),
  );
}
