/**
 * The set-based SQL of a TBX import: new concepts with all they hold, and the inserts of terms, domain
 * links, history items and pending cross-references that merging shares.
 */
import { allocateSerials } from '../concept/concept-serials.js';
import type {
  ConceptSnapshot,
  HistoryChange,
  HistoryProvenance,
  TermSnapshot,
} from '../history/history.types.js';
import { diffSnapshots } from '../history/history-recorder.js';
import { type ImportContext, sql } from './tbx-import-context.js';
import { mergedLanguageFields } from './tbx-import-language-values.js';
import type { FieldValues, PlannedConcept, PlannedTerm, PlannedXref } from './tbx-import-plan.js';
import { historyProvenance } from './tbx-import-provenance.js';

const iso = (date: Date) => date.toISOString();

/** Writes new concepts with their terms, domain links, CREATE history items and cross-references. */
export async function createConcepts(ctx: ImportContext, fresh: readonly PlannedConcept[]) {
  if (fresh.length === 0) return;
  const termCount = fresh.reduce((sum, concept) => sum + concept.terms.length, 0);
  const serials = await allocateSerials(ctx.em, ctx.dictionaryId, { cid: fresh.length, tid: termCount });
  const now = new Date();
  let cid = serials.cid;
  const conceptRows = fresh.map((concept) => ({
    oid: concept.originalId ?? concept.entryId,
    cid: String(cid++),
    field_map: concept.fieldMap,
    field_parts: concept.fieldParts,
    provenance: concept.provenance,
    created_at: iso(concept.createdAt ?? now),
    changed_at: iso(concept.changedAt ?? concept.createdAt ?? now),
  }));
  const actor = ctx.scope.actor.userId;
  const inserted = await sql<{ id: number; cid: string }[]>(
    ctx.em,
    `insert into concepts (client_id, dictionary_id, section_id, oid, cid, field_map, field_parts, provenance, created_at, created_by_id, changed_at, changed_by_id)
     select ?, ?, ?, x.oid, x.cid, x.field_map, coalesce(x.field_parts, '{}'), x.provenance, x.created_at, ?, x.changed_at, ?
       from jsonb_to_recordset(?::jsonb) as x(oid text, cid text, field_map jsonb, field_parts jsonb, provenance jsonb, created_at timestamptz, changed_at timestamptz)
     returning id, cid`,
    [ctx.clientId, ctx.dictionaryId, ctx.sectionId, actor, actor, JSON.stringify(conceptRows)],
  );
  const idOfCid = new Map(inserted.map((row) => [row.cid, row.id]));
  const conceptIds = conceptRows.map((row) => idOfCid.get(row.cid)!);

  let tid = serials.tid;
  const termRows = fresh.flatMap((concept, index) =>
    concept.terms.map((term) => ({
      concept_id: conceptIds[index]!,
      oid: term.oid,
      name: term.name,
      language_code: term.languageCode,
      region_code: term.regionCode,
      script_code: term.scriptCode,
      tid: tid++,
      field_map: term.fieldMap,
      field_parts: term.fieldParts,
      provenance: term.provenance,
      created_at: iso(term.createdAt ?? concept.createdAt ?? now),
      changed_at: iso(term.changedAt ?? term.createdAt ?? concept.changedAt ?? concept.createdAt ?? now),
    })),
  );
  const termIds = await insertTerms(ctx, termRows);
  // Ids on the plan, for what is written after the concepts (workflow states).
  let written = serials.tid;
  fresh.forEach((concept, index) => {
    concept.writtenId = conceptIds[index]!;
    for (const term of concept.terms) term.writtenId = termIds.get(written++)!;
  });

  await insertDomains(
    ctx,
    fresh.map((concept, index) => [conceptIds[index]!, concept.domainIds]),
  );
  const termsOf = new Map<number, TermSnapshot[]>();
  for (const row of termRows) {
    const list = termsOf.get(row.concept_id) ?? [];
    list.push(termSnapshot(termIds.get(row.tid)!, row.tid, row));
    termsOf.set(row.concept_id, list);
  }
  const history = fresh.map((concept, index) => {
    const id = conceptIds[index]!;
    const terms = termsOf.get(id) ?? [];
    const snapshot: ConceptSnapshot = {
      cid: conceptRows[index]!.cid,
      dictionaryId: ctx.dictionaryId,
      sectionId: ctx.sectionId,
      deleted: false,
      domainIds: [...concept.domainIds].sort((a, b) => a - b),
      fieldMap: concept.fieldMap,
      terms,
      relations: [],
      refLinks: [],
      // Written by the caller after the concepts (writeLanguageFields), part of the concept as created.
      languageFields: mergedLanguageFields([], concept.languageFields),
    };
    return {
      conceptId: id,
      revision: 1,
      action: 'CREATE' as const,
      before: null,
      snapshot,
      provenance: historyProvenance(concept),
    };
  });
  await insertHistory(ctx, history);
  await insertXrefs(
    ctx,
    fresh.map((concept, index) => [conceptIds[index]!, concept.xrefs]),
  );
  await ctx.earlyIndexer?.add(conceptIds);
  ctx.summary.concepts += fresh.length;
  ctx.summary.terms += termRows.length;
}

/**
 * Inserts terms; answers the id of each by its tid. Their stem keys (and lemma and citation keys,
 * where a lexicon stems the language) are computed here, one polyterm_stem_keys and one
 * polyterm_lemma_citation_keys call per language for the whole batch (the row trigger, which leaves a
 * given key alone, would look up the stemming settings once per term).
 */
export async function insertTerms(
  ctx: ImportContext,
  rows: readonly { tid: number }[],
): Promise<Map<number, number>> {
  if (rows.length === 0) return new Map();
  const actor = ctx.scope.actor.userId;
  const inserted = await sql<{ id: number; tid: number }[]>(
    ctx.em,
    `with x as materialized (
       select * from jsonb_to_recordset(?::jsonb) as x(concept_id int, oid text, name text, language_code text, region_code text, script_code text, tid int, field_map jsonb, field_parts jsonb, provenance jsonb, created_at timestamptz, changed_at timestamptz)),
     groups as (
       select array_agg(tid order by tid) as tids, array_agg(name order by tid) as names, language_code from x group by language_code),
     keys as (
       select u.tid, u.stem_key, u.lemma_key, u.citation_key
         from (select g.tids, polyterm_stem_keys(?, g.language_code, g.names) as stem_keys, l.lemma_keys, l.citation_keys
                 from groups g cross join lateral polyterm_lemma_citation_keys(?, g.language_code, g.names) l) k
         cross join unnest(k.tids, k.stem_keys, k.lemma_keys, k.citation_keys) as u(tid, stem_key, lemma_key, citation_key))
     insert into terms (client_id, dictionary_id, concept_id, oid, name, language_code, region_code, script_code, tid, field_map, field_parts, provenance, created_at, created_by_id, changed_at, changed_by_id, stem_key, stem_words, lemma_key, citation_key)
     select ?, ?, x.concept_id, x.oid, x.name, x.language_code, x.region_code, x.script_code, x.tid, x.field_map, coalesce(x.field_parts, '{}'), x.provenance, x.created_at, ?, x.changed_at, ?,
            k.stem_key, case when k.stem_key = '' then 0 else 1 + length(k.stem_key) - length(replace(k.stem_key, ' ', '')) end,
            k.lemma_key, k.citation_key
       from x join keys k on k.tid = x.tid
      order by x.tid
     returning id, tid`,
    [JSON.stringify(rows), ctx.dictionaryId, ctx.dictionaryId, ctx.clientId, ctx.dictionaryId, actor, actor],
  );
  return new Map(inserted.map((row) => [row.tid, row.id]));
}

/** Links concepts to domains (links they have are kept). */
export async function insertDomains(
  ctx: ImportContext,
  links: readonly (readonly [number, ReadonlySet<number>])[],
) {
  const rows = links.flatMap(([conceptId, domainIds]) =>
    [...domainIds].map((domainId) => ({ concept_id: conceptId, domain_id: domainId })),
  );
  if (rows.length === 0) return;
  await sql(
    ctx.em,
    `insert into concept_domains (concept_id, domain_id)
     select x.concept_id, x.domain_id from json_to_recordset(?::json) as x(concept_id int, domain_id int)
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}

/** A history item of a concept the import creates or changes. */
export interface HistoryItem {
  conceptId: number;
  revision: number;
  action: 'CREATE' | 'UPDATE';
  before: ConceptSnapshot | null;
  snapshot: ConceptSnapshot;
  /** Changes besides the snapshots' diff: a merge's re-opening of approved workflow entries. */
  workflow?: HistoryChange[];
  /** Who did what by the file (tbx-import-provenance.ts). */
  provenance: HistoryProvenance | null;
}

/** Writes history items, listed in tbx_history for the relations made at the end. */
export async function insertHistory(ctx: ImportContext, items: readonly HistoryItem[]) {
  if (items.length === 0) return;
  const rows = items.map((item) => ({
    concept_id: item.conceptId,
    revision: item.revision,
    action: item.action,
    changes: [...diffSnapshots(item.before, item.snapshot), ...(item.workflow ?? [])],
    snapshot: item.snapshot,
    provenance: item.provenance,
  }));
  await sql(
    ctx.em,
    `with written as (
       insert into concept_history (client_id, dictionary_id, concept_id, revision, action, user_id, created_at, changes, snapshot, provenance)
       select ?, ?, x.concept_id, x.revision, x.action, ?, now(), x.changes, x.snapshot, x.provenance
         from jsonb_to_recordset(?::jsonb) as x(concept_id int, revision int, action text, changes jsonb, snapshot jsonb, provenance jsonb)
       returning id, concept_id, action)
     insert into tbx_history (concept_id, history_id, action) select concept_id, id, action from written`,
    [ctx.clientId, ctx.dictionaryId, ctx.scope.actor.userId, JSON.stringify(rows)],
  );
}

/** Keeps cross-references in tbx_xrefs until the whole file is in. */
export async function insertXrefs(
  ctx: ImportContext,
  xrefs: readonly (readonly [number, readonly PlannedXref[]])[],
) {
  const rows = xrefs.flatMap(([conceptId, list]) =>
    list.map((xref) => ({
      source_concept_id: conceptId,
      target: xref.target,
      text: xref.text,
      line: xref.line,
      of_term: xref.ofTerm ?? null,
    })),
  );
  if (rows.length === 0) return;
  await sql(
    ctx.em,
    `insert into tbx_xrefs (source_concept_id, target, text, line, of_term)
     select x.source_concept_id, x.target, x.text, x.line, x.of_term
       from json_to_recordset(?::json) as x(source_concept_id int, target text, text text, line int, of_term text)`,
    [JSON.stringify(rows)],
  );
}

/** A planned term as a row of terms (merging adds such terms to existing concepts). */
export function plannedTermRow(conceptId: number, term: PlannedTerm, now: Date) {
  return {
    concept_id: conceptId,
    oid: term.oid,
    name: term.name,
    language_code: term.languageCode,
    region_code: term.regionCode,
    script_code: term.scriptCode,
    field_map: term.fieldMap,
    field_parts: term.fieldParts,
    provenance: term.provenance,
    created_at: iso(term.createdAt ?? now),
    changed_at: iso(term.changedAt ?? term.createdAt ?? now),
  };
}

/** A written term as concept snapshots hold it. */
export function termSnapshot(
  id: number,
  tid: number,
  row: {
    name: string;
    language_code: string;
    region_code: string | null;
    script_code: string | null;
    field_map: FieldValues;
  },
): TermSnapshot {
  return {
    id,
    tid,
    name: row.name,
    languageCode: row.language_code,
    regionCode: row.region_code,
    scriptCode: row.script_code,
    fieldMap: row.field_map,
  };
}
