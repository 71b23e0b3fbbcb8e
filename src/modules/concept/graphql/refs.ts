/**
 * The Concept and Term object refs, declared before any file implements them: Concept, Term and
 * ConceptRelation refer to one another.
 */
import { builder } from '../../../graphql/builder.js';
import type { ConceptDto, TermDto } from '../concept.schema.js';

export const ConceptRef = builder.objectRef<ConceptDto>('Concept');
export const TermRef = builder.objectRef<TermDto>('Term');
