import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

/** The fields shown of a dictionary's concepts; sections and groups (viewsMap) use views. */
export const View = defineEntity({
  name: 'View',
  tableName: 'views',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    /** Oids of the visible fields (the Term and Language system fields are always visible). */
    fields: p.array().default([]),
  },
});
export type View = InferEntity<typeof View>;
