/**
 * Concept objects of the spec for a batch of loaded concepts. The cost is a fixed number of queries per
 * batch (parts, sections, domains, languages, audit users, locks, comments), whatever its size.
 */
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { applyFormat, type Format } from '../../shared/format.js';
import type { Scope } from '../../shared/scope.js';
import type { ConceptAccess } from '../access/access.service.js';
import { commentsOf } from '../comment/comment.service.js';
import { languagesOf } from '../language/language.service.js';
import { hideUnseenTerms } from '../workflow/workflow-visibility.js';
import type { ConceptRelation, RefLink, Term } from './concept.entity.js';
import {
  CONCEPT_SHORT_KEYS,
  type ConceptDto,
  type ConceptOutput,
  type ConceptRelationDto,
  type RefLinkDto,
  type TermDto,
} from './concept.schema.js';
import type { LoadedConcept } from './concept-access.js';
import { termAllowed } from './concept-access.js';
import { languageFieldsOf } from './concept-language-fields.js'; // language-fields
import { liveLocks, lockDto } from './concept-lock.service.js';
import { loadParts, refLinkSnapshot } from './concept-parts.js';
import { termCodeOf } from './concept-structure.js';

const _NO_TENANT = { tenant: false } as const;

export interface RenderOptions {
  format: Format;
  withComments: boolean;
  /** Show soft-deleted terms too (administrators reading with include-deleted). */
  deletedTerms: boolean;
  /**
   * The answer to the caller's own creation: every term is one the caller just sent, so the workflow's
   * hiding of unpublished entries (a new entry starts unpublished) would hide nothing but their own input.
   */
  writtenByCaller?: boolean;
}

export function relationDto(relation: ConceptRelation): ConceptRelationDto {
  return {
    id: relation.id,
    oid: relation.oid ?? null,
    dictionaryId: relation.dictionary.id,
    sourceConceptId: relation.sourceConcept.id,
    targetConceptId: relation.targetConcept.id,
    type: relation.type,
    attribute: relation.attribute,
    text: relation.text ?? null,
    relationId: relation.relationId,
  };
}

export function refLinkDto(link: RefLink): RefLinkDto {
  return {
    id: link.id,
    oid: link.oid ?? null,
    sourceConceptId: link.sourceConcept.id,
    ...refLinkSnapshot(link),
    dictionaryId: link.dictionary.id,
    invalid: link.invalid,
  };
}

/** Languages the caller may edit terms in: the dictionary's, limited by the term grants. */
function editableLanguages(access: ConceptAccess, dictionaryCodes: readonly string[]): string[] {
  const mayEditTerms = access.term.TERM_UPDATE || access.concept.TERM_CREATE;
  if (!mayEditTerms) return [];
  if (access.termLanguages === null) return [...dictionaryCodes];
  return dictionaryCodes.filter((code) => access.termLanguages!.includes(code));
}

export async function renderConcepts(
  scope: Scope,
  loaded: readonly LoadedConcept[],
  options: RenderOptions,
): Promise<ConceptOutput[]> {
  if (loaded.length === 0) return [];
  if (options.format === 'ID') return loaded.map(({ concept }) => ({ id: concept.id }));
  const em = scope.em;
  const conceptIds = loaded.map(({ concept }) => concept.id);
  const dictionaryIds = [...new Set(loaded.map(({ concept }) => concept.dictionary.id))];
  const parts = await loadParts(em, conceptIds, { deletedTerms: options.deletedTerms });
  // Workflow (docs/workflows.md): guests and non-reviewers do not see the terms of unpublished entries.
  if (!options.writtenByCaller)
    await hideUnseenTerms(
      scope,
      loaded.map(({ concept }) => concept),
      parts,
    );
  const allTerms: Term[] = [...parts.values()].flatMap((part) => part.terms);
  const domainIds = [...new Set([...parts.values()].flatMap((part) => part.domainIds))];
  const sectionIds = [...new Set(loaded.map(({ concept }) => concept.section.id))];
  const [sections, domains, { languages }, audit, locks, comments] = await Promise.all([
    // Plain rows: partial Section/Domain entities would stay partial in the request's identity map.
    em.execute<{ id: number; oid: string | null }[]>('select id, oid from sections where id in (?)', [
      sectionIds,
    ]),
    domainIds.length
      ? em.execute<{ id: number; oid: string | null }[]>('select id, oid from domains where id in (?)', [
          domainIds,
        ])
      : [],
    languagesOf(em, dictionaryIds),
    loadAuditUsers(em, [...loaded.map(({ concept }) => concept), ...allTerms]),
    liveLocks(em, conceptIds),
    options.withComments ? commentsOf(em, conceptIds) : Promise.resolve(null),
  ]);
  const languageFields = await languageFieldsOf(em, conceptIds); // language-fields
  const sectionOid = new Map(sections.map((s) => [s.id, s.oid ?? String(s.id)]));
  const domainOid = new Map(domains.map((d) => [d.id, d.oid ?? String(d.id)]));
  const codesOf = (dictionaryId: number) =>
    languages.filter((language) => language.dictionary.id === dictionaryId).map(termCodeOf);

  return loaded.map(({ concept, access }) => {
    const part = parts.get(concept.id)!;
    const own = comments?.get(concept.id);
    const terms: TermDto[] = part.terms.map((term) => ({
      ...commonDto(term, concept.client.id, audit),
      name: term.name,
      tid: term.tid,
      conceptId: concept.id,
      conceptOid: concept.oid ?? null,
      languageCode: term.languageCode,
      regionCode: term.regionCode ?? null,
      scriptCode: term.scriptCode ?? null,
      permissions: {
        TERM_UPDATE: termAllowed(access, 'TERM_UPDATE', term.languageCode),
        TERM_DELETE: termAllowed(access, 'TERM_DELETE', term.languageCode),
      },
      fieldMap: term.fieldMap,
      refLinks: part.refLinks.filter((link) => link.sourceTermId === term.id).map(refLinkDto),
      comments: own?.terms.get(term.id) ?? [],
      dictionaryId: concept.dictionary.id,
    }));
    const dto: ConceptDto = {
      ...commonDto(concept, concept.client.id, audit),
      cid: concept.cid,
      sectionOid: sectionOid.get(concept.section.id) ?? null,
      sectionId: concept.section.id,
      domainList: part.domainIds.map((id) => domainOid.get(id)!).filter(Boolean),
      terms,
      conceptRelations: part.relations.map(relationDto),
      languageCodesEditable: editableLanguages(access, codesOf(concept.dictionary.id)),
      permissions: access.concept,
      fieldMap: concept.fieldMap,
      languageFields: languageFields.get(concept.id) ?? [], // language-fields
      refLinks: part.refLinks
        .filter((link) => link.sourceTermId === null || link.sourceTermId === undefined)
        .map(refLinkDto),
      comments: own?.concept ?? [],
      dictionaryId: concept.dictionary.id,
      lock: lockDto(scope, locks.get(concept.id)),
    };
    return applyFormat(dto, options.format, CONCEPT_SHORT_KEYS);
  });
}
