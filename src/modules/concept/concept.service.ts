/**
 * Concept use cases: reads (by id, oid, term), create, full update, patch, delete and the permission
 * view. Writes go through changeConcept (row lock, version, edit lock, validation, history).
 */
import { sameJson } from '../../shared/canonical-json.js';
import { AppError, notFound } from '../../shared/errors.js';
import type { Format } from '../../shared/format.js';
import { mayIncludeDeleted, type Scope } from '../../shared/scope.js';
import { conceptAccessFor } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import type { ConceptSnapshot, LanguageFieldsSnapshot } from '../history/history.types.js';
import { recordHistory } from '../history/history-recorder.js';
import { Section } from '../section/section.entity.js';
import { unseenTermIds, unseenTermsOfChange } from '../workflow/workflow-visibility.js';
import { Concept } from './concept.entity.js';
import type {
  ConceptCreateInput,
  ConceptOutput,
  ConceptUpdateInput,
  LanguageFieldsInput,
  TermInput,
} from './concept.schema.js';
import {
  assertConceptPermission,
  conceptIdOfTerm,
  type LoadedConcept,
  readableConcept,
  readableConcepts,
  termAllowed,
} from './concept-access.js';
import { type ChangeContext, changeConcept, desiredFromSnapshot } from './concept-change.js';
import { languageFieldLanguages, tagKey } from './concept-language-fields.js';
import { loadParts, snapshotOf } from './concept-parts.js';
import { renderConcepts } from './concept-render.js';
import { allocateSerials } from './concept-serials.js';
import { type DictionaryStructure, loadStructure } from './concept-structure.js';
import {
  type DesiredConcept,
  type DesiredTerm,
  domainIdsOf,
  Problems,
  refLinksOf,
  sectionIdOf,
  withoutDeletedFields,
} from './concept-validation.js';
import { checkDesired, writeDesired } from './concept-writer.js';

const NO_TENANT = { tenant: false } as const;

export interface ReadOptions {
  format: Format;
  'with-comments'?: boolean;
  'include-deleted'?: boolean;
  /** The answer to the caller's creation of the concept (RenderOptions.writtenByCaller); never an input. */
  writtenByCaller?: boolean;
}

async function render(scope: Scope, loaded: readonly LoadedConcept[], options: ReadOptions) {
  return renderConcepts(scope, loaded, {
    format: options.format,
    withComments: options['with-comments'] ?? false,
    deletedTerms: mayIncludeDeleted(scope, options['include-deleted'] ?? false),
    writtenByCaller: options.writtenByCaller ?? false,
  });
}

export async function getConcept(scope: Scope, id: number, options: ReadOptions): Promise<ConceptOutput> {
  const loaded = await readableConcept(scope, id, { includeDeleted: options['include-deleted'] });
  const [dto] = await render(scope, [loaded], options);
  return dto!;
}

export async function getConceptByOid(scope: Scope, oid: string, options: ReadOptions) {
  const [concept] = await scope.em.execute<{ id: number }[]>(
    'select id from concepts where oid = ? and client_id = ? and not deleted limit 1',
    [oid, scope.actor.clientId],
  );
  if (!concept) throw notFound('Concept', oid);
  return getConcept(scope, concept.id, options);
}

export async function getConceptByTerm(
  scope: Scope,
  where: { id: number } | { oid: string },
  options: ReadOptions,
) {
  const conceptId = await conceptIdOfTerm(scope, where);
  const [key, value] = 'id' in where ? ['id', where.id] : ['oid', where.oid];
  const terms = await scope.em.execute<TermRow[]>(
    `select id, concept_id, dictionary_id, language_code from terms
      where ${key} = ? and client_id = ? and concept_id = ? and not deleted`,
    [value, scope.actor.clientId, conceptId],
  );
  await assertTermsSeen(scope, terms, value);
  return getConcept(scope, conceptId, options);
}

interface TermRow {
  id: number;
  concept_id: number;
  dictionary_id: number;
  language_code: string;
}

/** Workflow (docs/workflows.md): a term the caller is not shown is not found, like one that does not exist. */
async function assertTermsSeen(scope: Scope, terms: readonly TermRow[], named?: number | string) {
  const unseen = await unseenTermIds(
    scope,
    terms.map((term) => ({
      dictionaryId: term.dictionary_id,
      conceptId: term.concept_id,
      languageCode: term.language_code,
      termId: term.id,
    })),
  );
  const hidden = terms.find((term) => unseen.has(term.id));
  if (hidden) throw notFound('Term', named ?? hidden.id);
}

/** The concepts of several terms, in the order of the terms (one concept once); unknown terms: 404. */
export async function getConceptsByTermIds(scope: Scope, termIds: readonly number[], options: ReadOptions) {
  if (termIds.length === 0) throw new AppError('BAD_REQUEST', 'term-ids must name at least one term');
  const terms = await scope.em.execute<TermRow[]>(
    'select id, concept_id, dictionary_id, language_code from terms where id in (?) and client_id = ? and not deleted',
    [[...termIds], scope.actor.clientId],
  );
  await assertTermsSeen(scope, terms);
  const conceptOf = new Map(terms.map((term) => [term.id, term.concept_id]));
  const missing = termIds.find((id) => !conceptOf.has(id));
  if (missing !== undefined) throw notFound('Term', missing);
  const conceptIds = [...new Set(termIds.map((id) => conceptOf.get(id)!))];
  const loaded = await readableConcepts(scope, conceptIds);
  if (loaded.length !== conceptIds.length) {
    const shown = new Set(loaded.map((entry) => entry.concept.id));
    const hidden = termIds.find((id) => !shown.has(conceptOf.get(id)!));
    throw notFound('Term', hidden);
  }
  return render(scope, loaded, options);
}

/** GET /concepts/: exactly one of oid, term-oid, term-id (several term ids answer an array). */
export async function findConcepts(
  scope: Scope,
  input: ReadOptions & { oid?: string; 'term-oid'?: string; 'term-id'?: number[] },
): Promise<ConceptOutput | ConceptOutput[]> {
  const given = [
    input.oid,
    input['term-oid'],
    input['term-id']?.length ? input['term-id'] : undefined,
  ].filter((value) => value !== undefined && value !== '');
  if (given.length !== 1) {
    throw new AppError('BAD_REQUEST', 'Give exactly one of the query parameters oid, term-oid and term-id');
  }
  if (input.oid) return getConceptByOid(scope, input.oid, input);
  if (input['term-oid']) return getConceptByTerm(scope, { oid: input['term-oid'] }, input);
  const termIds = input['term-id']!;
  if (termIds.length === 1) return getConceptByTerm(scope, { id: termIds[0]! }, input);
  return getConceptsByTermIds(scope, termIds, input);
}

// ---------------------------------------------------------------- writes

function termDesired(
  input: TermInput,
  current?: DesiredTerm,
  partial = false,
  structure?: DictionaryStructure,
): DesiredTerm {
  if (structure && current) {
    const cleaned = withoutDeletedFields(structure, current.fieldMap, input.fieldMap);
    current = { ...current, fieldMap: cleaned.stored };
    input = { ...input, fieldMap: cleaned.sent };
  }
  return {
    id: input.id,
    name: input.name,
    languageCode: input.languageCode,
    regionCode:
      input.regionCode === undefined && partial ? (current?.regionCode ?? null) : (input.regionCode ?? null),
    scriptCode:
      input.scriptCode === undefined && partial ? (current?.scriptCode ?? null) : (input.scriptCode ?? null),
    fieldMap:
      partial && current ? { ...current.fieldMap, ...(input.fieldMap ?? {}) } : (input.fieldMap ?? {}),
    refLinks:
      input.refLinks === undefined && partial ? (current?.refLinks ?? []) : refLinksOf(input.refLinks),
  };
}

function relationsDesired(input: ConceptCreateInput['conceptRelations']) {
  return (input ?? []).map((relation) => ({
    id: relation.id,
    sourceConceptId: relation.sourceConceptId ?? null,
    targetConceptId: relation.targetConceptId,
    type: relation.type,
    attribute: relation.attribute,
    text: relation.text ?? null,
  }));
}

/**
 * Language fields as a write wants them (docs/concepts.md, Language fields): not sent (or null), they stay
 * as they are, so a client that does not know them never erases imported values; on PUT the array
 * replaces them all; on PATCH the fields sent for a tag replace those fields only and tags not sent stay.
 * Values of fields deleted from the dictionary are dropped as for terms.
 */
function languageFieldsDesired(
  structure: DictionaryStructure,
  stored: readonly LanguageFieldsSnapshot[],
  sent: readonly LanguageFieldsInput[] | null | undefined,
  partial: boolean,
): LanguageFieldsSnapshot[] {
  const kept = stored.map((row) => ({
    ...row,
    fieldMap: withoutDeletedFields(structure, row.fieldMap, undefined).stored,
  }));
  if (sent === undefined || sent === null) return kept;
  const storedByTag = new Map(stored.map((row) => [tagKey(row), row]));
  const rows = sent.map((row): LanguageFieldsSnapshot => {
    const cleaned = withoutDeletedFields(
      structure,
      storedByTag.get(tagKey(row))?.fieldMap ?? {},
      row.fieldMap,
    );
    return {
      languageCode: row.languageCode,
      regionCode: row.regionCode ?? null,
      scriptCode: row.scriptCode ?? null,
      fieldMap: partial ? { ...cleaned.stored, ...cleaned.sent } : (cleaned.sent ?? {}),
    };
  });
  if (!partial) return rows;
  const sentTags = new Set(sent.map(tagKey));
  return [...rows, ...kept.filter((row) => !sentTags.has(tagKey(row)))];
}

/** A new concept with its terms, relations and links, in one transaction with its history item. */
export async function createConcept(scope: Scope, input: ConceptCreateInput): Promise<ConceptOutput> {
  if (input.dictionaryId === undefined) throw new AppError('BAD_REQUEST', 'dictionaryId is required');
  const dictionary = await readableDictionary(scope, input.dictionaryId);
  const id = await scope.em.transactional(async (em) => {
    const structure = await loadStructure(em, dictionary);
    const problems = new Problems();
    const sectionId = sectionIdOf(structure, input.sectionOid, problems);
    const domainIds = domainIdsOf(structure, input.domainList ?? [], problems);
    problems.throwIfAny();
    const [access] = await conceptAccessFor(scope, [{ sectionId: sectionId!, ownerId: null }]);
    if (!access!.readable) throw notFound('Section', input.sectionOid);
    if (!access!.conceptCreate) {
      throw new AppError('FORBIDDEN', 'You may not create concepts in this section (CONCEPT_CREATE)');
    }
    const desired: DesiredConcept = {
      sectionId: sectionId!,
      domainIds,
      fieldMap: input.fieldMap ?? {},
      refLinks: refLinksOf(input.refLinks),
      terms: (input.terms ?? []).map((term) => termDesired({ ...term, id: undefined })),
      relations: relationsDesired(input.conceptRelations),
      languageFields: languageFieldsDesired(structure, [], input.languageFields, false),
    };
    await checkDesired(em, structure, desired, undefined, null);
    for (const { languageCode } of [...desired.terms, ...(desired.languageFields ?? [])]) {
      if (access!.termLanguages !== null && !access!.termLanguages.includes(languageCode)) {
        throw new AppError('FORBIDDEN', `You may not write terms in language "${languageCode}"`);
      }
    }
    const serials = await allocateSerials(em, dictionary.id, { cid: 1 });
    const concept = em.create(Concept, {
      client: dictionary.client,
      dictionary,
      section: em.getReference(Section, desired.sectionId),
      cid: String(serials.cid),
      fieldMap: desired.fieldMap,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await writeDesired(scope, em, concept, null, desired);
    const parts = (await loadParts(em, [concept.id], { languageFields: true })).get(concept.id)!;
    recordHistory(em, {
      concept,
      revision: concept.version,
      action: 'CREATE',
      userId: scope.actor.userId,
      before: null,
      after: snapshotOf(concept, parts),
    });
    await em.flush();
    return concept.id;
  });
  scope.em.clear();
  return getConcept(scope, id, {
    format: input.format,
    'with-comments': input['with-comments'],
    writtenByCaller: true,
  });
}

/**
 * The permissions a change needs, judged on the checked state: concept attributes need CONCEPT_UPDATE
 * (field values also CONCEPT_EDIT_FIELDS), new terms TERM_CREATE, changed terms TERM_UPDATE and removed
 * ones TERM_DELETE in their language; moving to another section needs CONCEPT_CREATE there.
 */
export async function authorizeChange(scope: Scope, context: ChangeContext, after: ConceptSnapshot | null) {
  const { access, before } = context;
  if (!after) return assertConceptPermission(access, 'CONCEPT_DELETE', 'delete this concept');
  const conceptAttributesChanged =
    before.sectionId !== after.sectionId ||
    !sameJson(before.domainIds, after.domainIds) ||
    !sameJson(
      before.relations.map(({ id: _id, ...relation }) => relation),
      after.relations.map(({ id: _id, ...relation }) => relation),
    ) ||
    !sameJson(
      before.refLinks.filter((link) => link.sourceTermId === null),
      after.refLinks.filter((link) => link.sourceTermId === null),
    );
  if (conceptAttributesChanged) assertConceptPermission(access, 'CONCEPT_UPDATE', 'change this concept');
  if (!sameJson(before.fieldMap, after.fieldMap) && !access.concept.CONCEPT_UPDATE) {
    assertConceptPermission(access, 'CONCEPT_EDIT_FIELDS', "change this concept's fields");
  }
  if (before.sectionId !== after.sectionId) {
    const [target] = await conceptAccessFor(scope, [{ sectionId: after.sectionId, ownerId: null }]);
    if (!target!.conceptCreate) {
      throw new AppError('FORBIDDEN', 'You may not move concepts into that section (CONCEPT_CREATE)');
    }
  }
  const old = new Map(before.terms.map((term) => [term.id, term]));
  const refused = (what: string, language: string) =>
    new AppError('FORBIDDEN', `You may not ${what} in language "${language}"`);
  // Language fields are values of term fields in a language: TERM_UPDATE in that language.
  for (const language of languageFieldLanguages(before, after)) {
    if (!termAllowed(access, 'TERM_UPDATE', language)) throw refused('change language fields', language);
  }
  for (const term of after.terms) {
    const previous = old.get(term.id);
    if (!previous) {
      if (!access.concept.TERM_CREATE) throw refused('add terms', term.languageCode);
      if (access.termLanguages !== null && !access.termLanguages.includes(term.languageCode)) {
        throw refused('add terms', term.languageCode);
      }
      continue;
    }
    if (sameJson(previous, term)) continue;
    for (const language of new Set([previous.languageCode, term.languageCode])) {
      if (!termAllowed(access, 'TERM_UPDATE', language)) throw refused('change terms', language);
    }
  }
  const kept = new Set(after.terms.map((term) => term.id));
  for (const term of before.terms) {
    if (!kept.has(term.id) && !termAllowed(access, 'TERM_DELETE', term.languageCode)) {
      throw refused('delete terms', term.languageCode);
    }
  }
}

/**
 * PUT (partial false): the body is the whole concept; missing attributes are erased, except `terms`,
 * which must be sent (an empty array removes every term) so a forgotten member never deletes terms, and
 * `languageFields`, kept when missing (see languageFieldsDesired).
 * PATCH (partial true): missing attributes stay; fieldMap keys sent replace those fields only; a terms
 * array is applied (sent terms changed, new ones added, missing ones removed), terms null leaves them.
 */
export async function updateConcept(scope: Scope, input: ConceptUpdateInput, partial: boolean) {
  if (!partial && (input.terms === undefined || input.terms === null)) {
    throw new AppError('BAD_REQUEST', 'terms is required on a full update (send [] to remove every term)');
  }
  await changeConcept(scope, input.id, {
    version: input.version,
    plan: async ({ before, structure, em, concept }) => {
      // Workflow (docs/workflows.md): terms the caller is not shown stay exactly as they are (404 if named).
      const unseen = await unseenTermsOfChange(
        scope,
        em,
        concept.id,
        before,
        (input.terms ?? []).map((term) => term.id),
      );
      const current = desiredFromSnapshot(before);
      const problems = new Problems();
      const keep = <T>(sent: T | null | undefined, stored: T, empty: T): T =>
        sent === undefined ? (partial ? stored : empty) : sent === null ? (partial ? stored : empty) : sent;
      const sectionId =
        input.sectionOid === undefined
          ? partial
            ? current.sectionId
            : sectionIdOf(structure, undefined, problems)
          : sectionIdOf(structure, input.sectionOid, problems);
      const domainIds =
        input.domainList === undefined || (input.domainList === null && partial)
          ? partial
            ? current.domainIds
            : []
          : domainIdsOf(structure, input.domainList ?? [], problems);
      if (input.dictionaryId !== undefined && input.dictionaryId !== before.dictionaryId) {
        problems.add('dictionaryId: a concept cannot move to another dictionary');
      }
      problems.throwIfAny();
      const cleaned = withoutDeletedFields(structure, current.fieldMap, input.fieldMap ?? undefined);
      const currentTerms = new Map(current.terms.map((term) => [term.id, term]));
      const stored = (term: DesiredTerm): DesiredTerm => ({
        ...term,
        fieldMap: withoutDeletedFields(structure, term.fieldMap, undefined).stored,
      });
      const desired: DesiredConcept = {
        sectionId: sectionId!,
        domainIds,
        fieldMap: partial ? { ...cleaned.stored, ...(cleaned.sent ?? {}) } : (cleaned.sent ?? {}),
        refLinks: keep(
          input.refLinks === undefined ? undefined : refLinksOf(input.refLinks),
          current.refLinks,
          [],
        ),
        terms:
          input.terms === undefined || input.terms === null
            ? current.terms.map(stored)
            : [
                ...input.terms.map((term) =>
                  termDesired(
                    term,
                    term.id === undefined ? undefined : currentTerms.get(term.id),
                    partial,
                    structure,
                  ),
                ),
                ...current.terms.filter((term) => unseen.has(term.id!)).map(stored),
              ],
        relations: keep(
          input.conceptRelations === undefined ? undefined : relationsDesired(input.conceptRelations),
          current.relations,
          [],
        ),
        languageFields: languageFieldsDesired(
          structure,
          current.languageFields ?? [],
          input.languageFields,
          partial,
        ),
      };
      return { kind: 'STATE', desired, action: 'UPDATE' };
    },
    authorize: (context, after) => authorizeChange(scope, context, after),
  });
  return getConcept(scope, input.id, { format: input.format, 'with-comments': input['with-comments'] });
}

/** Soft delete: the concept and its terms stay stored (history, undo); relations go; links turn invalid. */
export async function deleteConcept(scope: Scope, id: number): Promise<void> {
  await changeConcept(scope, id, {
    version: 'SKIP',
    plan: () => ({ kind: 'DELETE' }),
    authorize: (context, after) => authorizeChange(scope, context, after),
  });
}

/**
 * The concept with its permission maps; with `section-oid`, as they would be in that section of the
 * concept's dictionary (what the caller could do after moving it there).
 */
export async function conceptPermissions(scope: Scope, id: number, sectionOid: string | undefined) {
  const loaded = await readableConcept(scope, id);
  if (sectionOid) {
    const section = await scope.em.findOne(
      Section,
      { oid: sectionOid, dictionary: loaded.concept.dictionary.id },
      { filters: NO_TENANT },
    );
    if (!section) throw notFound('Section', sectionOid);
    const [access] = await conceptAccessFor(scope, [
      { sectionId: section.id, ownerId: loaded.concept.createdById ?? null },
    ]);
    if (!access!.readable) throw notFound('Section', sectionOid);
    loaded.access = access!;
  }
  const [dto] = await renderConcepts(scope, [loaded], {
    format: 'FULL',
    withComments: false,
    deletedTerms: false,
  });
  return dto!;
}
