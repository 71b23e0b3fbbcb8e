/**
 * Workflows over GraphQL (docs/workflows.md): the entries and allowed transitions on Concept and Term
 * (one DataLoader batch per request), the definitions, the inbox, and mutations that fire a transition
 * or write a definition through the same procedures as REST (same checks, same errors).
 */
import DataLoader from 'dataloader';
import { builder, defined, type GraphQLContext } from '../../graphql/builder.js';
import { unsizedListCost } from '../../graphql/cost.js';
import { loadConcept } from '../concept/graphql/concept-loader.js';
import { ConceptRef, TermRef } from '../concept/graphql/refs.js';
import { domainCall } from '../concept/graphql/request-state.js';
import type { ConceptWorkflowDto, EntryStateDto } from './workflow-entry.schema.js';
import { conceptWorkflows } from './workflow-read.js';

type Offer = EntryStateDto['transitions'][number];
type Vote = EntryStateDto['votes'][number];

const VoteRef = builder.objectRef<Vote>('WorkflowVote').implement({
  fields: (t) => ({ transition: t.exposeString('transition'), userId: t.exposeInt('userId') }),
});

const OfferRef = builder.objectRef<Offer>('WorkflowTransitionOffer').implement({
  description: 'A transition the caller may fire now.',
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    to: t.exposeString('to'),
    commentRequired: t.exposeBoolean('commentRequired'),
    votes: t.field({
      type: 'JSON',
      nullable: true,
      description: '{mode, count} or null',
      resolve: (o) => o.votes,
    }),
    missingFields: t.exposeStringList('missingFields', { description: 'required fields still empty' }),
  }),
});

const EntryRef = builder.objectRef<EntryStateDto>('WorkflowEntry').implement({
  description: 'The workflow state of a concept, a language of a concept, or a term.',
  fields: (t) => ({
    conceptId: t.exposeInt('conceptId'),
    languageCode: t.exposeString('languageCode', { nullable: true }),
    termId: t.exposeInt('termId', { nullable: true }),
    state: t.exposeString('state'),
    stateName: t.exposeString('stateName'),
    category: t.exposeString('category'),
    processStatus: t.exposeString('processStatus', { nullable: true }),
    style: t.exposeString('style'),
    readOnly: t.exposeBoolean('readOnly'),
    hidden: t.exposeBoolean('hidden'),
    unpublished: t.exposeBoolean('unpublished'),
    version: t.exposeInt('version', { description: 'send it when firing' }),
    enteredAt: t.field({
      type: 'Float',
      nullable: true,
      description: 'ms epoch',
      resolve: (e) => e.enteredAt,
    }),
    assigneeId: t.exposeInt('assigneeId', { nullable: true }),
    votes: t.field({ type: [VoteRef], resolve: (e) => e.votes }),
    transitions: t.field({ type: [OfferRef], resolve: (e) => e.transitions }),
  }),
});

const loaders = new WeakMap<GraphQLContext, DataLoader<number, ConceptWorkflowDto | null>>();
function workflowLoader(context: GraphQLContext) {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const found = await domainCall(context, (scope) => conceptWorkflows(scope, ids));
      return ids.map((id) => found.get(id) ?? null);
    });
    loaders.set(context, loader);
  }
  return loader;
}

builder.objectField(ConceptRef, 'workflowEntries', (t) =>
  t.field({
    type: [EntryRef],
    description:
      'Workflow entries (by the workflow unit) with the transitions you may fire; empty without a workflow.',
    complexity: 2,
    resolve: async (concept, _, context) => (await workflowLoader(context).load(concept.id))?.entries ?? [],
  }),
);

builder.objectField(TermRef, 'workflowEntry', (t) =>
  t.field({
    type: EntryRef,
    nullable: true,
    description:
      "The entry governing this term: its concept's, its language's or its own, by the workflow unit.",
    complexity: 2,
    resolve: async (term, _, context) => {
      const found = await workflowLoader(context).load(term.conceptId);
      if (!found?.unit) return null;
      return (
        found.entries.find((entry) =>
          found.unit === 'CONCEPT'
            ? true
            : found.unit === 'TERM'
              ? entry.termId === term.id
              : entry.languageCode === term.languageCode,
        ) ?? null
      );
    },
  }),
);

interface WorkflowShape {
  id: number;
  version?: number;
  name?: string;
  dictionaryId?: number;
  unit?: string;
  enabled?: boolean;
  definition?: unknown;
}

const WorkflowRef = builder.objectRef<WorkflowShape>('Workflow').implement({
  description: 'A workflow definition of a dictionary (docs/workflows.md).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.int({ nullable: true, resolve: (w) => w.version ?? null }),
    name: t.string({ nullable: true, resolve: (w) => w.name ?? null }),
    dictionaryId: t.int({ nullable: true, resolve: (w) => w.dictionaryId ?? null }),
    unit: t.string({ nullable: true, resolve: (w) => w.unit ?? null }),
    enabled: t.boolean({ nullable: true, resolve: (w) => w.enabled ?? null }),
    definition: t.field({ type: 'JSON', nullable: true, resolve: (w) => w.definition ?? null }),
  }),
});

interface InboxShape {
  dictionaryId: number;
  conceptId: number;
  languageCode: string | null;
  termId: number | null;
  state: string;
  version: number;
}

const InboxItemRef = builder.objectRef<InboxShape>('WorkflowInboxItem').implement({
  fields: (t) => ({
    dictionaryId: t.exposeInt('dictionaryId'),
    conceptId: t.exposeInt('conceptId'),
    languageCode: t.exposeString('languageCode', { nullable: true }),
    termId: t.exposeInt('termId', { nullable: true }),
    state: t.exposeString('state'),
    version: t.exposeInt('version'),
    concept: t.field({
      type: ConceptRef,
      nullable: true,
      complexity: 2,
      resolve: (item, _, context) => loadConcept(context, item.conceptId),
    }),
  }),
});

const FireResultRef = builder
  .objectRef<{ fired: boolean; entry: EntryStateDto }>('WorkflowFireResult')
  .implement({
    fields: (t) => ({
      fired: t.exposeBoolean('fired', {
        description: 'false: a vote was recorded, the transition waits for more',
      }),
      entry: t.field({ type: EntryRef, resolve: (r) => r.entry }),
    }),
  });

const FireInputRef = builder.inputType('WorkflowFireInput', {
  fields: (t) => ({
    conceptId: t.int({ required: true }),
    languageCode: t.string({ description: 'LANGUAGE unit' }),
    termId: t.int({ description: 'TERM unit' }),
    transition: t.string({ required: true }),
    version: t.int({
      required: true,
      description: 'the entry version read (0 for an entry that never moved)',
    }),
    comment: t.string(),
  }),
});

const WorkflowInputRef = builder.inputType('WorkflowInput', {
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    dictionaryId: t.int({ description: 'required on create' }),
    unit: t.string({ description: 'CONCEPT, LANGUAGE (default) or TERM' }),
    enabled: t.boolean(),
    definition: t.field({ type: 'JSON', description: 'absent on create: the default workflow' }),
  }),
});

const FULL = { format: 'FULL' as const };

builder.queryFields((t) => ({
  workflows: t.field({
    type: [WorkflowRef],
    description: 'The workflows of the dictionaries you read (GET /workflows).',
    complexity: unsizedListCost,
    args: { dictionaryId: t.arg.int() },
    resolve: async (_, args, context) =>
      (
        await context.api.workflows.list(
          defined({ 'dictionary-id': args.dictionaryId ?? undefined, size: 1000, ...FULL }) as never,
        )
      ).content as WorkflowShape[],
  }),
  workflowInbox: t.field({
    type: [InboxItemRef],
    description: 'The entries assigned to you (GET /workflows/inbox).',
    complexity: unsizedListCost,
    args: {
      dictionaryId: t.arg.int(),
      languageCode: t.arg.string(),
      open: t.arg.boolean({ description: 'true: open tasks only (DRAFT or REVIEW states)' }),
    },
    resolve: (_, args, context) =>
      context.api.workflows.inbox(
        defined({
          assignee: 'me' as const,
          'dictionary-id': args.dictionaryId ?? undefined,
          'language-code': args.languageCode ?? undefined,
          open: args.open ?? false,
          size: 100,
          page: 0,
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  fireWorkflowTransition: t.field({
    type: FireResultRef,
    description: 'Fire a transition on one entry, or vote for it (POST /workflows/transitions).',
    args: { input: t.arg({ type: FireInputRef, required: true }) },
    resolve: async (_, { input }, context) => {
      const result = await context.api.workflows.fire(
        defined({
          conceptId: input.conceptId,
          languageCode: input.languageCode ?? undefined,
          termId: input.termId ?? undefined,
          transition: input.transition,
          version: input.version,
          comment: input.comment ?? undefined,
        }),
      );
      workflowLoader(context).clear(input.conceptId);
      return result;
    },
  }),
  createWorkflow: t.field({
    type: WorkflowRef,
    description: 'Create a workflow (POST /workflows); dictionary administrators only.',
    args: { input: t.arg({ type: WorkflowInputRef, required: true }) },
    resolve: async (_, { input }, context) =>
      (await context.api.workflows.create(defined({ ...input, ...FULL }) as never)) as WorkflowShape,
  }),
  updateWorkflow: t.field({
    type: WorkflowRef,
    description:
      'Change some members of a workflow (PUT /workflows/partial/{id}); version required, 409 when stale.',
    args: {
      id: t.arg.int({ required: true }),
      version: t.arg.int({ required: true }),
      input: t.arg({ type: WorkflowInputRef, required: true }),
    },
    resolve: async (_, { id, version, input }, context) =>
      (await context.api.workflows.patch(
        defined({ ...input, id, version, ...FULL }) as never,
      )) as WorkflowShape,
  }),
}));
