/**
 * Read-only workflow states in a TBX merge (docs/workflows.md, TBX): what an API edit refuses with 403
 * (workflow-edit.ts), a merge leaves as it is and reports at the entry's line. The states of the merge
 * targets' entries are read once per batch, before the merge, and only when the workflow has a
 * read-only state; an entry without a stored state is in the initial state.
 */
import type { WorkflowState } from '../workflow/workflow-definition.js';
import type { GoverningWorkflow } from '../workflow/workflow-effects.js';
import { type ImportContext, sql } from './tbx-import-context.js';

/** The entries of some merge targets that were in read-only states before the merge. */
export class ReadOnlyEntries {
  private constructor(
    private readonly workflow: GoverningWorkflow,
    private readonly conceptIds: ReadonlySet<number>,
    /** Stored states by entry key: the read-only ones (all of them when the initial state is read-only). */
    private readonly stored: ReadonlyMap<string, string>,
    /** The initial state when it is read-only: then entries without a stored state are read-only too. */
    private readonly initial: WorkflowState | null,
  ) {}

  /** One statement for the targets' entries; null (and no statement) when no state is read-only. */
  static async read(
    ctx: ImportContext,
    workflow: GoverningWorkflow,
    conceptIds: readonly number[],
  ): Promise<ReadOnlyEntries | null> {
    const { states, initialState } = workflow.definition;
    const readOnly = states.filter((state) => state.readOnly).map((state) => state.key);
    if (readOnly.length === 0 || conceptIds.length === 0) return null;
    const initial = states.find((state) => state.key === initialState && state.readOnly) ?? null;
    const rows = await sql<{ concept_id: number; language_code: string; term_id: number; state: string }[]>(
      ctx.em,
      `select concept_id, language_code, term_id, state from workflow_entry_states
        where workflow_id = ? and concept_id = any(?::int[]) and (?::boolean or state = any(?::text[]))`,
      [workflow.id, `{${conceptIds.join(',')}}`, initial !== null, `{${readOnly.join(',')}}`],
    );
    const stored = new Map(
      rows.map((row) => [`${row.concept_id}|${row.language_code}|${row.term_id}`, row.state]),
    );
    return new ReadOnlyEntries(workflow, new Set(conceptIds), stored, initial);
  }

  /**
   * The read-only state the entry of a term was in (by the unit: the concept, the term's language or
   * the term; termId 0 for a term not written yet), or null.
   */
  of(conceptId: number, languageCode: string, termId: number): WorkflowState | null {
    if (!this.conceptIds.has(conceptId)) return null;
    const { unit, definition } = this.workflow;
    const key = `${conceptId}|${unit === 'CONCEPT' ? '' : languageCode}|${unit === 'TERM' ? termId : 0}`;
    const state = this.stored.get(key);
    if (state === undefined) return this.initial;
    return definition.states.find((s) => s.key === state && s.readOnly) ?? null;
  }
}

/** The summary line of a change a read-only entry kept out. */
export function readOnlyMessage(
  state: WorkflowState,
  what: { conceptId: number; term?: { name: string; languageCode: string }; language?: string },
  skipped: string,
): string {
  const subject = what.term
    ? `Term "${what.term.name}" (${what.term.languageCode}) of concept ${what.conceptId}`
    : what.language
      ? `Language ${what.language} of concept ${what.conceptId}`
      : `Concept ${what.conceptId}`;
  return `${subject}: its workflow entry is in the read-only state "${state.name}" (${state.key}); ${skipped}`;
}
