/**
 * The units of work of a project: each entry (concept) in each language worked on, with the workflow
 * state that governs it (docs/projects.md, Assignments). One statement resolves them all: the enabled
 * workflow of each dictionary, the state row by the workflow's unit (the concept's under CONCEPT, the
 * language's under LANGUAGE, the first live term's under TERM; no row: the initial state), and whether
 * the concept has a live term in the language.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AssignmentType } from './project.schema.js';
import type { ProjectRow } from './project-access.js';

export interface Unit {
  conceptId: number;
  dictionaryId: number;
  languageCode: string;
  state: string | null;
  category: string | null;
  hasTerm: boolean;
}

interface UnitRow {
  concept_id: number;
  dictionary_id: number;
  language_code: string;
  workflow_id: number | null;
  state: string | null;
  category: string | null;
  has_term: boolean;
}

/** The project's languages; none named: every live language of its dictionaries. */
export async function projectLanguages(em: EntityManager, project: ProjectRow): Promise<string[]> {
  if (project.languages.length) return project.languages;
  const rows = await em.execute<{ code: string }[]>(
    `select distinct lower(code) as code from languages where dictionary_id = any(?::int[]) and not deleted order by 1`,
    [`{${project.dictionary_ids.join(',')}}`],
  );
  return rows.map((row) => row.code);
}

export interface UnitOptions {
  languages: readonly string[];
  /** Only concepts of these sections (what the caller reads); null: all. */
  sectionIds?: readonly number[] | null;
  conceptIds?: readonly number[];
}

/** The units of a project, by concept id then language. */
export async function projectUnits(
  em: EntityManager,
  project: ProjectRow,
  options: UnitOptions,
): Promise<Unit[]> {
  if (options.languages.length === 0) return [];
  const where = ['e.project_id = ?', 'not c.deleted'];
  const params: unknown[] = [`{${options.languages.join(',')}}`, project.id];
  if (options.sectionIds) {
    where.push('c.section_id = any(?::int[])');
    params.push(`{${options.sectionIds.join(',')}}`);
  }
  if (options.conceptIds) {
    where.push('e.concept_id = any(?::int[])');
    params.push(`{${options.conceptIds.join(',')}}`);
  }
  const rows = await em.execute<UnitRow[]>(
    `with wf as (select id, dictionary_id, unit from workflows where enabled and not deleted and dictionary_id = any(?::int[])),
          units as (select e.concept_id, e.dictionary_id, l.code as language_code
                      from project_entries e join concepts c on c.id = e.concept_id
                      cross join unnest(?::text[]) as l(code)
                     where ${where.join(' and ')})
     select u.concept_id, u.dictionary_id, u.language_code, wf.id as workflow_id, s.state, s.category,
            exists (select 1 from terms t where t.concept_id = u.concept_id and not t.deleted
                      and lower(t.language_code) = u.language_code) as has_term
       from units u left join wf on wf.dictionary_id = u.dictionary_id
       left join lateral (
         select s.state, s.category from workflow_entry_states s
          where s.workflow_id = wf.id and s.concept_id = u.concept_id
            and s.language_code = case wf.unit when 'CONCEPT' then '' else u.language_code end
            and (wf.unit = 'TERM' or s.term_id = 0)
            and (wf.unit <> 'TERM' or s.term_id in (select t.id from terms t where t.concept_id = u.concept_id and not t.deleted))
          order by s.term_id limit 1) s on true
      order by u.concept_id, u.language_code`,
    [`{${project.dictionary_ids.join(',')}}`, ...params],
  );
  const initial = await initialStates(em, rows);
  return rows.map((row) => {
    const start = row.workflow_id !== null ? initial.get(row.workflow_id) : undefined;
    return {
      conceptId: row.concept_id,
      dictionaryId: row.dictionary_id,
      languageCode: row.language_code,
      state: row.state ?? start?.state ?? null,
      category: row.category ?? start?.category ?? null,
      hasTerm: row.has_term,
    };
  });
}

/** The initial state (and its category) of each workflow met: where entries without a row are. */
async function initialStates(em: EntityManager, rows: readonly UnitRow[]) {
  const ids = [...new Set(rows.map((row) => row.workflow_id).filter((id): id is number => id !== null))];
  const found = new Map<number, { state: string; category: string }>();
  if (ids.length === 0) return found;
  const workflows = await em.execute<{ id: number; initial: string; category: string | null }[]>(
    `select w.id, w.definition->>'initialState' as initial,
            (select s->>'category' from jsonb_array_elements(w.definition->'states') s
              where s->>'key' = w.definition->>'initialState' limit 1) as category
       from workflows w where w.id = any(?::int[])`,
    [`{${ids.join(',')}}`],
  );
  for (const row of workflows) found.set(row.id, { state: row.initial, category: row.category ?? 'DRAFT' });
  return found;
}

const REVISED = new Set(['REVIEW', 'APPROVED', 'REJECTED', 'RETIRED']);
const VALIDATED = new Set(['APPROVED', 'REJECTED', 'RETIRED']);

/** Whether a unit counts as done for an assignment type (docs/projects.md, the table of Progress). */
export function isDone(type: AssignmentType, unit: Unit): boolean {
  switch (type) {
    case 'DRAFTING':
      return unit.category !== null && unit.category !== 'DRAFT';
    case 'TRANSLATION':
      return unit.hasTerm;
    case 'REVISION':
      return unit.category !== null && REVISED.has(unit.category);
    case 'VALIDATION':
      return unit.category !== null && VALIDATED.has(unit.category);
  }
}
