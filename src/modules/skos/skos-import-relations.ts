/**
 * The hierarchy of a SKOS import, written once every concept is in: skos:broader/narrower become GENERIC
 * relations (the narrower concept the source, attribute GENERIC_SUPERORDINATE: "broader (generic)"),
 * skos:related ASSOCIATIVE ones. A pair of concepts gets one relation (broader before related), never one
 * it already has; this import's history snapshots then show them, as after a TBX import.
 */
import { allocateSerials } from '../concept/concept-serials.js';
import { type ImportContext, sql } from '../tbx/tbx-import-context.js';

export interface RelationPair {
  source: number;
  target: number;
  type: number;
  attribute: number;
}

export const BROADER = { type: 0, attribute: 0 } as const;
export const RELATED = { type: 4, attribute: 11 } as const;

/** Writes the relations (set-based); answers how many were made. */
export async function writeSkosRelations(
  ctx: ImportContext,
  pairs: readonly RelationPair[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  await sql(
    ctx.em,
    `create temporary table skos_relations on commit drop as
     select row_number() over (order by s.n)::int as k, s.* from (
       select distinct on (least(p.source, p.target), greatest(p.source, p.target)) p.*
         from json_to_recordset(?::json) as p(n int, source int, target int, type int, attribute int)
        where p.source <> p.target
          and not exists (select 1 from concept_relations r
                where (r.source_concept_id = p.source and r.target_concept_id = p.target)
                   or (r.source_concept_id = p.target and r.target_concept_id = p.source))
        order by least(p.source, p.target), greatest(p.source, p.target), p.n) s`,
    [JSON.stringify(pairs.map((pair, n) => ({ n, ...pair })))],
  );
  const [count] = await sql<{ n: number }[]>(ctx.em, 'select count(*)::int as n from skos_relations');
  if (!count?.n) return 0;
  const serials = await allocateSerials(ctx.em, ctx.dictionaryId, { relationId: count.n });
  await sql(
    ctx.em,
    `create temporary table skos_new_relations on commit drop as
     with written as (
       insert into concept_relations (client_id, dictionary_id, source_concept_id, target_concept_id, type, attribute, relation_id, created_at, created_by_id)
       select ?, ?, r.source, r.target, r.type, r.attribute, ? + r.k - 1, now(), ? from skos_relations r
       returning id, relation_id, source_concept_id, target_concept_id, type, attribute, text)
     select * from written`,
    [ctx.clientId, ctx.dictionaryId, serials.relationId, ctx.scope.actor.userId],
  );
  await sql(ctx.em, 'create index on skos_new_relations (source_concept_id)');
  await sql(ctx.em, 'create index on skos_new_relations (target_concept_id)');
  const relationJson = `jsonb_build_object('id', r.id, 'relationId', r.relation_id, 'sourceConceptId', r.source_concept_id,
    'targetConceptId', r.target_concept_id, 'type', r.type, 'attribute', r.attribute, 'text', r.text)`;
  // tbx_history lists this import's history items (tbx-import-writer.ts writes it).
  await sql(
    ctx.em,
    `update concept_history h set
       snapshot = jsonb_set(h.snapshot, '{relations}', (
         select coalesce(jsonb_agg(${relationJson} order by r.relation_id), '[]'::jsonb) from concept_relations r
          where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id)),
       changes = case when t.action = 'UPDATE' then h.changes || (
         select coalesce(jsonb_agg(jsonb_build_object('kind', 'ADDED', 'subject', 'RELATION', 'relationId', r.relation_id,
           'after', ${relationJson}) order by r.relation_id), '[]'::jsonb) from skos_new_relations r
          where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id) else h.changes end
     from tbx_history t
     where h.id = t.history_id and exists (select 1 from skos_new_relations n
       where n.source_concept_id = t.concept_id or n.target_concept_id = t.concept_id)`,
  );
  return count.n;
}
