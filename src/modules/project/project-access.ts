/**
 * Who may do what with a project (docs/projects.md, "Who may do what"): managers are its coordinators and
 * the administrators of every one of its dictionaries; assignees are named by one of its assignments
 * (directly or through a group); readers read every one of its dictionaries. Anyone else gets 404, as
 * do other tenants; a reader or assignee trying a manager's call gets 403.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { accessSubject, isDictionaryAdmin } from '../access/access.service.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionaryIds } from '../dictionary/dictionary-access.js';
import type { ProjectStatus, ProjectTransitions } from './project.schema.js';

export interface ProjectRow {
  id: number;
  oid: string | null;
  version: number;
  deleted: boolean;
  created_at: Date;
  created_by_id: number | null;
  changed_at: Date;
  changed_by_id: number | null;
  client_id: number;
  name: string;
  description: string | null;
  status: ProjectStatus;
  dictionary_ids: number[];
  languages: string[];
  coordinator_ids: number[];
  due_at: Date | null;
  instructions: string | null;
  transitions: ProjectTransitions;
}

export type ProjectRole = 'MANAGER' | 'ASSIGNEE' | 'READER';

export interface DictionaryRights {
  readable: Set<number>;
  administered: Set<number>;
}

const rightsCache = new WeakMap<Scope, Promise<DictionaryRights>>();

/** The tenant's dictionaries the caller reads and administers, loaded once per request scope. */
export function dictionaryRights(scope: Scope): Promise<DictionaryRights> {
  let rights = rightsCache.get(scope);
  if (!rights) {
    rights = (async () => {
      const dictionaries = await scope.em.find(
        Dictionary,
        { client: scope.actor.clientId },
        { filters: { tenant: false } },
      );
      const administered = new Set(
        dictionaries.filter((d) => isDictionaryAdmin(scope.actor, d)).map((d) => d.id),
      );
      const readable = scope.actor.guest
        ? new Set<number>()
        : await readableDictionaryIds(scope, dictionaries);
      return { readable, administered };
    })();
    rightsCache.set(scope, rights);
  }
  return rights;
}

/** The caller's groups (ALL_USERS included) as a Postgres array literal. */
export async function groupIdsLiteral(scope: Scope): Promise<string> {
  const subject = await accessSubject(scope);
  return `{${[...subject.groupIds].join(',')}}`;
}

/** Whether the caller manages the project: a coordinator, or administrator of every dictionary of it. */
export function manages(scope: Scope, project: ProjectRow, rights: DictionaryRights): boolean {
  if (scope.actor.guest) return false;
  if (isClientAdmin(scope.actor) || project.coordinator_ids.includes(scope.actor.userId)) return true;
  return project.dictionary_ids.every((id) => rights.administered.has(id));
}

/** The caller's role in a project, or null when the caller may not see it. */
export async function projectRole(scope: Scope, project: ProjectRow, em: EntityManager = scope.em) {
  if (scope.actor.guest) return null;
  const rights = await dictionaryRights(scope);
  if (manages(scope, project, rights)) return 'MANAGER';
  if (project.dictionary_ids.every((id) => rights.readable.has(id))) return 'READER';
  const [assigned] = await em.execute<{ yes: boolean }[]>(
    `select exists (select 1 from project_assignments where project_id = ?
       and (assignee_user_id = ? or assignee_group_id = any(?::int[]))) as yes`,
    [project.id, scope.actor.userId, await groupIdsLiteral(scope)],
  );
  return assigned?.yes ? 'ASSIGNEE' : null;
}

/** The project row (locked for update when asked), when in the caller's tenant and not deleted; else 404. */
export async function loadProject(scope: Scope, id: number, em: EntityManager = scope.em, lock = false) {
  const [row] = await em.execute<ProjectRow[]>(
    `select * from projects where id = ? and client_id = ? and not deleted${lock ? ' for update' : ''}`,
    [id, scope.actor.clientId],
  );
  if (!row) throw notFound('Project', id);
  return row;
}

/** A project the caller may see, with the caller's role; 404 otherwise. */
export async function readableProject(scope: Scope, id: number, em: EntityManager = scope.em, lock = false) {
  const project = await loadProject(scope, id, em, lock);
  const role = await projectRole(scope, project, em);
  if (!role) throw notFound('Project', id);
  return { project, role };
}

/** A project the caller manages: unseen 404, seen only 403. */
export async function managedProject(scope: Scope, id: number, em: EntityManager = scope.em, lock = false) {
  const found = await readableProject(scope, id, em, lock);
  if (found.role !== 'MANAGER') {
    throw new AppError(
      'FORBIDDEN',
      'Only the coordinators and dictionary administrators manage this project',
    );
  }
  return found.project;
}

/** Timestamps read by plain SQL may arrive as text: one conversion for all. */
export const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
export const ms = (value: Date | string | null | undefined): number | null =>
  value === null || value === undefined ? null : asDate(value).getTime();
