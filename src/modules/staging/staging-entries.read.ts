/**
 * Reading staged entries (docs/staging.md): the list with its filters and sorts, one entry with the
 * concept it would change and the difference, and the decisions. Reviewers see every entry of an area;
 * other users of it see the entries they made. Names, the latest decision and counts come in the same
 * query as the rows (no query per entry).
 */

import { notFound } from '../../shared/errors.js';
import { pageRequest, parseSort, toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { sql } from '../tbx/tbx-import-context.js';
import type {
  DecisionListInput,
  StagedEntryDetail,
  StagedEntryDto,
  StagedEntryFilter,
  StagedEntryListInput,
  StagingDecisionDto,
} from './staging.schema.js';
import { type AreaRow, type DictionaryStanding, usableArea } from './staging-access.js';
import { reviewOf } from './staging-diff.js';
import { reviveEntry } from './staging-entry-model.js';

const ENTRY_SORTS = {
  created: 's.created_at',
  changed: 's.changed_at',
  status: 's.status',
  label: 'lower(s.label)',
} as const;

export interface EntryRow {
  id: number;
  version: number;
  staging_area_id: number;
  dictionary_id: number;
  status: StagedEntryDto['status'];
  source: StagedEntryDto['source'];
  format: string | null;
  import_job_id: number | null;
  file_name: string | null;
  line: number | null;
  entry_id: string | null;
  target_concept_id: number | null;
  merge: StagedEntryDto['merge'];
  label: string;
  languages: string[];
  comment: string | null;
  entry: unknown;
  created_by_id: number | null;
  created_by_name: string | null;
  created_at: Date;
  changed_at: Date;
  d_id: number | null;
  d_decision: StagingDecisionDto['decision'] | null;
  d_reason: string | null;
  d_concept_id: number | null;
  d_workflow_state: string | null;
  d_merge: StagedEntryDto['merge'] | null;
  d_by_id: number | null;
  d_by_name: string | null;
  d_at: Date | null;
}

const ENTRY_SELECT = `select s.id, s.version, s.staging_area_id, s.dictionary_id, s.status, s.source, s.format,
    s.import_job_id, s.file_name, s.line, s.entry_id, s.target_concept_id, s.merge, s.label, s.languages,
    s.comment, s.entry, s.created_by_id, coalesce(u.full_name, u.username) as created_by_name,
    s.created_at, s.changed_at, d.id as d_id, d.decision as d_decision, d.reason as d_reason,
    d.concept_id as d_concept_id, d.workflow_state as d_workflow_state, d.merge as d_merge,
    d.decided_by_id as d_by_id, coalesce(du.full_name, du.username) as d_by_name, d.decided_at as d_at
  from staged_entries s
  left join users u on u.id = s.created_by_id
  left join lateral (
    select * from staging_decisions x where x.staged_entry_id = s.id order by x.decided_at desc, x.id desc limit 1
  ) d on true
  left join users du on du.id = d.decided_by_id`;

const ms = (date: Date) => new Date(date).getTime();

/** The caller may change the entry: PENDING, and a reviewer or its author. */
const mayEdit = (
  scope: Scope,
  row: Pick<EntryRow, 'status' | 'created_by_id'>,
  standing: DictionaryStanding,
) => row.status === 'PENDING' && (standing.review || row.created_by_id === scope.actor.userId);

export function entryDto(scope: Scope, row: EntryRow, standing: DictionaryStanding): StagedEntryDto {
  const entry = reviveEntry(row.entry);
  return {
    id: row.id,
    version: row.version,
    stagingAreaId: row.staging_area_id,
    dictionaryId: row.dictionary_id,
    status: row.status,
    source: row.source,
    format: row.format,
    importJobId: row.import_job_id,
    fileName: row.file_name,
    line: row.line,
    entryId: row.entry_id,
    targetConceptId: row.target_concept_id,
    merge: row.merge,
    label: row.label,
    languages: row.languages,
    comment: row.comment,
    entry: {
      id: entry.id,
      values: entry.values,
      languages: entry.languages.map((language) => ({
        lang: language.lang,
        values: language.values,
        terms: language.terms.map((term) => ({ id: term.id, term: term.term, values: term.values })),
      })),
    },
    createdBy: row.created_by_id === null ? null : { id: row.created_by_id, name: row.created_by_name ?? '' },
    created: ms(row.created_at),
    changed: ms(row.changed_at),
    decision:
      row.d_id === null
        ? null
        : {
            id: row.d_id,
            stagedEntryId: row.id,
            entryLabel: row.label,
            decision: row.d_decision!,
            reason: row.d_reason,
            conceptId: row.d_concept_id,
            workflowState: row.d_workflow_state,
            merge: row.d_merge,
            decidedBy: row.d_by_id === null ? null : { id: row.d_by_id, name: row.d_by_name ?? '' },
            decided: ms(row.d_at!),
          },
    mayReview: standing.review,
    mayEdit: mayEdit(scope, row, standing),
  };
}

/** SQL conditions of the list's filters over `s` (staged_entries), with their parameters. */
export function filterSql(filter: StagedEntryFilter): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (filter.status) add('s.status = ?', filter.status);
  if (filter.source) add('s.source = ?', filter.source);
  if (filter.language) add('s.languages @> array[?]::text[]', filter.language);
  if (filter['import-job-id']) add('s.import_job_id = ?', filter['import-job-id']);
  if (filter.target === 'NEW') add('s.target_concept_id is null');
  if (filter.target === 'EXISTING') add('s.target_concept_id is not null');
  if (filter.text) add('strpos(s.terms_text, ?) > 0', filter.text.toLowerCase());
  return { where, params };
}

/** Who sees which entries of an area: reviewers all, others their own. */
export function visibleSql(scope: Scope, area: AreaRow, standing: DictionaryStanding) {
  return {
    where: ['s.staging_area_id = ?', 's.client_id = ?', ...(standing.review ? [] : ['s.created_by_id = ?'])],
    params: [area.id, scope.actor.clientId, ...(standing.review ? [] : [scope.actor.userId])],
  };
}

/** A page of an area's entries. */
export async function listEntries(scope: Scope, input: StagedEntryListInput) {
  const { area, standing } = await usableArea(scope, input.id);
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const sort = parseSort(input.sort, ENTRY_SORTS, ENTRY_SORTS.created);
  const visible = visibleSql(scope, area, standing);
  const filter = filterSql(input);
  const where = [...visible.where, ...filter.where].join(' and ');
  const params = [...visible.params, ...filter.params];
  const [count] = await sql<{ n: number }[]>(
    scope.em,
    `select count(*)::int as n from staged_entries s where ${where}`,
    params,
  );
  const rows = await sql<EntryRow[]>(
    scope.em,
    `${ENTRY_SELECT} where ${where} order by ${sort.property} ${sort.direction}, s.id ${sort.direction} limit ? offset ?`,
    [...params, request.size, request.offset],
  );
  return toPage(
    rows.map((row) => entryDto(scope, row, standing)),
    count?.n ?? 0,
    request,
    input.sort ? sort.label : 'created,ASC',
  );
}

/** An entry the caller may see, with its area and the caller's standing there; 404 otherwise. */
export async function visibleEntry(scope: Scope, id: number) {
  const [row] = await sql<EntryRow[]>(scope.em, `${ENTRY_SELECT} where s.id = ? and s.client_id = ?`, [
    id,
    scope.actor.clientId,
  ]);
  if (!row) throw notFound('Staged entry', id);
  const { area, standing } = await usableArea(scope, row.staging_area_id).catch(() => {
    throw notFound('Staged entry', id);
  });
  if (!standing.review && row.created_by_id !== scope.actor.userId) throw notFound('Staged entry', id);
  return { row, area, standing };
}

/** Staged entries by id that the caller may see (GraphQL's loader), in the order given. */
export async function entriesByIds(scope: Scope, ids: readonly number[]): Promise<(StagedEntryDto | null)[]> {
  const rows = await sql<EntryRow[]>(
    scope.em,
    `${ENTRY_SELECT} where s.id = any(?::int[]) and s.client_id = ?`,
    [[...ids], scope.actor.clientId],
  );
  const out = new Map<number, StagedEntryDto>();
  // One look-up per area, not per entry.
  const areas = new Map<number, Promise<Awaited<ReturnType<typeof usableArea>> | null>>();
  for (const row of rows) {
    if (!areas.has(row.staging_area_id)) {
      areas.set(
        row.staging_area_id,
        usableArea(scope, row.staging_area_id).catch(() => null),
      );
    }
    const seen = await areas.get(row.staging_area_id)!;
    if (!seen || (!seen.standing.review && row.created_by_id !== scope.actor.userId)) continue;
    out.set(row.id, entryDto(scope, row, seen.standing));
  }
  return ids.map((id) => out.get(id) ?? null);
}

const DECISION_SELECT = `select x.id, x.staged_entry_id, x.decision, x.reason, x.concept_id, x.workflow_state,
    x.merge, x.decided_by_id, coalesce(u.full_name, u.username) as decided_by_name, x.decided_at,
    e.label as entry_label
  from staging_decisions x join staged_entries e on e.id = x.staged_entry_id
  left join users u on u.id = x.decided_by_id`;

interface DecisionRow {
  id: number;
  staged_entry_id: number;
  decision: StagingDecisionDto['decision'];
  reason: string | null;
  concept_id: number | null;
  workflow_state: string | null;
  merge: StagingDecisionDto['merge'];
  decided_by_id: number | null;
  decided_by_name: string | null;
  decided_at: Date;
  entry_label: string;
}

const decisionDto = (row: DecisionRow): StagingDecisionDto => ({
  id: row.id,
  stagedEntryId: row.staged_entry_id,
  entryLabel: row.entry_label,
  decision: row.decision,
  reason: row.reason,
  conceptId: row.concept_id,
  workflowState: row.workflow_state,
  merge: row.merge,
  decidedBy: row.decided_by_id === null ? null : { id: row.decided_by_id, name: row.decided_by_name ?? '' },
  decided: ms(row.decided_at),
});

/** One entry with the concept it would change, the difference, and its decisions (oldest first). */
export async function getEntry(scope: Scope, id: number): Promise<StagedEntryDetail> {
  const { row, standing } = await visibleEntry(scope, id);
  const decisions = await sql<DecisionRow[]>(
    scope.em,
    `${DECISION_SELECT} where x.staged_entry_id = ? order by x.decided_at, x.id`,
    [row.id],
  );
  const review = await reviewOf(scope, row.dictionary_id, row.merge, reviveEntry(row.entry));
  return { ...entryDto(scope, row, standing), ...review, decisions: decisions.map(decisionDto) };
}

/** A page of an area's decisions, newest first (reviewers). */
export async function listDecisions(scope: Scope, input: DecisionListInput) {
  const { area } = await usableArea(scope, input.id, true);
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const where = ['x.staging_area_id = ?', 'x.client_id = ?'];
  const params: unknown[] = [area.id, scope.actor.clientId];
  if (input.decision) {
    where.push('x.decision = ?');
    params.push(input.decision);
  }
  if (input['user-id']) {
    where.push('x.decided_by_id = ?');
    params.push(input['user-id']);
  }
  const [count] = await sql<{ n: number }[]>(
    scope.em,
    `select count(*)::int as n from staging_decisions x where ${where.join(' and ')}`,
    params,
  );
  const rows = await sql<DecisionRow[]>(
    scope.em,
    `${DECISION_SELECT} where ${where.join(' and ')} order by x.decided_at desc, x.id desc limit ? offset ?`,
    [...params, request.size, request.offset],
  );
  return toPage(rows.map(decisionDto), count?.n ?? 0, request, 'decided,DESC');
}
