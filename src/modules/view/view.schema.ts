import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { undocumentedAlias } from '../../shared/openapi-alias.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';

export const ViewDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  fields: z
    .array(z.string())
    .describe(
      'oids of the visible fields; system attributes by their data category (TERM, LANG, DOM, CREDATE...)',
    ),
  inUse: z.boolean(),
  inUseMessage: z.string().nullable().describe('which sections and groups use the view'),
  dictionaryId: z.number().int(),
});
export type ViewDto = z.infer<typeof ViewDtoSchema>;
export const VIEW_SHORT_KEYS = ['name', 'dictionaryId'] as const;
export const ViewOutputSchema = ViewDtoSchema.partial().extend({ id: z.number().int() });
export const ViewPageSchema = pageSchema(ViewOutputSchema);

export const ViewListInputSchema = z.object({
  ...listQueryShape,
  dictionary_id: z.number().int().describe('only the views of this dictionary').optional(),
  'dictionary-id': undocumentedAlias(z.number().int(), 'dictionary_id').optional(),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type ViewListInput = z.infer<typeof ViewListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  dictionaryId: z.number().int(),
  fields: z.array(z.string().min(1).max(64)).max(2000).optional(),
};
export const ViewCreateInputSchema = z.object(writableShape);
export type ViewCreateInput = z.infer<typeof ViewCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const ViewUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const ViewPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
});
export type ViewPatchInput = z.infer<typeof ViewPatchInputSchema>;
