import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

export const ExportVisibilities = ['PRIVATE', 'PUBLIC'] as const;
export const ExportFileFormats = ['TBX', 'TBX_V2', 'XLSX', 'CSV'] as const;

/** A remembered export configuration (read-only through the API; exports record them). */
export const ExportSettings = defineEntity({
  name: 'ExportSettings',
  tableName: 'export_settings',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    visibility: p.enum([...ExportVisibilities]).default('PRIVATE'),
    userId: p.integer().nullable(),
    fileFormat: p.enum([...ExportFileFormats]).default('TBX'),
    fileName: p.string().length(255).nullable(),
    exportPermalinks: p.boolean().default(false),
    exportAttachments: p.boolean().default(false),
    exportOneSheet: p.boolean().default(false),
    filterId: p.integer().nullable(),
    selectedLanguages: p.array().default([]),
    selectedConceptFields: p.array().default([]),
    selectedTermFields: p.array().default([]),
    orderTermByField: p.string().length(64).nullable(),
    neverLaunched: p.boolean().default(true),
  },
});
export type ExportSettings = InferEntity<typeof ExportSettings>;
