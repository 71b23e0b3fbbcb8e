/**
 * Re-validation (docs/workflows.md): an approved entry whose workflow says "re-validate after N days"
 * goes back to the re-validation state when its time is up. Run by the workflow sweeper, and callable
 * directly (tests pass their own "now").
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Workflow } from './workflow.entity.js';
import { type BulkEntry, moveEntries } from './workflow-bulk.js';

const BATCH = 5_000;

/** Moves every entry due at `now`; answers how many moved. */
export async function revalidateDue(em: EntityManager, now: Date = new Date()): Promise<number> {
  const workflows = await em.find(Workflow, { enabled: true }, { filters: { tenant: false } });
  let moved = 0;
  for (const workflow of workflows) {
    const definition = workflow.definition;
    if (!definition.revalidateAfterDays) continue;
    const to = definition.revalidateState ?? definition.initialState;
    for (;;) {
      const count = await em.transactional(async (tx) => {
        const due = await tx.execute<BulkEntry[]>(
          // The table's id, not the text column of the same name (which would sort 999 after 1000).
          `select id::text as id, concept_id, language_code, term_id, state from workflow_entry_states
            where workflow_id = ? and revalidate_at <= ? and category = 'APPROVED'
            order by workflow_entry_states.id limit ? for update skip locked`,
          [workflow.id, now, BATCH],
        );
        await moveEntries(tx, workflow, due, {
          to,
          transition: null,
          comment: 'Re-validation due',
          userId: null,
        });
        return due.length;
      });
      moved += count;
      if (count < BATCH) break;
    }
  }
  return moved;
}
