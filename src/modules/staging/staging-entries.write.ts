/**
 * Suggesting, editing, rejecting and accepting staged entries (docs/staging.md). Every decision is a
 * row of staging_decisions written in the same transaction as the entry's change; a decision on an
 * entry that is no longer PENDING is 409 (bulk calls count it as skipped). Accepting goes through the
 * import's run (staging-accept.ts).
 */

import { AppError, notFound, staleVersion } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { readableConcept } from '../concept/concept-access.js';
import { sql } from '../tbx/tbx-import-context.js';
import type { TbxMergeMode } from '../tbx/tbx-import-merge.js';
import type { TbxEntry } from '../tbx/tbx-model.js';
import { decide, isUniqueViolation } from './staging.entity.js';
import type {
  AcceptInput,
  AcceptResult,
  BulkAcceptInput,
  BulkRejectInput,
  RejectInput,
  RejectResult,
  StagedEntryDto,
  StagedEntryUpdateInput,
  SuggestInput,
} from './staging.schema.js';
import { acceptRows, type PendingRow } from './staging-accept.js';
import { type AreaRow, usableArea } from './staging-access.js';
import { planner } from './staging-diff.js';
import { entriesByIds, filterSql, visibleEntry } from './staging-entries.read.js';
import { entryFromContent } from './staging-entry-model.js';
import { entryFacts, insertStaged } from './staging-intake.js';
import { dropWaitingFor } from './staging-relations.js';

/** PENDING entries one bulk accept by filter takes (oldest first), to keep one request's transaction bounded. */
export const BULK_ACCEPT_MAX = 5000;

/** The entry id that merges into a concept by ENTRY_ID: its oid, else the id an export writes. */
async function conceptRef(scope: Scope, dictionaryId: number, conceptId: number): Promise<string> {
  const { concept } = await readableConcept(scope, conceptId);
  if (concept.dictionary.id !== dictionaryId) throw notFound('Concept', conceptId);
  return concept.oid ?? `concept-${concept.id}`;
}

/** Plans content for an area's dictionary: its facts and target; 400 for content the import would refuse. */
async function planned(scope: Scope, area: AreaRow, entry: TbxEntry, merge: TbxMergeMode) {
  const p = await planner(scope, area.dictionary_id, merge);
  const plan = p.plan(entry);
  if (plan.terms.length === 0) throw new AppError('BAD_REQUEST', 'entry: at least one term is required');
  if (p.ctx.errorCount) {
    throw new AppError('BAD_REQUEST', `entry: ${p.ctx.errors.map((error) => error.message).join('; ')}`);
  }
  return { ctx: p.ctx, plan, target: await p.target(plan) };
}

async function one(scope: Scope, id: number): Promise<StagedEntryDto> {
  const [dto] = await entriesByIds(scope, [id]);
  if (!dto) throw notFound('Staged entry', id);
  return dto;
}

/** A user proposes a new concept, or a change to one (conceptId): a PENDING suggestion of the area. */
export async function suggest(scope: Scope, input: SuggestInput): Promise<StagedEntryDto> {
  const { area } = await usableArea(scope, input.id);
  const entry = entryFromContent(input.entry);
  let merge = input.merge;
  if (input.conceptId !== undefined) {
    entry.id = await conceptRef(scope, area.dictionary_id, input.conceptId);
    merge = 'ENTRY_ID';
  }
  const { ctx, plan, target } = await planned(scope, area, entry, merge);
  const origin = { areaId: area.id, format: null, fileName: null, jobId: null };
  const [id] = await insertStaged(ctx, origin, [
    { entry, planned: plan, target, comment: input.comment ?? null, source: 'SUGGESTION' },
  ]);
  return one(scope, id!);
}

/** An entry the caller may change (PENDING: else 409; a reviewer or its author: else 403). */
async function changeable(scope: Scope, id: number, version: number | undefined) {
  const seen = await visibleEntry(scope, id);
  if (!seen.standing.review && seen.row.created_by_id !== scope.actor.userId) {
    throw new AppError('FORBIDDEN', "Only reviewers change other users' staged entries");
  }
  if (seen.row.status !== 'PENDING') {
    throw new AppError('CONFLICT', `Staged entry ${id} is ${seen.row.status} already`);
  }
  if (version !== undefined && version !== seen.row.version) throw staleVersion('Staged entry');
  return seen;
}

/** Edits a PENDING entry's content, note or target concept; records an EDITED decision. */
export async function updateEntry(scope: Scope, input: StagedEntryUpdateInput): Promise<StagedEntryDto> {
  const { row, area } = await changeable(scope, input.id, input.version);
  const previous = row.entry as TbxEntry;
  const entry = input.entry ? entryFromContent(input.entry, previous.line ?? 0) : (previous as TbxEntry);
  let merge = row.merge;
  if (input.conceptId === null) {
    entry.id = null;
    merge = 'NONE';
  } else if (input.conceptId !== undefined) {
    entry.id = await conceptRef(scope, area.dictionary_id, input.conceptId);
    merge = 'ENTRY_ID';
  }
  const { plan, target } = await planned(scope, area, entry, merge);
  const facts = entryFacts(plan);
  await decideOne(scope, area, row.id, row.version, async (em, locked) => {
    decide(em, locked, { decision: 'EDITED', merge }, scope.actor.userId);
    await sql(
      em,
      `update staged_entries set entry = ?::jsonb, merge = ?, target_concept_id = ?, label = ?,
         languages = ?::text[], terms_text = ?, comment = case when ? then ? else comment end, entry_id = ?,
         version = version + 1, changed_at = now()
       where id = ?`,
      [
        JSON.stringify(entry),
        merge,
        target,
        facts.label,
        facts.languages,
        facts.termsText,
        input.comment !== undefined,
        input.comment ?? null,
        entry.id?.slice(0, 255) ?? null,
        row.id,
      ],
    );
  });
  return one(scope, row.id);
}

/**
 * One decision on one entry, in a transaction of its own: the entry's row locked and read again (a
 * stale `version` is 409), then `change` records the decision through the StagingDecision entity's
 * invariant (staging.entity.ts decide: PENDING only, else 409) and changes the row. The unique index of
 * final decisions turns a race that slipped past into the same 409.
 */
async function decideOne(
  scope: Scope,
  area: AreaRow,
  id: number,
  version: number | undefined,
  change: (
    em: Scope['em'],
    locked: { id: number; status: string; stagingAreaId: number; clientId: number },
  ) => Promise<void>,
) {
  try {
    await scope.em.transactional(async (em) => {
      const [locked] = await sql<{ id: number; status: string; version: number }[]>(
        em,
        'select id, status, version from staged_entries where id = ? and staging_area_id = ? for update',
        [id, area.id],
      );
      if (!locked) throw notFound('Staged entry', id);
      if (version !== undefined && locked.status === 'PENDING' && version !== locked.version) {
        throw staleVersion('Staged entry');
      }
      await change(em, { ...locked, stagingAreaId: area.id, clientId: area.client_id });
      await em.flush();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `Staged entry ${id} was decided meanwhile`);
    throw error;
  }
}

/**
 * Marks PENDING entries REJECTED with their decisions; answers how many. The bulk path: one statement
 * for the entries and one for their decisions (up to every entry of an area), not a unit of work of
 * StagingDecision entities; the row's PENDING condition is the invariant here, checked in the update.
 */
async function rejectIds(scope: Scope, area: AreaRow, ids: readonly number[], reason: string | null) {
  return scope.em.transactional(async (em) => {
    const rejected = await sql<{ id: number }[]>(
      em,
      `update staged_entries set status = 'REJECTED', decided_at = now(), decided_by_id = ?,
         version = version + 1, changed_at = now()
       where id = any(?::int[]) and staging_area_id = ? and status = 'PENDING' returning id`,
      [scope.actor.userId, [...ids], area.id],
    );
    if (rejected.length) {
      await sql(
        em,
        `insert into staging_decisions (client_id, staging_area_id, staged_entry_id, decision, reason, decided_by_id)
         select ?, ?, x, 'REJECTED', ?, ? from unnest(?::int[]) as x order by x`,
        [scope.actor.clientId, area.id, reason, scope.actor.userId, rejected.map((r) => r.id)],
      );
      await dropWaitingFor(
        em,
        area,
        rejected.map((r) => r.id),
      );
    }
    return rejected.length;
  });
}

/** Rejects one entry (reviewers; its author withdraws it); not PENDING: 409. */
export async function rejectEntry(scope: Scope, input: RejectInput): Promise<StagedEntryDto> {
  const { row, area } = await changeable(scope, input.id, input.version);
  await decideOne(scope, area, row.id, input.version, async (em, locked) => {
    decide(em, locked, { decision: 'REJECTED', reason: input.reason ?? null }, scope.actor.userId);
    await sql(
      em,
      `update staged_entries set status = 'REJECTED', decided_at = now(), decided_by_id = ?,
         version = version + 1, changed_at = now() where id = ?`,
      [scope.actor.userId, row.id],
    );
    await dropWaitingFor(em, area, [row.id]);
  });
  return one(scope, row.id);
}

/** The PENDING entries a bulk call names (ids, or the list's filters). */
async function bulkIds(
  scope: Scope,
  area: AreaRow,
  input: Pick<BulkRejectInput, 'ids' | 'filter'>,
  limit: number | null = null,
) {
  if ((input.ids === undefined) === (input.filter === undefined)) {
    throw new AppError('BAD_REQUEST', 'Give either ids or filter');
  }
  if (input.ids) return { ids: [...new Set(input.ids)], named: new Set(input.ids).size };
  const filter = filterSql({ ...input.filter, status: 'PENDING' });
  const rows = await sql<{ id: number }[]>(
    scope.em,
    `select s.id from staged_entries s where s.staging_area_id = ? and s.client_id = ?
        ${filter.where.map((w) => `and ${w}`).join(' ')} order by s.created_at, s.id
        ${limit === null ? '' : `limit ${limit}`}`,
    [area.id, scope.actor.clientId, ...filter.params],
  );
  return { ids: rows.map((row) => row.id), named: rows.length };
}

/** Rejects many entries of an area (reviewers); those not PENDING are skipped. */
export async function rejectEntries(scope: Scope, input: BulkRejectInput): Promise<RejectResult> {
  const { area } = await usableArea(scope, input.id, true);
  const { ids, named } = await bulkIds(scope, area, input);
  const rejected = ids.length ? await rejectIds(scope, area, ids, input.reason ?? null) : 0;
  return { rejected, skipped: named - rejected };
}

/** Locks and reads PENDING entries of the area among ids (in the transaction of `em`). */
async function lockPending(em: Scope['em'], area: AreaRow, ids: readonly number[]) {
  return sql<(PendingRow & { version: number })[]>(
    em,
    `select id, status, merge, entry, entry_id, links, version from staged_entries
      where id = any(?::int[]) and staging_area_id = ? and status = 'PENDING' order by id for update`,
    [[...ids], area.id],
  );
}

/** Accepts one entry into the dictionary (reviewers); not PENDING: 409. */
export async function acceptEntry(scope: Scope, input: AcceptInput) {
  const { row, area, standing } = await visibleEntry(scope, input.id);
  if (!standing.review)
    throw new AppError('FORBIDDEN', "Only the dictionary's administrators accept entries");
  const result = await scope.em.transactional(async (em) => {
    const [locked] = await lockPending(em, area, [row.id]);
    if (!locked) throw new AppError('CONFLICT', `Staged entry ${row.id} is not PENDING`);
    if (input.version !== undefined && input.version !== locked.version) throw staleVersion('Staged entry');
    return acceptRows(scope, em, area, [locked], input);
  });
  return { entry: await one(scope, row.id), result };
}

/** Accepts many entries in one transaction (reviewers); those not PENDING are skipped. */
export async function acceptEntries(scope: Scope, input: BulkAcceptInput): Promise<AcceptResult> {
  const { area } = await usableArea(scope, input.id, true);
  // A request's statements are bounded in time: a filter takes the oldest BULK_ACCEPT_MAX; call again for more.
  const { ids, named } = await bulkIds(scope, area, input, BULK_ACCEPT_MAX);
  const result = await scope.em.transactional(async (em) => {
    const locked = await lockPending(em, area, ids);
    return acceptRows(scope, em, area, locked, input);
  });
  return { ...result, skipped: named - result.accepted };
}
