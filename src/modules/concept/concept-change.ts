/**
 * The one transaction every concept change goes through (update, patch, delete, undo): row lock, version
 * check, edit-lock check, validation, permission check, write, history item. Creates use createConcept.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { type ConceptAccess, conceptAccessFor } from '../access/access.service.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import type { HistoryAction } from '../history/history.entity.js';
import type { ConceptSnapshot } from '../history/history.types.js';
import { diffSnapshots, recordHistory } from '../history/history-recorder.js';
import { workflowAfterEdit } from '../workflow/workflow-edit.js';
import { Concept } from './concept.entity.js';
import { readableConcept } from './concept-access.js';
import { assertNotLockedByOther } from './concept-lock.service.js';
import { type ConceptParts, loadParts, snapshotOf } from './concept-parts.js';
import { type DictionaryStructure, loadStructure } from './concept-structure.js';
import type { DesiredConcept, DesiredTerm } from './concept-validation.js';
import { checkDesired, softDeleteConcept, writeDesired } from './concept-writer.js';

const ALL_ROWS = { tenant: false, notDeleted: false } as const;

export interface ChangeContext {
  em: EntityManager;
  concept: Concept;
  parts: ConceptParts;
  before: ConceptSnapshot;
  structure: DictionaryStructure;
  access: ConceptAccess;
}

/** What a change wants: a new state (checked and written) or the concept's deletion. */
export type ChangePlan =
  | {
      kind: 'STATE';
      desired: DesiredConcept;
      action: HistoryAction;
      restoredFromId?: number;
      revive?: boolean;
    }
  | { kind: 'DELETE'; action?: HistoryAction; restoredFromId?: number };

/** The desired state equal to a snapshot (used for patches' defaults and for undo). */
export function desiredFromSnapshot(snapshot: ConceptSnapshot): DesiredConcept {
  const linksOf = (termId: number | null) =>
    snapshot.refLinks
      .filter((link) => link.sourceTermId === termId)
      .map(({ sourceTermId: _source, ...link }) => ({ ...link }));
  return {
    sectionId: snapshot.sectionId,
    domainIds: [...snapshot.domainIds],
    fieldMap: structuredClone(snapshot.fieldMap),
    refLinks: linksOf(null),
    terms: snapshot.terms.map(
      (term): DesiredTerm => ({
        id: term.id,
        name: term.name,
        languageCode: term.languageCode,
        regionCode: term.regionCode,
        scriptCode: term.scriptCode,
        fieldMap: structuredClone(term.fieldMap),
        refLinks: linksOf(term.id),
      }),
    ),
    relations: snapshot.relations.map((relation) => ({
      id: relation.id,
      sourceConceptId: relation.sourceConceptId,
      targetConceptId: relation.targetConceptId,
      type: relation.type,
      attribute: relation.attribute,
      text: relation.text,
    })),
    // Undefined in items recorded before concept writes took language fields: they stay as they are.
    languageFields: snapshot.languageFields && structuredClone(snapshot.languageFields),
  };
}

/**
 * Runs one change of a concept. `version` undefined skips the optimistic check (undo); otherwise a
 * missing or stale version answers 409. `authorize` sees the state before and the checked state after.
 * Answers the concept id; the caller renders it afterwards.
 */
export async function changeConcept(
  scope: Scope,
  id: number,
  options: {
    version: number | null | undefined | 'SKIP';
    evenDeleted?: boolean;
    plan: (context: ChangeContext) => ChangePlan | Promise<ChangePlan>;
    authorize: (context: ChangeContext, after: ConceptSnapshot | null) => void | Promise<void>;
  },
): Promise<number> {
  // Outside the transaction: tenant and section readability (404), so nothing is locked for strangers.
  await readableConcept(scope, id, { evenDeleted: options.evenDeleted });
  await scope.em.transactional(async (em) => {
    await em.execute('select id from concepts where id = ? for update', [id]);
    const concept = await em.findOneOrFail(Concept, { id }, { filters: ALL_ROWS });
    if (concept.deleted && !options.evenDeleted) throw new AppError('NOT_FOUND', `Concept ${id} not found`);
    if (options.version !== 'SKIP') assertVersion(concept, options.version, 'Concept');
    await assertNotLockedByOther(scope, em, id);
    const dictionary = await em.findOneOrFail(
      Dictionary,
      { id: concept.dictionary.id },
      { filters: ALL_ROWS },
    );
    const [access] = await conceptAccessFor(scope, [
      { sectionId: concept.section.id, ownerId: concept.createdById ?? null },
    ]);
    const parts = (await loadParts(em, [id], { deletedTerms: true, languageFields: true })).get(id)!;
    const context: ChangeContext = {
      em,
      concept,
      parts,
      before: snapshotOf(concept, parts),
      structure: await loadStructure(em, dictionary),
      access: access!,
    };
    const plan = await options.plan(context);
    const revision = concept.version + 1;
    if (plan.kind === 'DELETE') {
      await options.authorize(context, null);
      await softDeleteConcept(scope, em, concept);
      await em.flush();
      const after = { ...context.before, deleted: true, relations: [] };
      recordHistory(em, {
        concept,
        revision,
        action: plan.action ?? 'DELETE',
        userId: scope.actor.userId,
        before: context.before,
        after,
        restoredFromId: plan.restoredFromId,
      });
      await em.flush();
      return;
    }
    await checkDesired(em, context.structure, plan.desired, id, parts);
    const afterPreview = previewSnapshot(context.before, plan.desired, plan.revive ?? false, id);
    await options.authorize(context, afterPreview);
    if (diffSnapshots(context.before, afterPreview).length === 0) return;
    if (plan.revive) Object.assign(concept, { deleted: false, deletedAt: null, deletedById: null });
    await writeDesired(scope, em, concept, parts, plan.desired);
    const fresh = (await loadParts(em, [id], { languageFields: true })).get(id)!;
    const item = recordHistory(em, {
      concept,
      revision,
      action: plan.action,
      userId: scope.actor.userId,
      before: context.before,
      after: snapshotOf(concept, fresh),
      restoredFromId: plan.restoredFromId,
    });
    // Workflow (docs/workflows.md): read-only states refuse the edit; approved entries re-open.
    item.changes = [
      ...item.changes,
      ...(await workflowAfterEdit(em, concept, item.changes, scope.actor.userId)),
    ];
    await em.flush();
  });
  scope.em.clear();
  return id;
}

/**
 * The snapshot a desired state will give (new terms and relations get placeholder ids below zero), so
 * that permissions and "nothing changed" are judged on the checked values before anything is written.
 */
function previewSnapshot(
  before: ConceptSnapshot,
  desired: DesiredConcept,
  revive: boolean,
  conceptId: number,
): ConceptSnapshot {
  let placeholder = 0;
  const oldRelations = new Map(before.relations.map((relation) => [relation.id, relation]));
  return {
    ...before,
    deleted: revive ? false : before.deleted,
    sectionId: desired.sectionId,
    domainIds: [...desired.domainIds].sort((a, b) => a - b),
    fieldMap: desired.fieldMap,
    terms: desired.terms.map((term) => ({
      id: term.id ?? --placeholder,
      tid: before.terms.find((old) => old.id === term.id)?.tid ?? 0,
      name: term.name,
      languageCode: term.languageCode,
      regionCode: term.regionCode,
      scriptCode: term.scriptCode,
      fieldMap: term.fieldMap,
    })),
    relations: desired.relations.map((relation) => {
      const old = relation.id === undefined ? undefined : oldRelations.get(relation.id);
      return {
        id: relation.id ?? --placeholder,
        relationId: old?.relationId ?? placeholder,
        sourceConceptId: relation.sourceConceptId ?? conceptId,
        targetConceptId: relation.targetConceptId,
        type: relation.type,
        attribute: relation.attribute,
        text: relation.text,
      };
    }),
    languageFields: desired.languageFields ?? before.languageFields,
    refLinks: [
      ...desired.refLinks.map((link) => ({ sourceTermId: null, ...link })),
      ...desired.terms.flatMap((term) =>
        term.refLinks.map((link) => ({ sourceTermId: term.id ?? null, ...link })),
      ),
    ],
  };
}
