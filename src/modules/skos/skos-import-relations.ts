/**
 * The hierarchy of a SKOS import, written once every concept is in: skos:broader/narrower become GENERIC
 * relations (the narrower concept the source, attribute GENERIC_SUPERORDINATE: "broader (generic)"),
 * skos:related ASSOCIATIVE ones. A pair of concepts gets one relation (broader before related), never one
 * it already has; this import's history snapshots then show them, as after a TBX import.
 */
import { allocateSerials } from '../concept/concept-serials.js';
import { type ImportContext, sql } from '../tbx/tbx-import-context.js';
import { showRelationsInHistory } from '../tbx/tbx-import-relations.js';

export interface RelationPair {
  source: number;
  target: number;
  type: number;
  attribute: number;
  /** A cross-reference's text (staging's waiting TBX links); SKOS relations have none. */
  text?: string | null;
}

export const BROADER = { type: 0, attribute: 0 } as const;
export const RELATED = { type: 4, attribute: 11 } as const;

/** Writes the relations (set-based); answers how many were made. */
export async function writeSkosRelations(
  ctx: ImportContext,
  pairs: readonly RelationPair[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  // Accepting staged entries may write relations more than once in one transaction.
  await sql(ctx.em, 'drop table if exists pg_temp.skos_relations, pg_temp.skos_new_relations');
  // These few statements span every concept of the vocabulary (the UNESCO Thesaurus: 10,576 relations,
  // 4,480 history items), so PostgreSQL's cost estimate passes jit_above_cost and it compiles them, which
  // took longer than it saved (about 0.1 s a statement, measured with auto_explain). Off until they ran.
  await sql(ctx.em, 'set local jit = off');
  // The pairs as column arrays: no JSON to build here and to parse there (one element per pair).
  const column = (pick: (pair: RelationPair) => number) => pairs.map(pick);
  await sql(
    ctx.em,
    `create temporary table skos_relations on commit drop as
     select row_number() over (order by s.n)::int as k, s.* from (
       select distinct on (least(p.source, p.target), greatest(p.source, p.target)) p.*
         from unnest(?::int[], ?::int[], ?::int[], ?::int[], ?::text[]) with ordinality as p(source, target, type, attribute, text, n)
        where p.source <> p.target
          and not exists (select 1 from concept_relations r
                where (r.source_concept_id = p.source and r.target_concept_id = p.target)
                   or (r.source_concept_id = p.target and r.target_concept_id = p.source))
        order by least(p.source, p.target), greatest(p.source, p.target), p.n) s`,
    [
      column((pair) => pair.source),
      column((pair) => pair.target),
      column((pair) => pair.type),
      column((pair) => pair.attribute),
      pairs.map((pair) => pair.text ?? null),
    ],
  );
  const [count] = await sql<{ n: number }[]>(ctx.em, 'select count(*)::int as n from skos_relations');
  if (count?.n) {
    const serials = await allocateSerials(ctx.em, ctx.dictionaryId, { relationId: count.n });
    await sql(
      ctx.em,
      `create temporary table skos_new_relations on commit drop as
       with written as (
         insert into concept_relations (client_id, dictionary_id, source_concept_id, target_concept_id, type, attribute, text, relation_id, created_at, created_by_id)
         select ?, ?, r.source, r.target, r.type, r.attribute, r.text, ? + r.k - 1, now(), ? from skos_relations r
         returning id, relation_id, source_concept_id, target_concept_id, type, attribute, text)
       select * from written`,
      [ctx.clientId, ctx.dictionaryId, serials.relationId, ctx.scope.actor.userId],
    );
    await showRelationsInHistory(ctx, 'skos_new_relations');
  }
  await sql(ctx.em, 'set local jit to default');
  return count?.n ?? 0;
}
