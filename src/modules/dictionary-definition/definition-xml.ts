/**
 * The dictionary-definition file (docs/dictionary-definition.md): a dictionary's structure without its
 * concepts, as XML. Objects keep their oids so that views, filters and the import's mappings can point
 * at fields, sections and domains; users and groups are named, because ids mean nothing in another client.
 */
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import {
  buildXml,
  parseXml,
  xmlAttributes,
  xmlBoolean,
  xmlInteger,
  xmlListOf,
  xmlText,
} from '../../shared/xml-document.js';
import { DomainPresentations } from '../dictionary/dictionary.entity.js';
import { DataCategoryKeys, FieldLevels, FieldTypes, MAX_TEXT_LENGTH } from '../field/field.entity.js';
import { FilterVisibilities } from '../filter/filter.entity.js';
import { FilterCriteriaSchema } from '../filter/filter-criteria.js';

export const DEFINITION_VERSION = '1';
const ROOT = 'polyterm-dictionary-definition';
const LIST_ELEMENTS = new Set([
  'language',
  'variant',
  'field',
  'item',
  'view',
  'show',
  'section',
  'domain',
  'user',
  'group',
  'filter',
]);

const oid = xmlText.min(1).max(64);
const name = xmlText.min(1).max(255);
const optionalText = (max: number) => z.string().max(max).optional();

const VariantSchema = z.object({
  '@_type': z.enum(['0', '1']).transform(Number),
  '@_code': xmlText.min(1).max(64),
  '@_name': xmlText.max(255).optional(),
  '@_sortIndex': xmlInteger.default(0),
});
const LanguageSchema = z.object({
  '@_code': xmlText.min(1).max(64),
  '@_name': xmlText.max(255).optional(),
  '@_custom': xmlBoolean.default(false),
  '@_rtl': xmlBoolean.optional(),
  '@_sortIndex': xmlInteger.default(0),
  variant: z.array(VariantSchema).default([]),
});
const PicklistItemSchema = z
  .object({
    '@_name': xmlText.max(255).optional(),
    '@_tbxName': xmlText.max(255).optional(),
    '@_sortIndex': xmlInteger.default(0),
  })
  .refine((item) => Boolean(item['@_name'] || item['@_tbxName']), 'a picklist item needs a name or tbxName');
const FieldSchema = z.object({
  '@_oid': oid,
  '@_level': z.enum(FieldLevels),
  '@_name': name,
  '@_specifiedName': xmlText.max(255).optional(),
  '@_dataCategory': z.enum(DataCategoryKeys).default('GENERIC'),
  '@_fieldType': z.enum(FieldTypes),
  '@_sortIndex': xmlInteger.default(0),
  '@_required': xmlBoolean.default(false),
  '@_minLen': xmlInteger.pipe(z.number().min(0).max(MAX_TEXT_LENGTH)).default(0),
  '@_maxLen': xmlInteger.pipe(z.number().min(0).max(MAX_TEXT_LENGTH)).default(0),
  '@_number': xmlBoolean.default(false),
  '@_unicode': xmlBoolean.default(false),
  regExp: optionalText(1024),
  picklist: xmlListOf('item', PicklistItemSchema),
});
const ViewSchema = z.object({
  '@_name': name,
  show: z.array(xmlText.min(1).max(64)).default([]),
});
const SectionSchema = z.object({
  '@_oid': oid,
  '@_name': name,
  '@_view': xmlText.max(255).optional(),
  '@_sortIndex': xmlInteger.default(0),
});
const DomainSchema = z.object({
  '@_oid': oid,
  '@_name': name,
  '@_parent': oid.optional(),
  '@_sortIndex': xmlInteger.default(0),
});
const NamedRefSchema = z.object({ '@_oid': oid, '@_id': xmlInteger, '@_name': name });
const FieldRefSchema = z.object({ '@_oid': oid, '@_level': z.enum(FieldLevels), '@_name': name });
const criteriaJson = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'criteria must be JSON' });
    return z.NEVER;
  }
});
const FilterSchema = z.object({
  '@_name': name,
  '@_visibility': z.enum(FilterVisibilities).default('PRIVATE'),
  '@_owner': oid,
  '@_group': oid.optional(),
  description: optionalText(4000),
  criteria: criteriaJson.pipe(FilterCriteriaSchema),
});
const FiltersSchema = z.object({
  users: xmlListOf('user', NamedRefSchema),
  groups: xmlListOf('group', NamedRefSchema),
  fieldRefs: xmlListOf('field', FieldRefSchema),
  filter: z.array(FilterSchema).default([]),
});

const DefinitionFileSchema = z.object({
  [ROOT]: z.object({
    '@_version': z.literal(DEFINITION_VERSION, { message: `version must be ${DEFINITION_VERSION}` }),
    dictionary: z.object({
      '@_name': name,
      '@_domainPresentation': z.enum(DomainPresentations).default('FLAT'),
      '@_sortIndex': xmlInteger.default(0),
      description: optionalText(4000),
    }),
    languages: xmlListOf('language', LanguageSchema),
    fields: xmlListOf('field', FieldSchema),
    views: xmlListOf('view', ViewSchema),
    sections: xmlListOf('section', SectionSchema),
    domains: xmlListOf('domain', DomainSchema),
    filters: z.preprocess((value) => (value === '' ? {} : value), FiltersSchema.optional()),
  }),
});

type DefinitionFile = z.output<typeof DefinitionFileSchema>[typeof ROOT];
type FieldEntry = z.output<typeof FieldSchema>;

/** A parsed definition in plain terms; stored with the import session as JSON. */
export interface Definition {
  dictionary: { name: string; description: string | null; domainPresentation: string; sortIndex: number };
  languages: {
    code: string;
    name?: string;
    custom: boolean;
    rtl?: boolean;
    sortIndex: number;
    variants: { type: 0 | 1; code: string; name?: string; sortIndex: number }[];
  }[];
  fields: DefinitionField[];
  views: { name: string; fields: string[] }[];
  sections: { oid: string; name: string; view: string | null; sortIndex: number }[];
  domains: { oid: string; name: string; parent: string | null; sortIndex: number }[];
  filters: DefinitionFilters;
}

export interface DefinitionField {
  oid: string;
  level: (typeof FieldLevels)[number];
  name: string;
  specifiedName: string | null;
  dataCategory: (typeof DataCategoryKeys)[number];
  fieldType: (typeof FieldTypes)[number];
  sortIndex: number;
  model: {
    required: boolean;
    minLen: number;
    maxLen: number;
    regExp: string | null;
    number: boolean;
    unicode: boolean;
    picklistItems: { name: string | null; tbxName: string | null; sortIndex: number }[];
  };
}

/** A user or group a filter refers to: its oid in the file, its id and name in the exporting client. */
export interface NamedRef {
  oid: string;
  id: number;
  name: string;
}

export interface DefinitionFilters {
  users: NamedRef[];
  groups: NamedRef[];
  /** Fields the filters' conditions name that the definition does not define (deleted since). */
  fieldRefs: { oid: string; level: (typeof FieldLevels)[number]; name: string }[];
  filters: {
    name: string;
    description: string | null;
    visibility: (typeof FilterVisibilities)[number];
    /** oid of an entry of `users`. */
    owner: string;
    /** oid of an entry of `groups`, for GROUP visibility. */
    group: string | null;
    /** createdBy / changedBy hold exporting-client user ids, each listed in `users`. */
    criteria: z.output<typeof FilterCriteriaSchema>;
  }[];
}

const fieldOf = (entry: FieldEntry): DefinitionField => ({
  oid: entry['@_oid'],
  level: entry['@_level'],
  name: entry['@_name'],
  specifiedName: entry['@_specifiedName'] || null,
  dataCategory: entry['@_dataCategory'],
  fieldType: entry['@_fieldType'],
  sortIndex: entry['@_sortIndex'],
  model: {
    required: entry['@_required'],
    minLen: entry['@_minLen'],
    maxLen: entry['@_maxLen'],
    regExp: entry.regExp || null,
    number: entry['@_number'],
    unicode: entry['@_unicode'],
    picklistItems: entry.picklist.item.map((item) => ({
      name: item['@_name'] || null,
      tbxName: item['@_tbxName'] || null,
      sortIndex: item['@_sortIndex'],
    })),
  },
});

const refOf = (entry: z.output<typeof NamedRefSchema>): NamedRef => ({
  oid: entry['@_oid'],
  id: entry['@_id'],
  name: entry['@_name'],
});

function definitionOf(file: DefinitionFile): Definition {
  const filters = file.filters ?? {
    users: { user: [] },
    groups: { group: [] },
    fieldRefs: { field: [] },
    filter: [],
  };
  return {
    dictionary: {
      name: file.dictionary['@_name'],
      description: file.dictionary.description ?? null,
      domainPresentation: file.dictionary['@_domainPresentation'],
      sortIndex: file.dictionary['@_sortIndex'],
    },
    languages: file.languages.language.map((language) => ({
      code: language['@_code'],
      name: language['@_name'],
      custom: language['@_custom'],
      rtl: language['@_rtl'],
      sortIndex: language['@_sortIndex'],
      variants: language.variant.map((variant) => ({
        type: variant['@_type'] as 0 | 1,
        code: variant['@_code'],
        name: variant['@_name'],
        sortIndex: variant['@_sortIndex'],
      })),
    })),
    fields: file.fields.field.map(fieldOf),
    views: file.views.view.map((view) => ({ name: view['@_name'], fields: view.show })),
    sections: file.sections.section.map((section) => ({
      oid: section['@_oid'],
      name: section['@_name'],
      view: section['@_view'] || null,
      sortIndex: section['@_sortIndex'],
    })),
    domains: file.domains.domain.map((domain) => ({
      oid: domain['@_oid'],
      name: domain['@_name'],
      parent: domain['@_parent'] ?? null,
      sortIndex: domain['@_sortIndex'],
    })),
    filters: {
      users: filters.users.user.map(refOf),
      groups: filters.groups.group.map(refOf),
      fieldRefs: filters.fieldRefs.field.map((field) => ({
        oid: field['@_oid'],
        level: field['@_level'],
        name: field['@_name'],
      })),
      filters: filters.filter.map((filter) => ({
        name: filter['@_name'],
        description: filter.description ?? null,
        visibility: filter['@_visibility'],
        owner: filter['@_owner'],
        group: filter['@_group'] ?? null,
        criteria: filter.criteria,
      })),
    },
  };
}

/** Every reference inside the file must resolve inside the file: a 400 names the first that does not. */
function assertConsistent(definition: Definition) {
  const problems: string[] = [];
  const unique = (what: string, keys: string[]) => {
    const seen = new Set<string>();
    for (const key of keys) {
      if (seen.has(key)) problems.push(`${what} ${key} occurs twice`);
      seen.add(key);
    }
  };
  unique(
    'field oid',
    definition.fields.map((f) => f.oid),
  );
  unique(
    'section oid',
    definition.sections.map((s) => s.oid),
  );
  unique(
    'domain oid',
    definition.domains.map((d) => d.oid),
  );
  unique(
    'view name',
    definition.views.map((v) => v.name.toLowerCase()),
  );
  const domainOids = new Set(definition.domains.map((d) => d.oid));
  for (const domain of definition.domains) {
    if (domain.parent && !domainOids.has(domain.parent)) {
      problems.push(`domain ${domain.oid} names an unknown parent ${domain.parent}`);
    }
  }
  const viewNames = new Set(definition.views.map((v) => v.name.toLowerCase()));
  for (const section of definition.sections) {
    if (section.view && !viewNames.has(section.view.toLowerCase())) {
      problems.push(`section ${section.oid} names an unknown view "${section.view}"`);
    }
  }
  const { users, groups, filters } = definition.filters;
  const userOids = new Set(users.map((u) => u.oid));
  const userIds = new Set(users.map((u) => u.id));
  const groupOids = new Set(groups.map((g) => g.oid));
  for (const filter of filters) {
    if (!userOids.has(filter.owner))
      problems.push(`filter "${filter.name}" names an unknown owner ${filter.owner}`);
    if (filter.visibility === 'GROUP' && (!filter.group || !groupOids.has(filter.group))) {
      problems.push(`filter "${filter.name}" is visible to a group but names no listed group`);
    }
    for (const id of [...filter.criteria.createdBy, ...filter.criteria.changedBy]) {
      if (!userIds.has(id)) problems.push(`filter "${filter.name}" names user ${id}, not listed in users`);
    }
  }
  if (problems.length) {
    throw new AppError('BAD_REQUEST', `Invalid dictionary definition: ${problems.slice(0, 5).join('; ')}`);
  }
}

/** Parses, validates and checks a definition file; a 400 names the line or element at fault. */
export function parseDefinitionXml(xml: string): Definition {
  const file = parseXml(xml, {
    schema: DefinitionFileSchema,
    listElements: LIST_ELEMENTS,
    label: 'dictionary definition',
  })[ROOT];
  const definition = definitionOf(file);
  assertConsistent(definition);
  return definition;
}

/** Writes a definition as the XML file that parseDefinitionXml reads. */
export function definitionXml(definition: Definition, exportedBy: { client: string }): string {
  const { dictionary, filters } = definition;
  return buildXml({
    [ROOT]: {
      '@_version': DEFINITION_VERSION,
      '@_client': exportedBy.client,
      '@_exported': new Date().toISOString(),
      dictionary: {
        ...xmlAttributes({
          name: dictionary.name,
          domainPresentation: dictionary.domainPresentation,
          sortIndex: dictionary.sortIndex,
        }),
        ...(dictionary.description ? { description: dictionary.description } : {}),
      },
      languages: {
        language: definition.languages.map((language) => ({
          ...xmlAttributes({
            code: language.code,
            name: language.name,
            custom: language.custom,
            rtl: language.rtl,
            sortIndex: language.sortIndex,
          }),
          variant: language.variants.map((variant) => xmlAttributes(variant)),
        })),
      },
      fields: {
        field: definition.fields.map((field) => ({
          ...xmlAttributes({
            oid: field.oid,
            level: field.level,
            name: field.name,
            specifiedName: field.specifiedName,
            dataCategory: field.dataCategory,
            fieldType: field.fieldType,
            sortIndex: field.sortIndex,
            required: field.model.required,
            minLen: field.model.minLen,
            maxLen: field.model.maxLen,
            number: field.model.number,
            unicode: field.model.unicode,
          }),
          ...(field.model.regExp ? { regExp: field.model.regExp } : {}),
          picklist: { item: field.model.picklistItems.map((item) => xmlAttributes(item)) },
        })),
      },
      views: {
        view: definition.views.map((view) => ({ ...xmlAttributes({ name: view.name }), show: view.fields })),
      },
      sections: { section: definition.sections.map((section) => xmlAttributes(section)) },
      domains: { domain: definition.domains.map((domain) => xmlAttributes(domain)) },
      ...(filters.filters.length
        ? {
            filters: {
              users: { user: filters.users.map((user) => xmlAttributes({ ...user })) },
              groups: { group: filters.groups.map((group) => xmlAttributes({ ...group })) },
              fieldRefs: { field: filters.fieldRefs.map((field) => xmlAttributes({ ...field })) },
              filter: filters.filters.map((filter) => ({
                ...xmlAttributes({
                  name: filter.name,
                  visibility: filter.visibility,
                  owner: filter.owner,
                  group: filter.group,
                }),
                ...(filter.description ? { description: filter.description } : {}),
                criteria: JSON.stringify(filter.criteria),
              })),
            },
          }
        : {}),
    },
  });
}
