import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { FieldDtoSchema, FieldInputSchema } from '../field/field.schema.js';
import { LanguageDtoSchema, LanguageInputSchema } from '../language/language.schema.js';
import { SectionDtoSchema } from '../section/section.schema.js';
import { DomainPresentations } from './dictionary.entity.js';

export const DictionaryDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  sections: z.array(SectionDtoSchema).describe('sections the caller may read'),
  allSections: z.array(SectionDtoSchema),
  languages: z.array(LanguageDtoSchema),
  conceptFields: z.array(FieldDtoSchema),
  termFields: z.array(FieldDtoSchema),
  emailRecipientId: z.number().int().nullable(),
  sortIndex: z.number().int(),
  concepts: z.number().int().describe('live concepts'),
  hasDomains: z.boolean().describe('whether the dictionary has domains'),
  domainPresentation: z.enum(DomainPresentations).describe('default FLAT'),
  layoutId: z.null().describe('unused (older releases)'),
  permissionSchemeId: z.number().int().nullable().describe('null: named users read, print and export'),
});
export type DictionaryDto = z.infer<typeof DictionaryDtoSchema>;
export const DICTIONARY_SHORT_KEYS = ['name', 'description'] as const;

export const DictionaryOutputSchema = DictionaryDtoSchema.partial().extend({ id: z.number().int() });
export const DictionaryPageSchema = pageSchema(DictionaryOutputSchema);

export const DictionaryListInputSchema = z.object({
  ...listQueryShape,
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type DictionaryListInput = z.infer<typeof DictionaryListInputSchema>;

export const DictionaryWriteShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  languages: z.array(LanguageInputSchema).max(500).optional().describe('missing: no languages'),
  conceptFields: z.array(FieldInputSchema).max(1000).optional(),
  termFields: z.array(FieldInputSchema).max(1000).optional(),
  emailRecipientId: z.number().int().nullable().optional(),
  sortIndex: z.number().int().optional(),
  domainPresentation: z.enum(DomainPresentations).optional(),
  permissionSchemeId: z.number().int().nullable().optional(),
};
export const DictionaryCreateInputSchema = z.object(DictionaryWriteShape);
export type DictionaryCreateInput = z.infer<typeof DictionaryCreateInputSchema>;
export const DictionaryUpdateInputSchema = z.object({
  ...DictionaryWriteShape,
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
});
export type DictionaryUpdateInput = z.infer<typeof DictionaryUpdateInputSchema>;
