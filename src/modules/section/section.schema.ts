import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';

export const SectionDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  viewId: z.number().int().nullable(),
  numberOfConcepts: z.number().int().describe('live concepts in the section'),
  deletable: z
    .boolean()
    .describe('false for the last section of a dictionary and for sections holding concepts'),
  sortIndex: z.number().int(),
  dictionaryId: z.number().int(),
  permissionSchemeId: z.number().int().nullable().describe("null: the dictionary's scheme applies"),
});
export type SectionDto = z.infer<typeof SectionDtoSchema>;
export const SECTION_SHORT_KEYS = ['name', 'dictionaryId'] as const;

export const SectionOutputSchema = SectionDtoSchema.partial().extend({ id: z.number().int() });
export const SectionPageSchema = pageSchema(SectionOutputSchema);

export const SectionListInputSchema = z.object({
  ...listQueryShape,
  'dictionary-id': z.number().int().optional(),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type SectionListInput = z.infer<typeof SectionListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  dictionaryId: z.number().int(),
  viewId: z.number().int().nullable().optional(),
  sortIndex: z.number().int().optional(),
  permissionSchemeId: z.number().int().nullable().optional(),
};
export const SectionCreateInputSchema = z.object(writableShape);
export type SectionCreateInput = z.infer<typeof SectionCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const SectionUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const SectionPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
});
export type SectionPatchInput = z.infer<typeof SectionPatchInputSchema>;
