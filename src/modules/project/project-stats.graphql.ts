/**
 * The typed objects of a project's progress and statistics over GraphQL (docs/projects.md, "Progress,
 * statistics, export"): the REST answers' members, field for field, instead of JSON scalars. Records
 * keyed by a value (state category → entries) become lists of {key, count}.
 */
import type { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import type { EntryStateSchema, ProjectStatisticsSchema } from './project.schema.js';

type Statistics = z.infer<typeof ProjectStatisticsSchema>;

export interface CategoryCount {
  category: string;
  count: number;
}
/** `{APPROVED: 3, DRAFT: 1}` as `[{category: 'APPROVED', count: 3}, …]`, by category. */
export const categoryCounts = (record: Record<string, number>): CategoryCount[] =>
  Object.entries(record)
    .map(([category, count]) => ({ category, count }))
    .sort((a, b) => a.category.localeCompare(b.category));

export const CategoryCountRef = builder.objectRef<CategoryCount>('ProjectCategoryCount').implement({
  description: 'Entries in a workflow state category (NONE: no workflow governs them).',
  fields: (t) => ({ category: t.exposeString('category'), count: t.exposeInt('count') }),
});

export const EntryStateRef = builder
  .objectRef<z.infer<typeof EntryStateSchema>>('ProjectEntryState')
  .implement({
    fields: (t) => ({
      languageCode: t.exposeString('languageCode', { nullable: true, description: 'null: the concept' }),
      state: t.exposeString('state', { nullable: true, description: 'null: no workflow governs it' }),
      category: t.exposeString('category', { nullable: true }),
    }),
  });

export const CandidateCountsRef = builder
  .objectRef<Record<'OPEN' | 'MERGED' | 'PROMOTED' | 'REJECTED', number>>('ProjectCandidateCounts')
  .implement({
    description: 'Candidates per status.',
    fields: (t) => ({
      open: t.int({ resolve: (c) => c.OPEN ?? 0 }),
      merged: t.int({ resolve: (c) => c.MERGED ?? 0 }),
      promoted: t.int({ resolve: (c) => c.PROMOTED ?? 0 }),
      rejected: t.int({ resolve: (c) => c.REJECTED ?? 0 }),
    }),
  });

export const LanguageProgressRef = builder
  .objectRef<{ languageCode: string; total: number; approved: number; withTerms: number }>(
    'ProjectLanguageProgress',
  )
  .implement({
    fields: (t) => ({
      languageCode: t.exposeString('languageCode'),
      total: t.exposeInt('total', { description: 'entries (concepts) in the language' }),
      approved: t.exposeInt('approved'),
      withTerms: t.exposeInt('withTerms', { description: 'concepts with a live term in the language' }),
    }),
  });

const StateCountRef = builder.objectRef<Statistics['byState'][number]>('ProjectStateCount').implement({
  fields: (t) => ({
    languageCode: t.exposeString('languageCode', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    count: t.exposeInt('count'),
  }),
});

const AssigneeStatisticsRef = builder
  .objectRef<Statistics['byAssignee'][number]>('ProjectAssigneeStatistics')
  .implement({
    fields: (t) => ({
      userId: t.exposeInt('userId', { nullable: true }),
      groupId: t.exposeInt('groupId', { nullable: true }),
      assignments: t.exposeInt('assignments'),
      total: t.exposeInt('total'),
      done: t.exposeInt('done'),
    }),
  });

const BurndownPointRef = builder.objectRef<Statistics['burndown'][number]>('ProjectBurndownPoint').implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD (UTC)' }),
    total: t.exposeInt('total'),
    remaining: t.exposeInt('remaining', { description: 'entries not yet approved or closed' }),
  }),
});

export const StatisticsRef = builder.objectRef<Statistics>('ProjectStatistics').implement({
  description: 'GET /projects/{id}/statistics',
  fields: (t) => ({
    projectId: t.exposeInt('projectId'),
    byState: t.field({ type: [StateCountRef], resolve: (s) => s.byState }),
    byAssignee: t.field({ type: [AssigneeStatisticsRef], resolve: (s) => s.byAssignee }),
    burndown: t.field({ type: [BurndownPointRef], resolve: (s) => s.burndown }),
  }),
});
