import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

/** A language of a dictionary: an ISO 639-2 language, or a custom one whose code is no real code. */
export const Language = defineEntity({
  name: 'Language',
  tableName: 'languages',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    /** ISO 639-2 code for ISO languages (lowercase); any other code for custom ones. */
    code: p.string().length(64),
    code2: p.string().length(2).nullable(),
    code3: p.string().length(3).nullable(),
    iso: p.boolean().default(true),
    custom: p.boolean().default(false),
    rtl: p.boolean().default(false),
    sortIndex: p.integer().default(0),
  },
});
export type Language = InferEntity<typeof Language>;

/** 0: geographical (region, e.g. US); 1: orthographical (script, e.g. hira). */
export const VariantTypes = [0, 1] as const;
export type VariantType = (typeof VariantTypes)[number];

export const LanguageVariant = defineEntity({
  name: 'LanguageVariant',
  tableName: 'language_variants',
  filters: { ...notDeletedFilter },
  properties: {
    ...commonProperties(),
    language: () => p.manyToOne(Language).ref(),
    name: p.string().length(255),
    type: p.smallint(),
    code: p.string().length(64),
    /** From the ISO 3166 / ISO 15924 tables rather than made up by the dictionary's administrator. */
    predefined: p.boolean().default(false),
    sortIndex: p.integer().default(0),
  },
});
export type LanguageVariant = InferEntity<typeof LanguageVariant>;
