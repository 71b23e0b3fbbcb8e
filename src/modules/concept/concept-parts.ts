/**
 * The rows that make up concepts (terms, domains, relations from and to them, reference links), loaded for
 * many concepts in four queries. Rendering, history snapshots and writes all start from here.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConceptSnapshot, RefLinkSnapshot } from '../history/history.types.js';
import { type Concept, ConceptDomain, ConceptRelation, RefLink, Term } from './concept.entity.js';
import { type LanguageFieldsDto, languageFieldsOf } from './concept-language-fields.js';

const NO_TENANT = { tenant: false } as const;

export interface ConceptParts {
  terms: Term[];
  domainIds: number[];
  relations: ConceptRelation[];
  /** Links of the concept's fields and of its terms' fields (sourceTermId set). */
  refLinks: RefLink[];
  /** Loaded on request (concept writes): then part of the snapshot; absent: the snapshot leaves them out. */
  languageFields?: LanguageFieldsDto[];
}

export async function loadParts(
  em: EntityManager,
  conceptIds: readonly number[],
  options: { deletedTerms?: boolean; languageFields?: boolean } = {},
): Promise<Map<number, ConceptParts>> {
  const parts = new Map<number, ConceptParts>();
  for (const id of conceptIds) parts.set(id, { terms: [], domainIds: [], relations: [], refLinks: [] });
  if (conceptIds.length === 0) return parts;
  const ids = [...new Set(conceptIds)];
  // Sequential on purpose: this also runs inside transactions (one connection, one query at a time).
  const terms = await em.find(
    Term,
    { concept: { $in: ids } },
    {
      filters: options.deletedTerms ? { ...NO_TENANT, notDeleted: false } : NO_TENANT,
      orderBy: { id: 'ASC' },
    },
  );
  const domains = await em.find(ConceptDomain, { concept: { $in: ids } });
  const relations = await em.find(
    ConceptRelation,
    { $or: [{ sourceConcept: { $in: ids } }, { targetConcept: { $in: ids } }] },
    { orderBy: { relationId: 'ASC' } },
  );
  const links = await em.find(RefLink, { sourceConcept: { $in: ids } }, { orderBy: { id: 'ASC' } });
  for (const term of terms) parts.get(term.concept.id)?.terms.push(term);
  for (const domain of domains) parts.get(domain.concept.id)?.domainIds.push(domain.domain.id);
  for (const relation of relations) {
    parts.get(relation.sourceConcept.id)?.relations.push(relation);
    if (relation.targetConcept.id !== relation.sourceConcept.id) {
      parts.get(relation.targetConcept.id)?.relations.push(relation);
    }
  }
  for (const link of links) parts.get(link.sourceConcept.id)?.refLinks.push(link);
  for (const part of parts.values()) part.domainIds.sort((a, b) => a - b);
  if (options.languageFields) {
    const languageFields = await languageFieldsOf(em, ids);
    for (const [id, part] of parts) part.languageFields = languageFields.get(id) ?? [];
  }
  return parts;
}

/** The history snapshot of a concept: its state with the live terms only. */
export function snapshotOf(concept: Concept, parts: ConceptParts): ConceptSnapshot {
  const liveTerms = parts.terms.filter((term) => !term.deleted);
  const liveTermIds = new Set(liveTerms.map((term) => term.id));
  return {
    cid: concept.cid,
    dictionaryId: concept.dictionary.id,
    sectionId: concept.section.id,
    deleted: concept.deleted,
    domainIds: [...parts.domainIds],
    fieldMap: concept.fieldMap,
    terms: liveTerms.map((term) => ({
      id: term.id,
      tid: term.tid,
      name: term.name,
      languageCode: term.languageCode,
      regionCode: term.regionCode ?? null,
      scriptCode: term.scriptCode ?? null,
      fieldMap: term.fieldMap,
    })),
    relations: parts.relations.map((relation) => ({
      id: relation.id,
      relationId: relation.relationId,
      sourceConceptId: relation.sourceConcept.id,
      targetConceptId: relation.targetConcept.id,
      type: relation.type,
      attribute: relation.attribute,
      text: relation.text ?? null,
    })),
    refLinks: parts.refLinks
      .filter(
        (link) =>
          link.sourceTermId === null || link.sourceTermId === undefined || liveTermIds.has(link.sourceTermId),
      )
      .map(refLinkSnapshot),
    ...(parts.languageFields ? { languageFields: parts.languageFields } : {}),
  };
}

/** A link's stored attributes (what history keeps and the API shows besides ids). */
export function refLinkSnapshot(link: RefLink): RefLinkSnapshot {
  return {
    sourceTermId: link.sourceTermId ?? null,
    sourceFieldOid: link.sourceFieldOid,
    type: link.type,
    text: link.text,
    dynamicText: link.dynamicText ?? null,
    position: link.position,
    url: link.url ?? null,
    conceptId: link.conceptId ?? null,
    termId: link.termId ?? null,
    languageCode: link.languageCode ?? null,
  };
}
