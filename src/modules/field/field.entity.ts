import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

/**
 * Kinds of field values. INCREMENTAL is a number the server proposes (the next after the highest used);
 * ATTACHMENT values are keys of uploaded files (docs/attachments.md).
 */
export const FieldTypes = [
  'SINGLELINE',
  'MULTILINE',
  'NUMBER',
  'DATE',
  'PICKLIST',
  'MULTISELECT',
  'INCREMENTAL',
  'ATTACHMENT',
] as const;
export type FieldType = (typeof FieldTypes)[number];

export const FieldLevels = ['CONCEPT', 'TERM'] as const;
export type FieldLevel = (typeof FieldLevels)[number];

/** TBX data categories a field may stand for; GENERIC marks a custom field. */
export const TbxDataCategories = [
  'DEFINITION',
  'EXAMPLE',
  'GRAMMATICAL_GENDER',
  'GRAMMATICAL_NUMBER',
  'PROCESS_STATUS',
  'SOURCE',
  'SOURCE_LANGUAGE',
  'USAGE_NOTE',
  'CONTEXT',
  'USAGE_STATUS',
  'TERM_TYPE',
  'CONCEPT_ORIGIN',
  'CUSTOMER_SUBSET',
  'ENVIRONMENT_SUBSET',
  'EXPLANATION',
  'PRODUCT_SUBSET',
  'PROJECT_SUBSET',
  'ANIMACY',
  'PART_OF_SPEECH',
  'SAMPLE_SENTENCE',
  'TERM_LOCATION',
] as const;
/** Categories of the system's own attributes (concept serial, creator, term name...). */
export const SystemDataCategories = [
  'DOM',
  'DICT',
  'SECT',
  'SUBC',
  'CONID',
  'CREBY',
  'CREDATE',
  'CHGBY',
  'CHGDATE',
  'TERM',
  'LANG',
  'GVAR',
  'OVAR',
  'TERM_CONFIG',
  'TCREBY',
  'TCREDATE',
  'TCHGBY',
  'TCHGDATE',
  'TERM_ID',
] as const;
export const DataCategoryKeys = ['GENERIC', ...TbxDataCategories, ...SystemDataCategories] as const;
export type DataCategoryKey = (typeof DataCategoryKeys)[number];

/** Longest value of a SINGLELINE or MULTILINE field. */
export const MAX_TEXT_LENGTH = 16383;

/**
 * A field of a dictionary's concepts or terms. The FieldModel settings live on the row (one field, one
 * model); picklist values are rows of their own, so values can be renamed and reordered.
 * The oid is always set: concept and term values are keyed by it.
 */
export const Field = defineEntity({
  name: 'Field',
  tableName: 'fields',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    specifiedName: p.string().length(255).nullable(),
    dataCategory: p.enum([...DataCategoryKeys]).default('GENERIC'),
    fieldType: p.enum([...FieldTypes]),
    level: p.enum([...FieldLevels]),
    sortIndex: p.integer().default(0),
    required: p.boolean().default(false),
    minLen: p.integer().default(0),
    maxLen: p.integer().default(0),
    regExp: p.string().length(1024).nullable(),
    number: p.boolean().default(false),
    unicode: p.boolean().default(false),
    /** The TBX element (descrip, admin, termNote) of a GENERIC field a TBX import made; see docs/tbx.md. */
    tbxElement: p.string().length(16).nullable(),
  },
});
export type Field = InferEntity<typeof Field>;

/** One value of a PICKLIST or MULTISELECT field. */
export const PicklistItem = defineEntity({
  name: 'PicklistItem',
  tableName: 'picklist_items',
  properties: {
    id: p.integer().primary(),
    oid: p.string().length(64),
    field: () => p.manyToOne(Field).ref(),
    /** What users see; the TBX name is used when no custom name is given. */
    name: p.string().length(255).nullable(),
    tbxName: p.string().length(255).nullable(),
    sortIndex: p.integer().default(0),
  },
});
export type PicklistItem = InferEntity<typeof PicklistItem>;
