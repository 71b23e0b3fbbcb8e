import { z } from 'zod';
import { JobResultSchema } from '../../shared/common.schema.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { JobStatuses } from './job-task.entity.js';

export const JobTaskSchema = z.object({
  id: z.number().int().describe('the jobTaskId an async-capable call answered'),
  type: z.string().describe('the operation, e.g. dictionaries.copy, sections.clear, users.delete'),
  status: z.enum(JobStatuses).describe('RUNNING, then DONE or FAILED (also after a server restart)'),
  processed: z.number().int().describe('units done so far (concepts, ids...)'),
  total: z.number().int().nullable().describe('units to do, when known'),
  result: JobResultSchema.nullable().describe('the InvocationResult result once DONE'),
  message: z.string().nullable().describe('why the job failed'),
  userId: z.number().int().nullable(),
  clientId: z.number().int(),
  created: z.number().int().describe('ms epoch'),
  finished: z.number().int().nullable().describe('ms epoch'),
});
export type JobTaskDto = z.infer<typeof JobTaskSchema>;

export const JobListInputSchema = z.object({
  size: listQueryShape.size,
  page: listQueryShape.page,
  status: z.enum(JobStatuses).optional(),
  'all-users': z
    .union([z.boolean(), z.stringbool()])
    .pipe(z.boolean())
    .default(false)
    .describe("administrators: every user's jobs of the client"),
});
export const JobPageSchema = pageSchema(JobTaskSchema);
