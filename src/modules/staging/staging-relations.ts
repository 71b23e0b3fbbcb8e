/**
 * Relations between staged entries (docs/staging.md, "Relations between staged entries"). Accepting
 * runs the import's own relation step on the accepted entries: TBX and MultiTerm cross-references go
 * through writeRelations (resolved as an import resolves them: by the file's ids, concept and term
 * oids), SKOS broader/narrower/related through writeSkosRelations. A link whose other end is an entry
 * still PENDING in the same area is no error: it waits in staging_pending_relations, and accepting that
 * entry later makes the relation; rejecting it drops what waited for it.
 */

import { BROADER, RELATED, type RelationPair, writeSkosRelations } from '../skos/skos-import-relations.js';
import { type ImportContext, sql } from '../tbx/tbx-import-context.js';
import { writeRelations } from '../tbx/tbx-import-relations.js';
import type { AreaRow } from './staging-access.js';
import type { StagedLink } from './staging-intake.js';

type LinkKind = StagedLink['kind'] | 'crossReference';

/** An accepted entry as the relation step needs it. */
export interface AcceptedEntry {
  id: number;
  entryId: string | null;
  links: StagedLink[] | null;
  conceptId: number;
}

/** The relation a link from `self` to `other` makes (as the SKOS import and writeRelations make them). */
function pairOf(kind: LinkKind, self: number, other: number, text: string | null = null): RelationPair {
  switch (kind) {
    case 'broader':
      return { source: self, target: other, ...BROADER };
    case 'narrower':
      return { source: other, target: self, ...BROADER };
    default:
      return { source: self, target: other, ...RELATED, text };
  }
}

/** Links of the area to PENDING entries named `target` wait; answers the targets that are such entries. */
async function pendingTargets(ctx: ImportContext, area: AreaRow, targets: readonly string[]) {
  if (targets.length === 0) return new Set<string>();
  const rows = await sql<{ entry_id: string }[]>(
    ctx.em,
    `select distinct entry_id from staged_entries
      where staging_area_id = ? and status = 'PENDING' and entry_id = any(?::text[])`,
    [area.id, [...new Set(targets)]],
  );
  return new Set(rows.map((row) => row.entry_id));
}

/**
 * The relation step of one accept run (inside its transaction, after the entries are written):
 * cross-references, SKOS links, and the links that waited for the entries accepted now.
 */
export async function acceptedRelations(
  ctx: ImportContext,
  area: AreaRow,
  accepted: readonly AcceptedEntry[],
): Promise<void> {
  const acceptedIds = accepted.map((entry) => entry.id);
  // 1. Cross-references (written to tbx_xrefs by the import's merge): the import's resolution; those
  // naming an entry still PENDING in the area (and not accepted now) wait instead of being reported.
  await writeRelations(ctx, async () => {
    await sql(
      ctx.em,
      `with waiting as (
         delete from tbx_xrefs x where x.target_id is null and exists (
           select 1 from staged_entries s where s.staging_area_id = ? and s.status = 'PENDING'
              and s.entry_id = x.target and s.id <> all(?::int[]))
         returning x.line, x.source_concept_id, x.target, x.text)
       insert into staging_pending_relations (client_id, staging_area_id, source_entry_id, source_concept_id,
         target_entry_id, kind, text)
       select ?, ?, w.line, w.source_concept_id, w.target, 'crossReference', w.text from waiting w
        where exists (select 1 from staged_entries s where s.id = w.line)`,
      [area.id, acceptedIds, ctx.clientId, area.id],
    );
  });

  // 2. SKOS links of the accepted entries: to an entry accepted now, a concept of the dictionary with
  // that IRI (an entry accepted before), or an entry still PENDING in the area (waits).
  const byEntryId = new Map<string, number>();
  for (const entry of accepted) if (entry.entryId) byEntryId.set(entry.entryId, entry.conceptId);
  const wanted = accepted.flatMap((entry) =>
    (entry.links ?? []).map((link) => link.target).filter((target) => !byEntryId.has(target)),
  );
  const existing = new Map<string, number>();
  if (wanted.length) {
    const rows = await sql<{ id: number; oid: string }[]>(
      ctx.em,
      `select id, oid from concepts where client_id = ? and dictionary_id = ? and not deleted and oid = any(?::text[])`,
      [ctx.clientId, ctx.dictionaryId, [...new Set(wanted)]],
    );
    for (const row of rows) existing.set(row.oid, row.id);
  }
  const waiting = await pendingTargets(
    ctx,
    area,
    wanted.filter((target) => !existing.has(target)),
  );
  const pairs: RelationPair[] = [];
  const parked: { source_entry_id: number; source_concept_id: number; target: string; kind: LinkKind }[] = [];
  for (const entry of accepted) {
    for (const link of entry.links ?? []) {
      const other = byEntryId.get(link.target) ?? existing.get(link.target);
      if (other !== undefined) pairs.push(pairOf(link.kind, entry.conceptId, other));
      else if (waiting.has(link.target)) {
        parked.push({
          source_entry_id: entry.id,
          source_concept_id: entry.conceptId,
          target: link.target,
          kind: link.kind,
        });
      } else {
        ctx.error(
          entry.id,
          `skos:${link.kind} ${link.target} is no concept of the dictionary nor an entry of the staging area`,
        );
      }
    }
  }
  if (parked.length) {
    await sql(
      ctx.em,
      `insert into staging_pending_relations (client_id, staging_area_id, source_entry_id, source_concept_id,
         target_entry_id, kind)
       select ?, ?, x.source_entry_id, x.source_concept_id, x.target, x.kind
         from jsonb_to_recordset(?::jsonb) as x(source_entry_id int, source_concept_id int, target text, kind text)`,
      [ctx.clientId, area.id, JSON.stringify(parked)],
    );
  }

  // 3. Links that waited for the entries accepted now (from either format), made and no longer waiting.
  if (byEntryId.size) {
    const resolved = await sql<
      { source_concept_id: number; target_entry_id: string; kind: LinkKind; text: string | null }[]
    >(
      ctx.em,
      `delete from staging_pending_relations p where p.staging_area_id = ? and p.target_entry_id = any(?::text[])
       returning p.source_concept_id, p.target_entry_id, p.kind, p.text`,
      [area.id, [...byEntryId.keys()]],
    );
    const live = resolved.length
      ? new Set(
          (
            await sql<{ id: number }[]>(
              ctx.em,
              'select id from concepts where id = any(?::int[]) and not deleted',
              [resolved.map((row) => row.source_concept_id)],
            )
          ).map((row) => row.id),
        )
      : new Set<number>();
    for (const row of resolved) {
      if (!live.has(row.source_concept_id)) continue;
      pairs.push(pairOf(row.kind, row.source_concept_id, byEntryId.get(row.target_entry_id)!, row.text));
    }
  }
  await writeSkosRelations(ctx, pairs);
}

/** Rejected entries: the links waiting for them are dropped unless another PENDING entry has their id. */
export async function dropWaitingFor(em: ImportContext['em'], area: AreaRow, rejectedIds: readonly number[]) {
  if (rejectedIds.length === 0) return;
  await sql(
    em,
    `delete from staging_pending_relations p
      where p.staging_area_id = ?
        and p.target_entry_id in (select s.entry_id from staged_entries s where s.id = any(?::int[]) and s.entry_id is not null)
        and not exists (select 1 from staged_entries o where o.staging_area_id = p.staging_area_id
              and o.status = 'PENDING' and o.entry_id = p.target_entry_id)`,
    [area.id, [...rejectedIds]],
  );
}
