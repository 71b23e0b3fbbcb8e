/**
 * Loading a concept for a use case: the tenant first (another client's concept is 404 whoever asks), then
 * the section's permissions (a concept in a section the caller cannot read is 404 as well).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { deletedFilter, type Scope } from '../../shared/scope.js';
import { type ConceptAccess, conceptAccessFor } from '../access/access.service.js';
import type { ConceptPermission } from '../permission/permission-scheme.entity.js';
import { Concept } from './concept.entity.js';

const NO_TENANT = { tenant: false } as const;

export interface LoadedConcept {
  concept: Concept;
  access: ConceptAccess;
}

export interface ConceptLoadOptions {
  em?: EntityManager;
  /** Honoured for administrators only (include-deleted). */
  includeDeleted?: boolean;
  /** Internal use (undo, restore): find deleted concepts whoever asks. */
  evenDeleted?: boolean;
}

/** Concepts of the caller's client by id, each with the caller's access; unknown or unreadable ids are left out. */
export async function readableConcepts(
  scope: Scope,
  ids: readonly number[],
  options: ConceptLoadOptions = {},
): Promise<LoadedConcept[]> {
  if (ids.length === 0) return [];
  const em = options.em ?? scope.em;
  const filters = options.evenDeleted
    ? { ...NO_TENANT, notDeleted: false }
    : { ...NO_TENANT, ...deletedFilter(scope, options.includeDeleted ?? false) };
  const concepts = await em.find(
    Concept,
    { id: { $in: [...new Set(ids)] }, client: scope.actor.clientId },
    { filters },
  );
  const access = await conceptAccessFor(
    scope,
    concepts.map((concept) => ({ sectionId: concept.section.id, ownerId: concept.createdById ?? null })),
  );
  const loaded = concepts
    .map((concept, index) => ({ concept, access: access[index]! }))
    .filter((entry) => entry.access.readable);
  const order = new Map(ids.map((id, index) => [id, index]));
  return loaded.sort((a, b) => order.get(a.concept.id)! - order.get(b.concept.id)!);
}

/** One readable concept, or 404 (also for another client's concept or an unreadable section). */
export async function readableConcept(
  scope: Scope,
  id: number,
  options: ConceptLoadOptions = {},
): Promise<LoadedConcept> {
  const [loaded] = await readableConcepts(scope, [id], options);
  if (!loaded) throw notFound('Concept', id);
  return loaded;
}

/** The concept id of a term of the caller's client (live terms only unless evenDeleted); 404 otherwise. */
export async function conceptIdOfTerm(
  scope: Scope,
  where: { id: number } | { oid: string },
  options: { evenDeleted?: boolean } = {},
): Promise<number> {
  // A plain row, not a partial entity: a partial Term in the identity map would stay partial for the
  // rest of the request (later full loads do not fill it), and the concept read needs whole terms.
  const [key, value] = 'id' in where ? ['id', where.id] : ['oid', where.oid];
  const [row] = await scope.em.execute<{ concept_id: number }[]>(
    `select concept_id from terms where ${key} = ? and client_id = ?${options.evenDeleted ? '' : ' and not deleted'} limit 1`,
    [value, scope.actor.clientId],
  );
  if (!row) throw notFound('Term', value);
  return row.concept_id;
}

/** 403 unless the access grants the permission (the concept is readable, so its existence is no secret). */
export function assertConceptPermission(access: ConceptAccess, permission: ConceptPermission, what: string) {
  if (!access.concept[permission]) {
    throw new AppError('FORBIDDEN', `You may not ${what} (${permission} is not granted in this section)`);
  }
}

/** Whether the term permission holds for a language (the grants may be limited to some languages). */
export function termAllowed(
  access: ConceptAccess,
  permission: 'TERM_UPDATE' | 'TERM_DELETE',
  languageCode: string,
): boolean {
  return (
    access.term[permission] &&
    (access.termLanguages === null || access.termLanguages.includes(languageCode.toLowerCase()))
  );
}
