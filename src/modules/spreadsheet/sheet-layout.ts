/** A spreadsheet export's columns from the TBX export's plan (docs/exchange.md, Spreadsheets). */
import type { FieldLevel } from '../field/field.entity.js';
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
): SheetLayout {
  const unique = (values: string[]) => [...new Set(values)];
  const of = (level: FieldLevel) =>
    unique(plan.fields.filter((field) => field.level === level).map((field) => field.category)).filter(
      (category) => category !== SUBJECT_FIELD && category !== CROSS_REFERENCE,
    );
  const termCategories = of('TERM');
  return {
    languages: [...languages]
      .sort((a, b) => a.sortIndex - b.sortIndex)
      .map((language) => languageTag({ code: language.code, code2: language.code2 ?? null }, null, null)),
    conceptCategories: of('CONCEPT'),
    termCategories: plan.workflow ? ['processStatus', ...termCategories] : termCategories,
    languageCategories: termCategories.filter((category) => category === 'definition'),
  };
}
