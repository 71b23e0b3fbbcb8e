import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import type { FilterCriteria } from './filter-criteria.js';

/** Who sees a filter: its owner only, the members of one group, or every user of the client. */
export const FilterVisibilities = ['PRIVATE', 'GROUP', 'PUBLIC'] as const;
export type FilterVisibility = (typeof FilterVisibilities)[number];

/** A saved search restriction (docs/filters.md); term search and group filterMaps apply it. */
export const Filter = defineEntity({
  name: 'Filter',
  tableName: 'filters',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    ownerId: p.integer(),
    visibility: p.enum([...FilterVisibilities]).default('PRIVATE'),
    groupId: p.integer().nullable(),
    criteria: p.json<FilterCriteria>(),
  },
});
export type Filter = InferEntity<typeof Filter>;
