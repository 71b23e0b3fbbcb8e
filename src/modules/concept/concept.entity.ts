import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { Domain } from '../domain/domain.entity.js';
import { Section } from '../section/section.entity.js';

/** Field oid to values, as the API shows them (only MULTISELECT and ATTACHMENT fields hold several values). */
export type FieldValues = Record<string, string[]>;

/**
 * A concept: the terms that share a meaning. Its version counts its changes; each change writes a history
 * item whose revision is the version it produced (src/modules/history).
 */
export const Concept = defineEntity({
  name: 'Concept',
  tableName: 'concepts',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    section: () => p.manyToOne(Section).ref(),
    /** Serial number inside the dictionary. */
    cid: p.string().length(64),
    fieldMap: p.json<FieldValues>().default('{}'),
  },
});
export type Concept = InferEntity<typeof Concept>;

/** The domains of a concept (the concept's `domainList`). */
export const ConceptDomain = defineEntity({
  name: 'ConceptDomain',
  tableName: 'concept_domains',
  properties: {
    concept: () => p.manyToOne(Concept).primary().ref(),
    domain: () => p.manyToOne(Domain).primary().ref(),
  },
});
export type ConceptDomain = InferEntity<typeof ConceptDomain>;

export const Term = defineEntity({
  name: 'Term',
  tableName: 'terms',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    concept: () => p.manyToOne(Concept).ref(),
    name: p.string().length(1024),
    /** ISO 639-2 code (or a custom language's code), lowercase. */
    languageCode: p.string().length(64),
    regionCode: p.string().length(64).nullable(),
    scriptCode: p.string().length(64).nullable(),
    /** Serial number inside the dictionary. */
    tid: p.integer(),
    fieldMap: p.json<FieldValues>().default('{}'),
  },
});
export type Term = InferEntity<typeof Term>;

/** Relation types and attributes of the spec, by their numeric values. */
export const RelationTypes = ['GENERIC', 'PARTITIVE', 'TEMPORAL', 'SPATIAL', 'ASSOCIATIVE'] as const;
export const RelationAttributes = [
  'GENERIC_SUPERORDINATE',
  'GENERIC_SUBORDINATE',
  'PARTITIVE_SUPERORDINATE',
  'PARTITIVE_SUBORDINATE',
  'TEMPORAL_BEFORE',
  'TEMPORAL_CONCURRENT',
  'TEMPORAL_AFTER',
  'SPATIAL_UP',
  'SPATIAL_DOWN',
  'SPATIAL_RIGHT',
  'SPATIAL_LEFT',
  'ASSOCIATIVE_DEFAULT',
] as const;
/** Which attributes (by number) each type (by number) allows. */
export const ATTRIBUTES_OF_TYPE: readonly (readonly number[])[] = [
  [0, 1],
  [2, 3],
  [4, 5, 6],
  [7, 8, 9, 10],
  [11],
];

/**
 * A relation between two concepts of one dictionary. One row serves both ends: it shows on the source and
 * on the target concept, and it goes when either concept is deleted (the history snapshot keeps it).
 */
export const ConceptRelation = defineEntity({
  name: 'ConceptRelation',
  tableName: 'concept_relations',
  properties: {
    id: p.integer().primary(),
    oid: p.string().length(64).nullable(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    sourceConcept: () => p.manyToOne(Concept).ref(),
    targetConcept: () => p.manyToOne(Concept).ref(),
    type: p.smallint(),
    attribute: p.smallint(),
    text: p.text().nullable(),
    /** Serial number inside the dictionary. */
    relationId: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
    createdById: p.integer().nullable(),
  },
});
export type ConceptRelation = InferEntity<typeof ConceptRelation>;

export const RefLinkTypes = ['CONCEPT', 'TERM', 'URL'] as const;
export type RefLinkType = (typeof RefLinkTypes)[number];

/**
 * A cross-reference inside a field value: `text` sits at `position` of the value (offsets count a stored
 * CR LF line break as two characters). Links to a concept or term that is deleted are marked invalid.
 */
export const RefLink = defineEntity({
  name: 'RefLink',
  tableName: 'ref_links',
  properties: {
    id: p.integer().primary(),
    oid: p.string().length(64).nullable(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    sourceConcept: () => p.manyToOne(Concept).ref(),
    sourceTermId: p.integer().nullable(),
    sourceFieldOid: p.string().length(64),
    type: p.enum([...RefLinkTypes]),
    text: p.text(),
    dynamicText: p.text().nullable(),
    position: p.integer(),
    url: p.text().nullable(),
    conceptId: p.integer().nullable(),
    termId: p.integer().nullable(),
    languageCode: p.string().length(64).nullable(),
    invalid: p.boolean().default(false),
  },
});
export type RefLink = InferEntity<typeof RefLink>;
