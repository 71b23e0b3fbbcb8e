import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { queryBoolean } from '../../shared/query.js';
import { FilterOutputSchema } from '../filter/filter.schema.js';

export const LangMappingSchema = z.object({
  langCode: z.string().describe('code of a language of the dictionary (ISO 639-2/T or custom)'),
  regionCode: z.string().nullable().describe('code of a geographical variant of that language; null: none'),
  scriptCode: z
    .string()
    .nullable()
    .describe('code of an orthographical variant of that language; null: none'),
});
export const GroupMappingSchema = z.object({ groupId: z.number().int() });

export const SyncSettingsDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  dictionaryId: z.number().int(),
  languages: z.array(LangMappingSchema),
  groups: z.array(GroupMappingSchema),
  filter: FilterOutputSchema.nullable().describe(
    'the filter (id, name, description, dictionaryId, deleted) or only its id when the caller may not see it; null: none',
  ),
});
export type SyncSettingsDto = z.infer<typeof SyncSettingsDtoSchema>;
export const SYNC_SETTINGS_SHORT_KEYS = ['name', 'description', 'dictionaryId', 'active'] as const;
export const SyncSettingsOutputSchema = SyncSettingsDtoSchema.partial().extend({ id: z.number().int() });
export const SyncSettingsPageSchema = pageSchema(SyncSettingsOutputSchema);

export const SyncSettingsListInputSchema = z.object({
  ...listQueryShape,
  'dictionary-id': z.number().int().optional(),
  active: queryBoolean().optional().describe('only active (true) or inactive (false) settings'),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type SyncSettingsListInput = z.infer<typeof SyncSettingsListInputSchema>;

/** Missing, null or empty region and script codes mean "no variant". */
const variantCode = z
  .string()
  .trim()
  .max(64)
  .nullable()
  .optional()
  .transform((code) => code || null);
const LangMappingInputSchema = z.object({
  langCode: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe(
      'a language of the dictionary: ISO 639 in two or three letters, any case, B or T form (en, ENG, ger), read as the three-letter code (eng, deu), or its custom code',
    ),
  regionCode: variantCode,
  scriptCode: variantCode,
});
export type LangMappingInput = z.infer<typeof LangMappingInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  active: z.boolean().nullable().optional().describe('default (and null): true'),
  dictionaryId: z.number().int(),
  languages: z.array(LangMappingInputSchema).max(1000).nullable().optional().describe('default: none'),
  groups: z.array(GroupMappingSchema).max(1000).nullable().optional().describe('default: none'),
  filterId: z.number().int().nullable().optional().describe('a filter of the same dictionary; null: none'),
  filter: z
    .object({ id: z.number().int() })
    .nullable()
    .optional()
    .describe('same as filterId (the filter object as read; only id is used)'),
};
export const SyncSettingsCreateInputSchema = z.object(writableShape);
export type SyncSettingsCreateInput = z.infer<typeof SyncSettingsCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const SyncSettingsUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const SyncSettingsPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
});
export type SyncSettingsPatchInput = z.infer<typeof SyncSettingsPatchInputSchema>;
