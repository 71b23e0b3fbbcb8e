import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const JobStatuses = ['RUNNING', 'DONE', 'FAILED'] as const;
export type JobStatus = (typeof JobStatuses)[number];

/** An async-capable operation; kept in PostgreSQL so any instance can report on it and restarts lose nothing. */
export const JobTask = defineEntity({
  name: 'JobTask',
  tableName: 'job_tasks',
  properties: {
    id: p.integer().primary(),
    clientId: p.integer().index(),
    userId: p.integer().nullable(),
    type: p.string().length(64),
    status: p.enum([...JobStatuses]).default('RUNNING'),
    result: p.json<unknown>().nullable(),
    message: p.text().nullable(),
    /** Progress of long jobs (imports, copies): units done and, when known, the total. */
    processed: p.integer().default(0),
    total: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Refreshed while the job's server runs it (job-heartbeat.ts); null counts from createdAt. */
    heartbeatAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type JobTask = InferEntity<typeof JobTask>;
