/**
 * Filter criteria (docs/filters.md) as SQL conditions, shared by the TBX export and term search. The
 * conditions use the aliases `c` (concepts) and `t` (terms).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../shared/sql.js';
import { fieldsOf } from '../field/field.service.js';
import { parseFilterDate } from '../field/field-validation.js';
import { enabledWorkflows, type GoverningWorkflow } from '../workflow/workflow-effects.js';
import { conceptStatesSql, termStatesSql } from '../workflow/workflow-state-sql.js';
import type { FilterCriteria } from './filter-criteria.js';

export type { Sql };

/** Conditions joined with `and`, each prefixed by ` and ` (empty when there are none). */
export const andSql = (conditions: readonly Sql[]): Sql => ({
  text: conditions.map((c) => ` and (${c.text})`).join(''),
  params: conditions.flatMap((c) => c.params),
});

/**
 * The criteria of a filter (docs/filters.md) as conditions on concepts (`c`) and, for languages, on
 * the terms written (`t`): sections, domains (with subdomains), languages, field conditions, created
 * and changed ranges and users, and workflow states (on `c` or `t`, by the workflow's unit).
 */
export async function criteriaSql(
  em: EntityManager,
  dictionaryId: number,
  criteria: FilterCriteria,
  conceptWhere: Sql[],
  termWhere: Sql[],
) {
  if (criteria.sectionOids.length) {
    conceptWhere.push({
      text: 'c.section_id in (select id from sections where dictionary_id = ? and oid in (?))',
      params: [dictionaryId, criteria.sectionOids],
    });
  }
  if (criteria.domainOids.length) {
    const domains = await em.execute<{ id: number; oid: string | null; parent_id: number | null }[]>(
      'select id, oid, parent_id from domains where dictionary_id = ? and not deleted',
      [dictionaryId],
    );
    const chosen = new Set(
      domains.filter((d) => d.oid && criteria.domainOids.includes(d.oid)).map((d) => d.id),
    );
    if (criteria.includeSubdomains) {
      for (let grown = true; grown; ) {
        grown = false;
        for (const domain of domains) {
          if (domain.parent_id !== null && chosen.has(domain.parent_id) && !chosen.has(domain.id)) {
            chosen.add(domain.id);
            grown = true;
          }
        }
      }
    }
    conceptWhere.push({
      text: 'exists (select 1 from concept_domains cd where cd.concept_id = c.id and cd.domain_id in (?))',
      params: [chosen.size ? [...chosen] : [0]],
    });
  }
  if (criteria.languages.length) {
    const selectors = criteria.languages.map((selector) => {
      const [code = '', region = '', script = ''] = selector.split(';');
      const parts: Sql[] = [{ text: 'lower(t.language_code) = ?', params: [code.toLowerCase()] }];
      if (region) parts.push({ text: 'lower(t.region_code) = ?', params: [region.toLowerCase()] });
      if (script) parts.push({ text: 'lower(t.script_code) = ?', params: [script.toLowerCase()] });
      return { text: parts.map((p) => p.text).join(' and '), params: parts.flatMap((p) => p.params) };
    });
    termWhere.push({
      text: selectors.map((s) => `(${s.text})`).join(' or '),
      params: selectors.flatMap((s) => s.params),
    });
  }
  if (criteria.fieldConditions.length) {
    const { fields } = await fieldsOf(em, [dictionaryId]);
    const conditions = criteria.fieldConditions.map((condition) => {
      const field = fields.find((f) => f.oid === condition.fieldOid);
      const test = fieldTest(condition.operator, condition.value ?? '');
      if (!field || field.level === 'CONCEPT') {
        return {
          text: test.text.replaceAll('$map', 'c.field_map'),
          params: [condition.fieldOid, ...test.params],
        };
      }
      return {
        text: `exists (select 1 from terms ft where ft.concept_id = c.id and not ft.deleted and ${test.text.replaceAll('$map', 'ft.field_map')})`,
        params: [condition.fieldOid, ...test.params],
      };
    });
    conceptWhere.push({
      text: conditions.map((c) => `(${c.text})`).join(criteria.match === 'ANY' ? ' or ' : ' and '),
      params: conditions.flatMap((c) => c.params),
    });
  }
  for (const [key, column] of [
    ['created', 'c.created_at'],
    ['changed', 'c.changed_at'],
  ] as const) {
    const range = criteria[key];
    const from = range?.from ? parseFilterDate(range.from) : null;
    const to = range?.to ? parseFilterDate(range.to) : null;
    if (from) conceptWhere.push({ text: `${column} >= ?::timestamptz`, params: [from.toISOString()] });
    if (to) {
      // A day without a time covers the whole day.
      const wholeDay = /^\s*(\d{4}-\d{2}-\d{2}|\d{8})\s*$/.test(range?.to ?? '');
      conceptWhere.push({
        text: wholeDay ? `${column} < ?::timestamptz` : `${column} <= ?::timestamptz`,
        params: [(wholeDay ? new Date(to.getTime() + 86_400_000) : to).toISOString()],
      });
    }
  }
  if (criteria.createdBy.length) {
    conceptWhere.push({ text: 'c.created_by_id in (?)', params: [criteria.createdBy] });
  }
  if (criteria.changedBy.length) {
    conceptWhere.push({ text: 'c.changed_by_id in (?)', params: [criteria.changedBy] });
  }
  // Stored criteria from before workflow states were a criterion lack the member.
  if (criteria.workflowStates?.length) {
    const workflow = (await enabledWorkflows(em, [dictionaryId])).get(dictionaryId);
    if (!workflow) conceptWhere.push({ text: 'false', params: [] });
    else
      (workflow.unit === 'CONCEPT' ? conceptWhere : termWhere).push(
        stateSql(workflow, criteria.workflowStates),
      );
  }
}

/** The keys that none of the workflows has. */
export function unknownStates(keys: readonly string[], workflows: readonly GoverningWorkflow[]): string[] {
  const known = new Set(
    workflows.flatMap((workflow) => workflow.definition.states.map((state) => state.key)),
  );
  return keys.filter((key) => !known.has(key));
}

/**
 * Entries in one of the `wanted` states (workflow-state-sql.ts): a concept `c` for the CONCEPT unit, else
 * a term `t` (its language's entry, or its own). Only the definition's keys reach the SQL; wanted keys
 * it lacks select nothing.
 */
function stateSql(workflow: GoverningWorkflow, wanted: readonly string[]): Sql {
  const keys = workflow.definition.states.map((state) => state.key);
  const selection = {
    workflowId: workflow.id,
    unit: workflow.unit,
    initialState: workflow.definition.initialState,
    listed: keys.filter((key) => wanted.includes(key)),
    unlisted: keys.filter((key) => !wanted.includes(key)),
  };
  return workflow.unit === 'CONCEPT' ? conceptStatesSql(selection) : termStatesSql(selection);
}

/** One field condition on the values of `$map -> oid` (the oid is the first parameter). */
function fieldTest(operator: FilterCriteria['fieldConditions'][number]['operator'], value: string): Sql {
  const values = `jsonb_array_elements_text(coalesce($map -> ?, '[]'::jsonb))`;
  switch (operator) {
    case 'EQUALS':
      return { text: `exists (select 1 from ${values} v where lower(v) = lower(?))`, params: [value] };
    case 'NOT_EQUALS':
      return { text: `not exists (select 1 from ${values} v where lower(v) = lower(?))`, params: [value] };
    case 'CONTAINS':
      return {
        text: `exists (select 1 from ${values} v where strpos(lower(v), lower(?)) > 0)`,
        params: [value],
      };
    case 'STARTS_WITH':
      return {
        text: `exists (select 1 from ${values} v where starts_with(lower(v), lower(?)))`,
        params: [value],
      };
    case 'EMPTY':
      return { text: `not exists (select 1 from ${values} v where v <> '')`, params: [] };
    case 'NOT_EMPTY':
      return { text: `exists (select 1 from ${values} v where v <> '')`, params: [] };
    case 'BEFORE':
    case 'AFTER': {
      // Stored dates are yyyy-MM-dd, which compare as text; other values never match.
      const date = parseFilterDate(value);
      const day = date ? date.toISOString().slice(0, 10) : '0001-01-01';
      return {
        text: `exists (select 1 from ${values} v where v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' and v ${operator === 'BEFORE' ? '<' : '>'} ?)`,
        params: [day],
      };
    }
  }
}
