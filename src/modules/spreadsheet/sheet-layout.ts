/** A spreadsheet export's columns from the TBX export's plan (docs/exchange.md, Spreadsheets). */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldLevel } from '../field/field.entity.js';
import { andSql } from '../filter/filter-sql.js';
import type { ExportPlan } from '../tbx/tbx-export-plan.js';
import { CROSS_REFERENCE, languageTag, SUBJECT_FIELD } from '../tbx/tbx-mapping.js';
import type { SheetLayout } from './sheet-writer.js';

/**
 * The dictionary's languages in order, its concept and term fields' categories (domains and
 * cross-references are a column and a report line of their own), the workflow's processStatus, and
 * definitions held by a language as a whole.
 */
export function sheetLayout(
  plan: ExportPlan,
  languages: { code: string; code2?: string | null; sortIndex: number }[],
  termColumns?: Record<string, number>,
): SheetLayout {
  const unique = (values: string[]) => [...new Set(values)];
  const of = (level: FieldLevel) =>
    unique(plan.fields.filter((field) => field.level === level).map((field) => field.category)).filter(
      (category) => category !== SUBJECT_FIELD && category !== CROSS_REFERENCE,
    );
  const termCategories = of('TERM');
  const tags = [...languages]
    .sort((a, b) => a.sortIndex - b.sortIndex)
    .map((language) => languageTag({ code: language.code, code2: language.code2 ?? null }, null, null));
  return {
    languages: tags,
    // A language without a term in the export still gets its one column.
    ...(termColumns
      ? { termColumns: Object.fromEntries(tags.map((tag) => [tag, termColumns[tag] ?? 1])) }
      : {}),
    conceptCategories: of('CONCEPT'),
    termCategories: plan.workflow ? ['processStatus', ...termCategories] : termCategories,
    languageCategories: termCategories.filter((category) => category === 'definition'),
  };
}

/**
 * Synonyms in repeated columns: per language tag, the most terms one concept of the export has in it
 * (one statement over the dictionary, so the header is known before the first row streams out).
 */
export async function synonymColumns(em: EntityManager, plan: ExportPlan): Promise<Record<string, number>> {
  const conceptFilter = andSql(plan.conceptWhere);
  const termFilter = andSql(plan.termWhere);
  const rows = await em.execute<{ language_code: string; n: number }[]>(
    `select language_code, max(n)::int as n from (
       select t.language_code, count(*) as n from terms t join concepts c on c.id = t.concept_id
        where c.dictionary_id = ? and not c.deleted and c.section_id in (?) and not t.deleted${conceptFilter.text}${termFilter.text}
        group by t.concept_id, t.language_code) per_concept
      group by language_code`,
    [plan.dictionaryId, plan.sectionIds, ...conceptFilter.params, ...termFilter.params],
  );
  const columns: Record<string, number> = {};
  for (const row of rows) {
    const language = plan.languages.get(row.language_code.toLowerCase());
    if (!language) continue;
    const tag = languageTag({ code: language.code, code2: language.code2 }, null, null);
    columns[tag] = Math.max(columns[tag] ?? 0, row.n);
  }
  return columns;
}
