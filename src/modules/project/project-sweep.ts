/**
 * The projects' share of the workflow sweeper's round (docs/projects.md): overdue assignments are
 * announced once to their assignees and the coordinators through the workflow notifications (sent at
 * once or in each user's workflow digest), and ongoing projects get their daily burn-down point.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectRow } from './project-access.js';
import { recordSnapshot } from './project-progress.js';
import { projectLanguages, projectUnits } from './project-units.js';

/** Projects given their daily point per round, so one round stays short. */
const SNAPSHOTS_PER_ROUND = 20;

/** Queues one notification per recipient of each assignment newly overdue; answers how many assignments. */
export async function queueOverdueAssignments(em: EntityManager, now: Date = new Date()): Promise<number> {
  const rows = await em.execute<{ id: number }[]>(
    `with due as (
       update project_assignments a set overdue_notified_at = now()
         from projects p
        where p.id = a.project_id and a.status = 'OPEN' and a.overdue_notified_at is null and a.due_at < ?
          and not p.deleted and p.status = 'ONGOING'
       returning a.id, a.client_id, a.type, a.language_code, a.assignee_user_id, a.assignee_group_id, a.due_at,
                 p.name, p.dictionary_ids[1] as dictionary_id, p.coordinator_ids),
     recipients as (
       select distinct d.*, r.user_id from due d cross join lateral (
         select d.assignee_user_id as user_id where d.assignee_user_id is not null
         union select gm.user_id from group_members gm where gm.group_id = d.assignee_group_id
         union select unnest(d.coordinator_ids)) r
        where r.user_id is not null),
     queued as (
       insert into workflow_notifications (client_id, user_id, dictionary_id, subject, body)
       select client_id, user_id, dictionary_id,
              'Assignment overdue: ' || name,
              'The ' || lower(type) || ' assignment ' || id || coalesce(' (' || language_code || ')', '') ||
              ' of the project "' || name || '" was due ' || to_char(due_at at time zone 'utc', 'YYYY-MM-DD HH24:MI') ||
              ' UTC and is still open.'
         from recipients)
     select id from due`,
    [now],
  );
  return rows.length;
}

/** Records today's burn-down point of ongoing projects that have none yet. */
export async function recordDailySnapshots(em: EntityManager): Promise<number> {
  const projects = await em.execute<ProjectRow[]>(
    `select * from projects p where p.status = 'ONGOING' and not p.deleted
        and not exists (select 1 from project_snapshots s where s.project_id = p.id and s.day = (now() at time zone 'utc')::date)
      order by p.id limit ?`,
    [SNAPSHOTS_PER_ROUND],
  );
  for (const project of projects) {
    const units = await projectUnits(em, project, { languages: await projectLanguages(em, project) });
    await recordSnapshot(em, project, units);
  }
  return projects.length;
}
