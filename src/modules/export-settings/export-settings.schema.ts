import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { ExportFileFormats, ExportVisibilities } from './export-settings.entity.js';

export const ExportSettingsDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  dictionaryId: z.number().int(),
  visibility: z
    .enum(ExportVisibilities)
    .describe('PRIVATE: its user only; PUBLIC: every reader of the dictionary'),
  userId: z.number().int().nullable(),
  fileFormat: z.enum(ExportFileFormats),
  fileName: z.string().nullable(),
  exportPermalinks: z.boolean(),
  exportAttachments: z.boolean(),
  exportOneSheet: z.boolean(),
  filterId: z.number().int().nullable(),
  selectedLanguages: z.array(z.string()).describe('code3 values, never null'),
  selectedConceptFields: z.array(z.string()).describe('field oids, never null'),
  selectedTermFields: z.array(z.string()).describe('field oids, never null'),
  orderTermByField: z.string().nullable(),
  neverLaunched: z.boolean(),
});
export type ExportSettingsDto = z.infer<typeof ExportSettingsDtoSchema>;
export const EXPORT_SHORT_KEYS = ['name', 'dictionaryId', 'fileFormat'] as const;
export const ExportSettingsOutputSchema = ExportSettingsDtoSchema.partial().extend({ id: z.number().int() });
export const ExportSettingsPageSchema = pageSchema(ExportSettingsOutputSchema);

export const ExportSettingsListInputSchema = z.object({
  ...listQueryShape,
  'dictionary-id': z.number().int().optional(),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type ExportSettingsListInput = z.infer<typeof ExportSettingsListInputSchema>;
