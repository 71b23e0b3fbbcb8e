import DataLoader from 'dataloader';
import { builder, defined, type GraphQLContext } from '../../graphql/builder.js';
import { AuditInfoRef, pageRef } from '../../graphql/common.graphql.js';
import { IN_MEMORY_LIST_COST, pageCost } from '../../graphql/cost.js';
import { Domain } from '../domain/domain.entity.js';
import type { FieldDto } from '../field/field.schema.js';
import type { LanguageDto } from '../language/language.schema.js';
import type { SectionDto } from '../section/section.schema.js';
import type { DictionaryDto } from './dictionary.schema.js';

type Variant = LanguageDto['variants'][number];
type PicklistItem = FieldDto['model']['picklistItems'][number];

interface DomainNode {
  id: number;
  oid: string | null;
  name: string;
  parentDomainId: number | null;
  sortIndex: number;
  numberOfConcepts: number;
  children: DomainNode[];
}

/**
 * The domain trees of every dictionary a request shows, loaded with two queries however many
 * dictionaries and levels the query asks for. The dictionaries reached here were read through the API,
 * so their permission checks are done.
 */
const domainLoaders = new WeakMap<object, DataLoader<number, DomainNode[]>>();
function domainTrees(context: GraphQLContext): DataLoader<number, DomainNode[]> {
  let loader = domainLoaders.get(context);
  if (!loader) {
    const em = context.request.em;
    loader = new DataLoader(async (dictionaryIds: readonly number[]) => {
      const domains = await em.find(
        Domain,
        { dictionary: { $in: [...dictionaryIds] } },
        { filters: { tenant: false }, orderBy: { sortIndex: 'ASC', name: 'ASC', id: 'ASC' } },
      );
      const counts = domains.length
        ? await em.execute<{ domain_id: number; n: number }[]>(
            `select cd.domain_id, count(*)::int as n from concept_domains cd join concepts c on c.id = cd.concept_id
             where cd.domain_id in (?) and not c.deleted group by cd.domain_id`,
            [domains.map((d) => d.id)],
          )
        : [];
      const countOf = new Map(counts.map((row) => [row.domain_id, row.n]));
      const nodes = new Map<number, DomainNode>(
        domains.map((d) => [
          d.id,
          {
            id: d.id,
            oid: d.oid ?? null,
            name: d.name,
            parentDomainId: d.parentId ?? null,
            sortIndex: d.sortIndex,
            numberOfConcepts: countOf.get(d.id) ?? 0,
            children: [],
          },
        ]),
      );
      const roots = new Map<number, DomainNode[]>(dictionaryIds.map((id) => [id, []]));
      for (const domain of domains) {
        const node = nodes.get(domain.id)!;
        const parent = domain.parentId ? nodes.get(domain.parentId) : undefined;
        if (parent) parent.children.push(node);
        else roots.get(domain.dictionary.id)?.push(node);
      }
      return dictionaryIds.map((id) => roots.get(id) ?? []);
    });
    domainLoaders.set(context, loader);
  }
  return loader;
}

const DomainNodeRef = builder.objectRef<DomainNode>('DomainNode');
DomainNodeRef.implement({
  description: 'A domain with its subdomains.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    name: t.exposeString('name'),
    parentDomainId: t.exposeInt('parentDomainId', { nullable: true }),
    sortIndex: t.exposeInt('sortIndex'),
    numberOfConcepts: t.exposeInt('numberOfConcepts'),
    children: t.field({
      type: [DomainNodeRef],
      complexity: IN_MEMORY_LIST_COST,
      resolve: (node) => node.children,
    }),
  }),
});

const VariantRef = builder.objectRef<Variant>('LanguageVariant').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    type: t.exposeInt('type', { description: '0 geographical (region), 1 orthographical (script)' }),
    code: t.exposeString('code'),
    predefined: t.exposeBoolean('predefined'),
    sortIndex: t.exposeInt('sortIndex'),
  }),
});

const LanguageRef = builder.objectRef<LanguageDto>('Language').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    code: t.exposeString('code'),
    code2: t.exposeString('code2', { nullable: true }),
    code3: t.exposeString('code3', { nullable: true }),
    isIso: t.exposeBoolean('isIso'),
    custom: t.exposeBoolean('custom'),
    rtl: t.exposeBoolean('rtl'),
    idStr: t.exposeString('idStr'),
    sortIndex: t.exposeInt('sortIndex'),
    variants: t.field({
      type: [VariantRef],
      complexity: IN_MEMORY_LIST_COST,
      resolve: (language) => language.variants,
    }),
  }),
});

const PicklistItemRef = builder.objectRef<PicklistItem>('PicklistItem').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid'),
    name: t.exposeString('name', { nullable: true }),
    tbxName: t.exposeString('tbxName', { nullable: true }),
    sortIndex: t.exposeInt('sortIndex'),
  }),
});

const FieldModelRef = builder.objectRef<FieldDto['model']>('FieldModel').implement({
  fields: (t) => ({
    required: t.exposeBoolean('required'),
    minLen: t.exposeInt('minLen'),
    maxLen: t.exposeInt('maxLen'),
    regExp: t.exposeString('regExp', { nullable: true }),
    number: t.exposeBoolean('number'),
    unicode: t.exposeBoolean('unicode'),
    picklistItems: t.field({
      type: [PicklistItemRef],
      complexity: IN_MEMORY_LIST_COST,
      resolve: (model) => model.picklistItems,
    }),
  }),
});

const FieldRef = builder.objectRef<FieldDto>('Field').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    name: t.exposeString('name'),
    specifiedName: t.exposeString('specifiedName', { nullable: true }),
    dataCategory: t.exposeString('dataCategory'),
    fieldType: t.exposeString('fieldType'),
    level: t.exposeString('level'),
    sortIndex: t.exposeInt('sortIndex'),
    model: t.field({ type: FieldModelRef, resolve: (field) => field.model }),
  }),
});

const SectionRef = builder.objectRef<SectionDto>('Section').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    name: t.exposeString('name'),
    viewId: t.exposeInt('viewId', { nullable: true }),
    numberOfConcepts: t.exposeInt('numberOfConcepts'),
    deletable: t.exposeBoolean('deletable'),
    sortIndex: t.exposeInt('sortIndex'),
    permissionSchemeId: t.exposeInt('permissionSchemeId', { nullable: true }),
  }),
});

/** FULL-format dictionaries: every member is present. */
const full = (value: unknown) => value as DictionaryDto;

const DictionaryRef = builder.objectRef<DictionaryDto>('Dictionary').implement({
  description: 'A dictionary with its languages, fields, sections and domain tree.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    version: t.exposeInt('version'),
    clientId: t.exposeInt('clientId'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    sortIndex: t.exposeInt('sortIndex'),
    concepts: t.exposeInt('concepts', { description: 'live concepts' }),
    hasDomains: t.exposeBoolean('hasDomains'),
    domainPresentation: t.exposeString('domainPresentation'),
    emailRecipientId: t.exposeInt('emailRecipientId', { nullable: true }),
    permissionSchemeId: t.exposeInt('permissionSchemeId', { nullable: true }),
    languages: t.field({ type: [LanguageRef], complexity: IN_MEMORY_LIST_COST, resolve: (d) => d.languages }),
    conceptFields: t.field({
      type: [FieldRef],
      complexity: IN_MEMORY_LIST_COST,
      resolve: (d) => d.conceptFields,
    }),
    termFields: t.field({ type: [FieldRef], complexity: IN_MEMORY_LIST_COST, resolve: (d) => d.termFields }),
    sections: t.field({
      type: [SectionRef],
      complexity: IN_MEMORY_LIST_COST,
      description: 'sections you may read',
      resolve: (d) => d.sections,
    }),
    allSections: t.field({
      type: [SectionRef],
      complexity: IN_MEMORY_LIST_COST,
      resolve: (d) => d.allSections,
    }),
    domains: t.field({
      type: [DomainNodeRef],
      // One batch for every dictionary of the request, whatever its depth.
      complexity: IN_MEMORY_LIST_COST,
      description: 'the top-level domains, each with its subdomains',
      resolve: (d, _, context) => domainTrees(context).load(d.id),
    }),
    created: t.field({ type: AuditInfoRef, resolve: (d) => d.created }),
    changed: t.field({ type: AuditInfoRef, resolve: (d) => d.changed }),
  }),
});

const DictionaryPageRef = pageRef('DictionaryPage', DictionaryRef);

builder.queryFields((t) => ({
  dictionaries: t.field({
    type: DictionaryPageRef,
    description: 'The dictionaries you may read.',
    complexity: pageCost,
    args: {
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
    },
    resolve: async (_, args, { api }) => {
      const page = await api.dictionaries.list(
        defined({
          page: args.page ?? 0,
          size: args.size ?? undefined,
          sort: args.sort ?? undefined,
          name: args.name ?? undefined,
          'include-deleted': false,
          format: 'FULL' as const,
        }),
      );
      return { ...page, content: page.content.map(full) };
    },
  }),
  dictionary: t.field({
    type: DictionaryRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, args, { api }) =>
      full(await api.dictionaries.get({ id: args.id, format: 'FULL', 'include-deleted': false })),
  }),
}));
