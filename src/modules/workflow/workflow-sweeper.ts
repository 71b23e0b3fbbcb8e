/**
 * The workflow's background round, once a minute on every server: entries due for re-validation move,
 * and queued e-mail goes out (both claim their rows, so servers side by side do not repeat each other).
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { queueOverdueAssignments, recordDailySnapshots } from '../project/project-sweep.js'; // projects
import { sendPendingMail } from './workflow-mail.js';
import { revalidateDue } from './workflow-revalidation.js';

export const WORKFLOW_SWEEP_MS = 60_000;

/** The sweeper of each ORM (by its config, as search runtimes are found), for requests to wake it. */
const sweepers = new WeakMap<object, WorkflowSweeper>();

/** Starts a round of the sweeper of this entity manager's server, if it has one, without waiting. */
export function wakeWorkflowSweeper(em: EntityManager): void {
  void sweepers.get(em.config)?.sweep();
}

export class WorkflowSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    sweepers.set(orm.config, this);
  }

  start(): void {
    this.timer = setInterval(() => void this.sweep(), WORKFLOW_SWEEP_MS);
    this.timer.unref();
  }

  /** One round now (also after a transition that queued mail, so "at once" does not wait a minute). */
  sweep(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        const em = this.orm.em.fork();
        await revalidateDue(em);
        await queueOverdueAssignments(em); // projects
        await recordDailySnapshots(em); // projects
        await sendPendingMail(em, this.config, this.log);
      } catch (error) {
        this.log.warn({ err: error }, 'workflow sweep failed; the next round retries');
      }
    });
    return this.running;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
