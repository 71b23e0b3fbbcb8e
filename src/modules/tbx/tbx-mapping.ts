/**
 * TBX data categories <-> dictionary fields, in one place (docs/tbx.md). A TBX-Basic category maps to the
 * field standing for its DataCategory (definition -> DEFINITION, administrativeStatus -> USAGE_STATUS...)
 * at the level where the value occurs; subjectField becomes domains, crossReference relations, transacGrp
 * the created/changed times. Any other category is kept in a GENERIC field named after it, so an import
 * drops nothing and an export writes it back under the same name.
 */
import { type DataCategoryInfo, dataCategory, isTbxCategory } from '../field/data-categories.js';
import {
  type DataCategoryKey,
  type FieldLevel,
  type FieldType,
  TbxDataCategories,
} from '../field/field.entity.js';
import type { TbxTransaction, TbxValue } from './tbx-model.js';

/** Becomes the concept's domains (by name, created when missing). */
export const SUBJECT_FIELD = 'subjectField';
/** Becomes an ASSOCIATIVE relation to the entry (or term) its target names. */
export const CROSS_REFERENCE = 'crossReference';
/** `<note>` has no type: its values live in a GENERIC field of this name. */
export const NOTE = 'note';

const catalogueByTbxName = new Map<string, DataCategoryInfo>(
  TbxDataCategories.map((key) => dataCategory(key)).map((info) => [info.name.toLowerCase(), info]),
);

/** What a field created for a category looks like. */
export interface FieldBlueprint {
  level: FieldLevel;
  dataCategory: DataCategoryKey;
  name: string;
  fieldType: FieldType;
  /** Standard TBX values of a picklist category, created with the field. */
  picklistItems: readonly { tbxName: string; name: string; sortIndex: number }[];
}

/** The category a value stands for, as the mapping keys it (a typeless `<note>` is `note`). */
export const categoryOf = (value: TbxValue): string => value.category.trim() || NOTE;

/** The field a value of `category` at `level` goes to, when the dictionary has none yet. */
export function fieldBlueprint(category: string, level: FieldLevel): FieldBlueprint {
  const info = catalogueByTbxName.get(category.toLowerCase());
  if (info?.levels.includes(level)) {
    return {
      level,
      dataCategory: info.key,
      name: info.name,
      fieldType: info.fieldType,
      picklistItems: info.picklistItems,
    };
  }
  // Unknown categories (and catalogue ones at a level the catalogue does not allow) keep their name;
  // MULTILINE takes any text, so no value is refused for its form.
  return { level, dataCategory: 'GENERIC', name: category, fieldType: 'MULTILINE', picklistItems: [] };
}

/** The TBX category a field is written as: its data category's TBX name, or the field's own name. */
export function tbxCategoryOf(field: { dataCategory: DataCategoryKey; name: string }): string {
  if (field.dataCategory !== 'GENERIC' && isTbxCategory(field.dataCategory)) {
    return dataCategory(field.dataCategory).name;
  }
  return field.name;
}

const LINE_BREAKS = /\s*(?:\r\n|\r|\n)+\s*/g;

/**
 * One value as a file gave it: its text and, for a ref or xref, its link target. Links are structured
 * data beside the field value (`field_parts`), never read out of its text: "Press <Enter>" is text.
 */
export interface ValuePart {
  value: string;
  target?: string;
}

/**
 * How a stored field value was made: the values a file gave for it, with their links. Kept beside the
 * field values (the `field_parts` column of concepts, terms and language fields: `{oid: [..]}`) and
 * read back only while the field still holds `stored` exactly, so an edit of the value drops them.
 */
export interface StoredParts {
  stored: string;
  parts: ValuePart[];
}
export type FieldParts = Record<string, StoredParts[]>;

/** The value of a ref or xref as a part: its label (the target when it has none) and its target. */
export function valuePartOf(value: TbxValue): ValuePart {
  const target = value.target?.trim();
  if (!target) return { value: value.value };
  const label = value.value.trim();
  return { value: label === '' ? target : label, target };
}

/**
 * The values one field keeps from what an entry gave for it, each with the parts it was made of: a
 * single-valued text field joins several values (a blank line between them in MULTILINE, `; ` in
 * SINGLELINE, which also loses its line breaks), and its parts keep them apart for the export; other
 * kinds keep the distinct values.
 */
export function fieldValuesFrom(fieldType: FieldType, given: readonly ValuePart[]): StoredParts[] {
  const kept = given
    .map((part) => ({ ...part, value: part.value.trim() }))
    .filter((part) => part.value !== '');
  if (fieldType === 'SINGLELINE' && kept.length > 1) {
    return [{ stored: kept.map((part) => part.value.replace(LINE_BREAKS, ' ')).join('; '), parts: kept }];
  }
  if (fieldType === 'SINGLELINE' && kept[0]) {
    return [{ stored: kept[0].value.replace(LINE_BREAKS, ' '), parts: [kept[0]] }];
  }
  if (fieldType === 'MULTILINE' && kept.length > 1) {
    return [{ stored: kept.map((part) => part.value).join('\r\n\r\n'), parts: kept }];
  }
  // A value given twice is one value (picklists, numbers, dates and multiselects).
  const seen = new Map<string, StoredParts>();
  for (const part of kept)
    if (!seen.has(part.value)) seen.set(part.value, { stored: part.value, parts: [part] });
  return [...seen.values()];
}

/**
 * The parts a merge writes over the stored ones (jsonb `||`): for every field the file gave, its parts
 * or none, so a plain value from the file drops the parts the old value had.
 */
export const mergedParts = (fieldMap: Record<string, unknown>, fieldParts: FieldParts): FieldParts =>
  Object.fromEntries(Object.keys(fieldMap).map((oid) => [oid, fieldParts[oid] ?? []]));

/** Whether parts say more than their stored value: several values, or a link. */
export const partsMatter = (entry: StoredParts): boolean =>
  entry.parts.length > 1 || entry.parts.some((part) => part.target !== undefined);

/**
 * A stored value as the TBX values of `category` (picklist names written as their TBX names). The parts
 * an import kept for exactly this value give back its separate values and their links; any other value
 * is one plain value, whatever its text looks like.
 */
export function tbxValuesOf(
  category: string,
  stored: string,
  tbxNames?: ReadonlyMap<string, string>,
  fieldElement = '',
  parts?: readonly StoredParts[],
): TbxValue[] {
  // Unless the field remembers the element it was imported in, the writer picks the one TBX uses for
  // the category at the level.
  const element = category === NOTE ? 'note' : fieldElement;
  const made = parts?.find((entry) => entry.stored === stored);
  if (!made) return [{ category, element, value: tbxNames?.get(stored) ?? stored }];
  return made.parts.map((part) => ({
    category,
    element,
    value: tbxNames?.get(part.value) ?? part.value,
    ...(part.target !== undefined ? { target: part.target } : {}),
  }));
}

/**
 * Who created and last changed an entry or term by the file's transactions (transacGrp responsibility),
 * kept as provenance beside the importing user: exports write them back (the creator always, the last
 * modifier while the row was not changed since, `changedAt`) instead of the user who imported.
 */
export interface Provenance {
  createdBy?: string;
  changedBy?: string;
  /** The file's modification time the modifier goes with (ISO). */
  changedAt?: string;
}

/** The created and changed times a file gives (the latest of each kind), and who did them. */
export function transactionTimes(transactions: readonly TbxTransaction[]): {
  createdAt: Date | null;
  changedAt: Date | null;
  provenance: Provenance | null;
} {
  let createdAt: Date | null = null;
  let changedAt: Date | null = null;
  const provenance: Provenance = {};
  for (const transaction of transactions) {
    const date = transaction.date;
    const by = transaction.responsibility?.trim() || undefined;
    if (!date || Number.isNaN(date.getTime())) {
      // Undated: who did it still counts, when nothing dated says otherwise.
      if (by && transaction.kind === 'created') provenance.createdBy ??= by;
      continue;
    }
    if (transaction.kind === 'created') {
      if (!createdAt || date > createdAt) {
        createdAt = date;
        if (by) provenance.createdBy = by;
      }
    } else if (!changedAt || date > changedAt) {
      changedAt = date;
      provenance.changedBy = by;
    }
  }
  if (provenance.changedBy && changedAt) provenance.changedAt = changedAt.toISOString();
  else delete provenance.changedBy;
  return {
    createdAt,
    changedAt,
    provenance: provenance.createdBy || provenance.changedBy ? provenance : null,
  };
}

/** The TBX `xml:lang` of a term: ISO 639-1 where the language has one, then script and region. */
export function languageTag(
  language: { code: string; code2: string | null },
  regionCode: string | null,
  scriptCode: string | null,
): string {
  const script = scriptCode
    ? `-${scriptCode.charAt(0).toUpperCase()}${scriptCode.slice(1).toLowerCase()}`
    : '';
  const region = regionCode ? `-${regionCode.toUpperCase()}` : '';
  return `${language.code2 ?? language.code}${script}${region}`;
}

/** The concept id an exported `concept-<id>` names, or null. */
export function exportedConceptId(id: string): number | null {
  const match = /^concept-(\d{1,9})$/.exec(id);
  return match ? Number(match[1]) : null;
}
