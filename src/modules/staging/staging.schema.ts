import { z } from 'zod';
import { ImportSummarySchema } from '../../shared/common.schema.js';
import { MAX_ID } from '../../shared/ids.js';
import { filterText } from '../../shared/input-limits.js';
import { pageSchema } from '../../shared/paging.js';
import { TbxMergeModes } from '../tbx/tbx-import-merge.js';

export const StagedStatuses = ['PENDING', 'ACCEPTED', 'REJECTED'] as const;
export const StagedSources = ['IMPORT', 'SUGGESTION'] as const;
export const StagingDecisionKinds = ['ACCEPTED', 'REJECTED', 'EDITED'] as const;
export const STAGING_TEXT_MAX = 4000;
/** Entries one bulk call names by id. */
export const BULK_MAX_IDS = 1000;

const id = z.number().int().positive().max(MAX_ID);
const ms = z.number().int().describe('ms epoch');
const text = z.string().trim().max(STAGING_TEXT_MAX);
const version = z.number().int().min(1).describe('the version read; a stale one is 409');
const UserRefSchema = z.object({ id: z.number().int(), name: z.string() }).nullable();

/** A value of the import's entry model (src/modules/tbx/tbx-model.ts): data category or field name, and value. */
const EntryValueSchema = z.object({
  category: z.string().trim().min(1).max(255).describe('TBX data category or the field name'),
  value: z.string().max(100_000),
  target: z.string().max(2048).optional().describe('crossReference and externalCrossReference targets'),
  element: z.string().max(64).optional().describe('the TBX element it came in (descrip, termNote...)'),
});
const EntryTermSchema = z.object({
  id: z.string().max(255).nullable().default(null).describe("the term's id in the file"),
  term: z.string().trim().min(1).max(1024),
  values: z.array(EntryValueSchema).max(500).default([]),
});
/** The staged content: the import's dialect-independent entry model. */
export const StagedContentSchema = z.object({
  id: z
    .string()
    .max(255)
    .nullable()
    .default(null)
    .describe("the entry's id in the file (ENTRY_ID merges by it)"),
  values: z.array(EntryValueSchema).max(500).default([]),
  languages: z
    .array(
      z.object({
        lang: z.string().trim().min(2).max(35).describe('language tag: en, en-US, deu...'),
        values: z.array(EntryValueSchema).max(500).default([]),
        terms: z.array(EntryTermSchema).max(500).default([]),
      }),
    )
    .max(500),
});
export type StagedContent = z.infer<typeof StagedContentSchema>;

export const StagingCountsSchema = z.object({
  pending: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
});

export const StagingAreaDtoSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  clientId: z.number().int(),
  dictionaryId: z.number().int(),
  dictionaryName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  openToReaders: z.boolean().describe('every named reader of the dictionary may suggest here'),
  deleted: z.boolean(),
  counts: StagingCountsSchema,
  createdBy: UserRefSchema,
  created: ms,
  changed: ms,
  mayReview: z.boolean().describe('the caller reviews the entries of this area'),
});
export type StagingAreaDto = z.infer<typeof StagingAreaDtoSchema>;
export const StagingAreaPageSchema = pageSchema(StagingAreaDtoSchema);

export const StagingAreaListInputSchema = z.object({
  dictionaryId: id,
  size: z.number().int().min(1).optional().describe('page size (default 20, capped at MAX_PAGE_SIZE)'),
  page: z.number().int().min(0).default(0),
  sort: filterText().optional().describe('name (default), created or changed, with ,ASC or ,DESC'),
  name: filterText().optional().describe('starts with, ignoring case'),
});
export type StagingAreaListInput = z.infer<typeof StagingAreaListInputSchema>;

export const StagingAreaCreateInputSchema = z.object({
  dictionaryId: id,
  name: z.string().trim().min(1).max(255),
  description: text.nullable().optional(),
  openToReaders: z.boolean().default(false),
});
export type StagingAreaCreateInput = z.infer<typeof StagingAreaCreateInputSchema>;

export const StagingAreaUpdateInputSchema = z.object({
  id,
  version,
  name: z.string().trim().min(1).max(255).optional(),
  description: text.nullable().optional(),
  openToReaders: z.boolean().optional(),
});
export type StagingAreaUpdateInput = z.infer<typeof StagingAreaUpdateInputSchema>;

export const StagingDecisionDtoSchema = z.object({
  id: z.number().int(),
  stagedEntryId: z.number().int(),
  entryLabel: z.string().describe("the staged entry's label (its first terms), as it reads now"),
  decision: z.enum(StagingDecisionKinds),
  reason: z.string().nullable(),
  conceptId: z.number().int().nullable().describe('ACCEPTED: the concept written'),
  workflowState: z.string().nullable(),
  merge: z.enum(TbxMergeModes).nullable(),
  decidedBy: UserRefSchema,
  decided: ms,
});
export type StagingDecisionDto = z.infer<typeof StagingDecisionDtoSchema>;
export const StagingDecisionPageSchema = pageSchema(StagingDecisionDtoSchema);

export const StagedEntryDtoSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  stagingAreaId: z.number().int(),
  dictionaryId: z.number().int(),
  status: z.enum(StagedStatuses),
  source: z.enum(StagedSources),
  format: z.string().nullable().describe('TBX, MULTITERM, SPREADSHEET, SKOS; null for suggestions'),
  importJobId: z.number().int().nullable(),
  fileName: z.string().nullable(),
  line: z.number().int().nullable(),
  entryId: z.string().nullable(),
  targetConceptId: z
    .number()
    .int()
    .nullable()
    .describe('the concept it would merge into, as the merge finds it; null: a new concept'),
  merge: z.enum(TbxMergeModes),
  label: z.string(),
  languages: z.array(z.string()),
  comment: z.string().nullable(),
  entry: StagedContentSchema,
  createdBy: UserRefSchema,
  created: ms,
  changed: ms,
  decision: StagingDecisionDtoSchema.nullable().describe('the latest decision'),
  mayReview: z.boolean(),
  mayEdit: z.boolean(),
});
export type StagedEntryDto = z.infer<typeof StagedEntryDtoSchema>;
export const StagedEntryPageSchema = pageSchema(StagedEntryDtoSchema);

export const StagingChangeSchema = z.object({
  kind: z.enum(['ADDED', 'CHANGED', 'REMOVED']),
  subject: z.string().describe('FIELD, TERM, TERM_FIELD, DOMAINS, LANGUAGE_FIELD'),
  termId: z.number().int().optional(),
  fieldOid: z.string().optional(),
  fieldName: z.string().optional(),
  language: z.string().optional(),
  term: z.string().optional().describe('TERM and TERM_FIELD: the term'),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type StagingChange = z.infer<typeof StagingChangeSchema>;

export const StagedEntryDetailSchema = StagedEntryDtoSchema.extend({
  target: z
    .object({
      id: z.number().int(),
      version: z.number().int(),
      terms: z.array(z.object({ id: z.number().int(), languageCode: z.string(), name: z.string() })),
    })
    .nullable()
    .describe('the concept it would change, as it is now'),
  diff: z.object({
    targetConceptId: z.number().int().nullable(),
    changes: z.array(StagingChangeSchema),
  }),
  decisions: z.array(StagingDecisionDtoSchema).describe('oldest first'),
});
export type StagedEntryDetail = z.infer<typeof StagedEntryDetailSchema>;

/** The list's filters, also what a bulk decision takes instead of ids. */
export const StagedEntryFilterSchema = z.object({
  status: z.enum(StagedStatuses).optional(),
  source: z.enum(StagedSources).optional(),
  language: z.string().trim().min(1).max(35).optional().describe("a term's language code"),
  'import-job-id': id.optional(),
  target: z.enum(['NEW', 'EXISTING']).optional().describe('NEW: would make a concept; EXISTING: would merge'),
  text: filterText().optional().describe('in a term, ignoring case'),
});
export type StagedEntryFilter = z.infer<typeof StagedEntryFilterSchema>;

export const StagedEntryListInputSchema = StagedEntryFilterSchema.extend({
  id: id.describe('the staging area'),
  size: z.number().int().min(1).optional(),
  page: z.number().int().min(0).default(0),
  sort: filterText().optional().describe('created (default created,ASC), changed, status or label'),
});
export type StagedEntryListInput = z.infer<typeof StagedEntryListInputSchema>;

export const SuggestInputSchema = z.object({
  id: id.describe('the staging area'),
  entry: StagedContentSchema,
  conceptId: id.optional().describe('a change to this concept (merged into it); absent: matched by merge'),
  merge: z.enum(TbxMergeModes).default('TERM'),
  comment: text.optional(),
});
export type SuggestInput = z.infer<typeof SuggestInputSchema>;

export const StagedEntryUpdateInputSchema = z.object({
  id,
  version,
  entry: StagedContentSchema.optional(),
  comment: text.nullable().optional(),
  conceptId: id.nullable().optional().describe('the concept to merge into; null: a new concept'),
});
export type StagedEntryUpdateInput = z.infer<typeof StagedEntryUpdateInputSchema>;

const workflowState = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .optional()
  .describe("a state key of the dictionary's enabled workflow: accepted entries start there");

export const AcceptInputSchema = z.object({
  id,
  version: version.optional(),
  merge: z.enum(TbxMergeModes).optional().describe("default: the entry's"),
  workflowState,
});
export type AcceptInput = z.infer<typeof AcceptInputSchema>;

export const RejectInputSchema = z.object({ id, version: version.optional(), reason: text.optional() });
export type RejectInput = z.infer<typeof RejectInputSchema>;

const bulkTarget = {
  id: id.describe('the staging area'),
  ids: z.array(id).min(1).max(BULK_MAX_IDS).optional(),
  filter: StagedEntryFilterSchema.optional().describe('instead of ids: the PENDING entries the filters find'),
};
export const BulkAcceptInputSchema = z.object({
  ...bulkTarget,
  merge: z.enum(TbxMergeModes).optional(),
  workflowState,
});
export type BulkAcceptInput = z.infer<typeof BulkAcceptInputSchema>;
export const BulkRejectInputSchema = z.object({ ...bulkTarget, reason: text.optional() });
export type BulkRejectInput = z.infer<typeof BulkRejectInputSchema>;

export const AcceptResultSchema = z.object({
  accepted: z.number().int(),
  skipped: z.number().int().describe('not PENDING (bulk), or left PENDING because the merge refused them'),
  conceptIds: z.array(z.number().int()),
  errors: z.array(z.object({ stagedEntryId: z.number().int().nullable(), message: z.string() })),
  result: ImportSummarySchema,
});
export type AcceptResult = z.infer<typeof AcceptResultSchema>;
export const AcceptOneResultSchema = z.object({ entry: StagedEntryDtoSchema, result: AcceptResultSchema });

export const RejectResultSchema = z.object({ rejected: z.number().int(), skipped: z.number().int() });
export type RejectResult = z.infer<typeof RejectResultSchema>;

export const DecisionListInputSchema = z.object({
  id: id.describe('the staging area'),
  decision: z.enum(StagingDecisionKinds).optional(),
  'user-id': id.optional(),
  size: z.number().int().min(1).optional(),
  page: z.number().int().min(0).default(0),
});
export type DecisionListInput = z.infer<typeof DecisionListInputSchema>;
