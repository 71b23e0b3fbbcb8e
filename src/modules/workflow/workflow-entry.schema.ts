import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';
import { StateCategories, VoteModes, WorkflowUnits } from './workflow-definition.js';

export const OfferedTransitionSchema = z.object({
  key: z.string(),
  name: z.string(),
  to: z.string(),
  commentRequired: z.boolean(),
  votes: z.object({ mode: z.enum(VoteModes), count: z.number().int() }).nullable(),
  missingFields: z
    .array(z.string())
    .describe('required fields still empty (level:fieldOid): firing answers 422'),
});

export const EntryStateDtoSchema = z.object({
  conceptId: z.number().int(),
  languageCode: z.string().nullable().describe('LANGUAGE and TERM units'),
  termId: z.number().int().nullable().describe('TERM unit'),
  state: z.string(),
  stateName: z.string(),
  category: z.enum(StateCategories),
  processStatus: z.string().nullable(),
  style: z.string(),
  readOnly: z.boolean(),
  hidden: z.boolean(),
  unpublished: z.boolean(),
  version: z.number().int().describe('send it when firing; 0 while the entry has never moved'),
  enteredAt: z.number().int().nullable().describe('ms epoch; null while the entry has never moved'),
  enteredById: z.number().int().nullable(),
  assigneeId: z.number().int().nullable(),
  votes: z.array(z.object({ transition: z.string(), userId: z.number().int() })),
  transitions: z.array(OfferedTransitionSchema).describe('what the caller may fire now'),
});
export type EntryStateDto = z.infer<typeof EntryStateDtoSchema>;

export const ConceptWorkflowSchema = z.object({
  workflowId: z.number().int().nullable().describe('null: no workflow governs the dictionary'),
  unit: z.enum(WorkflowUnits).nullable(),
  entries: z.array(EntryStateDtoSchema),
});
export type ConceptWorkflowDto = z.infer<typeof ConceptWorkflowSchema>;

export const EntryKeyShape = {
  conceptId: z.number().int().positive().max(MAX_ID),
  languageCode: z.string().trim().toLowerCase().min(1).max(64).optional().describe('LANGUAGE unit'),
  termId: z.number().int().positive().max(MAX_ID).optional().describe('TERM unit'),
};

export const FireInputSchema = z.object({
  ...EntryKeyShape,
  transition: z.string().min(1).max(64),
  version: z.number().int().min(0).optional().describe('the entry version read; missing or stale: 409'),
  comment: z.string().trim().max(4000).optional(),
});
export type FireInput = z.infer<typeof FireInputSchema>;

export const FireOutputSchema = z.object({
  fired: z.boolean().describe('false: a vote was recorded and the transition waits for more'),
  entry: EntryStateDtoSchema,
});

export const TransitionLogItemSchema = z.object({
  id: z.number().int(),
  conceptId: z.number().int(),
  languageCode: z.string().nullable(),
  termId: z.number().int().nullable(),
  transition: z.string().nullable().describe('null: an edit re-opened the entry, or re-validation was due'),
  fromState: z.string(),
  toState: z.string(),
  userId: z.number().int().nullable(),
  comment: z.string().nullable(),
  date: z.number().int().describe('ms epoch'),
});
