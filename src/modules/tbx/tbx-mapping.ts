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

/** Categories written as `<xref target=..>`: their values keep the target beside the label. */
const TARGETED_CATEGORIES: ReadonlySet<string> = new Set(['externalCrossReference', 'xGraphic', 'xSource']);

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
 * The values one field keeps from what an entry gave for it: a single-valued text field joins several
 * values (a blank line between them in MULTILINE, `; ` in SINGLELINE, which also loses its line breaks);
 * other kinds keep the distinct values.
 */
export function fieldValuesFrom(fieldType: FieldType, values: readonly string[]): string[] {
  const kept = values.map((value) => value.trim()).filter((value) => value !== '');
  if (fieldType === 'SINGLELINE') {
    const single = kept.map((value) => value.replace(LINE_BREAKS, ' '));
    return single.length > 1 ? [single.join('; ')] : single;
  }
  if (fieldType === 'MULTILINE' && kept.length > 1) return [kept.join('\r\n\r\n')];
  // A value given twice is one value (picklists, numbers, dates and multiselects).
  return [...new Set(kept)];
}

/**
 * The stored form of a value: its text, and for xref categories the target too (`label <target>`, or
 * the target alone when there is no other label), so the link survives a round trip.
 */
export function storedTextOf(value: TbxValue): string {
  const target = value.target?.trim();
  if (!target) return value.value;
  const label = value.value.trim();
  // A bare target reads back as a link only for xref categories; other categories keep `<target>`.
  if (label === '' || label === target)
    return TARGETED_CATEGORIES.has(value.category) ? target : `<${target}>`;
  return `${label} <${target}>`;
}

const LABELLED_TARGET = /^(?:(.*) )?<([^<>\r\n]+)>$/s;
/** How fieldValuesFrom joins several values of a single-valued MULTILINE field. */
const JOINED = /\r?\n\r?\n/;

/** A stored link (`label <target>`, or for xref categories a bare `scheme:…` target), or null. */
function linkOf(category: string, stored: string): { value: string; target: string } | null {
  const labelled = LABELLED_TARGET.exec(stored);
  if (labelled && !labelled[1]?.includes('\n')) return { value: labelled[1] ?? '', target: labelled[2]! };
  if (TARGETED_CATEGORIES.has(category) && /^\S+:\S+$/.test(stored)) return { value: stored, target: stored };
  return null;
}

/**
 * A stored value as the TBX values of `category` (picklist names written as their TBX names). A value
 * holding links (`label <target>`, what an import stores for a ref or xref of any category) gives them
 * back as links; values the import joined into one field value (blank lines between them) come back
 * one by one when links are among them.
 */
export function tbxValuesOf(
  category: string,
  stored: string,
  tbxNames?: ReadonlyMap<string, string>,
  fieldElement = '',
): TbxValue[] {
  // Unless the field remembers the element it was imported in, the writer picks the one TBX uses for
  // the category at the level.
  const element = category === NOTE ? 'note' : fieldElement;
  const parts = stored.split(JOINED);
  const links = parts.map((part) => linkOf(category, part));
  if (links.every((link) => link === null))
    return [{ category, element, value: tbxNames?.get(stored) ?? stored }];
  // Joined values with links among them: one value per part, so that each link keeps its target.
  return parts.map((part, index) => ({ category, element, ...(links[index] ?? { value: part }) }));
}

/** The created and changed times a file gives (the latest of each kind). */
export function transactionTimes(transactions: readonly TbxTransaction[]): {
  createdAt: Date | null;
  changedAt: Date | null;
} {
  let createdAt: Date | null = null;
  let changedAt: Date | null = null;
  for (const transaction of transactions) {
    const date = transaction.date;
    if (!date || Number.isNaN(date.getTime())) continue;
    if (transaction.kind === 'created') {
      if (!createdAt || date > createdAt) createdAt = date;
    } else if (!changedAt || date > changedAt) changedAt = date;
  }
  return { createdAt, changedAt };
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
