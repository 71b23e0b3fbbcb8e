/**
 * Dictionary statistics over GraphQL: the procedure of GET /system/statistics/dictionaries/{id} (same
 * checks), with the entries per workflow state while a workflow is enabled (docs/workflows.md).
 */
import { builder } from '../../graphql/builder.js';
import type { DictionaryStatistics } from './statistics.schema.js';

type LanguageCount = DictionaryStatistics['languages'][number];
type WorkflowCounts = NonNullable<DictionaryStatistics['workflow']>;
type StateCount = WorkflowCounts['states'][number];

const LanguageCountRef = builder.objectRef<LanguageCount>('LanguageTermCount').implement({
  fields: (t) => ({ languageCode: t.exposeString('languageCode'), terms: t.exposeInt('terms') }),
});

const StateCountRef = builder.objectRef<StateCount>('WorkflowStateCount').implement({
  description: 'Entries in one workflow state (and language).',
  fields: (t) => ({
    state: t.exposeString('state'),
    name: t.exposeString('name'),
    category: t.exposeString('category'),
    languageCode: t.exposeString('languageCode', { nullable: true }),
    count: t.exposeInt('count'),
  }),
});

const WorkflowCountsRef = builder.objectRef<WorkflowCounts>('WorkflowStatistics').implement({
  fields: (t) => ({
    workflowId: t.exposeInt('workflowId'),
    unit: t.exposeString('unit'),
    states: t.field({ type: [StateCountRef], resolve: (counts) => counts.states }),
  }),
});

type FeedbackCounts = NonNullable<DictionaryStatistics['feedback']>;

const FeedbackCountsRef = builder.objectRef<FeedbackCounts>('FeedbackCounts').implement({
  description: 'Feedback on a dictionary that is not closed.',
  fields: (t) => ({ open: t.exposeInt('open'), answered: t.exposeInt('answered') }),
});

const DictionaryStatisticsRef = builder.objectRef<DictionaryStatistics>('DictionaryStatistics').implement({
  description: 'Counts of a dictionary over the sections you read.',
  fields: (t) => ({
    dictionaryId: t.exposeInt('dictionaryId'),
    concepts: t.exposeInt('concepts'),
    terms: t.exposeInt('terms'),
    languages: t.field({ type: [LanguageCountRef], resolve: (answer) => answer.languages }),
    workflow: t.field({
      type: WorkflowCountsRef,
      nullable: true,
      description: 'entries per workflow state; null while no workflow is enabled',
      resolve: (answer) => answer.workflow ?? null,
    }),
    feedback: t.field({
      type: FeedbackCountsRef,
      nullable: true,
      description: 'open and answered feedback; null unless you manage the dictionary’s feedback',
      resolve: (answer) => answer.feedback ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  dictionaryStatistics: t.field({
    type: DictionaryStatisticsRef,
    description: 'Concepts, terms per language and entries per workflow state of a dictionary.',
    args: { dictionaryId: t.arg.int({ required: true }) },
    resolve: (_, args, context) => context.api.statistics.dictionary({ dictionaryId: args.dictionaryId }),
  }),
}));
