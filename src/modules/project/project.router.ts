import { z } from 'zod';
import { FormatSchema } from '../../shared/format.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  AddCandidatesInputSchema,
  AddEntriesInputSchema,
  AssignmentCompleteInputSchema,
  AssignmentCreateInputSchema,
  AssignmentEntriesInputSchema,
  AssignmentEntrySchema,
  AssignmentIdInput,
  AssignmentListInputSchema,
  AssignmentPatchInputSchema,
  AssignmentSchema,
  CandidateCommentInputSchema,
  CandidateIdInput,
  CandidateListInputSchema,
  CandidateMergeInputSchema,
  CandidatePageSchema,
  CandidatePromoteInputSchema,
  CandidateRejectInputSchema,
  CandidateSchema,
  CandidatesAddedSchema,
  ConceptProjectSchema,
  ConceptProjectsInputSchema,
  DuplicateSchema,
  EntriesChangeSchema,
  ImportCandidatesInputSchema,
  MyAssignmentsInputSchema,
  ProjectCreateInputSchema,
  ProjectEntryListInputSchema,
  ProjectEntryPageSchema,
  ProjectIdInput,
  ProjectListInputSchema,
  ProjectOutputSchema,
  ProjectPageSchema,
  ProjectPatchInputSchema,
  ProjectProgressSchema,
  ProjectStatisticsSchema,
  ProjectStatusInputSchema,
  ProjectUpdateInputSchema,
  RemoveEntriesInputSchema,
} from './project.schema.js';
import * as projects from './project.service.js';
import * as assignments from './project-assignments.js';
import * as candidates from './project-candidates.js';
import * as entries from './project-entries.js';
import { DESCRIPTIONS } from './project-openapi.js';
import * as progress from './project-progress.js';

const tags = ['projects'];
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const READ = [400, 401, 404];
const WRITE = [400, 401, 403, 404, 409, 422];

/** A procedure published at /api/v4{path}. */
const at = (
  method: Method,
  path: `/${string}`,
  summary: string,
  description: string,
  errorResponses = method === 'GET' ? READ : WRITE,
  successStatus?: 201 | 204,
) =>
  authedProcedure.meta({
    openapi: { method, path, tags, summary, description, errorResponses },
    ...(successStatus ? { successStatus } : {}),
  });

const candidate = (input: z.infer<typeof CandidateIdInput>) => input.candidateId;

/** Projects (docs/projects.md): every call here is also REST (meta.openapi) and GraphQL (project.graphql.ts). */
export const projectRouter = router({
  list: at(
    'GET',
    '/projects',
    'Find the projects you may see (filters: status, dictionary-id, coordinator-id, overdue)',
    DESCRIPTIONS['GET /projects'],
  )
    .input(ProjectListInputSchema)
    .output(ProjectPageSchema)
    .query(({ ctx, input }) => projects.listProjects(ctx.scope, input)),
  get: at('GET', '/projects/{id}', 'Get a project', DESCRIPTIONS['GET /projects/{id}'])
    .input(ProjectIdInput.extend({ format: FormatSchema }))
    .output(ProjectOutputSchema)
    .query(({ ctx, input }) => projects.getProject(ctx.scope, input.id, input.format)),
  create: at(
    'POST',
    '/projects',
    'Create a project (DRAFT); administrators of all its dictionaries only',
    DESCRIPTIONS['POST /projects'],
    WRITE,
    201,
  )
    .input(ProjectCreateInputSchema)
    .output(ProjectOutputSchema)
    .mutation(({ ctx, input }) => projects.createProject(ctx.scope, input)),
  update: at(
    'PUT',
    '/projects/{id}',
    'Replace a project (version required); its managers only',
    DESCRIPTIONS['PUT /projects/{id}'],
  )
    .input(ProjectUpdateInputSchema)
    .output(ProjectOutputSchema)
    .mutation(({ ctx, input }) => projects.updateProject(ctx.scope, input, false)),
  patch: at(
    'PUT',
    '/projects/partial/{id}',
    'Change some members of a project (version required); its managers only',
    DESCRIPTIONS['PUT /projects/partial/{id}'],
  )
    .input(ProjectPatchInputSchema)
    .output(ProjectOutputSchema)
    .mutation(({ ctx, input }) => projects.updateProject(ctx.scope, input, true)),
  delete: at(
    'DELETE',
    '/projects/{id}',
    'Delete a project (its concepts stay); its managers only',
    DESCRIPTIONS['DELETE /projects/{id}'],
    WRITE,
    204,
  )
    .input(ProjectIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => projects.deleteProject(ctx.scope, input.id)),
  setStatus: at(
    'POST',
    '/projects/{id}/status',
    'Move a project to another status (the allowed moves only: 409 otherwise)',
    DESCRIPTIONS['POST /projects/{id}/status'],
  )
    .input(ProjectStatusInputSchema)
    .output(ProjectOutputSchema)
    .mutation(({ ctx, input }) => projects.setProjectStatus(ctx.scope, input)),

  entries: at(
    'GET',
    '/projects/{id}/entries',
    "The project's concepts with their workflow states, by concept id",
    DESCRIPTIONS['GET /projects/{id}/entries'],
  )
    .input(ProjectEntryListInputSchema)
    .output(ProjectEntryPageSchema)
    .query(({ ctx, input }) => entries.listEntries(ctx.scope, input)),
  addEntries: at(
    'POST',
    '/projects/{id}/entries',
    'Add concepts: by ids, by a filter or by a saved query',
    DESCRIPTIONS['POST /projects/{id}/entries'],
  )
    .input(AddEntriesInputSchema)
    .output(EntriesChangeSchema)
    .mutation(({ ctx, input }) => entries.addEntries(ctx.scope, input)),
  removeEntries: at(
    'POST',
    '/projects/{id}/entries/remove',
    'Take concepts out of the project (they stay in their dictionary)',
    DESCRIPTIONS['POST /projects/{id}/entries/remove'],
  )
    .input(RemoveEntriesInputSchema)
    .output(EntriesChangeSchema)
    .mutation(({ ctx, input }) => entries.removeEntries(ctx.scope, input)),
  conceptProjects: at(
    'GET',
    '/concepts/{conceptId}/projects',
    'The projects a concept belongs to (those you may see)',
    DESCRIPTIONS['GET /concepts/{conceptId}/projects'],
  )
    .input(ConceptProjectsInputSchema)
    .output(z.array(ConceptProjectSchema))
    .query(({ ctx, input }) => entries.conceptProjects(ctx.scope, input.conceptId)),

  candidates: at(
    'GET',
    '/projects/{id}/candidates',
    "The project's candidate terms, oldest first",
    DESCRIPTIONS['GET /projects/{id}/candidates'],
  )
    .input(CandidateListInputSchema)
    .output(CandidatePageSchema)
    .query(({ ctx, input }) => candidates.listCandidates(ctx.scope, input)),
  addCandidates: at(
    'POST',
    '/projects/{id}/candidates',
    'Add candidate terms (JSON)',
    DESCRIPTIONS['POST /projects/{id}/candidates'],
  )
    .input(AddCandidatesInputSchema)
    .output(CandidatesAddedSchema)
    .mutation(({ ctx, input }) => candidates.addCandidates(ctx.scope, input)),
  importCandidates: at(
    'POST',
    '/projects/{id}/candidates/import',
    'Add candidate terms from a TBX file or a spreadsheet (CSV, XLSX)',
    DESCRIPTIONS['POST /projects/{id}/candidates/import'],
  )
    .input(ImportCandidatesInputSchema)
    .output(CandidatesAddedSchema)
    .mutation(({ ctx, input }) => candidates.importCandidates(ctx.scope, input)),
  candidate: at(
    'GET',
    '/project-candidates/{candidateId}',
    'Get a candidate with its comments and decision',
    DESCRIPTIONS['GET /project-candidates/{candidateId}'],
  )
    .input(CandidateIdInput)
    .output(CandidateSchema)
    .query(({ ctx, input }) => candidates.getCandidate(ctx.scope, candidate(input))),
  candidateDuplicates: at(
    'GET',
    '/project-candidates/{candidateId}/duplicates',
    "Terms of the project's dictionaries equal to a candidate's (likely duplicates)",
    DESCRIPTIONS['GET /project-candidates/{candidateId}/duplicates'],
  )
    .input(CandidateIdInput)
    .output(z.array(DuplicateSchema))
    .query(({ ctx, input }) => candidates.candidateDuplicates(ctx.scope, candidate(input))),
  commentCandidate: at(
    'POST',
    '/project-candidates/{candidateId}/comments',
    'Comment on a candidate',
    DESCRIPTIONS['POST /project-candidates/{candidateId}/comments'],
  )
    .input(CandidateCommentInputSchema)
    .output(CandidateSchema)
    .mutation(({ ctx, input }) => candidates.commentCandidate(ctx.scope, input)),
  mergeCandidate: at(
    'POST',
    '/project-candidates/{candidateId}/merge',
    'Merge a candidate into an existing concept (its missing terms added); the concept joins the project',
    DESCRIPTIONS['POST /project-candidates/{candidateId}/merge'],
  )
    .input(CandidateMergeInputSchema)
    .output(CandidateSchema)
    .mutation(({ ctx, input }) => candidates.mergeCandidate(ctx.scope, input)),
  promoteCandidate: at(
    'POST',
    '/project-candidates/{candidateId}/promote',
    'Make a candidate a new concept of the project',
    DESCRIPTIONS['POST /project-candidates/{candidateId}/promote'],
  )
    .input(CandidatePromoteInputSchema)
    .output(CandidateSchema)
    .mutation(({ ctx, input }) => candidates.promoteCandidate(ctx.scope, input)),
  rejectCandidate: at(
    'POST',
    '/project-candidates/{candidateId}/reject',
    'Reject a candidate',
    DESCRIPTIONS['POST /project-candidates/{candidateId}/reject'],
  )
    .input(CandidateRejectInputSchema)
    .output(CandidateSchema)
    .mutation(({ ctx, input }) => candidates.rejectCandidate(ctx.scope, input)),

  assignments: at(
    'GET',
    '/projects/{id}/assignments',
    "The project's assignments with their progress",
    DESCRIPTIONS['GET /projects/{id}/assignments'],
  )
    .input(AssignmentListInputSchema)
    .output(z.array(AssignmentSchema))
    .query(({ ctx, input }) => assignments.listAssignments(ctx.scope, input)),
  createAssignment: at(
    'POST',
    '/projects/{id}/assignments',
    'Assign work (a type, a language or all, to a user or a group); the first one starts a DRAFT project',
    DESCRIPTIONS['POST /projects/{id}/assignments'],
    WRITE,
    201,
  )
    .input(AssignmentCreateInputSchema)
    .output(AssignmentSchema)
    .mutation(({ ctx, input }) => assignments.createAssignment(ctx.scope, input)),
  myAssignments: at(
    'GET',
    '/assignments',
    'Your assignments across projects (directly or through a group)',
    DESCRIPTIONS['GET /assignments'],
    [400, 401, 403],
  )
    .input(MyAssignmentsInputSchema)
    .output(z.array(AssignmentSchema))
    .query(({ ctx, input }) => assignments.myAssignments(ctx.scope, input)),
  assignment: at(
    'GET',
    '/assignments/{assignmentId}',
    'Get an assignment with its progress',
    DESCRIPTIONS['GET /assignments/{assignmentId}'],
  )
    .input(AssignmentIdInput)
    .output(AssignmentSchema)
    .query(({ ctx, input }) => assignments.getAssignment(ctx.scope, input.assignmentId)),
  patchAssignment: at(
    'PUT',
    '/assignments/{assignmentId}',
    'Change an assignment (type, assignee, instructions, due date; re-open or cancel); managers only',
    DESCRIPTIONS['PUT /assignments/{assignmentId}'],
  )
    .input(AssignmentPatchInputSchema)
    .output(AssignmentSchema)
    .mutation(({ ctx, input }) => assignments.patchAssignment(ctx.scope, input)),
  deleteAssignment: at(
    'DELETE',
    '/assignments/{assignmentId}',
    'Delete an assignment; managers only',
    DESCRIPTIONS['DELETE /assignments/{assignmentId}'],
    WRITE,
    204,
  )
    .input(AssignmentIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => assignments.deleteAssignment(ctx.scope, input.assignmentId)),
  completeAssignment: at(
    'POST',
    '/assignments/{assignmentId}/complete',
    "Complete an assignment: fires the project's transition for its type on its entries, through the workflow's rules",
    DESCRIPTIONS['POST /assignments/{assignmentId}/complete'],
  )
    .input(AssignmentCompleteInputSchema)
    .output(AssignmentSchema)
    .mutation(({ ctx, input }) => assignments.completeAssignment(ctx.scope, input)),
  assignmentEntries: at(
    'GET',
    '/assignments/{assignmentId}/entries',
    'The entries of an assignment in concept order; done=false gives the next entries to work on',
    DESCRIPTIONS['GET /assignments/{assignmentId}/entries'],
  )
    .input(AssignmentEntriesInputSchema)
    .output(z.array(AssignmentEntrySchema))
    .query(({ ctx, input }) => assignments.assignmentEntries(ctx.scope, input)),

  progress: at(
    'GET',
    '/projects/{id}/progress',
    'Progress: entries, candidates, per language, per assignment',
    DESCRIPTIONS['GET /projects/{id}/progress'],
  )
    .input(ProjectIdInput)
    .output(ProjectProgressSchema)
    .query(({ ctx, input }) => progress.projectProgress(ctx.scope, input.id)),
  statistics: at(
    'GET',
    '/projects/{id}/statistics',
    'Entries by state and language, done per assignee, burn-down by day',
    DESCRIPTIONS['GET /projects/{id}/statistics'],
  )
    .input(ProjectIdInput)
    .output(ProjectStatisticsSchema)
    .query(({ ctx, input }) => progress.projectStatistics(ctx.scope, input.id)),
});
