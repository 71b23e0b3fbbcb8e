import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

/** A language (and optionally one region and one script variant) of the dictionary, by code. */
export interface LangMapping {
  langCode: string;
  regionCode: string | null;
  scriptCode: string | null;
}

/** A user group whose members the settings synchronize for. */
export interface GroupMapping {
  groupId: number;
}

/**
 * API synchronization settings (docs/sync-settings.md): which languages and variants of a dictionary an
 * external integrator tool synchronizes, for which user groups, optionally restricted by a filter.
 */
export const SyncSettings = defineEntity({
  name: 'SyncSettings',
  tableName: 'sync_settings',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    active: p.boolean().default(true),
    /** Codes as the dictionary spells them (validated and normalized on every write). */
    languages: p.json<LangMapping[]>().default('[]'),
    groups: p.json<GroupMapping[]>().default('[]'),
    /** A filter of the same dictionary; null: no restriction. */
    filterId: p.integer().nullable(),
  },
});
export type SyncSettings = InferEntity<typeof SyncSettings>;
