import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { PermissionScheme } from '../permission/permission-scheme.entity.js';
import { View } from '../view/view.entity.js';

/**
 * A part of a dictionary with its own permissions and displayed fields; a section without a scheme uses
 * the dictionary's. The oid is always set (concepts name their section by it).
 */
export const Section = defineEntity({
  name: 'Section',
  tableName: 'sections',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    permissionScheme: () => p.manyToOne(PermissionScheme).ref().nullable(),
    view: () => p.manyToOne(View).ref().nullable(),
    sortIndex: p.integer().default(0),
  },
});
export type Section = InferEntity<typeof Section>;
