/**
 * Cross-references of a TBX import: kept while the file is read, they become ASSOCIATIVE relations
 * once the whole file is in, and this import's history snapshots then show them.
 */
import { allocateSerials } from '../concept/concept-serials.js';
import { type ImportContext, MAX_ERRORS, sql } from './tbx-import-context.js';

/**
 * Creates the temporary tables writeRelations reads (dropped at the commit). A staging area's accept runs
 * several imports in one transaction (one per merge mode), so the tables of an earlier run go first.
 */
export async function prepareRelations(ctx: ImportContext) {
  await sql(
    ctx.em,
    'drop table if exists pg_temp.tbx_xrefs, pg_temp.tbx_history, pg_temp.tbx_relations, pg_temp.tbx_new_relations',
  );
  // Cross-references wait here for the end of the file; the history items of this import are listed
  // so that relations made at the end appear in their snapshots.
  await sql(
    ctx.em,
    'create temporary table tbx_xrefs (n serial, source_concept_id int not null, target text not null, text text, line int not null, of_term text, target_id int) on commit drop',
  );
  await sql(
    ctx.em,
    'create temporary table tbx_history (concept_id int not null, history_id int not null, action text not null) on commit drop',
  );
}

/**
 * Each crossReference names an entry (or a term) of the file or of the dictionary: it becomes one
 * ASSOCIATIVE relation (both directions of a pair count once; existing relations are not doubled).
 * Snapshots of this import's history items then show the relations.
 */
export async function writeRelations(
  ctx: ImportContext,
  /** Runs once targets are resolved, before the unresolved are reported (staging keeps some waiting). */
  beforeReport?: (ctx: ImportContext) => Promise<void>,
) {
  const [pending] = await sql<{ n: number }[]>(ctx.em, 'select count(*)::int as n from tbx_xrefs');
  if (!pending?.n) return;
  const scope = [ctx.clientId, ctx.dictionaryId];
  // Ids of the file stored under the original ids an export carried (tbx-original-ids.ts) come first.
  await sql(
    ctx.em,
    'update tbx_xrefs x set target_id = (select f.concept_id from tbx_file_ids f where f.file_id = x.target limit 1)',
  );
  await sql(
    ctx.em,
    `update tbx_xrefs x set target_id = (select c.id from concepts c where c.client_id = ? and c.dictionary_id = ?
       and c.oid = x.target and not c.deleted order by c.id desc limit 1) where x.target_id is null`,
    scope,
  );
  await sql(
    ctx.em,
    `update tbx_xrefs x set target_id = (select t.concept_id from terms t where t.client_id = ? and t.dictionary_id = ?
       and t.oid = x.target and not t.deleted order by t.id desc limit 1) where x.target_id is null`,
    scope,
  );
  await sql(
    ctx.em,
    `update tbx_xrefs x set target_id = c.id from concepts c
      where x.target_id is null and x.target ~ '^concept-[0-9]{1,9}$' and c.id = substring(x.target from 9)::int
        and c.dictionary_id = ? and c.oid is null and not c.deleted`,
    [ctx.dictionaryId],
  );
  await beforeReport?.(ctx);
  const unresolved = await sql<{ line: number; target: string }[]>(
    ctx.em,
    `select line, target from tbx_xrefs where target_id is null order by n limit ${MAX_ERRORS}`,
  );
  const [missing] = await sql<{ n: number }[]>(
    ctx.em,
    'select count(*)::int as n from tbx_xrefs where target_id is null',
  );
  for (const row of unresolved) {
    ctx.error(
      row.line,
      `crossReference target "${row.target}" is no entry or term of the file or the dictionary`,
    );
  }
  ctx.errorCount += (missing?.n ?? 0) - unresolved.length;
  // A link from a concept to itself or one of its own terms: no relation can hold it.
  await report(
    ctx,
    'x.target_id = x.source_concept_id',
    'false',
    (row) =>
      `${row.of_term ?? `crossReference -> ${row.target}`} names its own concept (or one of its terms): not kept, as a relation joins two concepts`,
  );

  await sql(
    ctx.em,
    `create temporary table tbx_relations on commit drop as
     select row_number() over (order by s.n)::int as k, s.n, s.source_concept_id, s.target_id, s.text from (
       select distinct on (least(x.source_concept_id, x.target_id), greatest(x.source_concept_id, x.target_id)) x.*
         from tbx_xrefs x
        where x.target_id is not null and x.target_id <> x.source_concept_id
          and not exists (select 1 from concept_relations r
                where (r.source_concept_id = x.source_concept_id and r.target_concept_id = x.target_id)
                   or (r.source_concept_id = x.target_id and r.target_concept_id = x.source_concept_id))
        order by least(x.source_concept_id, x.target_id), greatest(x.source_concept_id, x.target_id), x.n) s`,
  );
  // A term's link: kept as its concept's relation, or merged into the relation the two concepts have.
  await report(
    ctx,
    'x.of_term is not null and x.target_id <> x.source_concept_id',
    'x.n in (select r.n from tbx_relations r)',
    (row) =>
      row.kept
        ? `${row.of_term} is kept as a relation of its concept`
        : `${row.of_term} is merged into the relation its concept already has with that concept`,
  );
  const [count] = await sql<{ n: number }[]>(ctx.em, 'select count(*)::int as n from tbx_relations');
  if (!count?.n) return;
  const serials = await allocateSerials(ctx.em, ctx.dictionaryId, { relationId: count.n });
  await sql(
    ctx.em,
    `create temporary table tbx_new_relations on commit drop as
     with written as (
       insert into concept_relations (client_id, dictionary_id, source_concept_id, target_concept_id, type, attribute, text, relation_id, created_at, created_by_id)
       select ?, ?, r.source_concept_id, r.target_id, 4, 11, r.text, ? + r.k - 1, now(), ?
         from tbx_relations r
       returning id, relation_id, source_concept_id, target_concept_id, type, attribute, text)
     select * from written`,
    [ctx.clientId, ctx.dictionaryId, serials.relationId, ctx.scope.actor.userId],
  );
  await showRelationsInHistory(ctx, 'tbx_new_relations');
}

/**
 * This import's history items (tbx_history) show the relations it made at the end (`table`: their rows,
 * as inserted): the snapshots list every relation of the concept, a merge's changes the added ones.
 */
export async function showRelationsInHistory(ctx: ImportContext, table: string) {
  // Each history item looks its concept's new relations up from either end.
  await sql(ctx.em, `create index on ${table} (source_concept_id)`);
  await sql(ctx.em, `create index on ${table} (target_concept_id)`);
  const relationJson = `jsonb_build_object('id', r.id, 'relationId', r.relation_id, 'sourceConceptId', r.source_concept_id,
    'targetConceptId', r.target_concept_id, 'type', r.type, 'attribute', r.attribute, 'text', r.text)`;
  await sql(
    ctx.em,
    `update concept_history h set
       snapshot = jsonb_set(h.snapshot, '{relations}', (
         select coalesce(jsonb_agg(${relationJson} order by r.relation_id), '[]'::jsonb) from concept_relations r
          where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id)),
       changes = case when t.action = 'UPDATE' then h.changes || (
         select coalesce(jsonb_agg(jsonb_build_object('kind', 'ADDED', 'subject', 'RELATION', 'relationId', r.relation_id,
           'after', ${relationJson}) order by r.relation_id), '[]'::jsonb) from ${table} r
          where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id) else h.changes end
     from tbx_history t
     where h.id = t.history_id and exists (select 1 from ${table} n
       where n.source_concept_id = t.concept_id or n.target_concept_id = t.concept_id)`,
  );
}

/**
 * One error per cross-reference `where` selects (`x`: tbx_xrefs; `kept`: SQL for whether it became a
 * relation), the first MAX_ERRORS said and the rest counted.
 */
async function report(
  ctx: ImportContext,
  where: string,
  kept: string,
  message: (row: { line: number; target: string; of_term: string | null; kept: boolean }) => string,
) {
  const rows = await sql<{ line: number; target: string; of_term: string | null; kept: boolean }[]>(
    ctx.em,
    `select x.line, x.target, x.of_term,
${kept} as kept
       from tbx_xrefs x where ${where} order by x.n limit ${MAX_ERRORS + 1}`,
  );
  for (const row of rows.slice(0, MAX_ERRORS)) ctx.error(row.line, message(row));
  if (rows.length > MAX_ERRORS) {
    const [all] = await sql<{ n: number }[]>(
      ctx.em,
      `select count(*)::int as n from tbx_xrefs x where ${where}`,
    );
    ctx.errorCount += (all?.n ?? 0) - MAX_ERRORS;
  }
}
