/**
 * A project's entries (docs/projects.md, Entries): concepts of its dictionaries added by ids, by a filter
 * or by a saved query, listed with their workflow states; and the projects a concept belongs to.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { toPage } from '../../shared/paging.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { readableSectionIds } from '../access/access.service.js';
import { readableConcepts } from '../concept/concept-access.js';
import { recordProjectEvent } from '../events/project-events.js';
import { getFilter } from '../filter/filter.service.js';
import type { FilterCriteria } from '../filter/filter-criteria.js';
import { andSql, criteriaSql, type Sql } from '../filter/filter-sql.js';
import { savedQueryConcepts } from '../saved-query/saved-query-concepts.js';
import type { AddEntriesInput, ProjectEntryListInput } from './project.schema.js';
import {
  dictionaryRights,
  groupIdsLiteral,
  managedProject,
  ms,
  type ProjectRow,
  readableProject,
} from './project-access.js';
import { projectLanguages, projectUnits } from './project-units.js';

/** Hits a saved query adds at most. */
const SAVED_QUERY_LIMIT = 10_000;
const ints = (ids: Iterable<number>) => `{${[...ids].join(',')}}`;
/** Conditions joined by `and` (andSql prefixes each with ` and `). */
const allOf = (conditions: readonly Sql[]): Sql => {
  const joined = andSql(conditions);
  return { text: `true${joined.text}`, params: joined.params };
};

/** The sections of the project's dictionaries the caller reads. */
export async function projectSections(scope: Scope, project: ProjectRow): Promise<number[]> {
  return [...(await readableSectionIds(scope, project.dictionary_ids))];
}

export async function listEntries(scope: Scope, input: ProjectEntryListInput) {
  const { project } = await readableProject(scope, input.id);
  const sections = await projectSections(scope, project);
  const where = ['e.project_id = ?', 'not c.deleted', 'c.section_id = any(?::int[])'];
  const params: unknown[] = [project.id, ints(sections)];
  if (input['language-code']) {
    where.push(
      `exists (select 1 from terms t where t.concept_id = e.concept_id and not t.deleted and lower(t.language_code) = ?)`,
    );
    params.push(input['language-code']);
  }
  if (input.state) {
    where.push(`exists (select 1 from workflow_entry_states s join workflows w on w.id = s.workflow_id and w.enabled
                 where s.concept_id = e.concept_id and s.state = ?)`);
    params.push(input.state);
  }
  const condition = where.join(' and ');
  const [count] = await scope.em.execute<{ n: number }[]>(
    `select count(*)::int as n from project_entries e join concepts c on c.id = e.concept_id where ${condition}`,
    params,
  );
  const rows = await scope.em.execute<
    {
      concept_id: number;
      dictionary_id: number;
      added_at: Date;
      added_by_id: number | null;
      languages: string[];
    }[]
  >(
    `select e.concept_id, e.dictionary_id, e.added_at, e.added_by_id,
            array(select distinct lower(t.language_code) from terms t where t.concept_id = e.concept_id and not t.deleted order by 1) as languages
       from project_entries e join concepts c on c.id = e.concept_id
      where ${condition} order by e.concept_id limit ? offset ?`,
    [...params, input.size, input.page * input.size],
  );
  const units = await projectUnits(scope.em, project, {
    languages: await projectLanguages(scope.em, project),
    conceptIds: rows.map((row) => row.concept_id),
  });
  const content = rows.map((row) => ({
    conceptId: row.concept_id,
    dictionaryId: row.dictionary_id,
    addedAt: ms(row.added_at)!,
    addedById: row.added_by_id,
    languages: row.languages,
    states: units
      .filter((unit) => unit.conceptId === row.concept_id)
      .map((unit) => ({ languageCode: unit.languageCode, state: unit.state, category: unit.category })),
  }));
  return toPage(
    content,
    count?.n ?? 0,
    { size: input.size, page: input.page, offset: input.page * input.size },
    null,
  );
}

/** Inserts the concepts a condition on `c` keeps, among the project's dictionaries and readable sections. */
async function insertWhere(
  em: EntityManager,
  scope: Scope,
  project: ProjectRow,
  sections: number[],
  where: Sql,
) {
  const inserted = await em.execute<{ concept_id: number }[]>(
    `insert into project_entries (client_id, project_id, concept_id, dictionary_id, added_by_id)
     select c.client_id, ?, c.id, c.dictionary_id, ? from concepts c
      where c.client_id = ? and not c.deleted and c.dictionary_id = any(?::int[]) and c.section_id = any(?::int[])
        and ${where.text}
     on conflict (project_id, concept_id) do nothing returning concept_id`,
    [
      project.id,
      scope.actor.userId,
      scope.actor.clientId,
      ints(project.dictionary_ids),
      ints(sections),
      ...where.params,
    ],
  );
  return inserted.length;
}

/** The concept ids of a saved query's search in the project's dictionaries, first hits only. */
async function savedQueryIds(scope: Scope, project: ProjectRow, savedQueryId: number) {
  const selection = await savedQueryConcepts(
    scope,
    savedQueryId,
    project.dictionary_ids,
    SAVED_QUERY_LIMIT,
    'savedQueryId',
  );
  return selection.conceptIds;
}

export async function addEntries(scope: Scope, input: AddEntriesInput) {
  const { project } = await readableProject(scope, input.id);
  await managedProject(scope, input.id);
  const sections = await projectSections(scope, project);
  let where: Sql;
  let asked: number | null = null;
  if (input.filterId !== undefined) {
    const filter: { id: number; dictionaryId?: number; criteria?: FilterCriteria } = await getFilter(
      scope,
      input.filterId,
      'FULL',
      false,
    );
    if (!filter.dictionaryId || !project.dictionary_ids.includes(filter.dictionaryId) || !filter.criteria) {
      throw new AppError(
        'BAD_REQUEST',
        `filterId: filter ${input.filterId} is not of a dictionary of the project`,
      );
    }
    const conceptWhere: Sql[] = [{ text: 'c.dictionary_id = ?', params: [filter.dictionaryId] }];
    const termWhere: Sql[] = [];
    await criteriaSql(scope.em, filter.dictionaryId, filter.criteria, conceptWhere, termWhere);
    if (termWhere.length) {
      const terms = allOf(termWhere);
      conceptWhere.push({
        text: `exists (select 1 from terms t where t.concept_id = c.id and not t.deleted and ${terms.text})`,
        params: terms.params,
      });
    }
    where = allOf(conceptWhere);
  } else {
    const ids =
      input.savedQueryId !== undefined
        ? await savedQueryIds(scope, project, input.savedQueryId)
        : (input.conceptIds ?? []);
    asked = ids.length;
    where = { text: 'c.id = any(?::int[])', params: [ints(ids)] };
  }
  const added = await scope.em.transactional(async (em) => {
    const count = await insertWhere(em, scope, project, sections, where);
    if (count > 0)
      await recordProjectEvent(em, scope, 'project.entries.changed', project.id, { added: count });
    return count;
  });
  return { added, removed: 0, skipped: asked === null ? 0 : asked - added };
}

export async function removeEntries(scope: Scope, input: { id: number; conceptIds: number[] }) {
  await managedProject(scope, input.id);
  const removed = await scope.em.transactional(async (em) => {
    const rows = await em.execute<{ concept_id: number }[]>(
      'delete from project_entries where project_id = ? and concept_id = any(?::int[]) returning concept_id',
      [input.id, ints(new Set(input.conceptIds))],
    );
    if (rows.length > 0) {
      await recordProjectEvent(em, scope, 'project.entries.changed', input.id, { removed: rows.length });
    }
    return rows;
  });
  return { added: 0, removed: removed.length, skipped: new Set(input.conceptIds).size - removed.length };
}

/** The projects the caller may see that hold the concept; the concept must be readable (404 otherwise). */
export async function conceptProjects(scope: Scope, conceptId: number) {
  return (await conceptProjectsMany(scope, [conceptId])).get(conceptId) ?? [];
}

/** conceptProjects for many concepts in two statements (the GraphQL dataloader's batch). */
export async function conceptProjectsMany(scope: Scope, conceptIds: readonly number[]) {
  const readable = (await readableConcepts(scope, conceptIds)).map((loaded) => loaded.concept.id);
  if (conceptIds.length === 1 && readable.length === 0) throw notFound('Concept', conceptIds[0]);
  const rows = await scope.em.execute<
    (Pick<ProjectRow, 'id' | 'name' | 'status' | 'due_at' | 'coordinator_ids' | 'dictionary_ids'> & {
      concept_id: number;
    })[]
  >(
    `select e.concept_id, p.id, p.name, p.status, p.due_at, p.coordinator_ids, p.dictionary_ids
       from project_entries e join projects p on p.id = e.project_id
      where e.concept_id = any(?::int[]) and p.client_id = ? and not p.deleted
        and (? or p.coordinator_ids @> array[?::int]
             or exists (select 1 from project_assignments a where a.project_id = p.id
                          and (a.assignee_user_id = ? or a.assignee_group_id = any(?::int[])))
             or p.dictionary_ids <@ ?::int[])
      order by p.name, p.id`,
    [
      ints(readable),
      scope.actor.clientId,
      isClientAdmin(scope.actor),
      scope.actor.userId,
      scope.actor.userId,
      await groupIdsLiteral(scope),
      ints(await visibleDictionaries(scope)),
    ],
  );
  const found = new Map<
    number,
    { id: number; name: string; status: ProjectRow['status']; dueAt: number | null }[]
  >();
  for (const row of rows) {
    const list = found.get(row.concept_id) ?? [];
    list.push({ id: row.id, name: row.name, status: row.status, dueAt: ms(row.due_at) });
    found.set(row.concept_id, list);
  }
  return found;
}

async function visibleDictionaries(scope: Scope) {
  const rights = await dictionaryRights(scope);
  return new Set([...rights.readable, ...rights.administered]);
}
