import type { JobResult } from '../../shared/common.schema.js';
import { notFound } from '../../shared/errors.js';
import { pageRequest, toPage } from '../../shared/paging.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import type { JobTaskDto } from './job.schema.js';
import { type JobStatus, JobTask } from './job-task.entity.js';

function toDto(job: JobTask): JobTaskDto {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    processed: job.processed,
    total: job.total ?? null,
    result: (job.result as JobResult | null) ?? null,
    message: job.message ?? null,
    userId: job.userId ?? null,
    clientId: job.clientId,
    created: job.createdAt.getTime(),
    finished: job.finishedAt?.getTime() ?? null,
  };
}

/** A job is visible to the user who started it and to the administrators of its client. */
function visibleWhere(scope: Scope, allUsers: boolean): { clientId: number; userId?: number } {
  if (allUsers && isClientAdmin(scope.actor)) return { clientId: scope.actor.clientId };
  return { clientId: scope.actor.clientId, userId: scope.actor.userId };
}

export async function getJob(scope: Scope, id: number): Promise<JobTaskDto> {
  const job = await scope.em.findOne(JobTask, { id, ...visibleWhere(scope, true) });
  if (!job || (!isClientAdmin(scope.actor) && job.userId !== scope.actor.userId))
    throw notFound('Job task', id);
  return toDto(job);
}

export async function listJobs(
  scope: Scope,
  input: { size?: number; page: number; status?: JobStatus; 'all-users': boolean },
) {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const where = {
    ...visibleWhere(scope, input['all-users']),
    ...(input.status ? { status: input.status } : {}),
  };
  const [jobs, total] = await scope.em.findAndCount(JobTask, where, {
    orderBy: { createdAt: 'DESC', id: 'DESC' },
    limit: request.size,
    offset: request.offset,
  });
  return toPage(jobs.map(toDto), total, request, 'created,DESC');
}
