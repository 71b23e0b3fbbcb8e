import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

/** A subject field of a dictionary; domains form a tree through `parent`. The oid is always set. */
export const Domain = defineEntity({
  name: 'Domain',
  tableName: 'domains',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    parentId: p.integer().nullable(),
    sortIndex: p.integer().default(0),
  },
});
export type Domain = InferEntity<typeof Domain>;
