/** Projects themselves (docs/projects.md): list, read, create, change, delete, move between statuses. */

import type { EntityManager } from '@mikro-orm/postgresql';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import { pageRequest, parseSort, toPage } from '../../shared/paging.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { isDictionaryAdmin } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { recordProjectEvent } from '../events/project-events.js';
import {
  PROJECT_SHORT_KEYS,
  type ProjectCreateInput,
  type ProjectDto,
  type ProjectListInput,
  type ProjectPatchInput,
  type ProjectStatus,
  STATUS_MOVES,
} from './project.schema.js';
import {
  asDate,
  dictionaryRights,
  groupIdsLiteral,
  managedProject,
  manages,
  ms,
  type ProjectRow,
  readableProject,
} from './project-access.js';

type CountedRow = ProjectRow & { entry_count: number; open_candidates: number; assignment_count: number };

const ACTIVE: readonly ProjectStatus[] = ['DRAFT', 'ONGOING', 'SUSPENDED'];
const COUNTS = `(select count(*) from project_entries e where e.project_id = p.id)::int as entry_count,
  (select count(*) from project_candidates c where c.project_id = p.id and c.status = 'OPEN')::int as open_candidates,
  (select count(*) from project_assignments a where a.project_id = p.id)::int as assignment_count`;
const SORTS = {
  name: 'lower(p.name)',
  status: 'p.status',
  dueAt: 'p.due_at',
  created: 'p.created_at',
  changed: 'p.changed_at',
} as const;

const isOverdue = (row: ProjectRow) =>
  !!row.due_at && ms(row.due_at)! < Date.now() && ACTIVE.includes(row.status);

async function render(scope: Scope, rows: readonly CountedRow[], format: Format) {
  if (format === 'ID') return rows.map((row) => ({ id: row.id }));
  const audit = await loadAuditUsers(
    scope.em,
    rows.map((row) => ({
      ...row,
      createdAt: asDate(row.created_at),
      createdById: row.created_by_id,
      changedAt: asDate(row.changed_at),
      changedById: row.changed_by_id,
    })),
  );
  const rights = await dictionaryRights(scope);
  return rows.map((row) => {
    const dto: ProjectDto = {
      ...commonDto(
        {
          ...row,
          createdAt: asDate(row.created_at),
          createdById: row.created_by_id,
          changedAt: asDate(row.changed_at),
          changedById: row.changed_by_id,
        },
        row.client_id,
        audit,
      ),
      name: row.name,
      description: row.description,
      status: row.status,
      dictionaryIds: row.dictionary_ids,
      languages: row.languages,
      coordinatorIds: row.coordinator_ids,
      dueAt: ms(row.due_at),
      overdue: isOverdue(row),
      instructions: row.instructions,
      transitions: row.transitions,
      entryCount: row.entry_count,
      openCandidateCount: row.open_candidates,
      assignmentCount: row.assignment_count,
      manageable: manages(scope, row, rights),
    };
    return applyFormat(dto, format, PROJECT_SHORT_KEYS);
  });
}

const intArray = (ids: Iterable<number>) => `{${[...ids].join(',')}}`;

/** What the caller may see: everything for client administrators, else coordinated, read or assigned. */
async function visibleSql(scope: Scope) {
  if (isClientAdmin(scope.actor)) return { text: 'true', params: [] as unknown[] };
  if (scope.actor.guest) return { text: 'false', params: [] as unknown[] };
  const rights = await dictionaryRights(scope);
  return {
    text: `(p.coordinator_ids @> array[?::int] or p.dictionary_ids <@ ?::int[]
      or exists (select 1 from project_assignments a where a.project_id = p.id
                  and (a.assignee_user_id = ? or a.assignee_group_id = any(?::int[]))))`,
    params: [
      scope.actor.userId,
      intArray(new Set([...rights.readable, ...rights.administered])),
      scope.actor.userId,
      await groupIdsLiteral(scope),
    ],
  };
}

export async function listProjects(scope: Scope, input: ProjectListInput) {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const sort = parseSort(input.sort, SORTS, SORTS.name);
  const visible = await visibleSql(scope);
  const where = ['p.client_id = ?', 'not p.deleted', visible.text];
  const params: unknown[] = [scope.actor.clientId, ...visible.params];
  if (input.status?.length) {
    where.push('p.status = any(?::text[])');
    params.push(`{${input.status.join(',')}}`);
  }
  if (input['dictionary-id'] !== undefined) {
    where.push('p.dictionary_ids @> array[?::int]');
    params.push(input['dictionary-id']);
  }
  if (input['coordinator-id'] !== undefined) {
    where.push('p.coordinator_ids @> array[?::int]');
    params.push(input['coordinator-id'] === 'me' ? scope.actor.userId : input['coordinator-id']);
  }
  if (input.overdue !== undefined) {
    const overdue = `(p.due_at < now() and p.status in ('DRAFT', 'ONGOING', 'SUSPENDED'))`;
    where.push(input.overdue ? overdue : `not coalesce(${overdue}, false)`);
  }
  if (input.name) {
    where.push(`lower(p.name) like ? escape '\\'`);
    params.push(`${input.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (input['name-eq']) {
    where.push('lower(p.name) = ?');
    params.push(input['name-eq'].toLowerCase());
  }
  const condition = where.join(' and ');
  const direction = sort.direction === 'DESC' ? 'desc' : 'asc';
  const [count] = await scope.em.execute<{ n: number }[]>(
    `select count(*)::int as n from projects p where ${condition}`,
    params,
  );
  const rows = await scope.em.execute<CountedRow[]>(
    `select p.*, ${COUNTS} from projects p where ${condition}
      order by ${sort.property} ${direction} nulls last, p.id ${direction} limit ? offset ?`,
    [...params, request.size, request.offset],
  );
  // Without a sort the label names the API attribute, not the SQL expression it sorts by.
  const label = input.sort ? sort.label : 'name,ASC';
  return toPage(await render(scope, rows, input.format), count?.n ?? 0, request, label);
}

async function counted(em: EntityManager, id: number) {
  const [row] = await em.execute<CountedRow[]>(`select p.*, ${COUNTS} from projects p where p.id = ?`, [id]);
  if (!row) throw notFound('Project', id);
  return row;
}

export async function getProject(scope: Scope, id: number, format: Format) {
  await readableProject(scope, id);
  const [dto] = await render(scope, [await counted(scope.em, id)], format);
  return dto!;
}

/** Dictionaries newly named must be the caller's to administer (unread: 404, read only: 403). */
async function assertAdministered(scope: Scope, ids: readonly number[], em: EntityManager) {
  for (const id of ids) {
    const dictionary = await readableDictionary(scope, id, { em });
    if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', id);
    if (!isDictionaryAdmin(scope.actor, dictionary)) {
      throw new AppError('FORBIDDEN', `Only administrators of dictionary ${id} put it in a project`);
    }
  }
}

/** Coordinators must be users of the tenant: 400 naming the others. */
async function assertUsers(scope: Scope, ids: readonly number[], em: EntityManager) {
  if (ids.length === 0) return;
  const clientId = scope.actor.clientId;
  const found = await em.execute<{ id: number }[]>(
    `select id from users where id = any(?::int[]) and not deleted
       and (client_id = ? or id in (select user_id from user_clients where client_id = ?))`,
    [intArray(ids), clientId, clientId],
  );
  const missing = ids.filter((id) => !found.some((row) => row.id === id));
  if (missing.length)
    throw new AppError('BAD_REQUEST', `coordinatorIds: unknown users ${missing.join(', ')}`);
}

const dueDate = (value: number | null | undefined) =>
  value === null || value === undefined ? null : new Date(value);
const unique = <T>(values: readonly T[]) => [...new Set(values)];

export async function createProject(scope: Scope, input: ProjectCreateInput) {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot create projects');
  const id = await scope.em.transactional(async (em) => {
    const dictionaryIds = unique(input.dictionaryIds);
    await assertAdministered(scope, dictionaryIds, em);
    const coordinators = unique(input.coordinatorIds);
    await assertUsers(scope, coordinators, em);
    const [row] = await em.execute<{ id: number }[]>(
      `insert into projects (client_id, name, description, dictionary_ids, languages, coordinator_ids, due_at,
         instructions, transitions, created_by_id, changed_by_id)
       values (?, ?, ?, ?::int[], ?::text[], ?::int[], ?, ?, ?::jsonb, ?, ?) returning id`,
      [
        scope.actor.clientId,
        input.name,
        input.description ?? null,
        intArray(dictionaryIds),
        `{${unique(input.languages).join(',')}}`,
        intArray(coordinators),
        dueDate(input.dueAt),
        input.instructions ?? null,
        JSON.stringify(input.transitions ?? { VALIDATION: 'approve' }),
        scope.actor.userId,
        scope.actor.userId,
      ],
    );
    await recordProjectEvent(em, scope, 'project.created', row!.id);
    return row!.id;
  });
  return getProject(scope, id, input.format);
}

export async function updateProject(scope: Scope, input: ProjectPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const project = await managedProject(scope, input.id, em, true);
    assertVersion(project, input.version, 'Project');
    const keep = <T>(sent: T | undefined, current: T, fallback: T): T =>
      sent !== undefined ? sent : partial ? current : fallback;
    const dictionaryIds = unique(input.dictionaryIds ?? project.dictionary_ids);
    await assertAdministered(
      scope,
      dictionaryIds.filter((id) => !project.dictionary_ids.includes(id)),
      em,
    );
    const coordinators = unique(keep(input.coordinatorIds, project.coordinator_ids, []));
    await assertUsers(
      scope,
      coordinators.filter((id) => !project.coordinator_ids.includes(id)),
      em,
    );
    const dueAt = input.dueAt !== undefined ? dueDate(input.dueAt) : partial ? project.due_at : null;
    await em.execute(
      `update projects set name = ?, description = ?, dictionary_ids = ?::int[], languages = ?::text[],
         coordinator_ids = ?::int[], due_at = ?, instructions = ?, transitions = ?::jsonb,
         version = version + 1, changed_at = now(), changed_by_id = ?
       where id = ?`,
      [
        input.name ?? project.name,
        keep(input.description, project.description, null),
        intArray(dictionaryIds),
        `{${unique(keep(input.languages, project.languages, [])).join(',')}}`,
        intArray(coordinators),
        dueAt,
        keep(input.instructions, project.instructions, null),
        JSON.stringify(keep(input.transitions, project.transitions, { VALIDATION: 'approve' })),
        scope.actor.userId,
        project.id,
      ],
    );
    // Entries of dictionaries the project no longer names leave it.
    await em.execute('delete from project_entries where project_id = ? and dictionary_id <> all(?::int[])', [
      project.id,
      intArray(dictionaryIds),
    ]);
    await recordProjectEvent(em, scope, 'project.updated', project.id, {
      changed: Object.keys(input).filter((key) => !['id', 'version', 'format'].includes(key)),
    });
  });
  return getProject(scope, input.id, input.format);
}

export async function deleteProject(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional(async (em) => {
    await managedProject(scope, id, em, true);
    await em.execute(
      `update projects set deleted = true, deleted_at = now(), deleted_by_id = ?, changed_by_id = ?,
         version = version + 1 where id = ?`,
      [scope.actor.userId, scope.actor.userId, id],
    );
    await recordProjectEvent(em, scope, 'project.deleted', id);
  });
}

/** Moves a project by one of the allowed explicit moves (docs/projects.md, Status); 409 for the others. */
export async function setProjectStatus(
  scope: Scope,
  input: { id: number; status: ProjectStatus; version?: number | undefined },
) {
  await scope.em.transactional(async (em) => {
    const project = await managedProject(scope, input.id, em, true);
    assertVersion(project, input.version, 'Project');
    if (!STATUS_MOVES[project.status].includes(input.status)) {
      throw new AppError('CONFLICT', `A ${project.status} project cannot move to ${input.status}`);
    }
    await em.execute(
      'update projects set status = ?, version = version + 1, changed_at = now(), changed_by_id = ? where id = ?',
      [input.status, scope.actor.userId, project.id],
    );
    await recordProjectEvent(em, scope, 'project.updated', project.id, {
      changed: ['status'],
      status: input.status,
    });
  });
  return getProject(scope, input.id, 'FULL');
}
