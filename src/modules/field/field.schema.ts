import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { DataCategoryKeys, FieldLevels, FieldTypes, MAX_TEXT_LENGTH } from './field.entity.js';

export const PicklistItemDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string(),
  name: z.string().nullable().describe('display name; the TBX name is used when none is given'),
  tbxName: z.string().nullable(),
  sortIndex: z.number().int(),
  fieldOid: z.string(),
});
export type PicklistItemDto = z.infer<typeof PicklistItemDtoSchema>;

export const FieldModelDtoSchema = z.object({
  id: z.number().int().describe('the field id (one model per field)'),
  oid: z.string().nullable(),
  required: z.boolean(),
  minLen: z.number().int().describe('0 = no limit'),
  maxLen: z.number().int().describe('0 = no limit'),
  regExp: z.string().nullable(),
  number: z.boolean().describe('values must be numbers'),
  unicode: z.boolean().describe('the regular expression is matched in Unicode mode'),
  picklistItems: z.array(PicklistItemDtoSchema),
});

export const FieldDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  specifiedName: z.string().nullable(),
  dictionaryId: z.number().int(),
  dataCategory: z.enum(DataCategoryKeys),
  fieldType: z.enum(FieldTypes),
  level: z.enum(FieldLevels),
  model: FieldModelDtoSchema,
  sortIndex: z.number().int(),
});
export type FieldDto = z.infer<typeof FieldDtoSchema>;

export const PicklistItemInputSchema = z
  .object({
    id: z.number().int().optional(),
    name: z.string().trim().max(255).nullable().optional(),
    tbxName: z.string().trim().max(255).nullable().optional(),
    sortIndex: z.number().int().optional(),
  })
  .refine((item) => Boolean(item.name || item.tbxName), {
    message: 'a picklist item needs a name or tbxName',
  });

export const FieldModelInputSchema = z.object({
  required: z.boolean().default(false),
  minLen: z.number().int().min(0).max(MAX_TEXT_LENGTH).default(0),
  maxLen: z.number().int().min(0).max(MAX_TEXT_LENGTH).default(0),
  regExp: z.string().max(1024).nullable().optional(),
  number: z.boolean().default(false),
  unicode: z.boolean().default(false),
  picklistItems: z.array(PicklistItemInputSchema).max(5000).default([]),
});

export const FieldInputSchema = z.object({
  id: z
    .number()
    .int()
    .optional()
    .describe('an existing field of this dictionary and level; absent: a new one'),
  name: z.string().trim().min(1).max(255),
  specifiedName: z.string().trim().max(255).nullable().optional(),
  dataCategory: z.enum(DataCategoryKeys).default('GENERIC'),
  fieldType: z.enum(FieldTypes),
  model: FieldModelInputSchema.optional(),
  sortIndex: z.number().int().optional(),
});
export type FieldInput = z.infer<typeof FieldInputSchema>;

export const DataCategorySchema = z.object({
  key: z.string().describe('internal key, e.g. DEFINITION'),
  name: z.string().describe('TBX name, e.g. definition'),
  id: z.string().describe('the ISO 30042 (TBX) data-category identifier'),
  fieldType: z.enum(FieldTypes),
  levels: z.array(z.enum(FieldLevels)),
  picklistItems: z.array(z.object({ name: z.string(), tbxName: z.string(), sortIndex: z.number().int() })),
});
