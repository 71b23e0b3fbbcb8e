import { z } from 'zod';

export const LanguageVariantDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  deleted: z.boolean(),
  name: z.string(),
  type: z.number().int().describe('0 geographical (region), 1 orthographical (script)'),
  variantType: z.number().int().describe('same as type (name used by other releases)'),
  code: z.string(),
  variantCode: z.string().describe('same as code (name used by other releases)'),
  predefined: z.boolean().describe('an ISO 3166 region or ISO 15924 script'),
  languageId: z.number().int(),
  sortIndex: z.number().int(),
});

export const LanguageDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  deleted: z.boolean(),
  name: z.string(),
  dictionaryId: z.number().int(),
  clientId: z.number().int(),
  code: z
    .string()
    .describe('ISO 639-2/T code (lowercase) of an ISO language; any other code for custom ones'),
  code2: z.string().nullable().describe('ISO 639-1'),
  code3: z.string().nullable().describe('ISO 639-2'),
  isIso: z.boolean(),
  iso: z.boolean(),
  custom: z.boolean(),
  idStr: z.string().describe('ids of the language and its variants joined with hyphens'),
  rtl: z.boolean(),
  sortIndex: z.number().int(),
  variants: z.array(LanguageVariantDtoSchema),
});
export type LanguageDto = z.infer<typeof LanguageDtoSchema>;

export const LanguageVariantInputSchema = z
  .object({
    id: z.number().int().optional().describe('an existing variant of this language; absent: a new one'),
    name: z.string().trim().max(255).optional().describe('default: the ISO region or script name'),
    type: z.number().int().min(0).max(1).optional(),
    variantType: z.number().int().min(0).max(1).optional(),
    code: z.string().trim().min(1).max(64).optional(),
    variantCode: z.string().trim().min(1).max(64).optional(),
    sortIndex: z.number().int().optional(),
  })
  .refine((v) => (v.type ?? v.variantType) !== undefined, {
    message: 'type (0 region, 1 script) is required',
  })
  .refine((v) => (v.code ?? v.variantCode) !== undefined, { message: 'code is required' });
export type LanguageVariantInput = z.infer<typeof LanguageVariantInputSchema>;

export const LanguageInputSchema = z.object({
  id: z.number().int().optional().describe('an existing language of this dictionary; absent: a new one'),
  code: z.string().trim().min(1).max(64).describe('ISO 639-2 (B or T) or 639-1 code, or a custom code'),
  name: z.string().trim().max(255).optional().describe('default: the ISO name'),
  custom: z.boolean().optional().describe('a language outside ISO 639-2; its code must be no real code'),
  rtl: z.boolean().optional().describe('default: from the language'),
  sortIndex: z.number().int().optional(),
  variants: z.array(LanguageVariantInputSchema).max(500).optional(),
});
export type LanguageInput = z.infer<typeof LanguageInputSchema>;
