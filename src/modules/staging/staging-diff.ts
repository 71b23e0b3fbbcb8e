/**
 * Planning staged content the way the import plans it, and the review's field-level difference: what
 * accepting an entry now would change in the concept the merge finds (mergeTargets, mergePreview of
 * tbx-import-merge.ts), in the history's change shape. Planning runs on an entity manager of its own,
 * thrown away, so fields it would make are never written by a read.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { Concept } from '../concept/concept.entity.js';
import { loadParts, snapshotOf } from '../concept/concept-parts.js';
import type { ConceptSnapshot, HistoryChange } from '../history/history.types.js';
import { diffSnapshots } from '../history/history-recorder.js';
import { ImportContext, sql } from '../tbx/tbx-import-context.js';
import { mergePreview, mergeTargets, type TbxMergeMode } from '../tbx/tbx-import-merge.js';
import { type PlannedConcept, planEntry } from '../tbx/tbx-import-plan.js';
import { ImportStructure } from '../tbx/tbx-import-structure.js';
import { ImportWorkflow } from '../tbx/tbx-import-workflow.js';
import type { TbxEntry } from '../tbx/tbx-model.js';
import type { StagedEntryDetail, StagingChange } from './staging.schema.js';

const ALL_ROWS = { tenant: false, notDeleted: false } as const;

/** A throw-away planning context for one dictionary and merge mode. */
export async function planner(scope: Scope, dictionaryId: number, merge: TbxMergeMode) {
  const em: EntityManager = scope.em.fork();
  const [section] = await sql<{ id: number }[]>(
    em,
    'select id from sections where dictionary_id = ? and not deleted order by sort_index, id limit 1',
    [dictionaryId],
  );
  const place = { dictionaryId, sectionId: section?.id ?? 0, importableSectionIds: new Set<number>() };
  const ctx = new ImportContext(scope, em, place, merge);
  const structure = await ImportStructure.load(ctx, false);
  ctx.workflow = await ImportWorkflow.load(ctx);
  return {
    ctx,
    structure,
    plan: (entry: TbxEntry): PlannedConcept => planEntry(ctx, structure, entry),
    /** The concept the merge would take a planned entry into (null: a new concept). */
    target: async (planned: PlannedConcept) => (await mergeTargets(ctx, [planned])).get(planned) ?? null,
  };
}

const emptySnapshot = (dictionaryId: number, sectionId: number): ConceptSnapshot => ({
  cid: '',
  dictionaryId,
  sectionId,
  deleted: false,
  domainIds: [],
  fieldMap: {},
  terms: [],
  relations: [],
  refLinks: [],
  languageFields: [],
});

type Review = Pick<StagedEntryDetail, 'target' | 'diff'>;

/** The target as it is and what accepting the entry would change in it. */
export async function reviewOf(
  scope: Scope,
  dictionaryId: number,
  merge: TbxMergeMode,
  entry: TbxEntry,
): Promise<Review> {
  const { ctx, structure, plan, target } = await planner(scope, dictionaryId, merge);
  const planned = plan(entry);
  const targetId = await target(planned);
  const empty = emptySnapshot(dictionaryId, ctx.sectionId);
  let before = empty;
  let after: ConceptSnapshot;
  let current: Review['target'] = null;
  if (targetId === null) {
    after = {
      ...empty,
      domainIds: [...planned.domainIds].filter((id) => id > 0),
      fieldMap: planned.fieldMap,
      terms: planned.terms.map((term, index) => ({
        id: -(index + 1),
        tid: 0,
        name: term.name,
        languageCode: term.languageCode,
        regionCode: term.regionCode,
        scriptCode: term.scriptCode,
        fieldMap: term.fieldMap,
      })),
      languageFields: planned.languageFields.map(({ fieldParts: _, ...fields }) => fields),
    };
  } else {
    const concept = await ctx.em.findOneOrFail(Concept, { id: targetId }, { filters: ALL_ROWS });
    const parts = (await loadParts(ctx.em, [targetId], { languageFields: true })).get(targetId)!;
    before = snapshotOf(concept, parts);
    const termOids = new Map(parts.terms.map((term) => [term.id, term.oid ?? null]));
    after = mergePreview(before, planned, termOids);
    current = {
      id: concept.id,
      version: concept.version,
      terms: before.terms.map((term) => ({ id: term.id, languageCode: term.languageCode, name: term.name })),
    };
  }
  const changes = diffSnapshots(before, after);
  return {
    target: current,
    diff: {
      targetConceptId: targetId,
      changes: await named(ctx.em, dictionaryId, structure, changes, before, after),
    },
  };
}

/** Changes with field names and terms spelled out; terms it would add have no id yet. */
async function named(
  em: EntityManager,
  dictionaryId: number,
  structure: ImportStructure,
  changes: HistoryChange[],
  before: ConceptSnapshot,
  after: ConceptSnapshot,
): Promise<StagingChange[]> {
  const oids = [...new Set(changes.flatMap((change) => (change.fieldOid ? [change.fieldOid] : [])))];
  const rows = oids.length
    ? await sql<{ oid: string; name: string }[]>(
        em,
        'select oid, name from fields where dictionary_id = ? and oid = any(?::text[])',
        [dictionaryId, oids],
      )
    : [];
  const names = new Map([...structure.madeFieldNames(), ...rows.map((row) => [row.oid, row.name] as const)]);
  const terms = new Map([...before.terms, ...after.terms].map((term) => [term.id, term]));
  return changes.map(({ termId, ...change }) => {
    const term = termId === undefined ? undefined : terms.get(termId);
    return {
      ...change,
      ...(termId !== undefined && termId > 0 ? { termId } : {}),
      ...(change.fieldOid ? { fieldName: names.get(change.fieldOid) ?? change.fieldOid } : {}),
      ...(term ? { term: term.name, language: change.language ?? term.languageCode } : {}),
    };
  });
}
