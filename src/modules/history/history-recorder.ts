/**
 * Writes a history item for a concept change, inside the writer's transaction: the change list comes
 * from comparing the snapshot before with the snapshot after.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sameJson } from '../../shared/canonical-json.js';
import type { Concept } from '../concept/concept.entity.js';
import { ConceptHistory, type HistoryAction } from './history.entity.js';
import type {
  ConceptSnapshot,
  HistoryChange,
  LanguageFieldsSnapshot,
  TermSnapshot,
} from './history.types.js';

const same = sameJson;

function fieldChanges(
  before: Record<string, string[]>,
  after: Record<string, string[]>,
  subject: 'FIELD' | 'TERM_FIELD' | 'LANGUAGE_FIELD',
  termId?: number,
): HistoryChange[] {
  const changes: HistoryChange[] = [];
  for (const oid of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = before[oid];
    const now = after[oid];
    if (same(old, now)) continue;
    const kind = old === undefined ? 'ADDED' : now === undefined ? 'REMOVED' : 'CHANGED';
    changes.push({ kind, subject, fieldOid: oid, ...(termId ? { termId } : {}), before: old, after: now });
  }
  return changes;
}

/** The tag of a language field row: `eng`, `eng-GB`, `srp-Latn` (language, region, script). */
export const languageTagOf = (
  row: Pick<LanguageFieldsSnapshot, 'languageCode' | 'regionCode' | 'scriptCode'>,
) => [row.languageCode, row.scriptCode, row.regionCode].filter(Boolean).join('-');

/** Language field changes, one per tag and field; a side without languageFields (older item) is unknown. */
function languageFieldChanges(before: ConceptSnapshot, after: ConceptSnapshot): HistoryChange[] {
  if (!before.languageFields || !after.languageFields) return [];
  const byTag = (rows: readonly LanguageFieldsSnapshot[]) =>
    new Map(rows.map((row) => [languageTagOf(row), row.fieldMap]));
  const old = byTag(before.languageFields);
  const now = byTag(after.languageFields);
  const changes: HistoryChange[] = [];
  for (const language of new Set([...old.keys(), ...now.keys()])) {
    for (const change of fieldChanges(old.get(language) ?? {}, now.get(language) ?? {}, 'LANGUAGE_FIELD')) {
      changes.push({ ...change, language });
    }
  }
  return changes;
}

const termHead = (term: TermSnapshot) => ({
  name: term.name,
  languageCode: term.languageCode,
  regionCode: term.regionCode,
  scriptCode: term.scriptCode,
});

/** A term added, with the field values it came with (a later diff compares with these). */
const addedTerm = (term: ConceptSnapshot['terms'][number]): HistoryChange[] => [
  { kind: 'ADDED', subject: 'TERM', termId: term.id, after: termHead(term) },
  ...fieldChanges({}, term.fieldMap, 'TERM_FIELD', term.id),
];

/** What differs between two snapshots (before null: everything is added). */
export function diffSnapshots(before: ConceptSnapshot | null, after: ConceptSnapshot): HistoryChange[] {
  const changes: HistoryChange[] = [];
  if (!before) {
    changes.push({ kind: 'ADDED', subject: 'CONCEPT', after: after.cid });
    for (const term of after.terms) changes.push(...addedTerm(term));
    return changes;
  }
  if (before.deleted !== after.deleted) {
    changes.push({
      kind: after.deleted ? 'REMOVED' : 'ADDED',
      subject: 'CONCEPT',
      before: before.deleted,
      after: after.deleted,
    });
  }
  if (before.sectionId !== after.sectionId) {
    changes.push({ kind: 'CHANGED', subject: 'SECTION', before: before.sectionId, after: after.sectionId });
  }
  if (!same(before.domainIds, after.domainIds)) {
    changes.push({ kind: 'CHANGED', subject: 'DOMAINS', before: before.domainIds, after: after.domainIds });
  }
  changes.push(...fieldChanges(before.fieldMap, after.fieldMap, 'FIELD'));
  changes.push(...languageFieldChanges(before, after));
  const oldTerms = new Map(before.terms.map((term) => [term.id, term]));
  const newTerms = new Map(after.terms.map((term) => [term.id, term]));
  for (const term of after.terms) {
    const old = oldTerms.get(term.id);
    if (!old) {
      changes.push(...addedTerm(term));
      continue;
    }
    if (!same(termHead(old), termHead(term))) {
      changes.push({
        kind: 'CHANGED',
        subject: 'TERM',
        termId: term.id,
        before: termHead(old),
        after: termHead(term),
      });
    }
    changes.push(...fieldChanges(old.fieldMap, term.fieldMap, 'TERM_FIELD', term.id));
  }
  for (const term of before.terms) {
    if (!newTerms.has(term.id))
      changes.push({ kind: 'REMOVED', subject: 'TERM', termId: term.id, before: termHead(term) });
  }
  const relationKey = (r: ConceptSnapshot['relations'][number]) => r.relationId;
  const oldRelations = new Map(before.relations.map((r) => [relationKey(r), r]));
  const newRelations = new Map(after.relations.map((r) => [relationKey(r), r]));
  for (const [key, relation] of newRelations) {
    const old = oldRelations.get(key);
    if (!old) changes.push({ kind: 'ADDED', subject: 'RELATION', relationId: key, after: relation });
    else if (!same({ ...old, id: 0 }, { ...relation, id: 0 })) {
      changes.push({ kind: 'CHANGED', subject: 'RELATION', relationId: key, before: old, after: relation });
    }
  }
  for (const [key, relation] of oldRelations) {
    if (!newRelations.has(key))
      changes.push({ kind: 'REMOVED', subject: 'RELATION', relationId: key, before: relation });
  }
  if (!same(before.refLinks, after.refLinks)) {
    changes.push({
      kind: 'CHANGED',
      subject: 'REF_LINK',
      before: before.refLinks.length,
      after: after.refLinks.length,
    });
  }
  return changes;
}

/** Adds the history item of one change; `revision` is the concept version the change produced. */
export function recordHistory(
  em: EntityManager,
  input: {
    concept: Concept;
    revision: number;
    action: HistoryAction;
    userId: number;
    before: ConceptSnapshot | null;
    after: ConceptSnapshot;
    restoredFromId?: number;
  },
): ConceptHistory {
  return em.create(ConceptHistory, {
    client: input.concept.client,
    dictionary: input.concept.dictionary,
    concept: input.concept,
    revision: input.revision,
    action: input.action,
    userId: input.userId,
    changes: diffSnapshots(input.before, input.after),
    snapshot: input.after,
    restoredFromId: input.restoredFromId ?? null,
  });
}
