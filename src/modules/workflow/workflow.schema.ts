import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { MAX_ID } from '../../shared/ids.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { WorkflowDefinitionSchema, WorkflowUnits } from './workflow-definition.js';

export const WorkflowDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  dictionaryId: z.number().int(),
  unit: z
    .enum(WorkflowUnits)
    .describe('what has a state: a concept, a language section of a concept, or a term'),
  enabled: z.boolean().describe('whether it governs its dictionary (at most one workflow per dictionary)'),
  definition: WorkflowDefinitionSchema,
});
export type WorkflowDto = z.infer<typeof WorkflowDtoSchema>;
export const WORKFLOW_SHORT_KEYS = ['name', 'dictionaryId', 'unit', 'enabled'] as const;
export const WorkflowOutputSchema = WorkflowDtoSchema.partial().extend({ id: z.number().int() });
export const WorkflowPageSchema = pageSchema(WorkflowOutputSchema);

export const WorkflowListInputSchema = z.object({
  ...listQueryShape,
  'dictionary-id': z.number().int().positive().max(MAX_ID).optional(),
  enabled: z.boolean().optional(),
});
export type WorkflowListInput = z.infer<typeof WorkflowListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  dictionaryId: z.number().int().positive().max(MAX_ID),
  unit: z.enum(WorkflowUnits).default('LANGUAGE'),
  enabled: z.boolean().default(false),
  definition: WorkflowDefinitionSchema.optional().describe('absent on create: the default workflow'),
};
export const WorkflowCreateInputSchema = z.object(writableShape);
export type WorkflowCreateInput = z.infer<typeof WorkflowCreateInputSchema>;
const versionShape = {
  id: z.number().int().positive().max(MAX_ID),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const WorkflowUpdateInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  definition: WorkflowDefinitionSchema,
});
export const WorkflowPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
  dictionaryId: writableShape.dictionaryId.optional(),
  unit: z.enum(WorkflowUnits).optional(),
  enabled: z.boolean().optional(),
});
export type WorkflowPatchInput = z.infer<typeof WorkflowPatchInputSchema>;
