/**
 * Accepting staged entries (docs/staging.md): they go into the dictionary through the import's own run
 * (tbx-import-run.ts importEntries): planning, the merge mode's target, the merge, serials, history,
 * search outbox and workflow, in one transaction with the decisions. With a workflow state, every term
 * of an accepted entry starts there (as a TBX processStatus would place it). An entry the merge leaves
 * out (locked by another user's edit, a read-only state, a section one may not import into) stays
 * PENDING and is reported.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImportSummary } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { ImportContext, sql } from '../tbx/tbx-import-context.js';
import type { TbxMergeMode } from '../tbx/tbx-import-merge.js';
import type { PlannedConcept } from '../tbx/tbx-import-plan.js';
import { importEntries } from '../tbx/tbx-import-run.js';
import { importTarget } from '../tbx/tbx-import-target.js';
import type { TbxEntry } from '../tbx/tbx-model.js';
import { storedStatusMapping } from '../tbx/tbx-settings.js';
import { effectiveMapping } from '../tbx/tbx-status-mapping.js';
import type { WorkflowState } from '../workflow/workflow-definition.js';
import { enabledWorkflows } from '../workflow/workflow-effects.js';
import type { AcceptResult } from './staging.schema.js';
import type { AreaRow } from './staging-access.js';
import { reviveEntry } from './staging-entry-model.js';
import type { StagedLink } from './staging-intake.js';
import { acceptedRelations } from './staging-relations.js';

/** A staged entry as accepting reads it (locked). */
export interface PendingRow {
  id: number;
  status: string;
  merge: TbxMergeMode;
  entry: TbxEntry;
  entry_id: string | null;
  links: StagedLink[] | null;
}

/** The workflow state accepted entries start in; 400 for an unknown one or a dictionary without a workflow. */
export async function chosenState(
  em: EntityManager,
  dictionaryId: number,
  key: string | undefined,
): Promise<WorkflowState | null> {
  if (key === undefined) return null;
  const workflow = (await enabledWorkflows(em, [dictionaryId])).get(dictionaryId);
  if (!workflow) throw new AppError('BAD_REQUEST', 'workflowState: the dictionary has no enabled workflow');
  const state = workflow.definition.states.find((s) => s.key === key);
  if (!state) {
    const known = workflow.definition.states.map((s) => s.key).join(', ');
    throw new AppError('BAD_REQUEST', `workflowState "${key}" is no state of the workflow (${known})`);
  }
  return state;
}

/**
 * Entry and value lines become the staged entry's id, so the merge's reports (made at a line) name the
 * staged entry they are about.
 */
function numbered(row: PendingRow): TbxEntry {
  const entry = reviveEntry(row.entry);
  const at = <V extends { line?: number }>(value: V): V => ({ ...value, line: row.id });
  return {
    ...entry,
    line: row.id,
    values: entry.values.map(at),
    languages: entry.languages.map((language) => ({
      ...language,
      values: language.values.map(at),
      terms: language.terms.map((term) => ({ ...at(term), values: term.values.map(at) })),
    })),
    notKept: entry.notKept?.map(at),
  };
}

/**
 * Accepts PENDING entries (locked by the caller, in `em`'s transaction) into the area's dictionary:
 * one import run per merge mode. Answers what was written and what stayed PENDING.
 */
export async function acceptRows(
  scope: Scope,
  em: EntityManager,
  area: AreaRow,
  rows: readonly PendingRow[],
  options: { merge?: TbxMergeMode; workflowState?: string },
): Promise<AcceptResult> {
  const state = await chosenState(em, area.dictionary_id, options.workflowState);
  const byMerge = new Map<TbxMergeMode, PendingRow[]>();
  for (const row of rows) {
    const merge = options.merge ?? row.merge;
    byMerge.set(merge, [...(byMerge.get(merge) ?? []), row]);
  }
  const written = new Map<number, number>();
  const errors: AcceptResult['errors'] = [];
  const total: ImportSummary = {
    dictionaryId: area.dictionary_id,
    concepts: 0,
    terms: 0,
    updated: 0,
    skipped: 0,
    errors: [],
    errorCount: 0,
  };
  for (const [merge, group] of byMerge) {
    // The caller's rights to import there (CONCEPT_IMPORT), as for any import; new concepts go to the first section.
    const target = await importTarget(scope, { dictionaryId: area.dictionary_id, merge });
    if (target.kind !== 'existing') throw new AppError('BAD_REQUEST', 'No dictionary to accept into');
    const ctx = new ImportContext(scope, em, target, merge);
    ctx.statusMapping = effectiveMapping(await storedStatusMapping(em, ctx.dictionaryId));
    const summary = await importEntries<PendingRow>(
      ctx,
      {
        items: group,
        total: group.length,
        nordic: false,
        entryOf: numbered,
        adjust: (planned: PlannedConcept) => {
          if (state) for (const term of planned.terms) term.state = state;
        },
        written: (row, planned) => {
          if (planned.writtenId !== undefined) written.set(row.id, planned.writtenId);
        },
        // The import's relation step, on the entries accepted now and on links that waited for them.
        finish: (ctx) =>
          acceptedRelations(
            ctx,
            area,
            group.flatMap((row) => {
              const conceptId = written.get(row.id);
              return conceptId === undefined
                ? []
                : [{ id: row.id, entryId: row.entry_id, links: row.links, conceptId }];
            }),
          ),
      },
      async () => {},
    );
    total.concepts += summary.concepts;
    total.terms += summary.terms;
    total.updated += summary.updated;
    total.skipped += summary.skipped;
    total.errorCount += summary.errorCount;
    total.errors.push(...summary.errors);
    for (const error of summary.errors) {
      errors.push({
        stagedEntryId: group.some((row) => row.id === error.line) ? error.line : null,
        ...error,
      });
    }
  }
  const accepted = rows.filter((row) => written.has(row.id));
  if (accepted.length) {
    const records = accepted.map((row) => ({ id: row.id, concept_id: written.get(row.id)! }));
    await sql(
      em,
      `update staged_entries s set status = 'ACCEPTED', concept_id = x.concept_id, decided_at = now(),
         decided_by_id = ?, changed_at = now(), version = s.version + 1
       from jsonb_to_recordset(?::jsonb) as x(id int, concept_id int) where s.id = x.id`,
      [scope.actor.userId, JSON.stringify(records)],
    );
    // Set-based, not StagingDecision entities: one accept takes up to 5,000 entries in the import's run.
    // The entries are locked PENDING by the caller (the invariant of staging.entity.ts decide), and the
    // unique index of final decisions holds it in the database.
    await sql(
      em,
      `insert into staging_decisions (client_id, staging_area_id, staged_entry_id, decision, concept_id,
         workflow_state, merge, decided_by_id)
       select ?, ?, x.id, 'ACCEPTED', x.concept_id, ?, s.merge_used, ?
         from jsonb_to_recordset(?::jsonb) as x(id int, concept_id int)
         cross join lateral (select coalesce(?::text, e.merge) as merge_used from staged_entries e where e.id = x.id) s
        order by x.id`,
      [
        scope.actor.clientId,
        area.id,
        state?.key ?? null,
        scope.actor.userId,
        JSON.stringify(records),
        options.merge ?? null,
      ],
    );
  }
  return {
    accepted: accepted.length,
    skipped: rows.length - accepted.length,
    conceptIds: [...new Set(accepted.map((row) => written.get(row.id)!))],
    errors: errors.map(({ stagedEntryId, message }) => ({ stagedEntryId, message })),
    result: total,
  };
}
