/**
 * Language values (a language section's own values, the concept's language fields) in a TBX merge under
 * a workflow (docs/workflows.md, TBX), as an API edit of them (workflow-edit.ts): under the LANGUAGE
 * unit a read-only language keeps its values (reported when the file's differ) and a changed language
 * is an edit of its entry (an approved one re-opens); under CONCEPT any change edits the concept's entry;
 * under TERM they belong to no entry. The merge replaces the fields the file names per tag
 * (writeLanguageFields), so a tag changes when a named field's values differ from the stored ones.
 */
import { sameJson } from '../../shared/canonical-json.js';
import { type LanguageFieldsDto, tagKey } from '../concept/concept-language-fields.js';
import type { ImportContext } from './tbx-import-context.js';
import type { PlannedConcept } from './tbx-import-plan.js';
import { type ReadOnlyEntries, readOnlyMessage } from './tbx-import-readonly.js';

/**
 * The language values a concept holds after a merge writes `rows` (writeLanguageFields: the fields a row
 * names replace the stored ones of its tag), in the order languageFieldsOf reads them, as snapshots hold them.
 */
export function mergedLanguageFields(
  stored: readonly LanguageFieldsDto[],
  rows: readonly LanguageFieldsDto[],
): LanguageFieldsDto[] {
  const byTag = new Map(stored.map((row) => [tagKey(row), { ...row }]));
  for (const row of rows) {
    if (Object.keys(row.fieldMap).length === 0) continue;
    const old = byTag.get(tagKey(row));
    byTag.set(tagKey(row), old ? { ...old, fieldMap: { ...old.fieldMap, ...row.fieldMap } } : { ...row });
  }
  const order = (row: LanguageFieldsDto) => [
    row.languageCode,
    row.regionCode === null ? '' : `~${row.regionCode}`,
    row.scriptCode === null ? '' : `~${row.scriptCode}`,
  ];
  return [...byTag.values()].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/**
 * For the concepts a batch merges into (`stored`: their language values, read with their lock):
 * drops the language values of read-only languages (LANGUAGE unit) and adds the languages whose
 * values change to `planned.edited`. No statement.
 */
export function mergeLanguageValues(
  ctx: ImportContext,
  merged: readonly { conceptId: number; planned: PlannedConcept }[],
  stored: ReadonlyMap<number, readonly LanguageFieldsDto[]>,
  readOnly: ReadOnlyEntries | null,
): void {
  const unit = ctx.workflow?.unit;
  if (!unit || unit === 'TERM') return;
  const items = merged.filter((item) => item.planned.languageFields.length > 0);
  for (const { conceptId, planned } of items) {
    const old = new Map((stored.get(conceptId) ?? []).map((row) => [tagKey(row), row.fieldMap]));
    const reported = new Set<string>();
    const edited = new Set<string>();
    planned.languageFields = planned.languageFields.filter((row) => {
      const fieldMap = old.get(tagKey(row)) ?? {};
      if (sameJson(fieldMap, { ...fieldMap, ...row.fieldMap })) return true;
      const locked = unit === 'LANGUAGE' ? readOnly?.of(conceptId, row.languageCode, 0) : null;
      if (!locked) {
        edited.add(unit === 'LANGUAGE' ? row.languageCode : '');
        return true;
      }
      if (!reported.has(row.languageCode)) {
        reported.add(row.languageCode);
        const what = { conceptId, language: row.languageCode };
        ctx.error(planned.line, readOnlyMessage(locked, what, 'its language values were not imported'));
      }
      return false;
    });
    if (edited.size === 0) continue;
    const known = new Set((planned.edited ?? []).map((entry) => `${entry.languageCode}|${entry.termId}`));
    planned.edited = [
      ...(planned.edited ?? []),
      ...[...edited]
        .filter((languageCode) => !known.has(`${languageCode}|0`))
        .map((languageCode) => ({ termId: 0, languageCode })),
    ];
  }
}
