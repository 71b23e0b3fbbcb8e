import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { PermissionScheme } from '../permission/permission-scheme.entity.js';

/** How the domains of a concept are rendered. */
export const DomainPresentations = ['FLAT', 'HIERARCHICAL', 'HORIZONTAL'] as const;
export type DomainPresentation = (typeof DomainPresentations)[number];

/**
 * A dictionary: the languages, fields, sections, domains and views its concepts use. The oid is always
 * set (DICTIONARY_ADMIN@<oid> roles name it). `structureChangedAt` moves on every structure change, so
 * the dictionary's history starts after the last one.
 */
export const Dictionary = defineEntity({
  name: 'Dictionary',
  tableName: 'dictionaries',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    permissionScheme: () => p.manyToOne(PermissionScheme).ref().nullable(),
    /** The user who receives the dictionary's notification e-mails. */
    emailRecipientId: p.integer().nullable(),
    sortIndex: p.integer().default(0),
    domainPresentation: p.enum([...DomainPresentations]).default('FLAT'),
    structureChangedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Dictionary = InferEntity<typeof Dictionary>;
