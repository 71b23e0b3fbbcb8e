/**
 * Undo (docs/history.md): a concept returns to the state a history item recorded, as a new change
 * (UNDO, or RESTORE when a deleted concept comes back) through changeConcept; a dictionary returns every
 * concept changed after an item to its state at that item, as a job.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sameJson } from '../../shared/canonical-json.js';
import { AppError } from '../../shared/errors.js';
import type { Format } from '../../shared/format.js';
import type { Scope } from '../../shared/scope.js';
import { conceptAccessFor } from '../access/access.service.js';
import type { ConceptOutput } from '../concept/concept.schema.js';
import { assertConceptPermission, readableConcept } from '../concept/concept-access.js';
import {
  type ChangeContext,
  type ChangePlan,
  changeConcept,
  desiredFromSnapshot,
} from '../concept/concept-change.js';
import { languageFieldLanguages } from '../concept/concept-language-fields.js';
import { renderConcepts } from '../concept/concept-render.js';
import type { DictionaryStructure } from '../concept/concept-structure.js';
import { type DesiredConcept, type DesiredRelation, Problems } from '../concept/concept-validation.js';
import { administrableDictionary, findDictionary } from '../dictionary/dictionary-access.js';
import { type AsyncOutcome, runAsJob } from '../jobs/job-runner.js';
import { unseenTermsOfChange } from '../workflow/workflow-visibility.js';
import { ConceptHistory } from './history.entity.js';
import type { ConceptUndoInput, DictionaryUndoInput } from './history.schema.js';
import { assertAfterStructureChange, findHistoryItem } from './history.service.js';
import type { ConceptSnapshot, RelationSnapshot } from './history.types.js';

const _NO_TENANT = { tenant: false } as const;

const mayUndo = (context: Pick<ChangeContext, 'access'>) =>
  context.access.concept.CONCEPT_UPDATE || context.access.concept.RESTORE_STATE;

function assertMayUndo(context: Pick<ChangeContext, 'access'>) {
  if (!mayUndo(context)) {
    throw new AppError(
      'FORBIDDEN',
      'You may not undo changes of this concept (CONCEPT_UPDATE or RESTORE_STATE is not granted in this section)',
    );
  }
}

/**
 * What an undo needs besides CONCEPT_UPDATE or RESTORE_STATE: CONCEPT_DELETE to return to a deleted
 * state, CONCEPT_CREATE to bring a deleted concept back (and in the section it returns to), TERM_CREATE
 * for every term that comes back, and the term language limits for every term it touches.
 */
async function authorizeUndo(scope: Scope, context: ChangeContext, after: ConceptSnapshot | null) {
  assertMayUndo(context);
  const { access, before, concept } = context;
  if (!after) return assertConceptPermission(access, 'CONCEPT_DELETE', 'delete this concept');
  if (concept.deleted && !after.deleted && !access.conceptCreate) {
    throw new AppError('FORBIDDEN', 'You may not restore deleted concepts in this section (CONCEPT_CREATE)');
  }
  if (before.sectionId !== after.sectionId) {
    const [target] = await conceptAccessFor(scope, [{ sectionId: after.sectionId, ownerId: null }]);
    if (!target!.conceptCreate) {
      throw new AppError('FORBIDDEN', 'You may not move concepts back into that section (CONCEPT_CREATE)');
    }
  }
  const old = new Map(before.terms.map((term) => [term.id, term]));
  const touched = new Set<string>();
  for (const term of after.terms) {
    const previous = old.get(term.id);
    if (!previous && !access.concept.TERM_CREATE) {
      throw new AppError(
        'FORBIDDEN',
        `You may not bring back or add terms (TERM_CREATE), e.g. "${term.name}"`,
      );
    }
    if (!previous || !sameJson({ ...previous, tid: 0 }, { ...term, tid: 0 })) {
      touched.add(term.languageCode);
      if (previous) touched.add(previous.languageCode);
    }
  }
  const kept = new Set(after.terms.map((term) => term.id));
  for (const term of before.terms) if (!kept.has(term.id)) touched.add(term.languageCode);
  for (const language of languageFieldLanguages(before, after)) touched.add(language);
  // Language limits come with term grants; without any (termLanguages is then []) they limit nothing here.
  const limits = access.term.TERM_UPDATE || access.term.TERM_DELETE ? access.termLanguages : null;
  const refused = limits === null ? undefined : [...touched].find((code) => !limits.includes(code));
  if (refused) throw new AppError('FORBIDDEN', `You may not change terms in language "${refused}"`);
}

/** Sections and domains the snapshot names must still exist (a 400 naming them otherwise). */
function checkStructureOf(structure: DictionaryStructure, desired: DesiredConcept) {
  const problems = new Problems();
  if (!structure.sectionsById.has(desired.sectionId)) {
    problems.add(`sectionId: section ${desired.sectionId} no longer exists`);
  }
  for (const id of desired.domainIds) {
    if (!structure.domainsById.has(id)) problems.add(`domainList: domain ${id} no longer exists`);
  }
  problems.throwIfAny();
}

/**
 * The wanted relations as the concept can have them now. Relations whose other concept is gone
 * (deleted: its relations went with it) are dropped, as the delete dropped them; the others keep their
 * row when it still exists, take over an equal row made since, or are made anew.
 */
async function relationsNow(
  context: ChangeContext,
  wanted: readonly DesiredRelation[],
): Promise<DesiredRelation[]> {
  const self = context.concept.id;
  const otherEnd = (relation: DesiredRelation) =>
    relation.sourceConceptId === self || relation.sourceConceptId === null
      ? relation.targetConceptId
      : relation.sourceConceptId;
  const others = [...new Set(wanted.map(otherEnd))];
  const found = others.length
    ? await context.em.execute<{ id: number }[]>(
        'select id from concepts where id in (?) and dictionary_id = ? and not deleted',
        [others, context.concept.dictionary.id],
      )
    : [];
  const live = new Set(found.map((concept) => concept.id));
  const kept = wanted.filter((relation) => live.has(otherEnd(relation)));
  const rows = context.parts.relations;
  const used = new Set<number>();
  // Exact rows first, so that a look-alike never takes the row another relation still has.
  const exact = kept.map((relation) => {
    const row = relation.id === undefined ? undefined : rows.find((r) => r.id === relation.id);
    if (row) used.add(row.id);
    return row?.id;
  });
  return kept.map((relation, index) => {
    let id = exact[index];
    if (id === undefined) {
      const source = relation.sourceConceptId ?? self;
      const twin = rows.find(
        (row) =>
          !used.has(row.id) &&
          row.sourceConcept.id === source &&
          row.targetConcept.id === relation.targetConceptId &&
          row.type === relation.type &&
          row.attribute === relation.attribute,
      );
      if (twin) used.add(twin.id);
      id = twin?.id;
    }
    return { ...relation, id };
  });
}

/**
 * Brings a concept to a snapshot's state as one change (UNDO, RESTORE when it revives the concept, a
 * DELETE when the snapshot is deleted). `relations` replaces the snapshot's relations (dictionary undo).
 * Edit locks of others answer 409; no version is needed.
 */
export async function restoreSnapshot(
  scope: Scope,
  conceptId: number,
  item: { id: number; snapshot: ConceptSnapshot },
  relations: readonly RelationSnapshot[] = item.snapshot.relations,
): Promise<void> {
  const { snapshot } = item;
  await changeConcept(scope, conceptId, {
    version: 'SKIP',
    evenDeleted: true,
    plan: async (context): Promise<ChangePlan> => {
      const deleted = context.concept.deleted;
      if (snapshot.deleted) {
        if (!deleted) return { kind: 'DELETE', action: 'UNDO', restoredFromId: item.id };
        // Deleted already: the state as it is, which changes nothing and writes no item.
        return { kind: 'STATE', desired: desiredFromSnapshot(context.before), action: 'UNDO' };
      }
      const desired = desiredFromSnapshot({ ...snapshot, relations: [...relations] });
      // Workflow (docs/workflows.md): terms the caller is not shown keep their current state, as on PUT.
      const unseen = await unseenTermsOfChange(scope, context.em, conceptId, context.before, []);
      if (unseen.size > 0) {
        const hidden = (term: { id?: number }) => term.id !== undefined && unseen.has(term.id);
        desired.terms = [
          ...desired.terms.filter((term) => !hidden(term)),
          ...desiredFromSnapshot(context.before).terms.filter(hidden),
        ];
      }
      checkStructureOf(context.structure, desired);
      desired.relations = await relationsNow(context, desired.relations);
      return {
        kind: 'STATE',
        desired,
        action: deleted ? 'RESTORE' : 'UNDO',
        restoredFromId: item.id,
        revive: deleted,
      };
    },
    authorize: (context, after) => authorizeUndo(scope, context, after),
  });
}

/** The concept as it is now, deleted or not (an undo may have deleted it). */
async function answerConcept(scope: Scope, conceptId: number, format: Format): Promise<ConceptOutput> {
  const loaded = await readableConcept(scope, conceptId, { evenDeleted: true });
  const [dto] = await renderConcepts(scope, [loaded], { format, withComments: false, deletedTerms: false });
  return dto!;
}

/**
 * POST /history/concept-undo: the concept returns to the state the item recorded (the concept as that
 * change left it), as a new change. Answers the concept.
 */
export async function undoConcept(scope: Scope, input: ConceptUndoInput): Promise<ConceptOutput> {
  const item = await findHistoryItem(scope, input['history-item-id']);
  const conceptId = item.concept.id;
  const { concept, access } = await readableConcept(scope, conceptId, { evenDeleted: true });
  assertMayUndo({ access });
  const dictionary = await findDictionary(scope, concept.dictionary.id);
  assertAfterStructureChange(item, dictionary.structureChangedAt);
  if (!(concept.deleted && item.snapshot.deleted)) await restoreSnapshot(scope, conceptId, item);
  return answerConcept(scope, conceptId, input.format);
}

interface UndoTarget {
  conceptId: number;
  deleted: boolean;
  /** The concept's latest item at or before the chosen one; null: created after it. */
  targetId: number | null;
  targetDeleted: boolean;
}

/** Revivals first and deletions last, so relations find their other concept wherever possible. */
const undoRank = (target: UndoTarget): number => {
  const wantsLive = target.targetId !== null && !target.targetDeleted;
  if (wantsLive) return target.deleted ? 0 : 1;
  return 2;
};

/** Every concept of the dictionary changed after the item, with the item it returns to. */
async function undoTargets(em: EntityManager, item: ConceptHistory): Promise<UndoTarget[]> {
  const rows = await em.execute<
    { concept_id: number; deleted: boolean; target_id: number | null; target_deleted: boolean | null }[]
  >(
    `select c.id as concept_id, c.deleted, t.id as target_id, (t.snapshot->>'deleted')::boolean as target_deleted
       from concepts c
       left join lateral (select p.id, p.snapshot from concept_history p
                           where p.concept_id = c.id and p.id <= ? order by p.id desc limit 1) t on true
      where c.id in (select distinct h.concept_id from concept_history h where h.dictionary_id = ? and h.id > ?)
      order by c.id`,
    [item.id, item.dictionary.id, item.id],
  );
  return rows
    .map((row) => ({
      conceptId: row.concept_id,
      deleted: row.deleted,
      targetId: row.target_id,
      targetDeleted: row.target_deleted ?? false,
    }))
    .sort((a, b) => undoRank(a) - undoRank(b) || a.conceptId - b.conceptId);
}

/**
 * A relation lives in the snapshots of both its concepts, but a change records it only in the snapshot of
 * the concept that changed. So at the chosen item, the relations between two concepts are those of the
 * newer of their latest snapshots up to it. This loads, for every concept changed between the oldest
 * target and the item, its latest snapshot's relations there, indexed by the concepts they name.
 */
class RelationsAtItem {
  private readonly latest = new Map<number, number>();
  private readonly naming = new Map<number, { from: number; itemId: number; relation: RelationSnapshot }[]>();

  static async load(em: EntityManager, item: ConceptHistory, targets: readonly UndoTarget[]) {
    const at = new RelationsAtItem();
    const ids = targets.flatMap((target) => (target.targetId === null ? [] : [target.targetId]));
    if (ids.length === 0) return at;
    const rows = await em.execute<{ concept_id: number; id: number; relations: RelationSnapshot[] }[]>(
      `select distinct on (h.concept_id) h.concept_id, h.id, h.snapshot->'relations' as relations
         from concept_history h
        where h.dictionary_id = ? and h.id >= ? and h.id <= ?
        order by h.concept_id, h.id desc`,
      [item.dictionary.id, Math.min(...ids), item.id],
    );
    for (const row of rows) {
      at.latest.set(row.concept_id, row.id);
      for (const relation of row.relations) {
        const other =
          relation.sourceConceptId === row.concept_id ? relation.targetConceptId : relation.sourceConceptId;
        const list = at.naming.get(other) ?? [];
        list.push({ from: row.concept_id, itemId: row.id, relation });
        at.naming.set(other, list);
      }
    }
    return at;
  }

  /** The relations of a concept at the item, given its own latest item up to it. */
  of(conceptId: number, target: { id: number; snapshot: ConceptSnapshot }): RelationSnapshot[] {
    const newer = (other: number) => (this.latest.get(other) ?? 0) > target.id;
    const own = target.snapshot.relations.filter((relation) => {
      const other =
        relation.sourceConceptId === conceptId ? relation.targetConceptId : relation.sourceConceptId;
      return !newer(other);
    });
    const theirs = (this.naming.get(conceptId) ?? [])
      .filter((entry) => entry.from !== conceptId && entry.itemId > target.id)
      .map((entry) => entry.relation);
    return [...own, ...theirs];
  }
}

/** One concept of a dictionary undo, with its own entity manager (and transaction in changeConcept). */
async function undoOne(scope: Scope, target: UndoTarget, relationsAt: RelationsAtItem): Promise<void> {
  if (target.targetId === null) {
    // Created after the item: it goes, as a DELETE change.
    if (target.deleted) return;
    await changeConcept(scope, target.conceptId, {
      version: 'SKIP',
      evenDeleted: true,
      plan: () => ({ kind: 'DELETE', action: 'UNDO' }),
      authorize: (context, after) => authorizeUndo(scope, context, after),
    });
    return;
  }
  const item = await scope.em.findOneOrFail(ConceptHistory, { id: target.targetId });
  if (target.deleted && item.snapshot.deleted) return;
  await restoreSnapshot(scope, target.conceptId, item, relationsAt.of(target.conceptId, item));
}

/**
 * POST /history/dictionary-undo: every concept changed after the item returns to its latest state at or
 * before it (concepts made after it are deleted), each as its own change and transaction, in a job whose
 * result maps concept id to success. Relations follow RelationsAtItem.
 */
export async function undoDictionary(scope: Scope, input: DictionaryUndoInput): Promise<AsyncOutcome> {
  const item = await findHistoryItem(scope, input['history-item-id']);
  const dictionary = await administrableDictionary(scope, item.dictionary.id);
  assertAfterStructureChange(item, dictionary.structureChangedAt);
  const targets = await undoTargets(scope.em, item);
  const relationsAt = await RelationsAtItem.load(scope.em, item, targets);
  return runAsJob(scope, 'history.dictionaryUndo', async (em, progress) => {
    const result: Record<string, boolean> = {};
    for (const [index, target] of targets.entries()) {
      try {
        await undoOne({ ...scope, em: em.fork() }, target, relationsAt);
        result[target.conceptId] = true;
      } catch (error) {
        result[target.conceptId] = false;
        scope.log.info({ conceptId: target.conceptId, err: error }, 'dictionary undo: concept not restored');
      }
      await progress(index + 1, targets.length);
    }
    return result;
  });
}
