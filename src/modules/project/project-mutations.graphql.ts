/** Project mutations over GraphQL (docs/projects.md): each calls the procedure of the REST call it names. */
import { builder } from '../../graphql/builder.js';
import { AssignmentRef, CandidateRef, clean, FULL, ProjectRef } from './project.graphql.js';

const ProjectInputRef = builder.inputType('ProjectInput', {
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    dictionaryIds: t.intList({ description: 'required on create' }),
    languages: t.stringList(),
    coordinatorIds: t.intList(),
    dueAt: t.float({ description: 'ms epoch' }),
    instructions: t.string(),
    transitions: t.field({
      type: 'JSON',
      description: '{DRAFTING?, TRANSLATION?, REVISION?, VALIDATION?}: transition keys',
    }),
  }),
});
const CandidateInputRef = builder.inputType('ProjectCandidateInput', {
  fields: (t) => ({
    terms: t.field({ type: 'JSON', required: true, description: '[{languageCode, term}]' }),
    definition: t.string(),
    note: t.string(),
  }),
});
const AssignmentInputRef = builder.inputType('ProjectAssignmentInput', {
  fields: (t) => ({
    type: t.string({
      description:
        'required on create (on update: changes it): DRAFTING, TRANSLATION, REVISION or VALIDATION',
    }),
    languageCode: t.string(),
    assigneeUserId: t.int(),
    assigneeGroupId: t.int(),
    instructions: t.string(),
    dueAt: t.float(),
    status: t.string({ description: 'on update: OPEN or CANCELLED' }),
  }),
});
const EntriesChangeRef = builder
  .objectRef<{ added: number; removed: number; skipped: number }>('ProjectEntriesChange')
  .implement({
    fields: (t) => ({
      added: t.exposeInt('added'),
      removed: t.exposeInt('removed'),
      skipped: t.exposeInt('skipped'),
    }),
  });
const CandidatesAddedRef = builder
  .objectRef<{ added: number; errors: { line: number; message: string }[] }>('ProjectCandidatesAdded')
  .implement({
    fields: (t) => ({
      added: t.exposeInt('added'),
      errors: t.field({ type: 'JSON', description: '[{line, message}]', resolve: (r) => r.errors }),
    }),
  });

const int = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => t.arg.int({ required: true });

builder.mutationFields((t) => ({
  createProject: t.field({
    type: ProjectRef,
    description: 'POST /projects',
    args: { input: t.arg({ type: ProjectInputRef, required: true }) },
    resolve: (_, { input }, context) => context.api.projects.create(clean({ ...input, ...FULL }) as never),
  }),
  updateProject: t.field({
    type: ProjectRef,
    description: 'PUT /projects/partial/{id}; version required, 409 when stale',
    args: { id: int(t), version: int(t), input: t.arg({ type: ProjectInputRef, required: true }) },
    resolve: (_, { id, version, input }, context) =>
      context.api.projects.patch(clean({ ...input, id, version, ...FULL }) as never),
  }),
  deleteProject: t.boolean({
    description: 'DELETE /projects/{id}',
    args: { id: int(t) },
    resolve: async (_, { id }, context) => {
      await context.api.projects.delete({ id });
      return true;
    },
  }),
  setProjectStatus: t.field({
    type: ProjectRef,
    description: 'POST /projects/{id}/status',
    args: { id: int(t), version: int(t), status: t.arg.string({ required: true }) },
    resolve: (_, args, context) => context.api.projects.setStatus(args as never),
  }),
  addProjectEntries: t.field({
    type: EntriesChangeRef,
    description: 'POST /projects/{id}/entries: one of conceptIds, filterId, savedQueryId',
    args: { id: int(t), conceptIds: t.arg.intList(), filterId: t.arg.int(), savedQueryId: t.arg.int() },
    resolve: (_, args, context) => context.api.projects.addEntries(clean(args) as never),
  }),
  removeProjectEntries: t.field({
    type: EntriesChangeRef,
    description: 'POST /projects/{id}/entries/remove',
    args: { id: int(t), conceptIds: t.arg.intList({ required: true }) },
    resolve: (_, args, context) => context.api.projects.removeEntries(args),
  }),
  addProjectCandidates: t.field({
    type: CandidatesAddedRef,
    description: 'POST /projects/{id}/candidates',
    args: { id: int(t), candidates: t.arg({ type: [CandidateInputRef], required: true }) },
    resolve: (_, args, context) =>
      context.api.projects.addCandidates({
        id: args.id,
        candidates: args.candidates.map((c) => clean(c)) as never,
      }),
  }),
  importProjectCandidates: t.field({
    type: CandidatesAddedRef,
    description: 'POST /projects/{id}/candidates/import: TBX or CSV text, XLSX in base64',
    args: {
      id: int(t),
      format: t.arg.string({ required: true }),
      content: t.arg.string({ required: true }),
      fileName: t.arg.string(),
      mapping: t.arg({ type: 'JSON' }),
    },
    resolve: (_, args, context) => context.api.projects.importCandidates(clean(args) as never),
  }),
  commentProjectCandidate: t.field({
    type: CandidateRef,
    args: { id: int(t), text: t.arg.string({ required: true }) },
    resolve: (_, { id, text }, context) => context.api.projects.commentCandidate({ candidateId: id, text }),
  }),
  mergeProjectCandidate: t.field({
    type: CandidateRef,
    args: { id: int(t), conceptId: int(t), addTerms: t.arg.boolean(), comment: t.arg.string() },
    resolve: (_, { id, ...rest }, context) =>
      context.api.projects.mergeCandidate(
        clean({ candidateId: id, ...rest, addTerms: rest.addTerms ?? true }) as never,
      ),
  }),
  promoteProjectCandidate: t.field({
    type: CandidateRef,
    args: { id: int(t), dictionaryId: t.arg.int(), sectionOid: t.arg.string(), comment: t.arg.string() },
    resolve: (_, { id, ...rest }, context) =>
      context.api.projects.promoteCandidate(clean({ candidateId: id, ...rest })),
  }),
  rejectProjectCandidate: t.field({
    type: CandidateRef,
    args: { id: int(t), comment: t.arg.string() },
    resolve: (_, { id, comment }, context) =>
      context.api.projects.rejectCandidate(clean({ candidateId: id, comment })),
  }),
  createProjectAssignment: t.field({
    type: AssignmentRef,
    description: 'POST /projects/{id}/assignments',
    args: { projectId: int(t), input: t.arg({ type: AssignmentInputRef, required: true }) },
    resolve: (_, { projectId, input }, context) =>
      context.api.projects.createAssignment(clean({ ...input, status: undefined, id: projectId }) as never),
  }),
  updateProjectAssignment: t.field({
    type: AssignmentRef,
    description: 'PUT /assignments/{assignmentId}',
    args: { id: int(t), version: int(t), input: t.arg({ type: AssignmentInputRef, required: true }) },
    resolve: (_, { id, version, input }, context) =>
      context.api.projects.patchAssignment(
        clean({ ...input, languageCode: undefined, assignmentId: id, version }) as never,
      ),
  }),
  deleteProjectAssignment: t.boolean({
    args: { id: int(t) },
    resolve: async (_, { id }, context) => {
      await context.api.projects.deleteAssignment({ assignmentId: id });
      return true;
    },
  }),
  completeProjectAssignment: t.field({
    type: AssignmentRef,
    description: 'POST /assignments/{assignmentId}/complete',
    args: { id: int(t), version: int(t), comment: t.arg.string() },
    resolve: (_, { id, version, comment }, context) =>
      context.api.projects.completeAssignment(clean({ assignmentId: id, version, comment })),
  }),
}));
