import { trpc } from '../../api';
import type { Group, User } from '../../components/WorkflowRuleControls';

/** The shapes the projects API answers (src/modules/project/project.schema.ts, docs/projects.md). */
export type Project = Awaited<ReturnType<typeof trpc.projects.get.query>>;
export type Candidate = Awaited<ReturnType<typeof trpc.projects.candidate.query>>;
export type Duplicate = Awaited<ReturnType<typeof trpc.projects.candidateDuplicates.query>>[number];
export type Assignment = Awaited<ReturnType<typeof trpc.projects.assignment.query>>;
export type AssignmentEntry = Awaited<ReturnType<typeof trpc.projects.assignmentEntries.query>>[number];
export type Progress = Awaited<ReturnType<typeof trpc.projects.progress.query>>;
export type Statistics = Awaited<ReturnType<typeof trpc.projects.statistics.query>>;

export const PROJECT_STATUSES = ['DRAFT', 'ONGOING', 'DONE', 'SUSPENDED', 'ABANDONED'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const ASSIGNMENT_TYPES = ['DRAFTING', 'TRANSLATION', 'REVISION', 'VALIDATION'] as const;
export type AssignmentType = (typeof ASSIGNMENT_TYPES)[number];
export const PROJECT_SORTS = ['name', 'status', 'dueAt', 'created', 'changed'] as const;

/** The explicit moves of a project's status (docs/projects.md, "Status"); the server refuses others. */
export const STATUS_MOVES: Record<ProjectStatus, ProjectStatus[]> = {
  DRAFT: ['ONGOING', 'ABANDONED'],
  ONGOING: ['DONE', 'SUSPENDED', 'ABANDONED'],
  SUSPENDED: ['ONGOING', 'ABANDONED'],
  DONE: ['ONGOING'],
  ABANDONED: [],
};

/** The client's groups and, for those who may list them, its users (null: ids are typed instead). */
export interface People {
  groups: Group[];
  users: User[] | null;
}

let people: Promise<People> | null = null;

/** Asked once per page load: the pickers of coordinators and assignees, and the names shown for ids. */
export function loadPeople(): Promise<People> {
  const list = { page: 0, size: 500, format: 'FULL', 'include-deleted': false } as const;
  people ??= Promise.all([
    trpc.groups.list
      .query({ ...list, 'include-all': true, 'include-guest': false })
      .then((page) => page.content)
      .catch(() => []),
    trpc.users.list.query(list).then(
      (page) => page.content,
      () => null,
    ),
  ]).then(([groups, users]) => ({ groups, users }));
  return people;
}

/** A user's name where the caller may list users, else undefined (the screens then show "User 7"). */
export function userName(people: People | undefined, id: number | null | undefined): string | undefined {
  const user = people?.users?.find((u) => u.id === id);
  return user ? user.fullName || user.username || undefined : undefined;
}

export function groupName(people: People | undefined, id: number | null | undefined): string | undefined {
  return people?.groups.find((g) => g.id === id)?.name ?? undefined;
}

/** A due date in ms as a date input's value (the local day). */
export function dayOf(ms: number | null | undefined): string {
  if (!ms) return '';
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** A date input's value (local day) as the end of that day in ms; '' as null. */
export function dayEnd(value: string): number | null {
  if (!value) return null;
  const ms = new Date(`${value}T23:59:59`).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** "3 of 10" as a whole percentage, 0 for nothing to do. */
export const percent = (done: number, total: number) => (total > 0 ? Math.round((100 * done) / total) : 0);
