import { IdInput } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { JobListInputSchema, JobPageSchema, JobTaskSchema } from './job.schema.js';
import * as jobs from './job.service.js';

const tags = ['job tasks'];

export const jobRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/jobs',
        tags,
        summary: 'Your job tasks, newest first (administrators: all-users)',
      },
    })
    .input(JobListInputSchema)
    .output(JobPageSchema)
    .query(({ ctx, input }) => jobs.listJobs(ctx.scope, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/jobs/{id}',
        tags,
        summary: 'State, progress and result of a job task (the jobTaskId of an async answer)',
      },
    })
    .input(IdInput)
    .output(JobTaskSchema)
    .query(({ ctx, input }) => jobs.getJob(ctx.scope, input.id)),
});
