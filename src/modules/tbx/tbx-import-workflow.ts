/**
 * TBX import under a workflow (docs/workflows.md, TBX): when the dictionary has an enabled workflow, a
 * term's `processStatus` is not stored as a field value but sets the state of the term's entry (the
 * term, its language or its concept, by the workflow's unit) to the workflow's first state with that
 * processStatus. A value that matches no state is an error of the file at its line. States are written
 * per batch with one set-based statement in the import's transaction; each entry that moved gets its
 * transition log row and WORKFLOW history change ("imported into state X from processStatus Y").
 * Approved entries a merge changes re-open as after an edit through the API (unless the file sets their
 * processStatus), their WORKFLOW changes inside the merge's history item of the concept. Entries that
 * were in read-only states before a merge keep their terms (tbx-import-merge.ts) and their state: a
 * processStatus does not move them, and says so.
 */
import type { HistoryChange } from '../history/history.types.js';
import { stateOf, type WorkflowState } from '../workflow/workflow-definition.js';
import { enabledWorkflows, type GoverningWorkflow } from '../workflow/workflow-effects.js';
import { type RecordedMove, recordMoves } from '../workflow/workflow-history.js';
import { type ImportContext, sql } from './tbx-import-context.js';
import type { PlannedConcept } from './tbx-import-plan.js';
import { ReadOnlyEntries, readOnlyMessage } from './tbx-import-readonly.js';
import { categoryOf, NOTE } from './tbx-mapping.js';
import type { TbxValue } from './tbx-model.js';

const PROCESS_STATUS = 'processstatus';

/** An entry the import placed into another state than it was in. */
interface MovedEntry {
  id: string;
  concept_id: number;
  language_code: string;
  term_id: number;
  state: string;
  from_state: string;
}

const REOPENED = 'Re-opened by a TBX import that changed it';

export class ImportWorkflow {
  /** The read-only entries of the batch's merge targets, read before the merge (none: no read-only state). */
  private readOnly: ReadOnlyEntries | null = null;

  private constructor(private readonly workflow: GoverningWorkflow) {}

  get unit() {
    return this.workflow.unit;
  }

  /** Reads which entries of the concepts a batch merges into are read-only (kept for write()). */
  async readOnlyBefore(ctx: ImportContext, conceptIds: readonly number[]): Promise<ReadOnlyEntries | null> {
    this.readOnly = await ReadOnlyEntries.read(ctx, this.workflow, conceptIds);
    return this.readOnly;
  }

  /** The dictionary's enabled workflow, or null (processStatus is then an ordinary field value). */
  static async load(ctx: ImportContext): Promise<ImportWorkflow | null> {
    const workflow = (await enabledWorkflows(ctx.em, [ctx.dictionaryId])).get(ctx.dictionaryId);
    return workflow ? new ImportWorkflow(workflow) : null;
  }

  /**
   * The processStatus a value carries, which the workflow takes instead of a field: a
   * `<termNote type="processStatus">`, or the `<note>processStatus: …</note>` a TBX-Basic export writes
   * (TBX-Basic has no processStatus category). Null: an ordinary value.
   */
  claim(value: TbxValue): TbxValue | null {
    if (value.component !== undefined) return null;
    if (value.category.toLowerCase() === PROCESS_STATUS) return value;
    const note = categoryOf(value) === NOTE;
    const basic = /^processStatus: (\S+)$/.exec(note ? value.value.trim() : '');
    return basic ? { ...value, value: basic[1]! } : null;
  }

  /** The state a processStatus value maps to: the first with it; null (reported) when none has it. */
  stateFor(ctx: ImportContext, value: TbxValue, line: number): WorkflowState | null {
    const wanted = value.value.trim();
    const state = this.workflow.definition.states.find(
      (s) => s.processStatus !== null && s.processStatus.toLowerCase() === wanted.toLowerCase(),
    );
    if (!state) {
      const known = [
        ...new Set(
          this.workflow.definition.states.flatMap((s) => (s.processStatus ? [s.processStatus] : [])),
        ),
      ];
      ctx.error(
        value.line ?? line,
        `processStatus "${wanted}" matches no state of the dictionary's workflow (${known.join(', ') || 'none has one'}); the entry keeps its state`,
      );
    }
    return state ?? null;
  }

  /**
   * Writes the states of a written batch's entries in one statement (first term of a unit wins when
   * several carry a processStatus). An entry's state row is created or replaced.
   */
  async write(ctx: ImportContext, batch: readonly PlannedConcept[]): Promise<void> {
    const rows = this.placements(ctx, batch, true);
    this.readOnly = null;
    const placing = [...rows.values()].filter((row) => row !== null);
    const placed = placing.length ? await this.place(ctx, placing) : [];
    await this.log(ctx, placed);
  }

  /**
   * The merge's re-opening (reopen), before its history items are written: answers the WORKFLOW changes
   * of each concept's item (as an API edit's item holds them), the transitions logged by the same statement.
   */
  async reopenMerged(
    ctx: ImportContext,
    merged: readonly PlannedConcept[],
  ): Promise<Map<number, HistoryChange[]>> {
    const changes = new Map<number, HistoryChange[]>();
    if (!merged.some((concept) => concept.edited)) return changes;
    for (const entry of await this.reopen(ctx, merged, this.placements(ctx, merged, false))) {
      const list = changes.get(entry.concept_id) ?? [];
      list.push({
        kind: 'CHANGED',
        subject: 'WORKFLOW',
        ...(entry.term_id ? { termId: entry.term_id } : {}),
        before: { state: entry.from_state },
        after: { state: entry.state, languageCode: entry.language_code || undefined, comment: REOPENED },
      });
      changes.set(entry.concept_id, list);
    }
    return changes;
  }

  /**
   * The entries of written concepts a processStatus places (null: read-only before the merge, kept;
   * reported when `report`), first term of a unit winning.
   */
  private placements(ctx: ImportContext, batch: readonly PlannedConcept[], report: boolean) {
    const { unit } = this.workflow;
    const rows = new Map<
      string,
      { concept_id: number; language_code: string; term_id: number; state: string; category: string } | null
    >();
    for (const concept of batch) {
      if (concept.writtenId === undefined) continue;
      for (const term of concept.terms) {
        if (!term.state || term.writtenId === undefined) continue;
        const languageCode = unit === 'CONCEPT' ? '' : term.languageCode;
        const termId = unit === 'TERM' ? term.writtenId : 0;
        const key = `${concept.writtenId}|${languageCode}|${termId}`;
        if (rows.has(key)) continue;
        // An entry read-only before the merge keeps its state (placing one there is no edit of it).
        const locked = this.readOnly?.of(concept.writtenId, term.languageCode, term.writtenId);
        if (locked) {
          rows.set(key, null);
          if (report && locked.key !== term.state.key) {
            const what = { conceptId: concept.writtenId, ...(unit === 'CONCEPT' ? {} : { term }) };
            ctx.error(
              concept.line,
              readOnlyMessage(locked, what, `its processStatus (state "${term.state.key}") was not applied`),
            );
          }
          continue;
        }
        rows.set(key, {
          concept_id: concept.writtenId,
          language_code: languageCode,
          term_id: termId,
          state: term.state.key,
          category: term.state.category,
        });
      }
    }
    return rows;
  }

  /** Places entries into the states their processStatus names (created or replaced); answers those that moved. */
  private async place(
    ctx: ImportContext,
    rows: readonly {
      concept_id: number;
      language_code: string;
      term_id: number;
      state: string;
      category: string;
    }[],
  ): Promise<MovedEntry[]> {
    const revalidate = this.workflow.definition.revalidateAfterDays;
    // The states before (read in the same snapshot as the upsert) tell which entries really moved.
    return sql<MovedEntry[]>(
      ctx.em,
      `with x as (
         select * from json_to_recordset(?::json) as x(concept_id int, language_code text, term_id int, state text, category text)
       ), old as (
         select e.concept_id, e.language_code, e.term_id, e.state from workflow_entry_states e
           join x on x.concept_id = e.concept_id and x.language_code = e.language_code and x.term_id = e.term_id
          where e.workflow_id = ?
       ), placed as (
         insert into workflow_entry_states (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id, state, category, version, entered_by_id, revalidate_at)
         select ?, ?, ?, x.concept_id, x.language_code, x.term_id, x.state, x.category, 1, ?,
                case when x.category = 'APPROVED' and ?::int is not null then now() + make_interval(days => ?::int) end
           from x
         on conflict (workflow_id, concept_id, language_code, term_id) do update
           set state = excluded.state, category = excluded.category, entered_at = now(), entered_by_id = excluded.entered_by_id,
               revalidate_at = excluded.revalidate_at,
               version = workflow_entry_states.version + 1
         where workflow_entry_states.state <> excluded.state
         returning id, concept_id, language_code, term_id, state
       )
       select p.id::text as id, p.concept_id, p.language_code, p.term_id, p.state, coalesce(o.state, ?) as from_state
         from placed p left join old o
           on o.concept_id = p.concept_id and o.language_code = p.language_code and o.term_id = p.term_id
        where p.state <> coalesce(o.state, ?)`,
      [
        JSON.stringify(rows),
        this.workflow.id,
        ctx.clientId,
        ctx.dictionaryId,
        this.workflow.id,
        ctx.scope.actor.userId,
        revalidate,
        revalidate,
        this.workflow.definition.initialState,
        this.workflow.definition.initialState,
      ],
    );
  }

  /**
   * What an edit through the API does to approved entries (workflow-edit.ts), for the entries a merge
   * changed (by the unit: the concept, the languages or the terms changed): unless the workflow keeps
   * approvals, those in an approved state re-open (one statement per batch; their votes go, their
   * transition rows are written). Entries whose processStatus the file sets are placed by it instead.
   * No notifications, as for an API edit.
   */
  private async reopen(
    ctx: ImportContext,
    batch: readonly PlannedConcept[],
    placed: ReadonlyMap<string, unknown>,
  ): Promise<MovedEntry[]> {
    const { definition, unit } = this.workflow;
    if (definition.onEditOfApproved === 'KEEP') return [];
    const keys = new Map<string, { concept_id: number; language_code: string; term_id: number }>();
    for (const concept of batch) {
      if (concept.writtenId === undefined || !concept.edited) continue;
      const touched =
        unit === 'CONCEPT'
          ? [{ languageCode: '', termId: 0 }]
          : concept.edited.map((term) => ({
              languageCode: term.languageCode,
              termId: unit === 'TERM' ? term.termId : 0,
            }));
      for (const { languageCode, termId } of touched) {
        const key = `${concept.writtenId}|${languageCode}|${termId}`;
        if (placed.has(key)) continue;
        keys.set(key, { concept_id: concept.writtenId, language_code: languageCode, term_id: termId });
      }
    }
    if (keys.size === 0) return [];
    const approved = definition.states.filter((state) => state.category === 'APPROVED').map((s) => s.key);
    const to = stateOf(definition, definition.reopenState ?? definition.initialState);
    return sql<MovedEntry[]>(
      ctx.em,
      `with x as (
         select * from json_to_recordset(?::json) as x(concept_id int, language_code text, term_id int)
       ), old as (
         select e.id, e.concept_id, e.language_code, e.term_id, e.state from workflow_entry_states e
           join x on x.concept_id = e.concept_id and x.language_code = e.language_code and x.term_id = e.term_id
          where e.workflow_id = ? and e.state = any(?::text[])
          for update of e
       ), moved as (
         update workflow_entry_states e set state = ?, category = ?, version = e.version + 1, entered_at = now(),
                entered_by_id = ?, revalidate_at = null
           from old where e.id = old.id
       ), votes as (
         delete from workflow_votes v using old where v.entry_state_id = old.id
       ), logged as (
         insert into workflow_transitions (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id,
                                           transition, from_state, to_state, user_id, comment)
         select ?, ?, ?, old.concept_id, old.language_code, old.term_id, null, old.state, ?, ?, ? from old
       )
       select old.id::text as id, old.concept_id, old.language_code, old.term_id, ?::text as state,
              old.state as from_state
         from old`,
      [
        JSON.stringify([...keys.values()]),
        this.workflow.id,
        `{${approved.join(',')}}`,
        to.key,
        to.category,
        ctx.scope.actor.userId,
        ctx.clientId,
        ctx.dictionaryId,
        this.workflow.id,
        to.key,
        ctx.scope.actor.userId,
        REOPENED,
        to.key,
      ],
    );
  }

  /**
   * The transition log and concept history of the entries an import moved (docs/workflows.md): one
   * transition row and one WORKFLOW history change per entry, "imported into state X from processStatus
   * Y", written by the set-based statement of every workflow move (a round per entry of one concept).
   */
  private async log(ctx: ImportContext, moved: readonly MovedEntry[]): Promise<void> {
    if (moved.length === 0) return;
    const rounds: RecordedMove[][] = [];
    const seen = new Map<number, number>();
    for (const entry of moved) {
      const round = seen.get(entry.concept_id) ?? 0;
      seen.set(entry.concept_id, round + 1);
      const state = stateOf(this.workflow.definition, entry.state);
      if (!rounds[round]) rounds[round] = [];
      rounds[round].push({
        entryStateId: entry.id,
        conceptId: entry.concept_id,
        languageCode: entry.language_code,
        termId: entry.term_id,
        transition: null,
        fromState: entry.from_state,
        toState: entry.state,
        comment: `Imported into state ${state.key} from processStatus ${state.processStatus} (TBX import)`,
      });
    }
    const target = {
      clientId: ctx.clientId,
      dictionaryId: ctx.dictionaryId,
      workflowId: this.workflow.id,
      userId: ctx.scope.actor.userId,
    };
    for (const round of rounds) await recordMoves(ctx.em, target, round);
  }
}
