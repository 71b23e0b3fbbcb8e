import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { undocumentedAlias } from '../../shared/openapi-alias.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { FilterVisibilities } from './filter.entity.js';
import { FilterCriteriaSchema } from './filter-criteria.js';

export const FilterDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  dictionaryId: z.number().int(),
  ownerId: z.number().int(),
  visibility: z
    .enum(FilterVisibilities)
    .describe('PRIVATE: the owner; GROUP: members of groupId; PUBLIC: every user'),
  groupId: z.number().int().nullable(),
  criteria: FilterCriteriaSchema,
  editable: z.boolean().describe('whether the caller may change or delete it (owner or administrator)'),
});
export type FilterDto = z.infer<typeof FilterDtoSchema>;
export const FILTER_SHORT_KEYS = ['name', 'description', 'dictionaryId'] as const;
export const FilterOutputSchema = FilterDtoSchema.partial().extend({ id: z.number().int() });
export const FilterPageSchema = pageSchema(FilterOutputSchema);

export const FilterListInputSchema = z.object({
  ...listQueryShape,
  dictionary_id: z.number().int().describe('only the filters of this dictionary').optional(),
  'dictionary-id': undocumentedAlias(z.number().int(), 'dictionary_id').optional(),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type FilterListInput = z.infer<typeof FilterListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  dictionaryId: z.number().int(),
  visibility: z.enum(FilterVisibilities).default('PRIVATE'),
  groupId: z.number().int().nullable().optional().describe('required with GROUP visibility'),
  criteria: FilterCriteriaSchema.default(FilterCriteriaSchema.parse({})),
};
export const FilterCreateInputSchema = z.object(writableShape);
export type FilterCreateInput = z.infer<typeof FilterCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const FilterUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const FilterPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
  visibility: z.enum(FilterVisibilities).optional(),
  criteria: FilterCriteriaSchema.optional(),
});
export type FilterPatchInput = z.infer<typeof FilterPatchInputSchema>;
