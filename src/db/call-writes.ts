import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/**
 * What one procedure call has committed. A database that fails after the call's commit (reading the
 * created object back, waiting for a lock after it) must not answer 503 "nothing was written": the
 * error mapping reads `committed` (docs/reliability.md). `beforeFirstCommit` writes what must commit
 * with the call's change and nowhere else: its Idempotency-Key (src/modules/idempotency/).
 */
export interface CallWrites {
  committed: boolean;
  beforeFirstCommit?: (args: TransactionEventArgs) => Promise<void>;
}

const calls = new AsyncLocalStorage<CallWrites>();

/** Runs `work` with its own record of commits. */
export function trackWrites<T>(writes: CallWrites, work: () => T): T {
  return calls.run(writes, work);
}

/** The record of the procedure call under way, if any. */
export const currentWrites = (): CallWrites | undefined => calls.getStore();

/**
 * Sees every root transaction commit (MikroORM runs these hooks for em.transactional and for a flush
 * outside one, not for savepoints). Registered once for the ORM (orm.ts).
 */
export class CommitTracker implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const writes = calls.getStore();
    if (!writes || writes.committed || !writes.beforeFirstCommit) return;
    await writes.beforeFirstCommit(args);
  }

  async afterTransactionCommit(): Promise<void> {
    const writes = calls.getStore();
    if (writes) writes.committed = true;
  }
}
