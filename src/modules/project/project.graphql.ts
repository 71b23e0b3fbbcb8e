/**
 * Projects over GraphQL (docs/projects.md): the same operations as REST through the same procedures
 * (same checks, same errors). A project's assignments and a concept's projects load through DataLoaders
 * (one batch per request), so a page of projects or of concepts costs a fixed number of statements.
 */
import DataLoader from 'dataloader';
import type { z } from 'zod';
import { builder, defined, type GraphQLContext } from '../../graphql/builder.js';
import { AuditInfoRef } from '../../graphql/common.graphql.js';
import { pageCost, unsizedListCost } from '../../graphql/cost.js';
import { ConceptRef } from '../concept/graphql/refs.js';
import { domainCall } from '../concept/graphql/request-state.js';
import type {
  AssignmentDto,
  CandidateDto,
  ConceptProjectSchema,
  ProjectDto,
  ProjectEntrySchema,
  ProjectProgressSchema,
} from './project.schema.js';
import { assignmentsOfProjects } from './project-assignments.js';
import { conceptProjectsMany } from './project-entries.js';
import {
  CandidateCountsRef,
  CategoryCountRef,
  categoryCounts,
  EntryStateRef,
  LanguageProgressRef,
  StatisticsRef,
} from './project-stats.graphql.js';

type ProjectShape = Partial<ProjectDto> & { id: number };
type EntryShape = z.infer<typeof ProjectEntrySchema>;
type ConceptProject = z.infer<typeof ConceptProjectSchema>;

function batch<V>(
  loaders: WeakMap<GraphQLContext, DataLoader<number, V>>,
  context: GraphQLContext,
  load: (ids: readonly number[]) => Promise<Map<number, V>>,
  empty: V,
) {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const found = await load(ids);
      return ids.map((id) => found.get(id) ?? empty);
    });
    loaders.set(context, loader);
  }
  return loader;
}
const assignmentLoaders = new WeakMap<GraphQLContext, DataLoader<number, AssignmentDto[]>>();
const conceptLoaders = new WeakMap<GraphQLContext, DataLoader<number, ConceptProject[]>>();

const ProgressRef = builder.objectRef<AssignmentDto['progress']>('ProjectAssignmentProgress').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    done: t.exposeInt('done'),
    byCategory: t.field({
      type: [CategoryCountRef],
      description: 'entries per workflow state category',
      resolve: (p) => categoryCounts(p.byCategory),
    }),
  }),
});

const AssignmentEntryRef = builder
  .objectRef<{
    conceptId: number;
    dictionaryId: number;
    languageCode: string | null;
    state: string | null;
    category: string | null;
    done: boolean;
  }>('ProjectAssignmentEntry')
  .implement({
    fields: (t) => ({
      conceptId: t.exposeInt('conceptId'),
      dictionaryId: t.exposeInt('dictionaryId'),
      languageCode: t.exposeString('languageCode', { nullable: true }),
      state: t.exposeString('state', { nullable: true }),
      category: t.exposeString('category', { nullable: true }),
      done: t.exposeBoolean('done'),
    }),
  });

export const AssignmentRef = builder.objectRef<AssignmentDto>('ProjectAssignment').implement({
  description: 'Typed work on a project’s entries, given to a user or a group (docs/projects.md).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    projectId: t.exposeInt('projectId'),
    projectName: t.exposeString('projectName'),
    version: t.exposeInt('version'),
    type: t.exposeString('type', { description: 'DRAFTING, TRANSLATION, REVISION or VALIDATION' }),
    languageCode: t.exposeString('languageCode', { nullable: true }),
    assigneeUserId: t.exposeInt('assigneeUserId', { nullable: true }),
    assigneeGroupId: t.exposeInt('assigneeGroupId', { nullable: true }),
    instructions: t.exposeString('instructions', { nullable: true }),
    dueAt: t.field({ type: 'Float', nullable: true, description: 'ms epoch', resolve: (a) => a.dueAt }),
    overdue: t.exposeBoolean('overdue'),
    status: t.exposeString('status', { description: 'OPEN, DONE or CANCELLED' }),
    completed: t.field({
      type: AuditInfoRef,
      nullable: true,
      description: 'who completed it and when',
      resolve: (a) => a.completed,
    }),
    result: t.field({
      type: 'JSON',
      nullable: true,
      description: 'what completing fired',
      resolve: (a) => a.result,
    }),
    progress: t.field({ type: ProgressRef, resolve: (a) => a.progress }),
    jobTaskId: t.int({
      nullable: true,
      description:
        'completing only: the job still moving the entries (the assignment turns DONE when it ends)',
      resolve: (a) => a.jobTaskId ?? null,
    }),
    entries: t.field({
      type: [AssignmentEntryRef],
      description: 'its entries in concept order; done: false gives what is left ("next entry" first)',
      complexity: unsizedListCost,
      args: { done: t.arg.boolean(), size: t.arg.int(), page: t.arg.int() },
      resolve: (a, args, context) =>
        context.api.projects.assignmentEntries(
          defined({
            assignmentId: a.id,
            done: args.done ?? undefined,
            size: args.size ?? 100,
            page: args.page ?? 0,
          }),
        ),
    }),
  }),
});

const ProjectProgressRef = builder
  .objectRef<z.infer<typeof ProjectProgressSchema>>('ProjectProgress')
  .implement({
    description: 'GET /projects/{id}/progress: computed from the workflow states on each read',
    fields: (t) => ({
      projectId: t.exposeInt('projectId'),
      entries: t.exposeInt('entries'),
      candidates: t.field({ type: CandidateCountsRef, resolve: (p) => p.candidates }),
      languages: t.field({ type: [LanguageProgressRef], resolve: (p) => p.languages }),
      assignments: t.field({ type: [AssignmentRef], resolve: (p) => p.assignments }),
    }),
  });

const CandidateTermRef = builder.objectRef<CandidateDto['terms'][number]>('ProjectCandidateTerm').implement({
  fields: (t) => ({ languageCode: t.exposeString('languageCode'), term: t.exposeString('term') }),
});
const CandidateCommentRef = builder
  .objectRef<CandidateDto['comments'][number]>('ProjectCandidateComment')
  .implement({
    fields: (t) => ({
      id: t.exposeInt('id'),
      userId: t.exposeInt('userId', { nullable: true }),
      text: t.exposeString('text'),
      createdAt: t.field({ type: 'Float', resolve: (c) => c.createdAt }),
    }),
  });
const DuplicateRef = builder
  .objectRef<{
    conceptId: number;
    dictionaryId: number;
    termId: number;
    term: string;
    languageCode: string;
    matchedTerm: string;
  }>('ProjectCandidateDuplicate')
  .implement({
    fields: (t) => ({
      conceptId: t.exposeInt('conceptId'),
      dictionaryId: t.exposeInt('dictionaryId'),
      termId: t.exposeInt('termId'),
      term: t.exposeString('term'),
      languageCode: t.exposeString('languageCode'),
      matchedTerm: t.exposeString('matchedTerm'),
    }),
  });

export const CandidateRef = builder.objectRef<CandidateDto>('ProjectCandidate').implement({
  description: 'A proposed term that is not a concept yet (docs/projects.md, Candidates).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    projectId: t.exposeInt('projectId'),
    terms: t.field({ type: [CandidateTermRef], resolve: (c) => c.terms }),
    definition: t.exposeString('definition', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    source: t.exposeString('source', { nullable: true }),
    status: t.exposeString('status', { description: 'OPEN, MERGED, PROMOTED or REJECTED' }),
    conceptId: t.exposeInt('conceptId', { nullable: true }),
    created: t.field({ type: AuditInfoRef, resolve: (c) => c.created }),
    decided: t.field({
      type: AuditInfoRef,
      nullable: true,
      description: 'who decided and when',
      resolve: (c) => c.decided,
    }),
    decisionComment: t.exposeString('decisionComment', { nullable: true }),
    comments: t.field({ type: [CandidateCommentRef], resolve: (c) => c.comments }),
    duplicates: t.field({
      type: [DuplicateRef],
      description: 'terms of the project’s dictionaries equal to one of its terms (likely duplicates)',
      complexity: unsizedListCost,
      resolve: (c, _, context) => context.api.projects.candidateDuplicates({ candidateId: c.id }),
    }),
  }),
});

const EntryRef = builder.objectRef<EntryShape>('ProjectEntry').implement({
  fields: (t) => ({
    conceptId: t.exposeInt('conceptId'),
    dictionaryId: t.exposeInt('dictionaryId'),
    addedAt: t.field({ type: 'Float', resolve: (e) => e.addedAt }),
    addedById: t.exposeInt('addedById', { nullable: true }),
    languages: t.exposeStringList('languages'),
    states: t.field({
      type: [EntryStateRef],
      description: 'workflow state per governed entry in the project languages',
      resolve: (e) => e.states,
    }),
  }),
});

export const ProjectRef = builder.objectRef<ProjectShape>('Project').implement({
  description: 'Terminology work on some dictionaries and languages (docs/projects.md).',
  fields: (t) => {
    const optional =
      <K extends keyof ProjectShape>(key: K) =>
      (p: ProjectShape) =>
        (p[key] ?? null) as never;
    return {
      id: t.exposeInt('id'),
      version: t.int({ nullable: true, resolve: optional('version') }),
      name: t.string({ nullable: true, resolve: optional('name') }),
      description: t.string({ nullable: true, resolve: optional('description') }),
      status: t.string({
        nullable: true,
        description: 'DRAFT, ONGOING, DONE, SUSPENDED or ABANDONED',
        resolve: optional('status'),
      }),
      dictionaryIds: t.intList({ nullable: true, resolve: optional('dictionaryIds') }),
      languages: t.stringList({ nullable: true, resolve: optional('languages') }),
      coordinatorIds: t.intList({ nullable: true, resolve: optional('coordinatorIds') }),
      dueAt: t.float({ nullable: true, description: 'ms epoch', resolve: optional('dueAt') }),
      overdue: t.boolean({ nullable: true, resolve: optional('overdue') }),
      instructions: t.string({ nullable: true, resolve: optional('instructions') }),
      transitions: t.field({ type: 'JSON', nullable: true, resolve: optional('transitions') }),
      entryCount: t.int({ nullable: true, resolve: optional('entryCount') }),
      openCandidateCount: t.int({ nullable: true, resolve: optional('openCandidateCount') }),
      assignmentCount: t.int({ nullable: true, resolve: optional('assignmentCount') }),
      manageable: t.boolean({ nullable: true, resolve: optional('manageable') }),
      assignments: t.field({
        type: [AssignmentRef],
        complexity: unsizedListCost,
        resolve: (p, _, context) =>
          batch(
            assignmentLoaders,
            context,
            (ids) => domainCall(context, (scope) => assignmentsOfProjects(scope, ids)),
            [],
          ).load(p.id),
      }),
      entries: t.field({
        type: [EntryRef],
        complexity: (args, context) => pageCost(args, context),
        args: { size: t.arg.int(), page: t.arg.int(), languageCode: t.arg.string(), state: t.arg.string() },
        resolve: async (p, args, context) =>
          (
            await context.api.projects.entries(
              defined({
                id: p.id,
                size: args.size ?? 100,
                page: args.page ?? 0,
                'language-code': args.languageCode ?? undefined,
                state: args.state ?? undefined,
              }),
            )
          ).content,
      }),
      candidates: t.field({
        type: [CandidateRef],
        complexity: (args, context) => pageCost(args, context),
        args: { size: t.arg.int(), page: t.arg.int(), status: t.arg.string() },
        resolve: async (p, args, context) =>
          (
            await context.api.projects.candidates(
              defined({
                id: p.id,
                size: args.size ?? 100,
                page: args.page ?? 0,
                status: (args.status ?? undefined) as never,
              }),
            )
          ).content,
      }),
      progress: t.field({
        type: ProjectProgressRef,
        description: 'GET /projects/{id}/progress',
        complexity: 5,
        resolve: (p, _, context) => context.api.projects.progress({ id: p.id }),
      }),
      statistics: t.field({
        type: StatisticsRef,
        description: 'GET /projects/{id}/statistics',
        complexity: 5,
        resolve: (p, _, context) => context.api.projects.statistics({ id: p.id }),
      }),
    };
  },
});

const ConceptProjectRef = builder.objectRef<ConceptProject>('ConceptProject').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    status: t.exposeString('status'),
    dueAt: t.field({ type: 'Float', nullable: true, resolve: (p) => p.dueAt }),
  }),
});

builder.objectField(ConceptRef, 'projects', (t) =>
  t.field({
    type: [ConceptProjectRef],
    description: 'The projects this concept belongs to (those you may see).',
    complexity: 2,
    resolve: (concept, _, context) =>
      batch(
        conceptLoaders,
        context,
        (ids) => domainCall(context, (scope) => conceptProjectsMany(scope, ids)),
        [],
      ).load(concept.id),
  }),
);

const ProjectPageRef = builder
  .objectRef<{
    content: ProjectShape[];
    totalElements: number;
    totalPages: number;
    number: number;
    size: number;
  }>('ProjectPage')
  .implement({
    fields: (t) => ({
      content: t.field({ type: [ProjectRef], resolve: (p) => p.content }),
      totalElements: t.exposeInt('totalElements'),
      totalPages: t.exposeInt('totalPages'),
      number: t.exposeInt('number'),
      size: t.exposeInt('size'),
    }),
  });

export const FULL = { format: 'FULL' as const };
/** GraphQL's nulls for omitted arguments become absent members, as the procedures' inputs expect. */
export const clean = <T extends object>(value: T) =>
  defined(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v ?? undefined]))) as {
    [K in keyof T]: Exclude<T[K], null>;
  };

builder.queryFields((t) => ({
  projects: t.field({
    type: ProjectPageRef,
    description: 'GET /projects',
    complexity: (args, context) => pageCost(args, context),
    args: {
      status: t.arg.string({ description: 'one or a comma list' }),
      dictionaryId: t.arg.int(),
      coordinatorId: t.arg.string({ description: 'a user id or "me"' }),
      overdue: t.arg.boolean(),
      name: t.arg.string(),
      sort: t.arg.string(),
      page: t.arg.int(),
      size: t.arg.int(),
    },
    resolve: async (_, args, context) =>
      (await context.api.projects.list(
        clean({
          status: args.status,
          'dictionary-id': args.dictionaryId,
          'coordinator-id': args.coordinatorId,
          overdue: args.overdue,
          name: args.name,
          sort: args.sort,
          page: args.page ?? 0,
          size: args.size,
          ...FULL,
        }) as never,
      )) as never,
  }),
  project: t.field({
    type: ProjectRef,
    description: 'GET /projects/{id}',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, context) => context.api.projects.get({ id, ...FULL }),
  }),
  projectCandidate: t.field({
    type: CandidateRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, context) => context.api.projects.candidate({ candidateId: id }),
  }),
  projectAssignment: t.field({
    type: AssignmentRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, context) => context.api.projects.assignment({ assignmentId: id }),
  }),
  myAssignments: t.field({
    type: [AssignmentRef],
    description: 'GET /assignments?assignee=me: yours across projects, directly or through a group',
    complexity: unsizedListCost,
    args: { status: t.arg.string({ description: 'default OPEN' }), projectId: t.arg.int() },
    resolve: (_, args, context) =>
      context.api.projects.myAssignments(
        clean({ assignee: 'me' as const, status: args.status as never, 'project-id': args.projectId }),
      ),
  }),
}));
