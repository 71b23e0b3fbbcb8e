import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { PermissionScheme } from '../permission/permission-scheme.entity.js';

/**
 * A dictionary. Its structure (languages, fields, domains...) arrives with the structure work; what is
 * here is what access control needs: the tenant, the oid named by DICTIONARY_ADMIN@<oid> roles, and
 * the permission scheme.
 */
export const Dictionary = defineEntity({
  name: 'Dictionary',
  tableName: 'dictionaries',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    name: p.string().length(255),
    permissionScheme: () => p.manyToOne(PermissionScheme).ref().nullable(),
  },
});
export type Dictionary = InferEntity<typeof Dictionary>;
