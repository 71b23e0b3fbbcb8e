/**
 * One concept of an export as a TbxEntry: its XML ids (and original ids), field values with their
 * parts, domains, cross-references, language sections with terms and language fields, and the
 * transactions with the file's people where an import kept them (provenance).
 */
import { attachmentXref } from '../attachment/attachment-tbx.js';
import type { LanguageFieldsDto } from '../concept/concept-language-fields.js';
import type { FieldLevel } from '../field/field.entity.js';
import type { ConceptRow, TermRow } from './tbx-export-batches.js';
import type { ExportPlan } from './tbx-export-plan.js';
import { CROSS_REFERENCE, type FieldParts, languageTag, SUBJECT_FIELD, tbxValuesOf } from './tbx-mapping.js';
import type { TbxEntry, TbxLanguageSection, TbxTransaction, TbxValue } from './tbx-model.js';
import { GENERATED_ID, originalIdValue } from './tbx-original-ids.js';
import { exportedStatusValue } from './tbx-status-mapping.js';

/** An XML NCName (xsd:ID): a letter or `_` first, then letters, digits, marks, `.`, `-`, `_`. */
const XML_ID = /^[\p{L}_][\p{L}\p{N}\p{M}._-]*$/u;

/**
 * The XML id of a concept or term: its oid when that is a valid, unrepeated XML id (not of our own
 * generated form), else `concept-<id>` / `term-<id>` (a term without an oid gets none).
 */
function xmlIdOf(plan: ExportPlan, kind: 'concept' | 'term', row: { id: number; oid: string | null }) {
  const own = `${kind}-${row.id}`;
  const oid = row.oid;
  if (oid === null) return kind === 'concept' ? own : null;
  const usable = oid === own || (XML_ID.test(oid) && !plan.repeatedOids.has(oid) && !GENERATED_ID.test(oid));
  return usable ? oid : own;
}

/** The oid as a value of its own when the XML id cannot be it, so that an import restores it. */
const originalIdOf = (xmlId: string | null, oid: string | null): TbxValue[] =>
  oid !== null && oid !== xmlId ? [originalIdValue(oid)] : [];

function valuesOf(
  plan: ExportPlan,
  level: FieldLevel,
  fieldMap: Record<string, string[]>,
  fieldParts: FieldParts,
  conceptId: number,
): TbxValue[] {
  const attachments = plan.attachments;
  return plan.fields
    .filter((field) => field.level === level)
    .flatMap((field) =>
      (fieldMap[field.oid] ?? []).flatMap((value) =>
        attachments?.fieldOids.has(field.oid)
          ? [{ ...attachmentXref(attachments, value, conceptId), fieldName: field.category }]
          : tbxValuesOf(field.category, value, field.tbxNames, field.element, fieldParts[field.oid]).map(
              (written) => withMappedStatus(plan, written),
            ),
      ),
    );
}

/** An administrativeStatus as the reverse of the export's status mapping says (tbx-status-mapping.ts). */
function withMappedStatus(plan: ExportPlan, value: TbxValue): TbxValue {
  if (!plan.statusMapping || value.category !== 'administrativeStatus') return value;
  const mapped = exportedStatusValue(value.value, plan.statusMapping);
  return mapped === value.value ? value : { ...value, value: mapped };
}

/**
 * Who created and changed a concept or term: the file's people where an import kept them (the
 * modifier while the row was not changed since), else the users.
 */
function transactionsOf(row: ConceptRow): TbxTransaction[] {
  const changedAt = new Date(row.changed_at);
  const fileModifier =
    row.provenance?.changedAt !== undefined &&
    new Date(row.provenance.changedAt).getTime() === changedAt.getTime()
      ? row.provenance.changedBy
      : undefined;
  return [
    {
      kind: 'created',
      date: new Date(row.created_at),
      responsibility: row.provenance?.createdBy ?? row.created_by,
    },
    { kind: 'changed', date: changedAt, responsibility: fileModifier ?? row.changed_by },
  ];
}

export function entryOf(
  plan: ExportPlan,
  concept: ConceptRow,
  terms: readonly TermRow[],
  domains: readonly { name: string }[],
  relations: readonly { text: string | null; id: number; oid: string | null }[],
  processStatusOf: ReadonlyMap<number, string | null> | null,
  languageFields: readonly (LanguageFieldsDto & { fieldParts: FieldParts })[],
): TbxEntry {
  const conceptId = xmlIdOf(plan, 'concept', concept);
  const values: TbxValue[] = [
    ...originalIdOf(conceptId, concept.oid),
    ...valuesOf(plan, 'CONCEPT', concept.field_map, concept.field_parts, concept.id),
    ...domains.map((domain) => ({ category: SUBJECT_FIELD, element: 'descrip', value: domain.name })),
    ...relations.map((relation) => {
      const target = xmlIdOf(plan, 'concept', relation)!;
      return { category: CROSS_REFERENCE, element: 'ref', value: relation.text ?? target, target };
    }),
  ];
  // Language sections in the order of their first term, so an import creates the terms in this order.
  const sections = new Map<string, TbxLanguageSection>();
  for (const row of terms) {
    const language = plan.languages.get(row.language_code.toLowerCase());
    const lang = languageTag(
      language ?? { code: row.language_code, code2: null },
      row.region_code,
      row.script_code,
    );
    let section = sections.get(lang);
    if (!section) {
      section = { lang, values: [], terms: [] };
      sections.set(lang, section);
    }
    // A term without an oid is written without id: a merge finds it by language and text.
    const termId = xmlIdOf(plan, 'term', row);
    section.terms.push({
      id: termId,
      term: row.name,
      values: [
        ...originalIdOf(termId, row.oid),
        ...withProcessStatus(
          valuesOf(plan, 'TERM', row.field_map, row.field_parts, concept.id),
          processStatusOf,
          row.id,
        ),
      ],
      transactions: transactionsOf(row),
      line: 0,
    });
  }
  // The concept's language fields go on the section of their language tag (one with a term: a section
  // needs one; without, they are not written, like a language the export leaves out).
  for (const fields of languageFields) {
    const language = plan.languages.get(fields.languageCode.toLowerCase());
    const lang = languageTag(
      language ?? { code: fields.languageCode, code2: null },
      fields.regionCode,
      fields.scriptCode,
    );
    sections
      .get(lang)
      ?.values.push(...valuesOf(plan, 'TERM', fields.fieldMap, fields.fieldParts, concept.id));
  }
  if (plan.basic) for (const section of sections.values()) hoistLanguageValues(plan, section);
  return {
    id: conceptId,
    values,
    transactions: transactionsOf(concept),
    languages: [...sections.values()],
    line: 0,
  };
}

/** A term's values with its state's processStatus instead of any stored one (under a workflow). */
function withProcessStatus(
  values: TbxValue[],
  processStatusOf: ReadonlyMap<number, string | null> | null,
  termId: number,
): TbxValue[] {
  if (!processStatusOf) return values;
  const kept = values.filter((value) => value.category.toLowerCase() !== 'processstatus');
  const status = processStatusOf.get(termId);
  return status ? [{ category: 'processStatus', element: 'termNote', value: status }, ...kept] : kept;
}

/**
 * A definition every term of a language holds alike is the language's definition (TBX-Basic puts it
 * on langSec): written there once, in TBX-Basic (which has no term-level definition). An import keeps a
 * langSec value as the concept's language field.
 */
function hoistLanguageValues(plan: ExportPlan, section: TbxLanguageSection) {
  for (const field of plan.fields.filter((f) => f.languageLevel)) {
    const per = section.terms.map((term) =>
      term.values.filter((v) => v.category === field.category).map((v) => v.value),
    );
    const first = per[0];
    if (!first?.length || per.some((list) => list.join('\u0000') !== first.join('\u0000'))) continue;
    for (const term of section.terms) term.values = term.values.filter((v) => v.category !== field.category);
    // A language field may hold the same definition already.
    const held = new Set(section.values.filter((v) => v.category === field.category).map((v) => v.value));
    section.values.push(
      ...first
        .filter((value) => !held.has(value))
        .map((value) => ({ category: field.category, element: 'descrip', value })),
    );
  }
}
