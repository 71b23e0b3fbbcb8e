import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { dictionaryStatistics } from './dictionary-statistics.js';
import {
  DictionaryStatisticsQuerySchema,
  DictionaryStatisticsSchema,
  MonthQuerySchema,
  MonthStatisticsSchema,
  OnlineUserSchema,
  StatisticsQuerySchema,
  SummarySchema,
} from './statistics.schema.js';
import * as statistics from './statistics.service.js';

const tags = ['system'];
const description =
  'Administrators: the client of the token; with all-clients=true, system administrators get the whole ' +
  'installation (the parameter is ignored for others). Everyone else: 403.';

/** Statistics read the request counts of this server as written: pending ones are flushed first. */
const statisticsProcedure = authedProcedure.use(async ({ ctx, next }) => {
  await ctx.apiRequests.flush();
  return next();
});

export const statisticsRouter = router({
  summary: statisticsProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/statistics',
        tags,
        summary: 'Usage totals: visits, users, API users and requests, session time, install date',
        description,
        errorResponses: [400, 401, 403],
      },
    })
    .input(StatisticsQuerySchema)
    .output(SummarySchema)
    .query(({ ctx, input }) => statistics.statisticsSummary(ctx.scope, input)),

  month: statisticsProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/statistics/{year}/{month}',
        tags,
        summary: 'One month (UTC): totals, per-day averages and every login of the month',
        description,
        errorResponses: [400, 401, 403],
      },
    })
    .input(MonthQuerySchema)
    .output(MonthStatisticsSchema)
    .query(({ ctx, input }) => statistics.monthStatistics(ctx.scope, input)),

  onlineUsers: statisticsProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/statistics/online-users',
        tags,
        summary: 'Sessions online now (not ended, not expired)',
        description,
        errorResponses: [400, 401, 403],
      },
    })
    .input(StatisticsQuerySchema)
    .output(z.array(OnlineUserSchema))
    .query(({ ctx, input }) => statistics.onlineUsers(ctx.scope, input)),

  dictionary: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/statistics/dictionaries/{dictionaryId}',
        tags,
        summary: 'A dictionary: concepts, terms per language, and entries per workflow state',
        description:
          'Every reader of the dictionary, over the sections they read (404 for others). `workflow` is present ' +
          'while a workflow is enabled: its entries per state, per language for the LANGUAGE and TERM units ' +
          '(entries that never moved count in the initial state; the figures of GET /workflows/statistics).',
        errorResponses: [400, 401, 404],
      },
    })
    .input(DictionaryStatisticsQuerySchema)
    .output(DictionaryStatisticsSchema)
    .query(({ ctx, input }) => dictionaryStatistics(ctx.scope, input)),
});
