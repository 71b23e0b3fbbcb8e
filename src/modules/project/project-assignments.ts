/**
 * Assignments (docs/projects.md, Assignments): typed work on a project's entries in one language or all,
 * given to a user or a group, with progress from the entries' workflow states. Completing one fires the
 * project's transition for its type through the workflow's bulk transition, as the caller: the
 * workflow's rules (who may fire, votes, conditions, required fields) decide what moves.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditUsers, auditInfo } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { recordProjectEvent } from '../events/project-events.js';
import { runAsJob } from '../jobs/job-runner.js';
import { User } from '../user/user.entity.js';
import { enabledWorkflow } from '../workflow/workflow.service.js';
import { prepareBulkTransition } from '../workflow/workflow-bulk-transition.js';
import type {
  AssignmentCreateInput,
  AssignmentDto,
  AssignmentEntriesInput,
  AssignmentPatchInput,
  AssignmentStatus,
  AssignmentType,
  MyAssignmentsInput,
} from './project.schema.js';
import {
  asDate,
  groupIdsLiteral,
  managedProject,
  ms,
  type ProjectRow,
  projectRole,
  readableProject,
} from './project-access.js';
import { projectSections } from './project-entries.js';
import { isDone, projectLanguages, projectUnits, type Unit } from './project-units.js';

export interface AssignmentRow {
  id: number;
  project_id: number;
  project_name: string;
  version: number;
  type: AssignmentType;
  language_code: string | null;
  assignee_user_id: number | null;
  assignee_group_id: number | null;
  instructions: string | null;
  due_at: Date | null;
  status: AssignmentStatus;
  completed_at: Date | null;
  completed_by_id: number | null;
  result: AssignmentDto['result'];
  created_at: Date;
  created_by_id: number | null;
}

export const SELECT = `select a.*, p.name as project_name from project_assignments a join projects p on p.id = a.project_id`;

/** The units an assignment covers among its project's units. */
export const unitsOf = (row: Pick<AssignmentRow, 'language_code'>, units: readonly Unit[]) =>
  row.language_code === null ? units : units.filter((unit) => unit.languageCode === row.language_code);

export function progressOf(row: Pick<AssignmentRow, 'language_code' | 'type'>, units: readonly Unit[]) {
  const covered = unitsOf(row, units);
  const byCategory: Record<string, number> = {};
  let done = 0;
  for (const unit of covered) {
    const category = unit.category ?? 'NONE';
    byCategory[category] = (byCategory[category] ?? 0) + 1;
    if (isDone(row.type, unit)) done++;
  }
  return { total: covered.length, done, byCategory };
}

/** Assignments as answered, with progress: one unit statement per project met. */
export async function renderAssignments(
  em: EntityManager,
  rows: readonly AssignmentRow[],
  projects?: Map<number, ProjectRow>,
  unitsByProject = new Map<number, Unit[]>(),
) {
  for (const projectId of new Set(rows.map((row) => row.project_id))) {
    if (unitsByProject.has(projectId)) continue;
    const project =
      projects?.get(projectId) ??
      (await em.execute<ProjectRow[]>('select * from projects where id = ?', [projectId]))[0]!;
    unitsByProject.set(
      projectId,
      await projectUnits(em, project, { languages: await projectLanguages(em, project) }),
    );
  }
  const users = await auditUsers(
    em,
    rows.flatMap((row) => [row.created_by_id, row.completed_by_id]),
  );
  return rows.map(
    (row): AssignmentDto => ({
      id: row.id,
      projectId: row.project_id,
      projectName: row.project_name,
      version: row.version,
      type: row.type,
      languageCode: row.language_code,
      assigneeUserId: row.assignee_user_id,
      assigneeGroupId: row.assignee_group_id,
      instructions: row.instructions,
      dueAt: ms(row.due_at),
      overdue: row.status === 'OPEN' && !!row.due_at && ms(row.due_at)! < Date.now(),
      status: row.status,
      completed: row.completed_at ? auditInfo(row.completed_by_id, asDate(row.completed_at), users) : null,
      result: row.result ?? null,
      created: auditInfo(row.created_by_id, asDate(row.created_at), users),
      progress: progressOf(row, unitsByProject.get(row.project_id) ?? []),
    }),
  );
}

async function auditUsers(em: EntityManager, ids: readonly (number | null)[]): Promise<AuditUsers> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const users: AuditUsers = new Map();
  if (wanted.length === 0) return users;
  const found = await em.find(
    User,
    { id: { $in: wanted } },
    { fields: ['id', 'username', 'fullName'], filters: false },
  );
  for (const user of found) users.set(user.id, { username: user.username, fullName: user.fullName ?? null });
  return users;
}

export async function listAssignments(
  scope: Scope,
  input: { id: number; status?: AssignmentStatus | undefined },
) {
  const { project } = await readableProject(scope, input.id);
  const rows = await scope.em.execute<AssignmentRow[]>(
    `${SELECT} where a.project_id = ? and (?::text is null or a.status = ?) order by a.id`,
    [project.id, input.status ?? null, input.status ?? null],
  );
  return renderAssignments(scope.em, rows, new Map([[project.id, project]]));
}

async function loadAssignment(
  scope: Scope,
  assignmentId: number,
  em: EntityManager = scope.em,
  lock = false,
) {
  const [row] = await em.execute<AssignmentRow[]>(
    `${SELECT} where a.id = ? and a.client_id = ? and not p.deleted${lock ? ' for update of a' : ''}`,
    [assignmentId, scope.actor.clientId],
  );
  if (!row) throw notFound('Assignment', assignmentId);
  const found = await readableProject(scope, row.project_id, em).catch(() => {
    throw notFound('Assignment', assignmentId);
  });
  return { row, ...found };
}

export async function getAssignment(scope: Scope, assignmentId: number) {
  const { row, project } = await loadAssignment(scope, assignmentId);
  const [dto] = await renderAssignments(scope.em, [row], new Map([[project.id, project]]));
  return dto!;
}

/** Exactly one assignee, a user or a group of the tenant (400 otherwise). */
async function assertAssignee(
  scope: Scope,
  em: EntityManager,
  userId: number | null,
  groupId: number | null,
) {
  if ((userId === null) === (groupId === null)) {
    throw new AppError('BAD_REQUEST', 'Send exactly one of assigneeUserId and assigneeGroupId');
  }
  const clientId = scope.actor.clientId;
  const [found] = await em.execute<{ yes: boolean }[]>(
    userId !== null
      ? `select exists (select 1 from users where id = ? and not deleted
           and (client_id = ? or id in (select user_id from user_clients where client_id = ?))) as yes`
      : 'select exists (select 1 from groups where id = ? and client_id = ? and not deleted) as yes',
    userId !== null ? [userId, clientId, clientId] : [groupId, clientId],
  );
  if (!found?.yes) {
    throw new AppError(
      'BAD_REQUEST',
      userId !== null
        ? `assigneeUserId: unknown user ${userId}`
        : `assigneeGroupId: unknown group ${groupId}`,
    );
  }
}

export async function createAssignment(scope: Scope, input: AssignmentCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const project = await managedProject(scope, input.id, em, true);
    if (project.status !== 'DRAFT' && project.status !== 'ONGOING') {
      throw new AppError('CONFLICT', `A ${project.status} project takes no new assignment`);
    }
    const languageCode = input.languageCode ?? null;
    if (languageCode !== null && !(await projectLanguages(em, project)).includes(languageCode)) {
      throw new AppError('BAD_REQUEST', `languageCode: the project does not work on "${languageCode}"`);
    }
    const userId = input.assigneeUserId ?? null;
    const groupId = input.assigneeGroupId ?? null;
    await assertAssignee(scope, em, userId, groupId);
    const [row] = await em.execute<{ id: number }[]>(
      `insert into project_assignments (client_id, project_id, type, language_code, assignee_user_id, assignee_group_id,
         instructions, due_at, created_by_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [
        scope.actor.clientId,
        project.id,
        input.type,
        languageCode,
        userId,
        groupId,
        input.instructions ?? null,
        input.dueAt === null || input.dueAt === undefined ? null : new Date(input.dueAt),
        scope.actor.userId,
      ],
    );
    // IATE's rule: a draft project starts with its first assignment.
    if (project.status === 'DRAFT') {
      await em.execute(
        `update projects set status = 'ONGOING', version = version + 1, changed_at = now(), changed_by_id = ? where id = ?`,
        [scope.actor.userId, project.id],
      );
    }
    await recordProjectEvent(em, scope, 'assignment.created', project.id, {
      assignmentId: row!.id,
      type: input.type,
      languageCode,
      assigneeUserId: userId,
      assigneeGroupId: groupId,
    });
    return row!.id;
  });
  return getAssignment(scope, id);
}

export async function myAssignments(scope: Scope, input: MyAssignmentsInput) {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests have no assignments');
  const rows = await scope.em.execute<AssignmentRow[]>(
    `${SELECT} where a.client_id = ? and not p.deleted and a.status = ?
        and (a.assignee_user_id = ? or a.assignee_group_id = any(?::int[]))
        and (?::int is null or a.project_id = ?)
      order by a.due_at nulls last, a.id limit 1000`,
    [
      scope.actor.clientId,
      input.status ?? 'OPEN',
      scope.actor.userId,
      await groupIdsLiteral(scope),
      input['project-id'] ?? null,
      input['project-id'] ?? null,
    ],
  );
  return renderAssignments(scope.em, rows);
}

export async function patchAssignment(scope: Scope, input: AssignmentPatchInput) {
  await scope.em.transactional(async (em) => {
    const { row, project } = await loadAssignment(scope, input.assignmentId, em, true);
    await managedProject(scope, project.id, em);
    assertVersion(row, input.version, 'Assignment');
    let userId = row.assignee_user_id;
    let groupId = row.assignee_group_id;
    if (input.assigneeUserId !== undefined || input.assigneeGroupId !== undefined) {
      userId = input.assigneeUserId ?? null;
      groupId = input.assigneeGroupId ?? null;
      await assertAssignee(scope, em, userId, groupId);
    }
    const dueAt =
      input.dueAt === undefined ? row.due_at : input.dueAt === null ? null : new Date(input.dueAt);
    const status = input.status ?? row.status;
    const type = input.type ?? row.type;
    // What a DONE assignment fired follows from its type: it stays.
    if (type !== row.type && row.status === 'DONE') {
      throw new AppError('CONFLICT', 'A DONE assignment keeps its type');
    }
    await em.execute(
      `update project_assignments set type = ?, assignee_user_id = ?, assignee_group_id = ?, instructions = ?, due_at = ?, status = ?,
         overdue_notified_at = case when due_at is distinct from ? then null else overdue_notified_at end,
         completed_at = case when ? = 'OPEN' then null else completed_at end,
         completed_by_id = case when ? = 'OPEN' then null else completed_by_id end,
         version = version + 1 where id = ?`,
      [
        type,
        userId,
        groupId,
        input.instructions === undefined ? row.instructions : input.instructions,
        dueAt,
        status,
        dueAt,
        status,
        status,
        row.id,
      ],
    );
    await recordProjectEvent(em, scope, 'assignment.updated', project.id, {
      assignmentId: row.id,
      status,
      assigneeUserId: userId,
      assigneeGroupId: groupId,
    });
  });
  return getAssignment(scope, input.assignmentId);
}

export async function deleteAssignment(scope: Scope, assignmentId: number): Promise<void> {
  await scope.em.transactional(async (em) => {
    const { project } = await loadAssignment(scope, assignmentId, em, true);
    await managedProject(scope, project.id, em);
    await em.execute('delete from project_assignments where id = ?', [assignmentId]);
    await recordProjectEvent(em, scope, 'assignment.deleted', project.id, { assignmentId });
  });
}

/** Whether the caller is the assignment's assignee (the user, or a member of the group). */
async function isAssignee(scope: Scope, row: AssignmentRow) {
  if (row.assignee_user_id === scope.actor.userId) return true;
  if (row.assignee_group_id === null) return false;
  return (await groupIdsLiteral(scope)).slice(1, -1).split(',').includes(String(row.assignee_group_id));
}

/**
 * Completes an assignment: the project's transition for its type fires on the assignment's entries of
 * each dictionary through the workflow's bulk transition, as the caller. Every dictionary's checks run
 * first (403 when the transition does not name the caller, 400 when a workflow lacks it), then all the
 * moves and the assignment's DONE in one transaction (a job): a refusal anywhere moves nothing anywhere.
 */
export async function completeAssignment(
  scope: Scope,
  input: { assignmentId: number; version?: number | undefined; comment?: string | undefined },
) {
  const { row, project, role } = await loadAssignment(scope, input.assignmentId);
  if (role !== 'MANAGER' && !(await isAssignee(scope, row))) {
    throw new AppError('FORBIDDEN', 'Only its assignees and the project managers complete an assignment');
  }
  assertVersion(row, input.version, 'Assignment');
  if (row.status !== 'OPEN') throw new AppError('CONFLICT', `The assignment is ${row.status} already`);
  if (project.status !== 'ONGOING')
    throw new AppError('CONFLICT', `A ${project.status} project takes no completion`);
  const transition = project.transitions[row.type] ?? null;
  type Step =
    | { dictionaryId: number; note: string }
    | { dictionaryId: number; run: Awaited<ReturnType<typeof prepareBulkTransition>> };
  const steps: Step[] = [];
  if (transition) {
    const entries = await scope.em.execute<{ dictionary_id: number; concept_ids: number[] }[]>(
      `select dictionary_id, array_agg(concept_id order by concept_id) as concept_ids
         from project_entries where project_id = ? group by dictionary_id`,
      [project.id],
    );
    const byDictionary = new Map(entries.map((entry) => [entry.dictionary_id, entry.concept_ids]));
    for (const dictionaryId of project.dictionary_ids) {
      const conceptIds = byDictionary.get(dictionaryId);
      if (!conceptIds?.length) continue;
      if (!(await enabledWorkflow(scope.em, dictionaryId))) {
        steps.push({ dictionaryId, note: 'no workflow is enabled for this dictionary' });
        continue;
      }
      const run = await prepareBulkTransition(scope, {
        dictionaryId,
        transition,
        conceptIds,
        ...(row.language_code ? { languageCode: row.language_code } : {}),
        ...(input.comment ? { comment: input.comment } : {}),
      });
      steps.push({ dictionaryId, run });
    }
  }
  const finish = (em: EntityManager) =>
    em.transactional(async (tx) => {
      const dictionaries: unknown[] = [];
      for (const step of steps) {
        dictionaries.push(
          'run' in step
            ? { dictionaryId: step.dictionaryId, result: await step.run(tx) }
            : { dictionaryId: step.dictionaryId, note: step.note },
        );
      }
      const [updated] = await tx.execute<{ id: number }[]>(
        `update project_assignments set status = 'DONE', completed_at = now(), completed_by_id = ?, result = ?::jsonb,
         version = version + 1 where id = ? and version = ? and status = 'OPEN' returning id`,
        [scope.actor.userId, JSON.stringify({ transition, dictionaries }), row.id, row.version],
      );
      if (!updated) throw new AppError('CONFLICT', 'The assignment changed meanwhile');
      await recordProjectEvent(tx, scope, 'assignment.completed', project.id, {
        assignmentId: row.id,
        transition,
      });
      return true;
    });
  if (!steps.some((step) => 'run' in step)) {
    await finish(scope.em);
    return getAssignment(scope, input.assignmentId);
  }
  // Many entries take a while: as a job, the caller waits up to the async threshold, then gets the
  // assignment still OPEN with the job's id; the moves and DONE commit together when it ends.
  const outcome = await runAsJob(scope, 'projects.complete-assignment', (em) => finish(em));
  const dto = await getAssignment(scope, input.assignmentId);
  return outcome.finished ? dto : { ...dto, jobTaskId: outcome.body.jobTaskId };
}

/** The units of an assignment in concept order, those still to do first when `done=false`. */
export async function assignmentEntries(scope: Scope, input: AssignmentEntriesInput) {
  const { row, project } = await loadAssignment(scope, input.assignmentId);
  const units = unitsOf(
    row,
    await projectUnits(scope.em, project, {
      languages: await projectLanguages(scope.em, project),
      sectionIds: await projectSections(scope, project),
    }),
  );
  const listed = units
    .map((unit) => ({ ...unit, done: isDone(row.type, unit) }))
    .filter((unit) => input.done === undefined || unit.done === input.done);
  return listed.slice(input.page * input.size, (input.page + 1) * input.size).map((unit) => ({
    conceptId: unit.conceptId,
    dictionaryId: unit.dictionaryId,
    languageCode: unit.languageCode,
    state: unit.state,
    category: unit.category,
    done: unit.done,
  }));
}

/** The assignments of several projects (those the caller sees), in one statement: GraphQL's batch. */
export async function assignmentsOfProjects(scope: Scope, projectIds: readonly number[]) {
  const projects = await scope.em.execute<ProjectRow[]>(
    'select * from projects where id = any(?::int[]) and client_id = ? and not deleted',
    [`{${projectIds.join(',')}}`, scope.actor.clientId],
  );
  const seen = new Map<number, ProjectRow>();
  for (const project of projects) if (await projectRole(scope, project)) seen.set(project.id, project);
  const rows = await scope.em.execute<AssignmentRow[]>(
    `${SELECT} where a.project_id = any(?::int[]) order by a.id`,
    [`{${[...seen.keys()].join(',')}}`],
  );
  const rendered = await renderAssignments(scope.em, rows, seen);
  return new Map(projectIds.map((id) => [id, rendered.filter((assignment) => assignment.projectId === id)]));
}
