/**
 * Language values (a language section's own values, the concept's language fields) in a TBX merge under
 * a workflow (docs/workflows.md, TBX), as an API edit of them (workflow-edit.ts): under the LANGUAGE
 * unit a read-only language keeps its values (reported when the file's differ) and a changed language
 * is an edit of its entry (an approved one re-opens); under CONCEPT any change edits the concept's entry;
 * under TERM they belong to no entry. The merge replaces the fields the file names per tag
 * (writeLanguageFields), so a tag changes when a named field's values differ from the stored ones.
 */
import { sameJson } from '../../shared/canonical-json.js';
import { languageFieldsOf, tagKey } from '../concept/concept-language-fields.js';
import type { ImportContext } from './tbx-import-context.js';
import type { PlannedConcept } from './tbx-import-plan.js';
import { type ReadOnlyEntries, readOnlyMessage } from './tbx-import-readonly.js';

/**
 * For the concepts a batch merges into: drops the language values of read-only languages (LANGUAGE
 * unit) and adds the languages whose values change to `planned.edited`. One statement for the targets'
 * stored values, none without a workflow or without language values in the file.
 */
export async function mergeLanguageValues(
  ctx: ImportContext,
  merged: readonly { conceptId: number; planned: PlannedConcept }[],
  readOnly: ReadOnlyEntries | null,
): Promise<void> {
  const unit = ctx.workflow?.unit;
  if (!unit || unit === 'TERM') return;
  const items = merged.filter((item) => item.planned.languageFields.length > 0);
  if (items.length === 0) return;
  const stored = await languageFieldsOf(
    ctx.em,
    items.map((item) => item.conceptId),
  );
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
