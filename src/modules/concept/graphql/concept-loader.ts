/**
 * Concepts reached inside a query (relation ends, a term's concept, related concepts, a page of concepts)
 * come from one per-request DataLoader that renders each batch with a fixed number of queries, so a page of
 * 50 concepts with their relations' targets costs what a page of 5 costs.
 */
import DataLoader from 'dataloader';
import type { GraphQLContext } from '../../../graphql/builder.js';
import type { ConceptDto, ConceptOutput } from '../concept.schema.js';
import { conceptIdOfLiveTerm, renderedConcepts } from '../concept-list.js';
import { domainCall, stateOf } from './request-state.js';

/** Readable concepts by id, one batch per request tick; null where the caller may not read one. */
export function conceptLoader(context: GraphQLContext): DataLoader<number, ConceptDto | null> {
  const state = stateOf(context);
  state.concepts ??= new DataLoader((ids: readonly number[]) =>
    domainCall(context, (scope) => renderedConcepts(scope, ids)),
  );
  return state.concepts;
}

/** A readable concept through the request's loader (null when the caller may not read it). */
export const loadConcept = (context: GraphQLContext, id: number) => conceptLoader(context).load(id);

/** Concepts answered by a procedure or a page are known: nested fields reaching them load nothing. */
export function remember(context: GraphQLContext, concepts: readonly ConceptDto[]): void {
  const loader = conceptLoader(context);
  for (const concept of concepts) loader.prime(concept.id, concept);
}

/** After a write every concept may have changed (relations have two ends), and its history grown. */
export function forget(context: GraphQLContext): void {
  stateOf(context).concepts?.clearAll();
  stateOf(context).histories?.clearAll();
}

/** Concept reads answer FULL with the latest comments, like GET /concepts/{id}?with-comments=true. */
export const READ = { format: 'FULL', 'with-comments': true, 'include-deleted': false } as const;
export const full = (output: ConceptOutput) => output as ConceptDto;

/** A concept read through the concepts.get procedure; nested fields reaching it then load nothing. */
export async function readConcept(context: GraphQLContext, id: number): Promise<ConceptDto> {
  const concept = full(await context.api.concepts.get({ id, ...READ }));
  remember(context, [concept]);
  return concept;
}

/**
 * The concept of a term, read as concept(id) reads it. Not api.concepts.findByTermId: that procedure
 * answers 500 while conceptIdOfTerm loads a partial Term (the full load later loses the term's version).
 */
export async function conceptOfTerm(context: GraphQLContext, termId: number): Promise<ConceptDto> {
  return readConcept(context, await domainCall(context, (scope) => conceptIdOfLiveTerm(scope, termId)));
}
