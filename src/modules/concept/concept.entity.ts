import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { Domain } from '../domain/domain.entity.js';
import { Section } from '../section/section.entity.js';

/** Field oid to values, as the API shows them (only MULTISELECT fields hold several values). */
export type FieldValues = Record<string, string[]>;

/**
 * A concept: the terms that share a meaning. The structure issue needs what dictionary operations touch
 * (section, domains, field values, counts); the concepts issue adds relations, links, comments and history.
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
