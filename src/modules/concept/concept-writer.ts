/**
 * Checks a desired concept state and writes it: the concept row, its domains, terms, relations and
 * reference links. Always inside the caller's transaction, which also writes the history item.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sameJson } from '../../shared/canonical-json.js';
import type { Scope } from '../../shared/scope.js';
import { unknownAttachmentKeys } from '../attachment/attachment-keys.js';
import { Concept, ConceptRelation, RefLink, Term } from './concept.entity.js';
import { replaceLanguageFields } from './concept-language-fields.js';
import type { ConceptParts } from './concept-parts.js';
import { allocateSerials } from './concept-serials.js';
import type { DictionaryStructure } from './concept-structure.js';
import {
  checkFieldMap,
  checkIncrementalValues,
  checkLanguageFields,
  checkRefLinks,
  checkRelation,
  checkTermLanguage,
  type DesiredConcept,
  type DesiredRefLink,
  Problems,
} from './concept-validation.js';

const NO_TENANT = { tenant: false } as const;
const ALL_ROWS = { ...NO_TENANT, notDeleted: false } as const;

/**
 * Validates and normalizes a desired state in place (field values as stored, language codes as the
 * dictionary spells them, trimmed names). `conceptId` is the concept being changed (none for a create),
 * `parts` its current rows. Throws one 400 listing every problem.
 */
export async function checkDesired(
  em: EntityManager,
  structure: DictionaryStructure,
  desired: DesiredConcept,
  conceptId: number | undefined,
  parts: ConceptParts | null,
): Promise<void> {
  const problems = new Problems();
  desired.fieldMap = checkFieldMap(structure, 'CONCEPT', desired.fieldMap, 'fieldMap', problems);
  checkRefLinks(desired.refLinks, desired.fieldMap, 'refLinks', problems);
  if (desired.languageFields) {
    desired.languageFields = checkLanguageFields(structure, desired.languageFields, problems);
  }
  const ownTerms = new Map((parts?.terms ?? []).map((term) => [term.id, term]));
  const seenTermIds = new Set<number>();
  desired.terms.forEach((term, index) => {
    const where = `terms[${index}]`;
    term.name = term.name.trim();
    if (term.name === '') problems.add(`${where}: name is required`);
    if (term.id !== undefined) {
      if (!ownTerms.has(term.id)) problems.add(`${where}: term ${term.id} is not a term of this concept`);
      if (seenTermIds.has(term.id)) problems.add(`${where}: term ${term.id} is given twice`);
      seenTermIds.add(term.id);
    }
    Object.assign(term, checkTermLanguage(structure, term, where, problems));
    term.fieldMap = checkFieldMap(structure, 'TERM', term.fieldMap, `${where}.fieldMap`, problems);
    checkRefLinks(term.refLinks, term.fieldMap, `${where}.refLinks`, problems);
  });
  const ownRelations = new Set((parts?.relations ?? []).map((relation) => relation.id));
  desired.relations.forEach((relation, index) => {
    const where = `conceptRelations[${index}]`;
    checkRelation(relation, where, problems);
    if (relation.id !== undefined && !ownRelations.has(relation.id)) {
      problems.add(`${where}: relation ${relation.id} is not a relation of this concept`);
    }
    const self = conceptId ?? null;
    const source = relation.sourceConceptId ?? self;
    if (source !== self && relation.targetConceptId !== self && self !== null) {
      problems.add(`${where}: one end of the relation must be this concept`);
    }
    if (source !== null && source === relation.targetConceptId) {
      problems.add(`${where}: a concept cannot relate to itself`);
    }
    if (self === null && relation.sourceConceptId !== null) {
      problems.add(`${where}: a new concept is the source of its relations (leave sourceConceptId out)`);
    }
  });
  await checkRelationEnds(em, structure, desired, conceptId, problems);
  await checkLinkTargets(em, structure, desired, parts, problems);
  await checkIncrementalValues(
    em,
    structure,
    [
      { level: 'CONCEPT', id: conceptId, conceptId, fieldMap: desired.fieldMap, where: 'fieldMap' },
      ...desired.terms.map((term, index) => ({
        level: 'TERM' as const,
        id: term.id,
        conceptId,
        fieldMap: term.fieldMap,
        where: `terms[${index}].fieldMap`,
      })),
    ],
    problems,
  );
  await checkAttachmentKeys(em, structure, desired, problems);
  problems.throwIfAny();
}

/** ATTACHMENT values must be keys of files uploaded in the dictionary's client (docs/attachments.md). */
async function checkAttachmentKeys(
  em: EntityManager,
  structure: DictionaryStructure,
  desired: DesiredConcept,
  problems: Problems,
) {
  const keys: string[] = [];
  for (const fieldMap of [desired.fieldMap, ...desired.terms.map((term) => term.fieldMap)]) {
    for (const [oid, values] of Object.entries(fieldMap)) {
      if (structure.fields.get(oid)?.field.fieldType === 'ATTACHMENT') keys.push(...values);
    }
  }
  const unknown = await unknownAttachmentKeys(em, structure.dictionary.client.id, keys);
  for (const key of unknown) problems.add(`"${key}" is not an uploaded attachment`);
}

/** The other end of each relation must be a live concept of the same dictionary. */
async function checkRelationEnds(
  em: EntityManager,
  structure: DictionaryStructure,
  desired: DesiredConcept,
  conceptId: number | undefined,
  problems: Problems,
) {
  const others = new Set<number>();
  for (const relation of desired.relations) {
    for (const end of [relation.sourceConceptId, relation.targetConceptId]) {
      if (end !== null && end !== conceptId) others.add(end);
    }
  }
  if (others.size === 0) return;
  const found = await em.execute<{ id: number }[]>(
    'select id from concepts where id in (?) and dictionary_id = ? and not deleted',
    [[...others], structure.dictionary.id],
  );
  const live = new Set(found.map((concept) => concept.id));
  for (const id of others) {
    if (!live.has(id)) {
      problems.add(
        `conceptRelations: concept ${id} is not a concept of dictionary ${structure.dictionary.id}`,
      );
    }
  }
}

/** Links to concepts and terms must name live ones of the same client. */
async function checkLinkTargets(
  em: EntityManager,
  structure: DictionaryStructure,
  desired: DesiredConcept,
  parts: ConceptParts | null,
  problems: Problems,
) {
  // A stored link whose target was deleted since stays as it is (invalid); only new targets must exist.
  const stored = new Set(
    (parts?.refLinks ?? []).map((link) => `${link.type}:${link.conceptId ?? ''}:${link.termId ?? ''}`),
  );
  const isStored = (link: DesiredRefLink) =>
    stored.has(`${link.type}:${link.conceptId ?? ''}:${link.termId ?? ''}`);
  const links = [...desired.refLinks, ...desired.terms.flatMap((term) => term.refLinks)];
  const conceptIds = [
    ...new Set(links.flatMap((link) => (link.type === 'CONCEPT' && link.conceptId ? [link.conceptId] : []))),
  ];
  const termIds = [
    ...new Set(links.flatMap((link) => (link.type === 'TERM' && link.termId ? [link.termId] : []))),
  ];
  const client = structure.dictionary.client.id;
  // Plain rows, not partial entities (a partial entity would stay partial in this transaction).
  const concepts = conceptIds.length
    ? await em.execute<{ id: number }[]>(
        'select id from concepts where id in (?) and client_id = ? and not deleted',
        [conceptIds, client],
      )
    : [];
  const terms = termIds.length
    ? await em.execute<{ id: number; concept_id: number; language_code: string }[]>(
        'select id, concept_id, language_code from terms where id in (?) and client_id = ? and not deleted',
        [termIds, client],
      )
    : [];
  const liveConcepts = new Set(concepts.map((concept) => concept.id));
  const liveTerms = new Map(terms.map((term) => [term.id, term]));
  for (const link of links) {
    if (link.type === 'CONCEPT' && link.conceptId && !liveConcepts.has(link.conceptId) && !isStored(link)) {
      problems.add(`reference link "${link.text}": concept ${link.conceptId} does not exist`);
    }
    if (link.type === 'TERM' && link.termId) {
      const term = liveTerms.get(link.termId);
      if (!term) {
        if (!isStored(link))
          problems.add(`reference link "${link.text}": term ${link.termId} does not exist`);
      } else {
        link.conceptId ??= term.concept_id;
        link.languageCode ??= term.language_code;
      }
    }
  }
}

/** Writes the desired state over the concept's current rows (`parts`; null for a new concept). */
export async function writeDesired(
  scope: Scope,
  em: EntityManager,
  concept: Concept,
  parts: ConceptParts | null,
  desired: DesiredConcept,
): Promise<void> {
  const actorId = scope.actor.userId;
  const now = new Date();
  concept.section = em.getReference('Section', desired.sectionId) as never;
  concept.fieldMap = desired.fieldMap;
  concept.changedById = actorId;
  concept.changedAt = now;
  if (!concept.id) concept.createdAt = now;

  const newTerms = desired.terms.filter((term) => term.id === undefined).length;
  const existingRelations = new Map((parts?.relations ?? []).map((relation) => [relation.id, relation]));
  const newRelations = desired.relations.filter(
    (r) => r.id === undefined || !existingRelations.has(r.id),
  ).length;
  const serials = await allocateSerials(em, concept.dictionary.id, {
    tid: newTerms,
    relationId: newRelations,
  });
  let nextTid = serials.tid;
  let nextRelationId = serials.relationId;
  if (!concept.id) await em.flush();

  // Domains: the difference only, in SQL (the rows loaded with the parts stay in the identity map, so
  // deleting and re-creating the same keys through the ORM would lose them).
  const currentDomains = new Set(parts?.domainIds ?? []);
  const wantedDomains = new Set(desired.domainIds);
  const removedDomains = [...currentDomains].filter((id) => !wantedDomains.has(id));
  const addedDomains = [...wantedDomains].filter((id) => !currentDomains.has(id));
  if (removedDomains.length) {
    await em.execute('delete from concept_domains where concept_id = ? and domain_id in (?)', [
      concept.id,
      removedDomains,
    ]);
  }
  if (addedDomains.length) {
    await em.execute(
      'insert into concept_domains (concept_id, domain_id) select ?, d from unnest(array[?]::int[]) d on conflict do nothing',
      [concept.id, addedDomains],
    );
  }

  // Terms: sent ones updated (and revived by an undo), new ones created, the others soft-deleted.
  const existing = new Map((parts?.terms ?? []).map((term) => [term.id, term]));
  const kept = new Set<number>();
  const termRows: Term[] = [];
  for (const wanted of desired.terms) {
    let term = wanted.id === undefined ? undefined : existing.get(wanted.id);
    if (!term) {
      term = em.create(Term, {
        client: concept.client,
        dictionary: concept.dictionary,
        concept,
        name: wanted.name,
        languageCode: wanted.languageCode,
        regionCode: wanted.regionCode,
        scriptCode: wanted.scriptCode,
        tid: nextTid++,
        fieldMap: wanted.fieldMap,
        createdById: actorId,
        changedById: actorId,
      });
    } else {
      kept.add(term.id);
      const changed =
        term.deleted ||
        term.name !== wanted.name ||
        term.languageCode !== wanted.languageCode ||
        (term.regionCode ?? null) !== wanted.regionCode ||
        (term.scriptCode ?? null) !== wanted.scriptCode ||
        !sameJson(term.fieldMap, wanted.fieldMap);
      if (changed) {
        Object.assign(term, {
          name: wanted.name,
          languageCode: wanted.languageCode,
          regionCode: wanted.regionCode,
          scriptCode: wanted.scriptCode,
          fieldMap: wanted.fieldMap,
          deleted: false,
          deletedAt: null,
          deletedById: null,
          changedById: actorId,
        });
      }
    }
    termRows.push(term);
  }
  const removedTermIds: number[] = [];
  for (const term of existing.values()) {
    if (!term.deleted && !kept.has(term.id)) {
      Object.assign(term, { deleted: true, deletedAt: now, deletedById: actorId, changedById: actorId });
      removedTermIds.push(term.id);
    }
  }

  // Relations: kept by id, new ones numbered, the others removed.
  const keptRelations = new Set<number>();
  for (const wanted of desired.relations) {
    const source = wanted.sourceConceptId ?? concept.id;
    const target = wanted.targetConceptId;
    const row = wanted.id === undefined ? undefined : existingRelations.get(wanted.id);
    if (row) {
      keptRelations.add(row.id);
      Object.assign(row, {
        sourceConcept: em.getReference(Concept, source),
        targetConcept: em.getReference(Concept, target),
        type: wanted.type,
        attribute: wanted.attribute,
        text: wanted.text,
      });
    } else {
      em.create(ConceptRelation, {
        client: concept.client,
        dictionary: concept.dictionary,
        sourceConcept: em.getReference(Concept, source),
        targetConcept: em.getReference(Concept, target),
        type: wanted.type,
        attribute: wanted.attribute,
        text: wanted.text,
        relationId: nextRelationId++,
        createdById: actorId,
      });
    }
  }
  for (const relation of existingRelations.values()) {
    if (!keptRelations.has(relation.id)) em.remove(relation);
  }
  await em.flush();

  // Reference links: rewritten with their fields.
  await em.nativeDelete(RefLink, { sourceConcept: concept.id });
  const linkRow = (link: DesiredRefLink, sourceTermId: number | null) =>
    em.create(RefLink, {
      client: concept.client,
      dictionary: concept.dictionary,
      sourceConcept: concept,
      sourceTermId,
      ...link,
      invalid: false,
    });
  for (const link of desired.refLinks) linkRow(link, null);
  desired.terms.forEach((wanted, index) => {
    for (const link of wanted.refLinks) linkRow(link, termRows[index]!.id);
  });
  await em.flush();
  // Language fields: replaced as a whole when they differ (undefined: left as they are).
  if (desired.languageFields && !sameJson(desired.languageFields, parts?.languageFields ?? [])) {
    await replaceLanguageFields(em, concept, desired.languageFields);
  }
  if (removedTermIds.length) await markLinksInvalid(em, { termIds: removedTermIds });
  // The concept's own links point at live targets unless a kept link's target is gone meanwhile.
  await em.execute(
    `update ref_links l set invalid = true where l.source_concept_id = ? and (
       (l.type = 'CONCEPT' and not exists (select 1 from concepts c where c.id = l.concept_id and not c.deleted))
       or (l.type = 'TERM' and not exists (select 1 from terms t where t.id = l.term_id and not t.deleted)))`,
    [concept.id],
  );
}

/** Links pointing at deleted concepts or terms become invalid (and valid again when they return). */
export async function markLinksInvalid(
  em: EntityManager,
  targets: { conceptIds?: readonly number[]; termIds?: readonly number[] },
  invalid = true,
) {
  const conceptIds = [...(targets.conceptIds ?? [])];
  const termIds = [...(targets.termIds ?? [])];
  if (conceptIds.length) {
    await em.execute(
      `update ref_links set invalid = ? where concept_id in (?) or term_id in (select id from terms where concept_id in (?))`,
      [invalid, conceptIds, conceptIds],
    );
  }
  if (termIds.length)
    await em.execute('update ref_links set invalid = ? where term_id in (?)', [invalid, termIds]);
}

/** Soft-deletes a concept with its live terms, removes its relations, invalidates links to it. */
export async function softDeleteConcept(scope: Scope, em: EntityManager, concept: Concept) {
  const now = new Date();
  Object.assign(concept, {
    deleted: true,
    deletedAt: now,
    deletedById: scope.actor.userId,
    changedById: scope.actor.userId,
    changedAt: now,
  });
  await em.nativeUpdate(
    Term,
    { concept: concept.id, deleted: false },
    { deleted: true, deletedAt: now, deletedById: scope.actor.userId },
    { filters: ALL_ROWS },
  );
  await em.nativeDelete(ConceptRelation, {
    $or: [{ sourceConcept: concept.id }, { targetConcept: concept.id }],
  });
  await markLinksInvalid(em, { conceptIds: [concept.id] });
  await em.execute('delete from concept_locks where concept_id = ?', [concept.id]);
}
