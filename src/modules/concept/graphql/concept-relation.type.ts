/**
 * ConceptRelation, a relation between two concepts whose ends load through the concept loader, and
 * ConceptRelationInput, how a concept input sends one.
 */
import { builder } from '../../../graphql/builder.js';
import { RelationAttributes, RelationTypes } from '../concept.entity.js';
import type { ConceptRelationDto } from '../concept.schema.js';
import { LOAD_COST } from './complexity.js';
import { conceptLoader } from './concept-loader.js';
import { ConceptRef } from './refs.js';

export const ConceptRelationRef = builder.objectRef<ConceptRelationDto>('ConceptRelation').implement({
  description: 'A relation between two concepts of one dictionary; it shows on both.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    dictionaryId: t.exposeInt('dictionaryId'),
    relationId: t.exposeInt('relationId', { description: 'serial number inside the dictionary' }),
    sourceConceptId: t.exposeInt('sourceConceptId'),
    targetConceptId: t.exposeInt('targetConceptId'),
    type: t.exposeInt('type', {
      description: 'GENERIC 0, PARTITIVE 1, TEMPORAL 2, SPATIAL 3, ASSOCIATIVE 4',
    }),
    typeName: t.string({ resolve: (relation) => RelationTypes[relation.type] ?? String(relation.type) }),
    attribute: t.exposeInt('attribute'),
    attributeName: t.string({
      resolve: (relation) => RelationAttributes[relation.attribute] ?? String(relation.attribute),
    }),
    text: t.exposeString('text', { nullable: true }),
    source: t.field({
      type: ConceptRef,
      nullable: true,
      description: 'null when the caller may not read it',
      complexity: LOAD_COST,
      resolve: (relation, _, context) => conceptLoader(context).load(relation.sourceConceptId),
    }),
    target: t.field({
      type: ConceptRef,
      nullable: true,
      description: 'null when the caller may not read it',
      complexity: LOAD_COST,
      resolve: (relation, _, context) => conceptLoader(context).load(relation.targetConceptId),
    }),
  }),
});

export const ConceptRelationInputRef = builder.inputType('ConceptRelationInput', {
  fields: (t) => ({
    id: t.int({ description: 'an existing relation of the concept; absent for a new one' }),
    sourceConceptId: t.int({ description: 'default: this concept' }),
    targetConceptId: t.int({ required: true }),
    type: t.int({ required: true }),
    attribute: t.int({ required: true }),
    text: t.string(),
  }),
});
