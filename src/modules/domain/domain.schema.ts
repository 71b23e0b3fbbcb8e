import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { DomainPresentations } from '../dictionary/dictionary.entity.js';

export const DomainDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  dictionaryId: z.number().int(),
  parentDomainId: z.number().int().nullable(),
  numberOfConcepts: z.number().int().describe('live concepts with this domain'),
  children: z.array(z.number().int()).describe('ids of the live child domains'),
  sortIndex: z.number().int(),
});
export type DomainDto = z.infer<typeof DomainDtoSchema>;
export const DOMAIN_SHORT_KEYS = ['name', 'parentDomainId'] as const;
export const DomainOutputSchema = DomainDtoSchema.partial().extend({ id: z.number().int() });
export const DomainPageSchema = pageSchema(DomainOutputSchema);

export const DomainListInputSchema = z.object({
  ...listQueryShape,
  'dictionary-id': z.number().int(),
  'parent-id': z.number().int().optional().describe('only the children of this domain'),
});
export type DomainListInput = z.infer<typeof DomainListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  dictionaryId: z.number().int(),
  parentDomainId: z.number().int().nullable().optional(),
  sortIndex: z.number().int().optional(),
};
export const DomainCreateInputSchema = z.object(writableShape);
export type DomainCreateInput = z.infer<typeof DomainCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const DomainUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const DomainPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
});
export type DomainPatchInput = z.infer<typeof DomainPatchInputSchema>;

export const DomainConfigSchema = z.object({
  presentation: z
    .enum(DomainPresentations)
    .describe(
      'FLAT: one line per domain with its full path; HIERARCHICAL: ordered list; HORIZONTAL: one line',
    ),
});
