/**
 * Value checks of a TBX import: each entry's values against their fields' rules as it is planned, and
 * the uniqueness of INCREMENTAL values against the dictionary as each batch is written.
 */
import { fieldValueProblems, normalizeFieldValues } from '../field/field-validation.js';
import { type ImportContext, sql } from './tbx-import-context.js';
import type { FieldValues, PlannedConcept } from './tbx-import-plan.js';
import type { ImportField, ImportStructure } from './tbx-import-structure.js';
import { type FieldParts, fieldValuesFrom, partsMatter, type ValuePart } from './tbx-mapping.js';

/**
 * Values as the fields will store them, and the parts of those made of several values or holding links
 * (tbx-mapping.ts); a value the field's rules refuse is an error and left out.
 */
export function checkedValues(
  ctx: ImportContext,
  structure: ImportStructure,
  values: Map<ImportField, ValuePart[]>,
  line: number,
): { fieldMap: FieldValues; fieldParts: FieldParts } {
  const map: FieldValues = {};
  const fieldParts: FieldParts = {};
  for (const [field, raw] of values) {
    let kept = fieldValuesFrom(field.rules.fieldType, raw);
    if (kept.length === 0) continue;
    const multiple = field.rules.fieldType === 'MULTISELECT' || field.rules.fieldType === 'ATTACHMENT';
    if (kept.length > 1 && !multiple) {
      // A single-valued field keeps the first value; the others are reported.
      for (const extra of kept.slice(1)) {
        ctx.error(
          line,
          `Field "${field.rules.name}" takes one value: ${JSON.stringify(extra.stored)} is left out`,
        );
      }
      kept = kept.slice(0, 1);
    }
    const texts = kept.map((entry) => entry.stored);
    if (field.growable) structure.addPicklistValues(field, texts);
    const problems = fieldValueProblems(field.rules, texts);
    if (problems.length) {
      for (const problem of problems) ctx.error(line, problem);
      continue;
    }
    // normalizeFieldValues keeps every value here (none is blank) and rewrites only line breaks.
    const stored = normalizeFieldValues(field.rules, texts);
    map[field.oid] = stored;
    const made = kept
      .map((entry, index) => ({ stored: stored[index]!, parts: entry.parts }))
      .filter(partsMatter);
    if (made.length) fieldParts[field.oid] = made;
  }
  return { fieldMap: map, fieldParts };
}

/**
 * INCREMENTAL values are unique per field in a dictionary: a value another concept (or another
 * concept's term) holds, or that an earlier entry of this batch took, is an error and left out.
 */
export async function checkIncremental(
  ctx: ImportContext,
  structure: ImportStructure,
  fresh: readonly PlannedConcept[],
  updates: ReadonlyMap<number, PlannedConcept>,
) {
  const incremental = structure.incrementalFields();
  if (incremental.length === 0) return;
  const entries = [
    ...fresh.map((planned) => ({ planned, conceptId: 0 })),
    ...[...updates].map(([conceptId, planned]) => ({ planned, conceptId })),
  ];
  for (const field of incremental) {
    const holders = entries.flatMap(({ planned, conceptId }) =>
      (field.level === 'CONCEPT' ? [planned.fieldMap] : planned.terms.map((t) => t.fieldMap))
        .filter((map) => map[field.oid]?.length)
        .map((map) => ({ map, conceptId, line: planned.line })),
    );
    if (holders.length === 0) continue;
    await sql(ctx.em, 'select pg_advisory_xact_lock(hashtext(?))', [`incremental:${field.oid}`]);
    const table = field.level === 'CONCEPT' ? 'concepts' : 'terms';
    const owner = field.level === 'CONCEPT' ? 'id' : 'concept_id';
    const used = await sql<{ value: string; owner: number }[]>(
      ctx.em,
      `select field_map -> ? ->> 0 as value, ${owner} as owner from "${table}"
        where dictionary_id = ? and not deleted and field_map -> ? ->> 0 = any(?::text[])`,
      [field.oid, ctx.dictionaryId, field.oid, holders.map((h) => h.map[field.oid]![0]!)],
    );
    const taken = new Map<string, number>(used.map((row) => [row.value, row.owner]));
    for (const holder of holders) {
      const value = holder.map[field.oid]![0]!;
      const owner = taken.get(value);
      if (owner !== undefined && (owner !== holder.conceptId || holder.conceptId === 0)) {
        ctx.error(
          holder.line,
          `Field "${field.rules.name}": value ${value} is already used in this dictionary`,
        );
        delete holder.map[field.oid];
      } else {
        taken.set(value, holder.conceptId === 0 ? -1 : holder.conceptId);
      }
    }
  }
}
