/**
 * Ids that cannot be XML ids (docs/tbx.md, Ids). An export writes a concept's or term's oid as its id
 * only when it is a valid XML id that no other concept or term shares; otherwise the element gets
 * `concept-<id>`/`term-<id>` and the oid travels as a value of its own, `<admin type="originalId">`
 * (TBX-Basic, which has no such category: `<note>originalId: …</note>`). An import stores that value as
 * the oid again, and remembers the file's id for the cross-references that name it.
 */
import { type ImportContext, sql } from './tbx-import-context.js';
import type { PlannedConcept } from './tbx-import-plan.js';
import type { TbxValue } from './tbx-model.js';

export const ORIGINAL_ID = 'originalId';
/** The ids an export makes itself. */
export const GENERATED_ID = /^(concept|term)-\d+$/;
const NOTE_FORM = /^originalId: (.+)$/s;

/** The value an export adds when it cannot write the oid as the id. */
export const originalIdValue = (oid: string): TbxValue => ({
  category: ORIGINAL_ID,
  element: 'admin',
  value: oid,
});

/**
 * Takes the original id out of a concept's or term's values: the `originalId` admin, or (only beside an
 * id of the export's own form, so another tool's notes are left alone) TBX-Basic's note form.
 */
export function takeOriginalId(values: TbxValue[], id: string | null): string | null {
  const index = values.findIndex(
    (value) =>
      (value.category === ORIGINAL_ID && value.target === undefined) ||
      (value.element === 'note' &&
        (value.category === 'note' || value.category === '') &&
        id !== null &&
        GENERATED_ID.test(id) &&
        NOTE_FORM.test(value.value)),
  );
  if (index < 0) return null;
  const [value] = values.splice(index, 1);
  const text = value!.category === ORIGINAL_ID ? value!.value : NOTE_FORM.exec(value!.value)![1]!;
  return text.trim() || null;
}

/** Creates the table of the file's ids that are not stored as oids (dropped at the commit; see prepareRelations). */
export async function prepareFileIds(ctx: ImportContext) {
  await sql(ctx.em, 'drop table if exists pg_temp.tbx_file_ids');
  await sql(
    ctx.em,
    'create temporary table tbx_file_ids (file_id text not null, concept_id int not null) on commit drop',
  );
  await sql(ctx.em, 'create index on tbx_file_ids (file_id)');
}

/** After a batch is written: the file ids of its concepts and terms stored under their original ids. */
export async function rememberFileIds(ctx: ImportContext, batch: readonly PlannedConcept[]) {
  const rows = batch.flatMap((concept) => {
    if (concept.writtenId === undefined) return [];
    const ids = [
      ...(concept.originalId && concept.entryId ? [concept.entryId] : []),
      ...concept.terms.flatMap((term) => (term.fileId ? [term.fileId] : [])),
    ];
    return ids.map((file_id) => ({ file_id, concept_id: concept.writtenId! }));
  });
  if (rows.length === 0) return;
  await sql(
    ctx.em,
    `insert into tbx_file_ids (file_id, concept_id)
     select x.file_id, x.concept_id from json_to_recordset(?::json) as x(file_id text, concept_id int)`,
    [JSON.stringify(rows)],
  );
}
