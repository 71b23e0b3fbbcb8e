/**
 * Jobs and the servers that run them. Several instances may share one database, so no instance may
 * fail a RUNNING job just because it did not start it. Instead each server refreshes the heartbeat of
 * the jobs it runs, and any server fails the RUNNING jobs whose heartbeat stopped: their server
 * stopped or died, and they can never finish.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredKeys } from '../idempotency/idempotency-keys.js';

/** How often a server refreshes its jobs' heartbeats and looks for abandoned jobs. */
export const JOB_HEARTBEAT_MS = 30_000;
/** A RUNNING job whose heartbeat is older than this has lost its server (four missed beats). */
export const JOB_ABANDONED_AFTER_MS = 120_000;

const ABANDONED_MESSAGE = 'Interrupted: the server running it stopped (restart or failure)';

/** The jobs this process runs, per database (tests run several apps in one process). */
const runningJobs = new WeakMap<object, Set<number>>();

export function jobsRunningOn(em: EntityManager): Set<number> {
  let jobs = runningJobs.get(em.config);
  if (!jobs) {
    jobs = new Set();
    runningJobs.set(em.config, jobs);
  }
  return jobs;
}

/**
 * Sets the heartbeat of running jobs to the database's now(): one clock for the beats and for
 * failAbandonedJobs, whatever the servers' clocks say.
 */
export async function beatNow(em: EntityManager, jobIds: readonly number[]): Promise<void> {
  if (jobIds.length === 0) return;
  await em.execute(`update job_tasks set heartbeat_at = now() where status = 'RUNNING' and id in (?)`, [
    [...jobIds],
  ]);
}

/**
 * Fails the RUNNING jobs no server has kept alive for `abandonedAfterMs` (a job from before
 * heartbeats counts from its creation); answers how many. Run at start-up and on every beat.
 */
export async function failAbandonedJobs(
  em: EntityManager,
  abandonedAfterMs = JOB_ABANDONED_AFTER_MS,
): Promise<number> {
  const rows = await em.execute<{ id: number }[]>(
    `update job_tasks set status = 'FAILED', message = ?, finished_at = now()
      where status = 'RUNNING'
        and coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ?)
      returning id`,
    [ABANDONED_MESSAGE, abandonedAfterMs / 1000],
  );
  return rows.length;
}

/**
 * One per process that runs jobs (a server, the TBX command line's database mode): keeps its jobs'
 * heartbeats fresh and fails the jobs whose process is gone.
 */
export class JobHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.beating = this.beat();
    }, JOB_HEARTBEAT_MS);
    this.timer.unref();
  }

  /** One beat: refresh this server's jobs, then fail abandoned ones. Never throws. */
  async beat(): Promise<void> {
    const em = this.orm.em.fork();
    try {
      await beatNow(em, [...jobsRunningOn(em)]);
      const failed = await failAbandonedJobs(em);
      if (failed > 0) this.log.warn({ jobs: failed }, 'jobs whose server stopped marked FAILED');
      // Every server beats: the cheapest place to drop Idempotency-Keys past their 24 hours.
      await deleteExpiredKeys(em);
    } catch (error) {
      // The next beat tries again; a job is failed only after several missed beats.
      this.log.warn({ err: error }, 'job heartbeat failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }
}
