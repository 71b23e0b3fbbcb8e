import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';

export const DictionaryPermissionValues = [
  'DICT_READ',
  'DICT_UPDATE',
  'DICT_DELETE',
  'CONCEPT_CREATE',
  'CONCEPT_PRINT',
  'CONCEPT_IMPORT',
  'CONCEPT_EXPORT',
] as const;
export type DictionaryPermission = (typeof DictionaryPermissionValues)[number];

export const ConceptPermissionValues = [
  'CONCEPT_EDIT_FIELDS',
  'CONCEPT_UPDATE',
  'CONCEPT_DELETE',
  'CONCEPT_PRINT',
  'CONCEPT_VIEW_HISTORY',
  'RESTORE_STATE',
  'TERM_CREATE',
] as const;
export type ConceptPermission = (typeof ConceptPermissionValues)[number];

export const TermPermissionValues = ['TERM_UPDATE', 'TERM_DELETE'] as const;
export type TermPermission = (typeof TermPermissionValues)[number];

/**
 * What the members of one group may do. `languages` (three-letter codes) limits the term permissions
 * to those languages; empty means every language.
 */
export interface PermissionGrant {
  groupId: number;
  dictionaryPermissions: DictionaryPermission[];
  conceptPermissions: ConceptPermission[];
  termPermissions: TermPermission[];
  languages: string[];
}

/** A named set of grants, assigned to dictionaries and sections. */
export const PermissionScheme = defineEntity({
  name: 'PermissionScheme',
  tableName: 'permission_schemes',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    grants: p.json<PermissionGrant[]>().default('[]'),
  },
});
export type PermissionScheme = InferEntity<typeof PermissionScheme>;
