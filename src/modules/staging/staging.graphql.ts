/**
 * Staging areas over GraphQL: the procedures of docs/staging.md through the server-side caller (same
 * checks). A page of entries comes with names and latest decisions in one query; an entry's area is
 * loaded by a dataloader keyed by area id, so a page of one area's entries asks for it once.
 */
import DataLoader from 'dataloader';
import { builder, defined, type GraphQLContext } from '../../graphql/builder.js';
import { pageRef } from '../../graphql/common.graphql.js';
import { pageCost } from '../../graphql/cost.js';
import { TbxMergeModes } from '../tbx/tbx-import-merge.js';
import {
  type AcceptResult,
  type StagedEntryDetail,
  type StagedEntryDto,
  StagedSources,
  StagedStatuses,
  type StagingAreaDto,
  type StagingChange,
  type StagingDecisionDto,
  StagingDecisionKinds,
} from './staging.schema.js';

const StatusEnum = builder.enumType('StagedStatus', { values: StagedStatuses });
const SourceEnum = builder.enumType('StagedSource', { values: StagedSources });
const DecisionEnum = builder.enumType('StagingDecisionKind', { values: StagingDecisionKinds });
const MergeEnum = builder.enumType('StagingMergeMode', { values: TbxMergeModes });
const TargetEnum = builder.enumType('StagedTarget', { values: ['NEW', 'EXISTING'] as const });

const UserRef = builder.objectRef<{ id: number; name: string }>('StagingUser').implement({
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }),
});

const CountsRef = builder.objectRef<StagingAreaDto['counts']>('StagingCounts').implement({
  fields: (t) => ({
    pending: t.exposeInt('pending'),
    accepted: t.exposeInt('accepted'),
    rejected: t.exposeInt('rejected'),
  }),
});

const AreaRef = builder.objectRef<StagingAreaDto>('StagingArea').implement({
  description: 'A named area of a dictionary where imported entries and suggestions wait for review.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.exposeInt('version'),
    clientId: t.exposeInt('clientId'),
    dictionaryId: t.exposeInt('dictionaryId'),
    dictionaryName: t.exposeString('dictionaryName'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    openToReaders: t.exposeBoolean('openToReaders'),
    deleted: t.exposeBoolean('deleted'),
    counts: t.field({ type: CountsRef, resolve: (a) => a.counts }),
    createdBy: t.field({ type: UserRef, nullable: true, resolve: (a) => a.createdBy }),
    created: t.float({ description: 'ms epoch', resolve: (a) => a.created }),
    changed: t.float({ description: 'ms epoch', resolve: (a) => a.changed }),
    mayReview: t.exposeBoolean('mayReview'),
  }),
});

const DecisionRef = builder.objectRef<StagingDecisionDto>('StagingDecision').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    stagedEntryId: t.exposeInt('stagedEntryId'),
    entryLabel: t.exposeString('entryLabel', { description: "the staged entry's label, as it reads now" }),
    decision: t.field({ type: DecisionEnum, resolve: (d) => d.decision }),
    reason: t.exposeString('reason', { nullable: true }),
    conceptId: t.exposeInt('conceptId', { nullable: true }),
    workflowState: t.exposeString('workflowState', { nullable: true }),
    merge: t.field({ type: MergeEnum, nullable: true, resolve: (d) => d.merge }),
    decidedBy: t.field({ type: UserRef, nullable: true, resolve: (d) => d.decidedBy }),
    decided: t.float({ description: 'ms epoch', resolve: (d) => d.decided }),
  }),
});

/** The areas of a request by id: one procedure call per distinct area. */
const areaLoaders = new WeakMap<object, DataLoader<number, StagingAreaDto>>();
function areaLoader(context: GraphQLContext) {
  let loader = areaLoaders.get(context);
  if (!loader) {
    loader = new DataLoader((ids: readonly number[]) =>
      Promise.all(ids.map((id) => context.api.staging.getArea({ id }).catch((error: Error) => error))),
    );
    areaLoaders.set(context, loader);
  }
  return loader;
}

const EntryFields = builder.interfaceRef<StagedEntryDto>('StagedEntryFields').implement({
  description: 'What every staged entry answers (StagedEntry in lists, StagedEntryDetail alone).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.exposeInt('version'),
    stagingAreaId: t.exposeInt('stagingAreaId'),
    stagingArea: t.field({
      type: AreaRef,
      description: 'loaded once per area of the request',
      resolve: (e, _args, context) => areaLoader(context).load(e.stagingAreaId),
    }),
    dictionaryId: t.exposeInt('dictionaryId'),
    status: t.field({ type: StatusEnum, resolve: (e) => e.status }),
    source: t.field({ type: SourceEnum, resolve: (e) => e.source }),
    format: t.exposeString('format', { nullable: true }),
    importJobId: t.exposeInt('importJobId', { nullable: true }),
    fileName: t.exposeString('fileName', { nullable: true }),
    line: t.exposeInt('line', { nullable: true }),
    entryId: t.exposeString('entryId', { nullable: true }),
    targetConceptId: t.exposeInt('targetConceptId', { nullable: true }),
    merge: t.field({ type: MergeEnum, resolve: (e) => e.merge }),
    label: t.exposeString('label'),
    languages: t.exposeStringList('languages'),
    comment: t.exposeString('comment', { nullable: true }),
    entry: t.field({
      type: 'JSON',
      description: 'the staged content (docs/staging.md)',
      resolve: (e) => e.entry,
    }),
    createdBy: t.field({ type: UserRef, nullable: true, resolve: (e) => e.createdBy }),
    created: t.float({ description: 'ms epoch', resolve: (e) => e.created }),
    changed: t.float({ description: 'ms epoch', resolve: (e) => e.changed }),
    decision: t.field({ type: DecisionRef, nullable: true, resolve: (e) => e.decision }),
    mayReview: t.exposeBoolean('mayReview'),
    mayEdit: t.exposeBoolean('mayEdit'),
  }),
});

const EntryRef = builder.objectRef<StagedEntryDto>('StagedEntry').implement({
  description: 'An imported entry or a suggestion waiting in a staging area.',
  interfaces: [EntryFields],
  isTypeOf: (value) => !('diff' in (value as object)),
  fields: () => ({}),
});

const ChangeRef = builder.objectRef<StagingChange>('StagingChange').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'ADDED, CHANGED, REMOVED' }),
    subject: t.exposeString('subject', { description: 'FIELD, TERM, TERM_FIELD, DOMAINS, LANGUAGE_FIELD' }),
    termId: t.int({ nullable: true, resolve: (c) => c.termId ?? null }),
    fieldOid: t.string({ nullable: true, resolve: (c) => c.fieldOid ?? null }),
    fieldName: t.string({ nullable: true, resolve: (c) => c.fieldName ?? null }),
    language: t.string({ nullable: true, resolve: (c) => c.language ?? null }),
    term: t.string({ nullable: true, resolve: (c) => c.term ?? null }),
    before: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.before ?? null }),
    after: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.after ?? null }),
  }),
});

const DetailRef = builder.objectRef<StagedEntryDetail>('StagedEntryDetail').implement({
  description: 'A staged entry beside the concept it would change, with the field-level difference.',
  interfaces: [EntryFields],
  isTypeOf: (value) => 'diff' in (value as object),
  fields: (t) => ({
    target: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.target }),
    diffTargetConceptId: t.int({
      nullable: true,
      description: 'the concept the merge finds now',
      resolve: (e) => e.diff.targetConceptId,
    }),
    changes: t.field({ type: [ChangeRef], resolve: (e) => e.diff.changes }),
    decisions: t.field({ type: [DecisionRef], description: 'oldest first', resolve: (e) => e.decisions }),
  }),
});

const AcceptResultRef = builder.objectRef<AcceptResult>('StagingAcceptResult').implement({
  fields: (t) => ({
    accepted: t.exposeInt('accepted'),
    skipped: t.exposeInt('skipped'),
    conceptIds: t.exposeIntList('conceptIds'),
    errors: t.field({ type: 'JSON', resolve: (r) => r.errors }),
    result: t.field({ type: 'JSON', description: 'the import summary', resolve: (r) => r.result }),
  }),
});
const RejectResultRef = builder
  .objectRef<{ rejected: number; skipped: number }>('StagingRejectResult')
  .implement({ fields: (t) => ({ rejected: t.exposeInt('rejected'), skipped: t.exposeInt('skipped') }) });

const AreaPageRef = pageRef('StagingAreaPage', AreaRef);
const EntryPageRef = pageRef('StagedEntryPage', EntryRef);
const DecisionPageRef = pageRef('StagingDecisionPage', DecisionRef);

builder.queryFields((t) => ({
  stagingAreas: t.field({
    type: AreaPageRef,
    complexity: pageCost,
    description: 'As GET /api/v4/dictionaries/{dictionaryId}/staging-areas.',
    args: {
      dictionaryId: t.arg.int({ required: true }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.listAreas(
        defined({
          dictionaryId: a.dictionaryId,
          page: a.page ?? 0,
          size: a.size ?? undefined,
          sort: a.sort ?? undefined,
          name: a.name ?? undefined,
        }),
      ),
  }),
  stagingArea: t.field({
    type: AreaRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.staging.getArea({ id }),
  }),
  stagedEntries: t.field({
    type: EntryPageRef,
    complexity: pageCost,
    description: 'As GET /api/v4/staging-areas/{id}/entries.',
    args: {
      stagingAreaId: t.arg.int({ required: true }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false }),
      status: t.arg({ type: StatusEnum, required: false }),
      source: t.arg({ type: SourceEnum, required: false }),
      language: t.arg.string({ required: false }),
      importJobId: t.arg.int({ required: false }),
      target: t.arg({ type: TargetEnum, required: false }),
      text: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.listEntries(
        defined({
          id: a.stagingAreaId,
          page: a.page ?? 0,
          size: a.size ?? undefined,
          sort: a.sort ?? undefined,
          status: a.status ?? undefined,
          source: a.source ?? undefined,
          language: a.language ?? undefined,
          'import-job-id': a.importJobId ?? undefined,
          target: a.target ?? undefined,
          text: a.text ?? undefined,
        }),
      ),
  }),
  stagedEntry: t.field({
    type: DetailRef,
    description: 'As GET /api/v4/staged-entries/{id}.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.staging.getEntry({ id }),
  }),
  stagingDecisions: t.field({
    type: DecisionPageRef,
    complexity: pageCost,
    args: {
      stagingAreaId: t.arg.int({ required: true }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      decision: t.arg({ type: DecisionEnum, required: false }),
      userId: t.arg.int({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.listDecisions(
        defined({
          id: a.stagingAreaId,
          page: a.page ?? 0,
          size: a.size ?? undefined,
          decision: a.decision ?? undefined,
          'user-id': a.userId ?? undefined,
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createStagingArea: t.field({
    type: AreaRef,
    args: {
      dictionaryId: t.arg.int({ required: true }),
      name: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      openToReaders: t.arg.boolean({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.createArea({
        dictionaryId: a.dictionaryId,
        name: a.name,
        description: a.description ?? null,
        openToReaders: a.openToReaders ?? false,
      }),
  }),
  updateStagingArea: t.field({
    type: AreaRef,
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      name: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      openToReaders: t.arg.boolean({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.updateArea(
        defined({
          id: a.id,
          version: a.version,
          name: a.name ?? undefined,
          description: a.description,
          openToReaders: a.openToReaders ?? undefined,
        }),
      ),
  }),
  deleteStagingArea: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.staging.deleteArea({ id });
      return true;
    },
  }),
  suggestStagedEntry: t.field({
    type: EntryRef,
    args: {
      stagingAreaId: t.arg.int({ required: true }),
      entry: t.arg({ type: 'JSON', required: true, description: 'the content (docs/staging.md)' }),
      conceptId: t.arg.int({ required: false }),
      merge: t.arg({ type: MergeEnum, required: false }),
      comment: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.suggest(
        defined({
          id: a.stagingAreaId,
          entry: a.entry as never,
          conceptId: a.conceptId ?? undefined,
          merge: a.merge ?? 'TERM',
          comment: a.comment ?? undefined,
        }),
      ),
  }),
  updateStagedEntry: t.field({
    type: EntryRef,
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      entry: t.arg({ type: 'JSON', required: false }),
      comment: t.arg.string({ required: false }),
      conceptId: t.arg.int({ required: false, description: 'null: a new concept' }),
    },
    resolve: (_, a, { api }) =>
      api.staging.updateEntry(
        defined({
          id: a.id,
          version: a.version,
          entry: (a.entry ?? undefined) as never,
          comment: a.comment,
          conceptId: a.conceptId,
        }),
      ),
  }),
  acceptStagedEntry: t.field({
    type: AcceptResultRef,
    description: 'As POST /api/v4/staged-entries/{id}/accept (the entry: stagedEntry(id)).',
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: false }),
      merge: t.arg({ type: MergeEnum, required: false }),
      workflowState: t.arg.string({ required: false }),
    },
    resolve: async (_, a, { api }) =>
      (
        await api.staging.acceptEntry(
          defined({
            id: a.id,
            version: a.version ?? undefined,
            merge: a.merge ?? undefined,
            workflowState: a.workflowState ?? undefined,
          }),
        )
      ).result,
  }),
  rejectStagedEntry: t.field({
    type: EntryRef,
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: false }),
      reason: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.rejectEntry(
        defined({ id: a.id, version: a.version ?? undefined, reason: a.reason ?? undefined }),
      ),
  }),
  acceptStagedEntries: t.field({
    type: AcceptResultRef,
    args: {
      stagingAreaId: t.arg.int({ required: true }),
      ids: t.arg.intList({ required: false }),
      filter: t.arg({ type: 'JSON', required: false, description: 'the list filters' }),
      merge: t.arg({ type: MergeEnum, required: false }),
      workflowState: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.acceptEntries(
        defined({
          id: a.stagingAreaId,
          ids: a.ids ?? undefined,
          filter: (a.filter ?? undefined) as never,
          merge: a.merge ?? undefined,
          workflowState: a.workflowState ?? undefined,
        }),
      ),
  }),
  rejectStagedEntries: t.field({
    type: RejectResultRef,
    args: {
      stagingAreaId: t.arg.int({ required: true }),
      ids: t.arg.intList({ required: false }),
      filter: t.arg({ type: 'JSON', required: false }),
      reason: t.arg.string({ required: false }),
    },
    resolve: (_, a, { api }) =>
      api.staging.rejectEntries(
        defined({
          id: a.stagingAreaId,
          ids: a.ids ?? undefined,
          filter: (a.filter ?? undefined) as never,
          reason: a.reason ?? undefined,
        }),
      ),
  }),
}));
