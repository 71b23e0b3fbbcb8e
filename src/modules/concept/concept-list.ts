/**
 * Concepts read in batches for the GraphQL surface: a dictionary's readable concepts page by page, and
 * readable concepts by id. Each page or batch costs a fixed number of queries, whatever its size
 * (readableConcepts, then renderConcepts).
 */
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { conceptAccessFor } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { Section } from '../section/section.entity.js';
import { unseenTermIds } from '../workflow/workflow-visibility.js';
import { Concept, Term } from './concept.entity.js';
import type { ConceptDto, ConceptOutput } from './concept.schema.js';
import { readableConcepts } from './concept-access.js';
import { renderConcepts } from './concept-render.js';

const NO_TENANT = { tenant: false } as const;

/** Most concepts one page may hold. */
export const CONCEPT_PAGE_MAX = 200;

export interface ConceptListInput {
  dictionaryId: number;
  /** Only this section of the dictionary. */
  sectionOid?: string | null;
  first: number;
  offset: number;
}

/** FULL-format renderings carry every member. */
const full = (output: ConceptOutput) => output as ConceptDto;

/**
 * Readable live concepts by id, rendered as GET /concepts/{id}?with-comments=true renders them; an
 * unknown id, another client's concept or one in an unreadable section answers null at its place.
 */
export async function renderedConcepts(scope: Scope, ids: readonly number[]): Promise<(ConceptDto | null)[]> {
  const loaded = await readableConcepts(scope, ids);
  const rendered = await renderConcepts(scope, loaded, {
    format: 'FULL',
    withComments: true,
    deletedTerms: false,
  });
  const byId = new Map(rendered.map((dto) => [dto.id, full(dto)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * Which concepts of a dictionary (or one of its sections) the caller may read: sections readable in full,
 * and sections readable only through the OWNER grant (the caller's own concepts there, as single reads).
 * Null when none is readable.
 */
async function readableSelection(scope: Scope, input: Pick<ConceptListInput, 'dictionaryId' | 'sectionOid'>) {
  const dictionary = await readableDictionary(scope, input.dictionaryId);
  // Concepts belong to their client whoever asks (system administrators read other clients' dictionaries).
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', input.dictionaryId);
  const sections = await scope.em.find(
    Section,
    {
      dictionary: dictionary.id,
      ...(input.sectionOid !== undefined && input.sectionOid !== null ? { oid: input.sectionOid } : {}),
    },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  if (input.sectionOid && sections.length === 0) throw notFound('Section', input.sectionOid);
  const me = scope.actor.userId;
  const access = await conceptAccessFor(
    scope,
    sections.flatMap((section) => [
      { sectionId: section.id, ownerId: null },
      { sectionId: section.id, ownerId: me },
    ]),
  );
  const open = sections.filter((_, index) => access[2 * index]!.readable).map((s) => s.id);
  const ownOnly = sections
    .filter((_, index) => !access[2 * index]!.readable && access[2 * index + 1]!.readable)
    .map((s) => s.id);
  if (input.sectionOid && open.length === 0 && ownOnly.length === 0) {
    throw notFound('Section', input.sectionOid);
  }
  if (open.length === 0 && ownOnly.length === 0) return null;
  return {
    client: scope.actor.clientId,
    dictionary: dictionary.id,
    deleted: false,
    $or: [
      ...(open.length ? [{ section: { $in: open } }] : []),
      ...(ownOnly.length ? [{ section: { $in: ownOnly }, createdById: me }] : []),
    ],
  };
}

function checkPage(input: Pick<ConceptListInput, 'first' | 'offset'>) {
  if (!Number.isInteger(input.first) || input.first < 1 || input.first > CONCEPT_PAGE_MAX) {
    throw new AppError('BAD_REQUEST', `first must be between 1 and ${CONCEPT_PAGE_MAX}`);
  }
  if (!Number.isInteger(input.offset) || input.offset < 0) {
    throw new AppError('BAD_REQUEST', 'offset must be 0 or more');
  }
}

/**
 * One page of the readable live concepts of a dictionary (or one of its sections), as ids ordered by id:
 * `first` of them after `afterId` (keyset paging) or after skipping `offset`; `limit` may ask for one more,
 * to learn whether a next page exists. `count` counts them all, on demand.
 */
export async function conceptPageIds(
  scope: Scope,
  input: ConceptListInput & { afterId?: number; limit?: number },
): Promise<{ ids: number[]; count: () => Promise<number> }> {
  checkPage(input);
  const where = await readableSelection(scope, input);
  if (!where) return { ids: [], count: async () => 0 };
  const rows = await scope.em
    .createQueryBuilder(Concept, 'c')
    .select('c.id')
    .where(input.afterId === undefined ? where : { ...where, id: { $gt: input.afterId } })
    .orderBy({ id: 'asc' })
    .limit(input.limit ?? input.first)
    .offset(input.offset)
    .execute<{ id: number }[]>('all', false);
  return {
    ids: rows.map((row) => row.id),
    count: () => scope.em.count(Concept, where, { filters: NO_TENANT }),
  };
}

/**
 * The concept id of a live term of the caller's client, or 404. Read without loading a Term entity:
 * a partly loaded one would lose its version when the concept's terms load in full later in the request.
 */
export async function conceptIdOfLiveTerm(scope: Scope, termId: number): Promise<number> {
  const row = await scope.em
    .createQueryBuilder(Term, 't')
    .select(['t.concept_id', 't.dictionary_id', 't.language_code'])
    .where({ id: termId, client: scope.actor.clientId, deleted: false })
    .execute<{ concept_id: number; dictionary_id: number; language_code: string } | undefined>('get', false);
  if (!row) throw notFound('Term', termId);
  // Workflow (docs/workflows.md): a term the caller is not shown is not found either.
  const unseen = await unseenTermIds(scope, [
    { dictionaryId: row.dictionary_id, conceptId: row.concept_id, languageCode: row.language_code, termId },
  ]);
  if (unseen.has(termId)) throw notFound('Term', termId);
  return row.concept_id;
}
