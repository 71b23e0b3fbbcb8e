/**
 * Entry planning of a TBX import: a parsed entry becomes the concept it will be (terms by language,
 * field values, domains, cross-references), creating the structure it needs on the way.
 */

import type { LanguageFieldsDto } from '../concept/concept-language-fields.js';
import type { FieldLevel } from '../field/field.entity.js';
import type { WorkflowState } from '../workflow/workflow-definition.js';
import type { ImportContext } from './tbx-import-context.js';
import type { ImportField, ImportStructure } from './tbx-import-structure.js';
import { checkedValues } from './tbx-import-values.js';
import {
  CROSS_REFERENCE,
  categoryOf,
  type FieldParts,
  type Provenance,
  SUBJECT_FIELD,
  transactionTimes,
  type ValuePart,
  valuePartOf,
} from './tbx-mapping.js';
import type { TbxEntry, TbxValue } from './tbx-model.js';
import { takeOriginalId } from './tbx-original-ids.js';
import { importedStatusValue } from './tbx-status-mapping.js';

const MAX_TERM_LENGTH = 1024;

/** Field values by field oid, as concepts and terms store them. */
export type FieldValues = Record<string, string[]>;

export interface PlannedTerm {
  oid: string | null;
  name: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: FieldValues;
  /** How its values were made, where they hold links or joined values (tbx-mapping.ts). */
  fieldParts: FieldParts;
  createdAt: Date | null;
  changedAt: Date | null;
  /** Who created and changed it by the file (tbx-mapping.ts). */
  provenance: Provenance | null;
  /** The workflow state its processStatus maps to (tbx-import-workflow.ts). */
  state?: WorkflowState | null;
  /** The term's id in the file when `oid` is the original id an export carried (tbx-original-ids.ts). */
  fileId?: string;
  /** The term's id once written. */
  writtenId?: number;
}

/** A crossReference, resolved to a relation once the whole file is in (tbx-import-relations.ts). */
export interface PlannedXref {
  target: string;
  text: string | null;
  line: number;
  /** For a term's cross-reference, how the account names it (its concept gets the relation). */
  ofTerm?: string;
}

/** One entry as the dictionary will hold it, its values already checked. */
export interface PlannedConcept {
  /** The entry's id in the file: what ENTRY_ID merges by. */
  entryId: string | null;
  /** The oid an export could not write as the id and carried as `originalId`: stored instead of entryId. */
  originalId: string | null;
  line: number;
  fieldMap: FieldValues;
  fieldParts: FieldParts;
  domainIds: Set<number>;
  createdAt: Date | null;
  changedAt: Date | null;
  /** Who created and changed it by the file (tbx-mapping.ts). */
  provenance: Provenance | null;
  terms: PlannedTerm[];
  /** A language section's own values (TERM-level fields), kept as the concept's language fields. */
  languageFields: (LanguageFieldsDto & { fieldParts?: FieldParts })[];
  xrefs: PlannedXref[];
  /** The concept's id once written (created or merged into). */
  writtenId?: number;
  /**
   * Under a workflow, what a merge changed in the existing concept: the changed or added terms, and the
   * languages (termId 0) whose language values changed (none: concept values only). Approved entries it
   * touches re-open (tbx-import-workflow.ts).
   */
  edited?: { termId: number; languageCode: string }[];
}

/** Plans one entry: its values routed to fields, domains and cross-references, and checked. */
export function planEntry(ctx: ImportContext, structure: ImportStructure, entry: TbxEntry): PlannedConcept {
  const conceptValues0 = [...entry.values];
  const concept: PlannedConcept = {
    entryId: identifier(ctx, entry.id, 'entry', entry.line),
    originalId: identifier(ctx, takeOriginalId(conceptValues0, entry.id), 'entry', entry.line),
    line: entry.line,
    fieldMap: {},
    fieldParts: {},
    domainIds: new Set(),
    ...transactionTimes(entry.transactions),
    terms: [],
    languageFields: [],
    xrefs: [],
  };
  // What the reader met but the model cannot hold is said, never dropped in silence.
  for (const problem of entry.notKept ?? []) ctx.error(problem.line, problem.message);
  const conceptValues = new Map<ImportField, ValuePart[]>();
  for (const value of conceptValues0)
    take(ctx, structure, value, 'CONCEPT', concept, conceptValues, entry.line);
  ({ fieldMap: concept.fieldMap, fieldParts: concept.fieldParts } = checkedValues(
    ctx,
    structure,
    conceptValues,
    entry.line,
  ));
  const languageValues = new Map<
    string,
    {
      language: Pick<PlannedTerm, 'languageCode' | 'regionCode' | 'scriptCode'>;
      values: Map<ImportField, ValuePart[]>;
    }
  >();
  for (const section of entry.languages) {
    const language = structure.language(section.lang, entry.line);
    if (!language) continue;
    // Language-level values stay at the language: the concept's language fields (TERM-level fields).
    const sectionValues = new Map<ImportField, ValuePart[]>();
    for (const value of section.values) {
      take(ctx, structure, value, 'TERM', concept, sectionValues, entry.line);
    }
    if (section.terms.length === 0 && sectionValues.size > 0) {
      ctx.error(entry.line, `Values of language section "${section.lang}" without terms are skipped`);
    } else if (sectionValues.size > 0) {
      // Two sections of one language tag in an entry share its language fields.
      const key = [language.languageCode, language.regionCode, language.scriptCode].join('|');
      const held = languageValues.get(key);
      if (!held) languageValues.set(key, { language, values: sectionValues });
      else
        for (const [field, values] of sectionValues)
          held.values.set(field, [...(held.values.get(field) ?? []), ...values]);
    }
    for (const term of section.terms) {
      const name = term.term.trim();
      if (name === '') {
        ctx.error(term.line, 'A term without text is skipped');
        continue;
      }
      if ([...name].length > MAX_TERM_LENGTH) {
        ctx.error(term.line, `A term longer than ${MAX_TERM_LENGTH} characters is skipped`);
        continue;
      }
      const termValues = new Map<ImportField, ValuePart[]>();
      let state: WorkflowState | null = null;
      const ownValues = [...term.values];
      const originalId = identifier(ctx, takeOriginalId(ownValues, term.id), 'term', term.line);
      const fileId = identifier(ctx, term.id, 'term', term.line);
      for (const value of ownValues) {
        // Under a workflow, processStatus is the entry's state, not a field value.
        const processStatus = ctx.workflow?.claim(value);
        if (processStatus) state ??= ctx.workflow!.stateFor(ctx, processStatus, term.line);
        else take(ctx, structure, mappedStatus(ctx, value), 'TERM', concept, termValues, term.line);
      }
      concept.terms.push({
        oid: originalId ?? fileId,
        ...(originalId && fileId ? { fileId } : {}),
        name,
        ...language,
        ...checkedValues(ctx, structure, termValues, term.line),
        ...transactionTimes(term.transactions),
        state,
      });
    }
  }
  for (const { language, values } of languageValues.values()) {
    const { fieldMap, fieldParts } = checkedValues(ctx, structure, values, entry.line);
    if (Object.keys(fieldMap).length > 0) concept.languageFields.push({ ...language, fieldMap, fieldParts });
  }
  return concept;
}

/** A term's administrativeStatus as the import's status mapping says (tbx-status-mapping.ts). */
function mappedStatus(ctx: ImportContext, value: TbxValue): TbxValue {
  if (value.category !== 'administrativeStatus') return value;
  const mapped = importedStatusValue(value.value, ctx.statusMapping);
  return mapped === value.value ? value : { ...value, value: mapped };
}

/** An entry or term id as an oid; ids longer than an oid column are reported and not kept. */
function identifier(
  ctx: ImportContext,
  id: string | null,
  what: 'entry' | 'term',
  line: number,
): string | null {
  const trimmed = id?.trim();
  if (!trimmed) return null;
  if (trimmed.length > 64) {
    ctx.error(line, `The ${what} id "${trimmed.slice(0, 40)}…" is longer than 64 characters and is not kept`);
    return null;
  }
  return trimmed;
}

/** `cross-reference`, `crossRef`, `CrossReference`… as written by other tools. */
const isCrossReference = (category: string) =>
  ['crossreference', 'crossref'].includes(category.toLowerCase().replace(/[^a-z]/g, ''));

/** Routes one value: domains, cross-references, or the field of its category at this level. */
function take(
  ctx: ImportContext,
  structure: ImportStructure,
  value: TbxValue,
  level: FieldLevel,
  concept: PlannedConcept,
  values: Map<ImportField, ValuePart[]>,
  line: number,
) {
  const category = categoryOf(value);
  if (value.component !== undefined) {
    // Dictionaries have no term components: a component's part of speech is not the term's.
    ctx.error(
      value.line ?? line,
      `${category} "${value.value}" of the term component "${value.component}" is not kept (no term components)`,
    );
    return;
  }
  if (category.toLowerCase() === SUBJECT_FIELD.toLowerCase()) {
    const name = value.value.trim().slice(0, 255);
    if (name) concept.domainIds.add(structure.domain(name));
    return;
  }
  if (
    category.toLowerCase() === CROSS_REFERENCE.toLowerCase() ||
    (isCrossReference(category) && value.target)
  ) {
    const target = (value.target ?? value.value).trim().replace(/^#/, '');
    const text = value.value.trim();
    // Relations join concepts: what becomes of a term's link is said once the file is in
    // (tbx-import-relations.ts), as it may be kept, merged into another relation or not kept.
    if (target) {
      concept.xrefs.push({
        target,
        text: text && text !== target ? text : null,
        line: level === 'TERM' ? (value.line ?? line) : line,
        ...(level === 'TERM' ? { ofTerm: `${category} "${text}" -> ${target} of a term` } : {}),
      });
    }
    return;
  }
  const field = value.attachmentKey
    ? structure.attachmentField(category, level)
    : structure.field(category, level, value.element);
  const list = values.get(field);
  const part = value.attachmentKey ? { value: value.attachmentKey } : valuePartOf(value);
  if (list) list.push(part);
  else values.set(field, [part]);
}
