/**
 * The contract of projects (docs/projects.md): projects, their entries (concepts), candidates (proposed
 * terms not yet concepts), assignments with progress, and statistics. Types come from these schemas.
 */
import { z } from 'zod';
import { AuditInfoSchema, commonDtoShape, InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { MAX_ID } from '../../shared/ids.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { queryBoolean } from '../../shared/query.js';

const id = () => z.number().int().positive().max(MAX_ID);
const languageCode = () => z.string().trim().toLowerCase().min(1).max(64);
const text = (max: number) => z.string().trim().max(max);
const epoch = () => z.number().int().describe('ms epoch');
/** A date sent: ms epoch from 1970 to the year 9999 (what a timestamp column holds). */
const dateInput = () => z.number().int().min(0).max(253_402_300_799_999).describe('ms epoch');

export const ProjectStatuses = ['DRAFT', 'ONGOING', 'DONE', 'SUSPENDED', 'ABANDONED'] as const;
export type ProjectStatus = (typeof ProjectStatuses)[number];
/** The explicit moves; DRAFT → ONGOING also happens by itself at the first assignment. */
export const STATUS_MOVES: Record<ProjectStatus, readonly ProjectStatus[]> = {
  DRAFT: ['ONGOING', 'ABANDONED'],
  ONGOING: ['DONE', 'SUSPENDED', 'ABANDONED'],
  SUSPENDED: ['ONGOING', 'ABANDONED'],
  DONE: ['ONGOING'],
  ABANDONED: [],
};

export const AssignmentTypes = ['DRAFTING', 'TRANSLATION', 'REVISION', 'VALIDATION'] as const;
export type AssignmentType = (typeof AssignmentTypes)[number];
export const AssignmentStatuses = ['OPEN', 'DONE', 'CANCELLED'] as const;
export type AssignmentStatus = (typeof AssignmentStatuses)[number];
export const CandidateStatuses = ['OPEN', 'MERGED', 'PROMOTED', 'REJECTED'] as const;
export type CandidateStatus = (typeof CandidateStatuses)[number];

export const ProjectTransitionsSchema = z
  .object(
    Object.fromEntries(
      AssignmentTypes.map((type) => [type, z.string().min(1).max(64).nullable().optional()]),
    ) as Record<AssignmentType, z.ZodOptional<z.ZodNullable<z.ZodString>>>,
  )
  .describe(
    'per assignment type, the workflow transition (key) completing such an assignment fires on its entries; default {VALIDATION: "approve"}',
  );
export type ProjectTransitions = z.infer<typeof ProjectTransitionsSchema>;

// ---------------------------------------------------------------- projects

export const ProjectDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(ProjectStatuses),
  dictionaryIds: z.array(z.number().int()),
  languages: z.array(z.string()).describe('language codes the project works on; empty: every language'),
  coordinatorIds: z.array(z.number().int()),
  dueAt: epoch().nullable(),
  overdue: z.boolean().describe('due date passed while DRAFT, ONGOING or SUSPENDED'),
  instructions: z.string().nullable(),
  transitions: ProjectTransitionsSchema,
  entryCount: z.number().int(),
  openCandidateCount: z.number().int(),
  assignmentCount: z.number().int(),
  manageable: z
    .boolean()
    .describe('whether the caller manages the project (coordinator or dictionary administrator)'),
});
export type ProjectDto = z.infer<typeof ProjectDtoSchema>;
export const PROJECT_SHORT_KEYS = ['name', 'status', 'dueAt', 'overdue', 'dictionaryIds'] as const;
export const ProjectOutputSchema = ProjectDtoSchema.partial().extend({ id: z.number().int() });
export const ProjectPageSchema = pageSchema(ProjectOutputSchema);

export const ProjectListInputSchema = z.object({
  ...listQueryShape,
  status: z
    .string()
    .regex(
      new RegExp(`^(${ProjectStatuses.join('|')})(,(${ProjectStatuses.join('|')}))*$`),
      'status: a comma list of statuses',
    )
    .transform((value) => value.split(',') as ProjectStatus[])
    .optional()
    .describe('one status or a comma list: ONGOING,SUSPENDED'),
  'dictionary-id': id().optional(),
  'coordinator-id': z
    .string()
    .regex(/^(me|\d{1,10})$/, 'coordinator-id: a user id or "me"')
    .transform((value) => (value === 'me' ? ('me' as const) : Number(value)))
    .refine((value) => value === 'me' || value <= MAX_ID, `coordinator-id: at most ${MAX_ID}`)
    .optional()
    .describe('a user id, or "me"'),
  overdue: queryBoolean().optional().describe('true: due date passed and not DONE or ABANDONED'),
});
export type ProjectListInput = z.infer<typeof ProjectListInputSchema>;
export const PROJECT_SORTS = ['name', 'status', 'dueAt', 'created', 'changed'] as const;

const projectWritable = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: text(4000).nullable().optional(),
  dictionaryIds: z.array(id()).min(1).max(50),
  languages: z.array(languageCode()).max(200).default([]),
  coordinatorIds: z.array(id()).max(100).default([]),
  dueAt: dateInput().nullable().optional(),
  instructions: text(20_000).nullable().optional(),
  transitions: ProjectTransitionsSchema.optional(),
};
export const ProjectCreateInputSchema = z.object(projectWritable);
export type ProjectCreateInput = z.infer<typeof ProjectCreateInputSchema>;
const versionShape = {
  id: id(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const ProjectUpdateInputSchema = z.object({ ...projectWritable, ...versionShape });
export const ProjectPatchInputSchema = z.object({
  ...projectWritable,
  ...versionShape,
  name: projectWritable.name.optional(),
  dictionaryIds: projectWritable.dictionaryIds.optional(),
  languages: z.array(languageCode()).max(200).optional(),
  coordinatorIds: z.array(id()).max(100).optional(),
});
export type ProjectPatchInput = z.infer<typeof ProjectPatchInputSchema>;

export const ProjectStatusInputSchema = z.object({
  id: id(),
  status: z.enum(ProjectStatuses),
  version: z.number().int().optional().describe('required; stale: 409'),
});

export const ProjectIdInput = z.object({ id: id() });

// ---------------------------------------------------------------- entries

export const EntryStateSchema = z.object({
  languageCode: z.string().nullable().describe('null: the concept (CONCEPT unit)'),
  state: z.string().nullable().describe('null: no workflow governs the dictionary'),
  category: z.string().nullable(),
});
export const ProjectEntrySchema = z.object({
  conceptId: z.number().int(),
  dictionaryId: z.number().int(),
  addedAt: epoch(),
  addedById: z.number().int().nullable(),
  languages: z.array(z.string()).describe('languages of its live terms'),
  states: z.array(EntryStateSchema).describe('workflow state per governed entry (project languages)'),
});
export const ProjectEntryPageSchema = pageSchema(ProjectEntrySchema);
export const ProjectEntryListInputSchema = z.object({
  id: id(),
  'language-code': languageCode().optional().describe('only entries with a state row or terms in it'),
  state: z.string().max(64).optional().describe('only entries in this workflow state'),
  size: z.number().int().min(1).max(1000).default(100),
  page: z.number().int().min(0).max(1_000_000).default(0),
});
export type ProjectEntryListInput = z.infer<typeof ProjectEntryListInputSchema>;

export const AddEntriesInputSchema = z
  .object({
    id: id(),
    conceptIds: z.array(id()).max(100_000).optional(),
    filterId: id()
      .optional()
      .describe('every concept the filter keeps (its dictionary must be the project’s)'),
    savedQueryId: id()
      .optional()
      .describe("the concepts of the caller's saved query's search (first 10,000 hits)"),
  })
  .refine((v) => [v.conceptIds, v.filterId, v.savedQueryId].filter((x) => x !== undefined).length === 1, {
    message: 'send exactly one of conceptIds, filterId, savedQueryId',
  });
export type AddEntriesInput = z.infer<typeof AddEntriesInputSchema>;
export const RemoveEntriesInputSchema = z.object({ id: id(), conceptIds: z.array(id()).min(1).max(100_000) });
export const EntriesChangeSchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  skipped: z
    .number()
    .int()
    .describe('concepts already in (add), not in (remove), unreadable or outside the project dictionaries'),
});

// ---------------------------------------------------------------- candidates

export const CandidateTermSchema = z.object({
  languageCode: languageCode(),
  term: z.string().trim().min(1).max(1024),
});
export const CandidateCommentSchema = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  text: z.string(),
  createdAt: epoch(),
});
export const CandidateSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  terms: z.array(CandidateTermSchema),
  definition: z.string().nullable(),
  note: z.string().nullable(),
  source: z.string().nullable().describe('file name and line it came from'),
  status: z.enum(CandidateStatuses),
  conceptId: z
    .number()
    .int()
    .nullable()
    .describe('MERGED: the concept merged into; PROMOTED: the concept made'),
  created: AuditInfoSchema,
  decided: AuditInfoSchema.nullable().describe('who decided and when (MERGED, PROMOTED, REJECTED)'),
  decisionComment: z.string().nullable(),
  comments: z.array(CandidateCommentSchema),
});
export type CandidateDto = z.infer<typeof CandidateSchema>;
export const CandidatePageSchema = pageSchema(CandidateSchema);
export const CandidateListInputSchema = z.object({
  id: id(),
  status: z.enum(CandidateStatuses).optional(),
  size: z.number().int().min(1).max(1000).default(100),
  page: z.number().int().min(0).max(1_000_000).default(0),
});
export type CandidateListInput = z.infer<typeof CandidateListInputSchema>;

export const CandidateInputSchema = z.object({
  terms: z.array(CandidateTermSchema).min(1).max(100),
  definition: text(20_000).nullable().optional(),
  note: text(4000).nullable().optional(),
});
export const AddCandidatesInputSchema = z.object({
  id: id(),
  candidates: z.array(CandidateInputSchema).min(1).max(20_000),
});
export const CandidateImportFormats = ['TBX', 'CSV', 'XLSX'] as const;
export const ImportCandidatesInputSchema = z.object({
  id: id(),
  format: z.enum(CandidateImportFormats),
  content: z
    .string()
    .min(1)
    .max(40 * 1024 * 1024)
    .describe('the file: TBX and CSV as text, XLSX as base64'),
  fileName: text(255).optional().describe('recorded as the candidates’ source'),
  mapping: z
    .unknown()
    .optional()
    .describe(
      'CSV, XLSX: the spreadsheet mapping (POST /spreadsheet/preview proposes one); default: proposed',
    ),
});
export type ImportCandidatesInput = z.infer<typeof ImportCandidatesInputSchema>;
export const CandidatesAddedSchema = z.object({
  added: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })).describe('first 1000'),
});

export const CandidateIdInput = z.object({ candidateId: id() });
export const CandidateCommentInputSchema = z.object({
  candidateId: id(),
  text: z.string().trim().min(1).max(4000),
});
export const CandidateMergeInputSchema = z.object({
  candidateId: id(),
  conceptId: id(),
  addTerms: z.boolean().default(true).describe("add the candidate's terms the concept lacks"),
  comment: text(4000).optional(),
});
export const CandidatePromoteInputSchema = z.object({
  candidateId: id(),
  dictionaryId: id().optional().describe("default: the project's first dictionary"),
  sectionOid: z.string().min(1).max(64).optional().describe('default: the first section you may create in'),
  comment: text(4000).optional(),
});
export const CandidateRejectInputSchema = z.object({ candidateId: id(), comment: text(4000).optional() });
export const DuplicateSchema = z.object({
  conceptId: z.number().int(),
  dictionaryId: z.number().int(),
  termId: z.number().int(),
  term: z.string(),
  languageCode: z.string(),
  matchedTerm: z.string().describe("the candidate's term it matches"),
});

// ---------------------------------------------------------------- assignments

export const ProgressSchema = z.object({
  total: z.number().int().describe('entries the assignment covers (concepts × languages)'),
  done: z.number().int().describe('entries whose state counts as done for the type'),
  byCategory: z
    .record(z.string(), z.number().int())
    .describe('workflow state category (NONE: no workflow) → entries'),
});
export const AssignmentSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  version: z.number().int(),
  type: z.enum(AssignmentTypes),
  languageCode: z.string().nullable().describe('null: every language of the project'),
  assigneeUserId: z.number().int().nullable(),
  assigneeGroupId: z.number().int().nullable(),
  instructions: z.string().nullable(),
  dueAt: epoch().nullable(),
  overdue: z.boolean(),
  status: z.enum(AssignmentStatuses),
  completed: AuditInfoSchema.nullable(),
  result: z
    .object({
      transition: z.string().nullable().describe('the transition fired; null: the type fires none'),
      dictionaries: z.array(
        z.object({
          dictionaryId: z.number().int(),
          ...InvocationResultSchema.shape,
          note: z.string().optional().describe('why nothing fired there (no workflow enabled)'),
        }),
      ),
    })
    .nullable()
    .describe('what completing fired, per dictionary: the bulk transition’s result (all in one transaction)'),
  created: AuditInfoSchema,
  progress: ProgressSchema,
  jobTaskId: z
    .number()
    .int()
    .optional()
    .describe(
      'completing only: the moves still run as this job (past the async threshold); the assignment turns DONE when it ends (GET /jobs/{id})',
    ),
});
export type AssignmentDto = z.infer<typeof AssignmentSchema>;

const assignee = {
  assigneeUserId: id().nullable().optional(),
  assigneeGroupId: id().nullable().optional(),
};
export const AssignmentCreateInputSchema = z.object({
  id: id().describe('the project'),
  type: z.enum(AssignmentTypes),
  languageCode: languageCode().nullable().optional(),
  ...assignee,
  instructions: text(20_000).nullable().optional(),
  dueAt: dateInput().nullable().optional(),
});
export type AssignmentCreateInput = z.infer<typeof AssignmentCreateInputSchema>;
export const AssignmentPatchInputSchema = z.object({
  assignmentId: id(),
  version: z.number().int().optional().describe('required; stale: 409'),
  type: z.enum(AssignmentTypes).optional().describe('a DONE assignment keeps its type (409)'),
  ...assignee,
  instructions: text(20_000).nullable().optional(),
  dueAt: dateInput().nullable().optional(),
  status: z.enum(['OPEN', 'CANCELLED']).optional().describe('re-open or cancel; DONE only by completing'),
});
export type AssignmentPatchInput = z.infer<typeof AssignmentPatchInputSchema>;
export const AssignmentIdInput = z.object({ assignmentId: id() });
export const AssignmentCompleteInputSchema = z.object({
  assignmentId: id(),
  version: z.number().int().optional().describe('required; stale: 409'),
  comment: text(4000).optional().describe('passed to the transition fired'),
});
export const AssignmentListInputSchema = z.object({
  id: id(),
  status: z.enum(AssignmentStatuses).optional(),
});
export const MyAssignmentsInputSchema = z.object({
  assignee: z.literal('me').default('me').describe('only "me": the caller, directly or through a group'),
  status: z.enum(AssignmentStatuses).optional().describe('default: OPEN'),
  'project-id': id().optional(),
});
export type MyAssignmentsInput = z.infer<typeof MyAssignmentsInputSchema>;
export const AssignmentEntrySchema = z.object({
  conceptId: z.number().int(),
  dictionaryId: z.number().int(),
  languageCode: z.string().nullable(),
  state: z.string().nullable(),
  category: z.string().nullable(),
  done: z.boolean(),
});
export const AssignmentEntriesInputSchema = z.object({
  assignmentId: id(),
  done: queryBoolean().optional().describe('false: the entries still to do ("next entry" is the first)'),
  size: z.number().int().min(1).max(1000).default(100),
  page: z.number().int().min(0).max(1_000_000).default(0),
});
export type AssignmentEntriesInput = z.infer<typeof AssignmentEntriesInputSchema>;

// ---------------------------------------------------------------- progress and statistics

export const ProjectProgressSchema = z.object({
  projectId: z.number().int(),
  entries: z.number().int(),
  candidates: z.record(z.enum(CandidateStatuses), z.number().int()),
  languages: z.array(
    z.object({
      languageCode: z.string(),
      total: z.number().int(),
      approved: z.number().int(),
      withTerms: z.number().int(),
    }),
  ),
  assignments: z.array(AssignmentSchema),
});
export const ProjectStatisticsSchema = z.object({
  projectId: z.number().int(),
  byState: z.array(
    z.object({
      languageCode: z.string().nullable(),
      state: z.string().nullable(),
      category: z.string().nullable(),
      count: z.number().int(),
    }),
  ),
  byAssignee: z.array(
    z.object({
      userId: z.number().int().nullable(),
      groupId: z.number().int().nullable(),
      assignments: z.number().int(),
      total: z.number().int(),
      done: z.number().int(),
    }),
  ),
  burndown: z
    .array(
      z.object({
        day: z.string().describe('YYYY-MM-DD (UTC)'),
        total: z.number().int(),
        remaining: z.number().int(),
      }),
    )
    .describe('one point a day, recorded by the daily snapshot (and on each read of the statistics)'),
});

export const ConceptProjectsInputSchema = z.object({ conceptId: id() });
export const ConceptProjectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(ProjectStatuses),
  dueAt: epoch().nullable(),
});
