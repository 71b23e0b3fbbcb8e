import type { EntityManager } from '@mikro-orm/postgresql';
import { withStatementTimeout } from '../../db/timeouts.js';
import type { InvocationResult, JobResult } from '../../shared/common.schema.js';
import type { Scope } from '../../shared/scope.js';
import { searchRuntimeOf } from '../search/search-runtime.js';
import { beatNow, jobsRunningOn } from './job-heartbeat.js';
import { JobTask } from './job-task.entity.js';

export interface AsyncOutcome {
  body: InvocationResult;
  /** False when the job is still running and the caller got only its id. */
  finished: boolean;
}

export interface JobOptions {
  /**
   * Answer the jobTaskId as soon as the work's progress shows it will not end within the threshold,
   * instead of keeping the caller waiting for the whole threshold first (see `outlivesThreshold`).
   */
  answerWhenLate?: boolean;
}

/**
 * Runs an async-capable operation as a stored job task. The caller waits up to ASYNC_THRESHOLD_MS; a job
 * that finishes in time answers its result, a longer one answers its jobTaskId and keeps running.
 * The work gets its own entity manager, since it may outlive the request, and its own bound per statement
 * (DATABASE_JOB_STATEMENT_TIMEOUT_MS): imports, copies and reindexing run statements of minutes.
 */
export async function runAsJob(
  scope: Scope,
  type: string,
  work: (em: EntityManager, progress: JobProgress, jobId: number) => Promise<JobResult>,
  options: JobOptions = {},
): Promise<AsyncOutcome> {
  const jobEm = scope.em.fork();
  const job = jobEm.create(JobTask, {
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    type,
    createdAt: new Date(),
  });
  await jobEm.flush();

  // This server's heartbeat keeps the job alive until it ends (job-heartbeat.ts), on the database's clock.
  const running = jobsRunningOn(jobEm);
  running.add(job.id);
  await beatNow(jobEm, [job.id]);
  const threshold = scope.config.ASYNC_THRESHOLD_MS;
  let answerLate: () => void = () => {};
  const late = new Promise<'late'>((resolve) => {
    answerLate = () => resolve('late');
  });
  const progress = progressReporter(
    jobEm.fork(),
    job.id,
    options.answerWhenLate ? (pace) => outlivesThreshold(pace, threshold) && answerLate() : undefined,
  );
  const done = withStatementTimeout(scope.config.DATABASE_JOB_STATEMENT_TIMEOUT_MS, () =>
    work(jobEm.fork(), progress, job.id),
  ).then(
    async (result) => {
      // A job is done when its changes are searchable (or waiting in the outbox, if the index is down).
      await searchRuntimeOf(jobEm).settle();
      await jobEm.nativeUpdate(JobTask, { id: job.id }, { status: 'DONE', result, finishedAt: new Date() });
      return result;
    },
    async (error: unknown) => {
      scope.log.error({ err: error, jobTaskId: job.id }, 'job task failed');
      await jobEm.nativeUpdate(
        JobTask,
        { id: job.id },
        {
          status: 'FAILED',
          message: error instanceof Error ? error.message : String(error),
          finishedAt: new Date(),
        },
      );
      throw error;
    },
  );
  // Until its outcome is written: settling the search index may take a while after the work.
  void done.finally(() => running.delete(job.id)).catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), threshold);
  });
  try {
    const outcome = await Promise.race([done, timeout, late]);
    if (outcome === 'timeout' || outcome === 'late') {
      done.catch(() => {}); // logged above; the job row records the failure
      return { body: { jobTaskId: job.id }, finished: false };
    }
    return { body: { result: outcome }, finished: true };
  } finally {
    clearTimeout(timer);
  }
}

/** Lets a job report how far it got (processed of total); writes at most a few times a second. */
export type JobProgress = (processed: number, total?: number) => Promise<void>;

/** How far a job got after how long. */
interface JobPace {
  elapsedMs: number;
  processed: number;
  total: number | undefined;
}

/** The least work a forecast goes by: short jobs always answer their result, never a guess. */
const FORECAST_AFTER_MS = 1000;

/**
 * True when a job, going on at the pace it had so far, ends after the threshold: the caller would wait
 * the whole threshold only to get the jobTaskId. Judged after a second of work at least.
 */
export function outlivesThreshold(pace: JobPace, thresholdMs: number): boolean {
  const { elapsedMs, processed, total } = pace;
  if (total === undefined || processed <= 0 || elapsedMs < Math.min(FORECAST_AFTER_MS, thresholdMs))
    return false;
  return (elapsedMs / processed) * total > thresholdMs;
}

function progressReporter(em: EntityManager, jobId: number, onPace?: (pace: JobPace) => void): JobProgress {
  const started = Date.now();
  let lastWrite = 0;
  let knownTotal: number | undefined;
  return async (processed, total) => {
    if (total !== undefined) knownTotal = total;
    const now = Date.now();
    onPace?.({ elapsedMs: now - started, processed, total: knownTotal });
    if (now - lastWrite < 250 && processed !== knownTotal) return;
    lastWrite = now;
    await em.nativeUpdate(JobTask, { id: jobId }, { processed, total: knownTotal ?? null });
  };
}

/**
 * The async delete of the generic pattern: each id in its own transaction, each reporting its own
 * success, all as one job task. A few statements and a commit per id make a long list slow, so the
 * caller gets the jobTaskId as soon as the pace shows the job cannot end within the threshold.
 */
export function runForEachAsJob(
  scope: Scope,
  type: string,
  ids: readonly number[],
  each: (scope: Scope, id: number) => Promise<void>,
): Promise<AsyncOutcome> {
  return runAsJob(
    scope,
    type,
    async (em, progress) => {
      const result: Record<string, boolean> = {};
      for (const [index, id] of ids.entries()) {
        try {
          await em.transactional((tem) => each({ ...scope, em: tem }, id));
          result[id] = true;
        } catch {
          result[id] = false;
        }
        await progress(index + 1, ids.length);
      }
      return result;
    },
    { answerWhenLate: true },
  );
}

/**
 * The async delete done set-based: `decide` gets every id at once, in one transaction, and answers the
 * success of each (the ids it leaves out failed). A few statements whatever the number of ids, so
 * thousands of ids answer their result well within the threshold.
 */
export function runBulkAsJob(
  scope: Scope,
  type: string,
  ids: readonly number[],
  decide: (scope: Scope, ids: readonly number[]) => Promise<Iterable<number>>,
): Promise<AsyncOutcome> {
  return runAsJob(scope, type, async (em) => {
    const succeeded = new Set(await em.transactional((tem) => decide({ ...scope, em: tem }, ids)));
    return Object.fromEntries(ids.map((id) => [id, succeeded.has(id)]));
  });
}
