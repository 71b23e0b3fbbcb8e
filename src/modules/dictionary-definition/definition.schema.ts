import { z } from 'zod';
import { queryBoolean } from '../../shared/query.js';

export const ExportDefinitionInputSchema = z.object({
  id: z.number().int(),
  'include-filters': queryBoolean().default(false).describe('also export the filters the caller may see'),
  format: z.enum(['XML']).default('XML').describe('XML (the only format)'),
});

export const ImportStartInputSchema = z.object({ xml: z.string().min(1) });

export const DefinitionSummarySchema = z
  .object({
    name: z.string().describe("the exported dictionary's name"),
    languages: z.array(z.string()).describe('language codes'),
    conceptFields: z.array(z.string()),
    termFields: z.array(z.string()),
    sections: z.array(z.string()),
    domains: z.number().int().describe('domains in the tree'),
    views: z.array(z.string()),
    filters: z.array(z.string()).describe('names of the filters the file holds'),
  })
  .describe('what the file holds, to show before it is written');
export type DefinitionSummary = z.infer<typeof DefinitionSummarySchema>;

export const ImportStartResultSchema = z.object({
  importId: z.string().describe('names the import in process-dictionary and process-filter'),
  hasFilters: z.boolean(),
  success: z.boolean(),
  errorMessage: z.string().nullable(),
  summary: DefinitionSummarySchema.optional(),
});
export type ImportStartResult = z.infer<typeof ImportStartResultSchema>;

const importId = z.uuid({ message: 'import-id is the importId that start answered' });

export const ProcessDictionaryInputSchema = z.object({
  'import-id': importId,
  'dictionary-id': z
    .union([z.number().int(), z.string().regex(/^(-?\d+|new)$/, 'dictionary-id is a dictionary id, or new')])
    .optional()
    .transform((value) => {
      const id = value === undefined || value === 'new' ? 0 : Number(value);
      return id > 0 ? id : null;
    })
    .describe('an existing dictionary to merge into; absent, 0, -1 or new: a new dictionary'),
  'include-filters': queryBoolean()
    .default(false)
    .describe('keep the import open for process-filter when the file holds filters'),
});

export const ProcessResultSchema = z.object({
  importId: z.string(),
  success: z.boolean(),
  dictionaryNew: z.boolean(),
  dictionaryId: z.number().int().nullable().describe('the dictionary written (absent when the run failed)'),
  addedFiltersCount: z.number().int(),
  skippedFiltersCount: z.number().int(),
  errorMessage: z.string().nullable(),
});
export type ProcessResult = z.infer<typeof ProcessResultSchema>;

const mapping = z
  .record(z.string(), z.number().int().min(0))
  .default({})
  .describe('oid of a missing object -> id of an existing one; 0 skips the filters that need it');

export const ProcessFilterInputSchema = z.object({
  'import-id': importId,
  userMapping: mapping,
  groupMapping: mapping,
  conceptFieldsMapping: mapping,
  termFieldsMapping: mapping,
});
export type ProcessFilterInput = z.infer<typeof ProcessFilterInputSchema>;

export const NamedObjectSchema = z.object({
  id: z.number().int().nullable(),
  oid: z.string().nullable(),
  name: z.string(),
});
export type NamedObject = z.infer<typeof NamedObjectSchema>;
const ChoiceSchema = NamedObjectSchema.extend({
  skip: z.boolean().describe('the skip option (id 0): leave out the filters that need the missing object'),
});
export type Choice = z.infer<typeof ChoiceSchema>;

export const FilterValidationResultSchema = z.object({
  importId: z.string(),
  success: z.literal(false),
  errorMessage: z.string(),
  missingUsers: z.array(NamedObjectSchema),
  missingGroups: z.array(NamedObjectSchema),
  missingConceptFields: z.array(NamedObjectSchema),
  missingTermFields: z.array(NamedObjectSchema),
  existingUsers: z.array(ChoiceSchema),
  existingGroups: z.array(ChoiceSchema),
  existingConceptFields: z.array(ChoiceSchema),
  existingTermFields: z.array(ChoiceSchema),
});
export type FilterValidationResult = z.infer<typeof FilterValidationResultSchema>;

export const ProcessFilterResultSchema = z.union([ProcessResultSchema, FilterValidationResultSchema]);
