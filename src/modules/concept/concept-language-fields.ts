/**
 * Language fields (docs/concepts.md, Language fields): values a concept holds in one language rather
 * than on each of its terms, e.g. a TBX language section's own source or note. A row per concept and
 * language tag (language, region, script, as terms carry them); `fieldMap` holds values of the
 * dictionary's TERM-level fields by oid, so they follow the rules of those fields.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { sameJson } from '../../shared/canonical-json.js';
import type { ConceptSnapshot } from '../history/history.types.js';

export const LanguageFieldsDtoSchema = z.object({
  languageCode: z.string().describe('three-letter lowercase code, as terms have it'),
  regionCode: z.string().nullable(),
  scriptCode: z.string().nullable(),
  fieldMap: z
    .record(z.string(), z.array(z.string()))
    .describe('TERM-level field oid to values: what holds for the language as a whole'),
});
export type LanguageFieldsDto = z.infer<typeof LanguageFieldsDtoSchema>;

interface LanguageFieldsRow {
  concept_id: number;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
  field_map: Record<string, string[]>;
}

/** A language tag as a key, whatever the case it was sent in. */
export const tagKey = (row: {
  languageCode: string;
  regionCode?: string | null;
  scriptCode?: string | null;
}) => [row.languageCode, row.regionCode ?? '', row.scriptCode ?? ''].join('|').toLowerCase();

/** The languages whose language fields differ between two snapshots (none when either is unknown). */
export function languageFieldLanguages(before: ConceptSnapshot, after: ConceptSnapshot): Set<string> {
  const changed = new Set<string>();
  if (!before.languageFields || !after.languageFields) return changed;
  const old = new Map(before.languageFields.map((row) => [tagKey(row), row]));
  const now = new Map(after.languageFields.map((row) => [tagKey(row), row]));
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const [a, b] = [old.get(key), now.get(key)];
    if (!sameJson(a?.fieldMap ?? {}, b?.fieldMap ?? {})) changed.add((a ?? b)!.languageCode);
  }
  return changed;
}

/** The language fields of concepts by concept id, in language tag order (one query). */
export async function languageFieldsOf(
  em: EntityManager,
  conceptIds: readonly number[],
): Promise<Map<number, LanguageFieldsDto[]>> {
  const byConcept = new Map<number, LanguageFieldsDto[]>();
  if (conceptIds.length === 0) return byConcept;
  const rows = await em.execute<LanguageFieldsRow[]>(
    `select concept_id, language_code, region_code, script_code, field_map from concept_language_fields
      where concept_id in (?) and field_map <> '{}'::jsonb
      order by concept_id, language_code, region_code nulls first, script_code nulls first`,
    [[...conceptIds]],
  );
  for (const row of rows) {
    const list = byConcept.get(row.concept_id) ?? [];
    list.push({
      languageCode: row.language_code,
      regionCode: row.region_code,
      scriptCode: row.script_code,
      fieldMap: row.field_map,
    });
    byConcept.set(row.concept_id, list);
  }
  return byConcept;
}

/**
 * Sets language fields of concepts: each row's values replace those of the same fields (a merge keeps
 * the fields a row does not name). Set-based, one statement.
 */
export async function writeLanguageFields(
  em: EntityManager,
  clientId: number,
  dictionaryId: number,
  rows: readonly ({ conceptId: number; fieldParts?: Record<string, unknown> } & LanguageFieldsDto)[],
): Promise<void> {
  const wanted = rows.filter((row) => Object.keys(row.fieldMap).length > 0);
  if (wanted.length === 0) return;
  // field_parts: how a TBX import's values were made (links, joined values; src/modules/tbx/tbx-mapping.ts).
  await em.execute(
    `insert into concept_language_fields (client_id, dictionary_id, concept_id, language_code, region_code, script_code, field_map, field_parts)
     select ?, ?, x.concept_id, x.language_code, x.region_code, x.script_code, x.field_map, coalesce(x.field_parts, '{}')
       from json_to_recordset(?::json) as x(concept_id int, language_code text, region_code text, script_code text, field_map jsonb, field_parts jsonb)
     on conflict (concept_id, language_code, coalesce(region_code, ''), coalesce(script_code, ''))
     do update set field_map = concept_language_fields.field_map || excluded.field_map,
                   field_parts = concept_language_fields.field_parts || excluded.field_parts`,
    [
      clientId,
      dictionaryId,
      JSON.stringify(
        wanted.map((row) => ({
          concept_id: row.conceptId,
          language_code: row.languageCode,
          region_code: row.regionCode,
          script_code: row.scriptCode,
          field_map: row.fieldMap,
          field_parts: row.fieldParts ?? null,
        })),
      ),
    ],
  );
}

/** A concept write (docs/concepts.md): the concept's language fields become exactly `rows`. */
export async function replaceLanguageFields(
  em: EntityManager,
  concept: { id: number; client: { id: number }; dictionary: { id: number } },
  rows: readonly LanguageFieldsDto[],
): Promise<void> {
  await em.execute('delete from concept_language_fields where concept_id = ?', [concept.id]);
  await writeLanguageFields(
    em,
    concept.client.id,
    concept.dictionary.id,
    rows.map((row) => ({ conceptId: concept.id, ...row })),
  );
}

/**
 * Dictionary copy: the language fields of the copied concepts (temp table concept_copy: from_id ->
 * to_id), their field oids re-keyed by `rekeyedFieldMap` (SQL over `l.field_map`, one parameter).
 */
export async function copyLanguageFields(
  em: EntityManager,
  targetDictionaryId: number,
  rekeyedFieldMap: string,
  fieldPairs: string,
): Promise<void> {
  await em.execute(
    `insert into concept_language_fields (client_id, dictionary_id, concept_id, language_code, region_code, script_code, field_map)
     select l.client_id, ?, m.to_id, l.language_code, l.region_code, l.script_code, ${rekeyedFieldMap}
       from concept_language_fields l join concept_copy m on m.from_id = l.concept_id`,
    [targetDictionaryId, fieldPairs],
  );
}

type LanguageTag = { language: string; region: string | null; script: string | null };

/**
 * Language replace: the language fields of one language tag move to another with the terms (values of
 * a field the target tag already holds for the concept stay the target's).
 */
export async function moveLanguageFields(
  em: EntityManager,
  dictionaryId: number,
  from: LanguageTag,
  to: LanguageTag,
): Promise<void> {
  if (from.language === to.language && from.region === to.region && from.script === to.script) return;
  const source = `dictionary_id = ? and language_code = ? and region_code is not distinct from ?
    and script_code is not distinct from ?`;
  const fromParams = [dictionaryId, from.language, from.region, from.script];
  await em.execute(
    `insert into concept_language_fields (client_id, dictionary_id, concept_id, language_code, region_code, script_code, field_map)
     select client_id, dictionary_id, concept_id, ?, ?, ?, field_map from concept_language_fields where ${source}
     on conflict (concept_id, language_code, coalesce(region_code, ''), coalesce(script_code, ''))
     do update set field_map = excluded.field_map || concept_language_fields.field_map`,
    [to.language, to.region, to.script, ...fromParams],
  );
  await em.execute(`delete from concept_language_fields where ${source}`, fromParams);
}
