/**
 * Merging of a TBX import into existing concepts: the merge modes (ENTRY_ID, TERM, NONE), the concept
 * each entry merges into, and the merge itself (values replaced, terms matched or added, domains added).
 */

import { Concept } from '../concept/concept.entity.js';
import type { LanguageFieldsDto } from '../concept/concept-language-fields.js';
import { liveLocks } from '../concept/concept-lock.service.js';
import { loadParts, snapshotOf } from '../concept/concept-parts.js';
import { allocateSerials } from '../concept/concept-serials.js';
import type { ConceptSnapshot, TermSnapshot } from '../history/history.types.js';
import { diffSnapshots } from '../history/history-recorder.js';
import { type ImportContext, sql } from './tbx-import-context.js';
import { mergedLanguageFields, mergeLanguageValues } from './tbx-import-language-values.js';
import type { PlannedConcept, PlannedTerm, PlannedXref } from './tbx-import-plan.js';
import { historyProvenance } from './tbx-import-provenance.js';
import { type ReadOnlyEntries, readOnlyMessage } from './tbx-import-readonly.js';
import {
  type HistoryItem,
  insertDomains,
  insertHistory,
  insertTerms,
  insertXrefs,
  plannedTermRow,
  termSnapshot,
} from './tbx-import-writer.js';
import { exportedConceptId, mergedParts } from './tbx-mapping.js';

/** What an entry of the file merges into: the concept of its entry id, of one of its terms, or none. */
export const TbxMergeModes = ['ENTRY_ID', 'TERM', 'NONE'] as const;
export type TbxMergeMode = (typeof TbxMergeModes)[number];

const ALL_ROWS = { tenant: false, notDeleted: false } as const;

const termKey = (term: { languageCode: string; name: string }) => `${term.languageCode}\u0000${term.name}`;
const sameVariant = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? null) === (b ?? null);

/** A stored term a planned one updates when no oid decides: the same text in the same language tag. */
const sameTerm = (term: TermSnapshot, wanted: PlannedTerm) =>
  term.name === wanted.name &&
  term.languageCode === wanted.languageCode &&
  sameVariant(term.regionCode, wanted.regionCode) &&
  sameVariant(term.scriptCode, wanted.scriptCode);

/**
 * What merging an entry would leave of a concept, written nowhere: terms matched as mergeConcepts
 * matches them (oid, then text in language), values replaced, domains and language values merged.
 * Terms it would add get negative ids. The staging review shows its difference (staging-diff.ts);
 * read-only workflow entries, which the merge leaves alone, are not judged here.
 */
export function mergePreview(
  before: ConceptSnapshot,
  planned: PlannedConcept,
  termOids: ReadonlyMap<number, string | null>,
): ConceptSnapshot {
  const terms = before.terms.map((term) => ({ ...term }));
  const claimed = new Set<number>();
  const added: TermSnapshot[] = [];
  for (const wanted of planned.terms) {
    const byOid = wanted.oid
      ? terms.find((term) => !claimed.has(term.id) && termOids.get(term.id) === wanted.oid)
      : undefined;
    const match = byOid ?? terms.find((term) => !claimed.has(term.id) && sameTerm(term, wanted));
    const next = {
      name: wanted.name,
      languageCode: wanted.languageCode,
      regionCode: wanted.regionCode,
      scriptCode: wanted.scriptCode,
    };
    if (!match) {
      added.push({ id: -(added.length + 1), tid: 0, ...next, fieldMap: wanted.fieldMap });
      continue;
    }
    claimed.add(match.id);
    Object.assign(match, next, { fieldMap: { ...match.fieldMap, ...wanted.fieldMap } });
  }
  const after = afterMerge(before, planned, terms);
  return { ...after, terms: [...after.terms, ...added] };
}

/** What an entry merges by: a later entry of the same batch with one of its keys waits for the next batch. */
export function mergeKeys(merge: TbxMergeMode, planned: PlannedConcept): string[] {
  if (merge === 'ENTRY_ID') return planned.entryId ? [`entry:${planned.entryId}`] : [];
  if (merge === 'TERM') return planned.terms.map((term) => `term:${termKey(term)}`);
  return [];
}

/** The existing concept each entry merges into (none: a new concept). */
export async function mergeTargets(
  ctx: ImportContext,
  batch: readonly PlannedConcept[],
): Promise<Map<PlannedConcept, number>> {
  const targets = new Map<PlannedConcept, number>();
  if (ctx.merge === 'ENTRY_ID') {
    const ids = [...new Set(batch.flatMap((c) => (c.entryId ? [c.entryId] : [])))];
    if (ids.length === 0) return targets;
    const rowIds = ids.map((id) => exportedConceptId(id)).filter((id): id is number => id !== null);
    const rows = await sql<{ id: number; oid: string | null }[]>(
      ctx.em,
      `select id, oid from concepts where client_id = ? and dictionary_id = ? and not deleted
         and (oid = any(?::text[]) or id = any(?::int[])) order by id`,
      [ctx.clientId, ctx.dictionaryId, ids, rowIds],
    );
    for (const planned of batch) {
      if (!planned.entryId) continue;
      const rowId = exportedConceptId(planned.entryId);
      // An exported concept-<id> is that concept when it has no oid, or the oid the export carried as
      // originalId (tbx-original-ids.ts); otherwise an entry id is an oid.
      const row =
        (planned.originalId === null ? rows.find((r) => r.oid === planned.entryId) : undefined) ??
        rows.find((r) => r.id === rowId && (r.oid === null || r.oid === planned.originalId));
      if (row) targets.set(planned, row.id);
    }
  } else if (ctx.merge === 'TERM') {
    const names = [...new Set(batch.flatMap((c) => c.terms.map((t) => t.name)))];
    if (names.length === 0) return targets;
    const rows = await sql<{ concept_id: number; language_code: string; name: string }[]>(
      ctx.em,
      `select t.concept_id, t.language_code, t.name from terms t join concepts c on c.id = t.concept_id
        where t.dictionary_id = ? and not t.deleted and not c.deleted and t.name = any(?::text[]) order by t.concept_id`,
      [ctx.dictionaryId, names],
    );
    const conceptOf = new Map<string, number>();
    for (const row of rows) {
      const key = termKey({ languageCode: row.language_code, name: row.name });
      if (!conceptOf.has(key)) conceptOf.set(key, row.concept_id);
    }
    for (const planned of batch) {
      const match = planned.terms.map((term) => conceptOf.get(termKey(term))).find((id) => id !== undefined);
      if (match !== undefined) targets.set(planned, match);
    }
  }
  return targets;
}

/**
 * Whether a merge would change a concept whose entry (CONCEPT unit) is read-only: its terms, its values,
 * its domains or its language fields (read only for such concepts).
 */
function conceptChanges(
  items: readonly {
    conceptId: number;
    planned: PlannedConcept;
    before: ConceptSnapshot;
    terms: TermSnapshot[];
    added: number;
  }[],
): Set<PlannedConcept> {
  const changing = new Set<PlannedConcept>();
  for (const { planned, before, terms, added } of items) {
    if (added || diffSnapshots(before, afterMerge(before, planned, terms)).length) changing.add(planned);
  }
  return changing;
}

/** A merge's snapshot after: values replaced, domains added, language values merged (terms given). */
function afterMerge(
  before: ConceptSnapshot,
  planned: PlannedConcept,
  terms: TermSnapshot[],
): ConceptSnapshot {
  return {
    ...before,
    domainIds: [...new Set([...before.domainIds, ...planned.domainIds])].sort((a, b) => a - b),
    fieldMap: { ...before.fieldMap, ...planned.fieldMap },
    terms,
    languageFields: mergedLanguageFields(before.languageFields ?? [], planned.languageFields),
  };
}

/**
 * Locks the targets and reads their language values in the same statement (no statement more for
 * snapshots that hold them, as an API edit's do: history lists LANGUAGE_FIELD changes, undo restores them).
 */
async function lockTargets(ctx: ImportContext, ids: readonly number[]) {
  const rows = await sql<{ id: number; language_fields: LanguageFieldsDto[] }[]>(
    ctx.em,
    `select c.id, coalesce((
         select jsonb_agg(jsonb_build_object('languageCode', l.language_code, 'regionCode', l.region_code,
                  'scriptCode', l.script_code, 'fieldMap', l.field_map)
                  order by l.language_code, l.region_code nulls first, l.script_code nulls first)
           from concept_language_fields l where l.concept_id = c.id and l.field_map <> '{}'::jsonb
       ), '[]'::jsonb) as language_fields
       from concepts c where c.id = any(?::int[]) order by c.id for update of c`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.language_fields]));
}

/**
 * Merges entries into existing concepts: the file's field values replace those of the same fields
 * (others stay), terms are matched by term id, then by language and text (matched ones updated, the
 * others added; terms the file lacks stay), domains are added. Unchanged concepts count as skipped.
 * Under a workflow, what an API edit refuses in read-only states stays as it is, reported at the
 * entry's line: the terms and language values of read-only term or language entries, a read-only
 * concept entry's concept.
 */
export async function mergeConcepts(ctx: ImportContext, updates: ReadonlyMap<number, PlannedConcept>) {
  if (updates.size === 0) return;
  const ids = [...updates.keys()];
  const storedLanguageFields = await lockTargets(ctx, ids);
  const locks = await liveLocks(ctx.em, ids);
  const concepts = await ctx.em.find(Concept, { id: { $in: ids } }, { filters: ALL_ROWS });
  const parts = await loadParts(ctx.em, ids);
  const readOnly = (await ctx.workflow?.readOnlyBefore(ctx, ids)) ?? null;
  const readOnlyConcepts: {
    conceptId: number;
    planned: PlannedConcept;
    before: ConceptSnapshot;
    terms: TermSnapshot[];
    added: number;
    state: NonNullable<ReturnType<ReadOnlyEntries['of']>>;
  }[] = [];
  let work: {
    concept: Concept;
    planned: PlannedConcept;
    before: ConceptSnapshot;
    terms: TermSnapshot[];
    newTerms: { term: PlannedTerm; tid: number }[];
    changedTermIds: Set<number>;
    termOids: Map<number, string>;
  }[] = [];
  for (const concept of concepts) {
    const planned = updates.get(concept.id)!;
    const lock = locks.get(concept.id);
    if (!ctx.importableSectionIds.has(concept.section.id)) {
      ctx.error(
        planned.line,
        `Concept ${concept.id} is in a section where you may not import (CONCEPT_IMPORT); entry skipped`,
      );
      ctx.summary.skipped++;
      continue;
    }
    if (lock && lock.session_id !== ctx.scope.actor.sessionId) {
      ctx.error(planned.line, `Concept ${concept.id} is being edited by another user; entry skipped`);
      ctx.summary.skipped++;
      continue;
    }
    const before = snapshotOf(concept, {
      ...parts.get(concept.id)!,
      languageFields: storedLanguageFields.get(concept.id) ?? [],
    });
    const terms = before.terms.map((term) => ({ ...term }));
    const claimed = new Set<number>();
    const changedTermIds = new Set<number>();
    const termOids = new Map<number, string>();
    const termRows = parts.get(concept.id)!.terms;
    const newTerms: { term: PlannedTerm; tid: number }[] = [];
    // TERM and LANGUAGE units: the read-only entry a term is in (CONCEPT: decided for the whole concept).
    const termUnit = ctx.workflow?.unit !== 'CONCEPT';
    const lockedTerm = (languageCode: string, termId: number) =>
      readOnly && termUnit ? readOnly.of(concept.id, languageCode, termId) : null;
    for (const wanted of planned.terms) {
      const byOid = wanted.oid
        ? termRows.find((row) => !row.deleted && !claimed.has(row.id) && row.oid === wanted.oid)
        : undefined;
      const match = byOid ?? terms.find((term) => !claimed.has(term.id) && sameTerm(term, wanted));
      const target = match ? terms.find((term) => term.id === match.id) : undefined;
      if (!target) {
        const locked = lockedTerm(wanted.languageCode, 0);
        if (locked) {
          const what = { conceptId: concept.id, term: wanted };
          ctx.error(planned.line, readOnlyMessage(locked, what, 'the term was not added'));
        } else newTerms.push({ term: wanted, tid: 0 });
        continue;
      }
      claimed.add(target.id);
      wanted.writtenId = target.id;
      const row = termRows.find((r) => r.id === target.id);
      const locked = lockedTerm(target.languageCode, target.id) ?? lockedTerm(wanted.languageCode, target.id);
      if (wanted.oid && !row?.oid && !locked) termOids.set(target.id, wanted.oid);
      const next = {
        ...target,
        name: wanted.name,
        languageCode: wanted.languageCode,
        regionCode: wanted.regionCode,
        scriptCode: wanted.scriptCode,
        fieldMap: { ...target.fieldMap, ...wanted.fieldMap },
      };
      if (diffSnapshots({ ...before, terms: [target] }, { ...before, terms: [next] }).length) {
        if (locked) {
          const what = { conceptId: concept.id, term: target };
          ctx.error(planned.line, readOnlyMessage(locked, what, 'its changes were not imported'));
          continue;
        }
        Object.assign(target, next);
        changedTermIds.add(target.id);
      }
    }
    const lockedConcept = readOnly && !termUnit ? readOnly.of(concept.id, '', 0) : null;
    if (lockedConcept)
      readOnlyConcepts.push({
        conceptId: concept.id,
        planned,
        before,
        terms,
        added: newTerms.length,
        state: lockedConcept,
      });
    work.push({ concept, planned, before, terms, newTerms, changedTermIds, termOids });
  }
  // CONCEPT unit: a read-only concept the merge would change is left out as a whole (an API edit of it
  // is refused); an unchanged one goes on (its ids are remembered).
  const refused = readOnlyConcepts.length ? conceptChanges(readOnlyConcepts) : new Set();
  for (const { conceptId, planned, state } of readOnlyConcepts) {
    if (!refused.has(planned)) continue;
    ctx.error(planned.line, readOnlyMessage(state, { conceptId }, 'entry skipped'));
    ctx.summary.skipped++;
    for (const term of planned.terms) delete term.writtenId;
  }
  work = work.filter((item) => !refused.has(item.planned));
  // Language values (written by the caller): read-only languages keep theirs, changed ones are edits.
  mergeLanguageValues(
    ctx,
    work.map((item) => ({ conceptId: item.concept.id, planned: item.planned })),
    storedLanguageFields,
    readOnly,
  );
  for (const item of work) item.planned.writtenId = item.concept.id;

  const newTermCount = work.reduce((sum, item) => sum + item.newTerms.length, 0);
  const serials = newTermCount
    ? await allocateSerials(ctx.em, ctx.dictionaryId, { tid: newTermCount })
    : null;
  let tid = serials?.tid ?? 0;
  const now = new Date();
  const termInserts: (ReturnType<typeof plannedTermRow> & { tid: number })[] = [];
  const termUpdates: Record<string, unknown>[] = [];
  const conceptUpdates: Record<string, unknown>[] = [];
  const history: HistoryItem[] = [];
  const domainLinks: [number, Set<number>][] = [];
  const xrefs: [number, PlannedXref[]][] = [];
  const afterSnapshots: { item: (typeof work)[number]; after: ConceptSnapshot }[] = [];
  for (const item of work) {
    const { concept, planned, before } = item;
    for (const entry of item.newTerms) {
      entry.tid = tid++;
      termInserts.push({ ...plannedTermRow(concept.id, entry.term, now), tid: entry.tid });
    }
    const after = afterMerge(before, planned, item.terms);
    afterSnapshots.push({ item, after });
    xrefs.push([concept.id, planned.xrefs]);
  }
  const newTermIds = await insertTerms(ctx, termInserts);
  for (const item of work) {
    for (const entry of item.newTerms) entry.term.writtenId = newTermIds.get(entry.tid)!;
  }
  for (const { item, after } of afterSnapshots) {
    const { concept, planned, before } = item;
    const added = item.newTerms.map(({ term, tid: termTid }) =>
      termSnapshot(newTermIds.get(termTid)!, termTid, plannedTermRow(concept.id, term, now)),
    );
    after.terms = [...after.terms, ...added];
    const changes = diffSnapshots(before, after);
    const changed = changes.length > 0;
    if (changed && ctx.workflow) {
      // What an API edit would touch (workflow-edit.ts): the terms by id, their language from the snapshot.
      const languageOf = new Map(after.terms.map((term) => [term.id, term.languageCode]));
      const termIds = new Set(changes.flatMap((change) => (change.termId ? [change.termId] : [])));
      planned.edited = [
        ...(planned.edited ?? []),
        ...[...termIds].map((termId) => ({ termId, languageCode: languageOf.get(termId) ?? '' })),
      ];
    }
    if (changed || (planned.entryId && !concept.oid) || item.termOids.size) {
      conceptUpdates.push({
        id: concept.id,
        field_map: after.fieldMap,
        field_parts: mergedParts(planned.fieldMap, planned.fieldParts),
        oid: planned.originalId ?? planned.entryId,
        bump: changed,
      });
    }
    for (const term of after.terms) {
      if (!item.changedTermIds.has(term.id) && !item.termOids.has(term.id)) continue;
      termUpdates.push({
        id: term.id,
        name: term.name,
        language_code: term.languageCode,
        region_code: term.regionCode,
        script_code: term.scriptCode,
        field_map: term.fieldMap,
        // The file's parts of the values it gave; parts of values it left alone stay.
        field_parts: partsOfTerm(planned, term.id),
        oid: item.termOids.get(term.id) ?? null,
        bump: item.changedTermIds.has(term.id),
      });
    }
    if (!changed) {
      ctx.summary.skipped++;
      continue;
    }
    domainLinks.push([concept.id, new Set(after.domainIds)]);
    history.push({
      conceptId: concept.id,
      revision: concept.version + 1,
      action: 'UPDATE',
      before,
      snapshot: after,
      provenance: historyProvenance(planned),
    });
    ctx.summary.updated++;
    ctx.summary.terms += item.newTerms.length;
  }
  const actor = ctx.scope.actor.userId;
  if (conceptUpdates.length) {
    await sql(
      ctx.em,
      `update concepts c set field_map = x.field_map, field_parts = c.field_parts || x.field_parts,
         oid = coalesce(c.oid, x.oid),
         version = c.version + (case when x.bump then 1 else 0 end),
         changed_at = case when x.bump then now() else c.changed_at end,
         changed_by_id = case when x.bump then ? else c.changed_by_id end
       from json_to_recordset(?::json) as x(id int, field_map jsonb, field_parts jsonb, oid text, bump boolean)
       where c.id = x.id`,
      [actor, JSON.stringify(conceptUpdates)],
    );
  }
  if (termUpdates.length) {
    await sql(
      ctx.em,
      `update terms t set name = x.name, language_code = x.language_code, region_code = x.region_code,
         script_code = x.script_code, field_map = x.field_map, field_parts = t.field_parts || x.field_parts,
         oid = coalesce(t.oid, x.oid),
         version = t.version + (case when x.bump then 1 else 0 end),
         changed_at = case when x.bump then now() else t.changed_at end,
         changed_by_id = case when x.bump then ? else t.changed_by_id end
       from json_to_recordset(?::json) as x(id int, name text, language_code text, region_code text, script_code text, field_map jsonb, field_parts jsonb, oid text, bump boolean)
       where t.id = x.id`,
      [actor, JSON.stringify(termUpdates)],
    );
  }
  // Under a workflow the approved entries the merge changed re-open now, inside each concept's item.
  const reopened = await ctx.workflow?.reopenMerged(
    ctx,
    work.map((item) => item.planned),
  );
  for (const item of history) item.workflow = reopened?.get(item.conceptId);
  await insertDomains(ctx, domainLinks);
  await insertHistory(ctx, history);
  await insertXrefs(ctx, xrefs);
  // The loaded rows are stale now; nothing of them may be flushed later.
  ctx.em.clear();
}

/** The parts a merge writes for a term of the file (tbx-mapping.ts, mergedParts). */
function partsOfTerm(planned: PlannedConcept, termId: number) {
  const wanted = planned.terms.find((term) => term.writtenId === termId);
  return wanted ? mergedParts(wanted.fieldMap, wanted.fieldParts) : {};
}
