import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { Definition } from './definition-xml.js';

/** UPLOADED: the file was read; FILTERS: the dictionary part is done and the filters wait for mappings. */
export const DefinitionImportStates = ['UPLOADED', 'FILTERS'] as const;

/**
 * An open dictionary-definition import (the start, process-dictionary, process-filter state machine).
 * Kept in PostgreSQL so that any instance can continue it; a terminated import is deleted, and an
 * abandoned one expires.
 */
export const DefinitionImport = defineEntity({
  name: 'DefinitionImport',
  tableName: 'definition_imports',
  properties: {
    id: p.uuid().primary(),
    clientId: p.integer(),
    userId: p.integer(),
    state: p.enum([...DefinitionImportStates]).default('UPLOADED'),
    definition: p.json<Definition>(),
    dictionaryId: p.integer().nullable(),
    dictionaryNew: p.boolean().default(false),
    /** File oid -> oid in the target dictionary, for fields, sections and domains (set by process-dictionary). */
    oidMap: p.json<Record<string, string>>().default('{}' as never),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
});
export type DefinitionImport = InferEntity<typeof DefinitionImport>;
