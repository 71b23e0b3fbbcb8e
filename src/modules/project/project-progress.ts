/**
 * Progress and statistics of a project (docs/projects.md): counted from its units (project-units.ts) in
 * one statement, with a daily snapshot of entries and entries still open for the burn-down.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import type { CandidateStatus } from './project.schema.js';
import type { ProjectRow } from './project-access.js';
import { readableProject } from './project-access.js';
import { type AssignmentRow, renderAssignments, SELECT } from './project-assignments.js';
import { projectLanguages, projectUnits, type Unit } from './project-units.js';

const CLOSED = new Set(['APPROVED', 'REJECTED', 'RETIRED']);

async function unitsOfProject(em: EntityManager, project: ProjectRow) {
  return projectUnits(em, project, { languages: await projectLanguages(em, project) });
}

/** Today's burn-down point (replaced when it exists): units, and units not yet approved or closed. */
export async function recordSnapshot(em: EntityManager, project: ProjectRow, units: readonly Unit[]) {
  const remaining = units.filter((unit) => !unit.category || !CLOSED.has(unit.category)).length;
  await em.execute(
    `insert into project_snapshots (project_id, day, total, remaining) values (?, (now() at time zone 'utc')::date, ?, ?)
     on conflict (project_id, day) do update set total = excluded.total, remaining = excluded.remaining`,
    [project.id, units.length, remaining],
  );
}

export async function projectProgress(scope: Scope, projectId: number) {
  const { project } = await readableProject(scope, projectId);
  const units = await unitsOfProject(scope.em, project);
  const [counts] = await scope.em.execute<{ entries: number; candidates: Record<string, number> | null }[]>(
    `select (select count(*)::int from project_entries where project_id = ?) as entries,
            (select jsonb_object_agg(status, n) from (select status, count(*)::int as n from project_candidates
               where project_id = ? group by status) s) as candidates`,
    [project.id, project.id],
  );
  const candidates = Object.fromEntries(
    (['OPEN', 'MERGED', 'PROMOTED', 'REJECTED'] as const).map((status) => [
      status,
      counts?.candidates?.[status] ?? 0,
    ]),
  ) as Record<CandidateStatus, number>;
  const languages = new Map<
    string,
    { languageCode: string; total: number; approved: number; withTerms: number }
  >();
  for (const unit of units) {
    const line = languages.get(unit.languageCode) ?? {
      languageCode: unit.languageCode,
      total: 0,
      approved: 0,
      withTerms: 0,
    };
    line.total++;
    if (unit.category === 'APPROVED') line.approved++;
    if (unit.hasTerm) line.withTerms++;
    languages.set(unit.languageCode, line);
  }
  const rows = await scope.em.execute<AssignmentRow[]>(`${SELECT} where a.project_id = ? order by a.id`, [
    project.id,
  ]);
  return {
    projectId: project.id,
    entries: counts?.entries ?? 0,
    candidates,
    languages: [...languages.values()],
    assignments: await renderAssignments(
      scope.em,
      rows,
      new Map([[project.id, project]]),
      new Map([[project.id, units]]),
    ),
  };
}

export async function projectStatistics(scope: Scope, projectId: number) {
  const { project } = await readableProject(scope, projectId);
  const units = await unitsOfProject(scope.em, project);
  const byState = new Map<
    string,
    { languageCode: string | null; state: string | null; category: string | null; count: number }
  >();
  for (const unit of units) {
    const key = `${unit.languageCode}\u0000${unit.state}`;
    const line = byState.get(key) ?? {
      languageCode: unit.languageCode,
      state: unit.state,
      category: unit.category,
      count: 0,
    };
    line.count++;
    byState.set(key, line);
  }
  const rows = await scope.em.execute<AssignmentRow[]>(
    `${SELECT} where a.project_id = ? and a.status <> 'CANCELLED' order by a.id`,
    [project.id],
  );
  const assignments = await renderAssignments(
    scope.em,
    rows,
    new Map([[project.id, project]]),
    new Map([[project.id, units]]),
  );
  const byAssignee = new Map<
    string,
    { userId: number | null; groupId: number | null; assignments: number; total: number; done: number }
  >();
  for (const assignment of assignments) {
    const key = `${assignment.assigneeUserId}/${assignment.assigneeGroupId}`;
    const line = byAssignee.get(key) ?? {
      userId: assignment.assigneeUserId,
      groupId: assignment.assigneeGroupId,
      assignments: 0,
      total: 0,
      done: 0,
    };
    line.assignments++;
    line.total += assignment.progress.total;
    line.done += assignment.progress.done;
    byAssignee.set(key, line);
  }
  await scope.em.transactional((em) => recordSnapshot(em, project, units));
  const burndown = await scope.em.execute<{ day: string; total: number; remaining: number }[]>(
    `select to_char(day, 'YYYY-MM-DD') as day, total, remaining from project_snapshots where project_id = ? order by day`,
    [project.id],
  );
  return {
    projectId: project.id,
    byState: [...byState.values()],
    byAssignee: [...byAssignee.values()],
    burndown,
  };
}
