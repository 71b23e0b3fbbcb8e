/**
 * The export's reading side: the plan's concepts in id order, a keyset batch per query, with their
 * terms, domains, relations, language fields and (under a workflow) entry states, made into entries.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { languageFieldsOf, tagKey } from '../concept/concept-language-fields.js';
import { andSql, type Sql } from '../filter/filter-sql.js';
import { statesOf } from '../workflow/workflow-effects.js';
import { entryOf } from './tbx-export-entry.js';
import type { ExportPlan } from './tbx-export-plan.js';
import type { FieldParts, Provenance } from './tbx-mapping.js';
import type { TbxEntry } from './tbx-model.js';

/** Concepts read per query. */
const BATCH_SIZE = 500;

export interface ConceptRow {
  id: number;
  oid: string | null;
  field_map: Record<string, string[]>;
  /** How imported values were made: their separate values and links (tbx-mapping.ts). */
  field_parts: FieldParts;
  provenance: Provenance | null;
  created_at: Date;
  changed_at: Date;
  created_by: string | null;
  changed_by: string | null;
}

export interface TermRow extends ConceptRow {
  concept_id: number;
  name: string;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
}

/** The concepts of the plan, in id order, a batch per query (keyset: id > last). */
export async function* conceptEntries(em: EntityManager, plan: ExportPlan): AsyncGenerator<TbxEntry> {
  const conceptFilter = andSql(plan.conceptWhere);
  const termFilter = andSql(plan.termWhere);
  // A concept is written when it has a term left, if languages were restricted.
  const hasTerm: Sql = plan.needsTerms
    ? {
        text: ` and exists (select 1 from terms t where t.concept_id = c.id and not t.deleted${termFilter.text})`,
        params: termFilter.params,
      }
    : { text: '', params: [] };
  let after = 0;
  for (;;) {
    const concepts = await em.execute<ConceptRow[]>(
      `select c.id, c.oid, c.field_map, c.field_parts, c.provenance, c.created_at, c.changed_at, cu.username as created_by, mu.username as changed_by
         from concepts c left join users cu on cu.id = c.created_by_id left join users mu on mu.id = c.changed_by_id
        where c.dictionary_id = ? and not c.deleted and c.section_id in (?) and c.id > ?${conceptFilter.text}${hasTerm.text}
        order by c.id limit ${BATCH_SIZE}`,
      [plan.dictionaryId, plan.sectionIds, after, ...conceptFilter.params, ...hasTerm.params],
    );
    if (concepts.length === 0) return;
    after = concepts[concepts.length - 1]!.id;
    const ids = concepts.map((concept) => concept.id);
    const terms = await em.execute<TermRow[]>(
      `select t.id, t.oid, t.concept_id, t.name, t.language_code, t.region_code, t.script_code, t.field_map, t.field_parts, t.provenance,
              t.created_at, t.changed_at, cu.username as created_by, mu.username as changed_by
         from terms t left join users cu on cu.id = t.created_by_id left join users mu on mu.id = t.changed_by_id
        where t.concept_id in (?) and not t.deleted${termFilter.text}
        order by t.concept_id, t.id`,
      [ids, ...termFilter.params],
    );
    const domains = await em.execute<{ concept_id: number; name: string }[]>(
      `select cd.concept_id, d.name from concept_domains cd join domains d on d.id = cd.domain_id
        where cd.concept_id in (?) and not d.deleted order by cd.concept_id, d.sort_index, d.id`,
      [ids],
    );
    // One relation row shows on both concepts: it is written once, as the source's cross-reference,
    // when its target concept is exported too (a target must be an id of the file).
    const relations = await em.execute<
      { source_concept_id: number; text: string | null; id: number; oid: string | null }[]
    >(
      `select r.source_concept_id, r.text, c.id, c.oid from concept_relations r join concepts c on c.id = r.target_concept_id
        where r.source_concept_id in (?) and not c.deleted and c.section_id in (?)${conceptFilter.text}${hasTerm.text}
        order by r.relation_id`,
      [ids, plan.sectionIds, ...conceptFilter.params, ...hasTerm.params],
    );
    const byConcept = <T extends { concept_id: number }>(rows: readonly T[]) => {
      const map = new Map<number, T[]>();
      for (const row of rows) map.set(row.concept_id, [...(map.get(row.concept_id) ?? []), row]);
      return map;
    };
    const processStatusOf = await processStatuses(em, plan, terms);
    const languageFields = await languageFieldsOf(em, ids);
    const languageParts = await languagePartsOf(em, ids);
    const termsOf = byConcept(terms);
    const domainsOf = byConcept(domains);
    const relationsOf = byConcept(relations.map((r) => ({ ...r, concept_id: r.source_concept_id })));
    for (const concept of concepts) {
      yield entryOf(
        plan,
        concept,
        termsOf.get(concept.id) ?? [],
        domainsOf.get(concept.id) ?? [],
        relationsOf.get(concept.id) ?? [],
        processStatusOf,
        (languageFields.get(concept.id) ?? []).map((fields) => ({
          ...fields,
          fieldParts: languageParts.get(`${concept.id}|${tagKey(fields)}`) ?? {},
        })),
      );
    }
  }
}

/** The parts of the concepts' language fields, by `conceptId|tag` (one query; most rows have none). */
async function languagePartsOf(em: EntityManager, ids: readonly number[]): Promise<Map<string, FieldParts>> {
  const rows = await em.execute<
    {
      concept_id: number;
      language_code: string;
      region_code: string | null;
      script_code: string | null;
      field_parts: FieldParts;
    }[]
  >(
    `select concept_id, language_code, region_code, script_code, field_parts from concept_language_fields
      where concept_id in (?) and field_parts <> '{}'::jsonb`,
    [[...ids]],
  );
  return new Map(
    rows.map((row) => [
      `${row.concept_id}|${tagKey({ languageCode: row.language_code, regionCode: row.region_code, scriptCode: row.script_code })}`,
      row.field_parts,
    ]),
  );
}

/**
 * Under a workflow, the processStatus of each term's entry state by term id (null: the state has none),
 * read for the whole batch in one statement; null without a workflow (stored values are written as is).
 */
async function processStatuses(
  em: EntityManager,
  plan: ExportPlan,
  terms: readonly TermRow[],
): Promise<Map<number, string | null> | null> {
  if (!plan.workflow) return null;
  const states = await statesOf(
    em,
    terms.map((row) => ({
      dictionaryId: plan.dictionaryId,
      conceptId: row.concept_id,
      languageCode: row.language_code,
      termId: row.id,
    })),
    new Map([[plan.dictionaryId, plan.workflow]]),
  );
  return new Map(terms.map((row, index) => [row.id, states[index]?.state.processStatus ?? null]));
}
