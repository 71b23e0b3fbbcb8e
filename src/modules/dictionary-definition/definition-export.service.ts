import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { Client } from '../client/client.entity.js';
import { administrableDictionary } from '../dictionary/dictionary-access.js';
import { Domain } from '../domain/domain.entity.js';
import { Field } from '../field/field.entity.js';
import { fieldModelOf, fieldsOf } from '../field/field.service.js';
import { Filter } from '../filter/filter.entity.js';
import { visibleFiltersWhere } from '../filter/filter.service.js';
import { Group } from '../group/group.entity.js';
import { languagesOf } from '../language/language.service.js';
import { Section } from '../section/section.entity.js';
import { User } from '../user/user.entity.js';
import { View } from '../view/view.entity.js';
import { type Definition, type DefinitionFilters, definitionXml, type NamedRef } from './definition-xml.js';

const NO_TENANT = { tenant: false } as const;
/** Users and groups are named by their oid, or by a made-up one where older rows have none. */
const refOid = (kind: 'user' | 'group', row: { id: number; oid?: string | null }) =>
  row.oid ?? `${kind}-${row.id}`;

/** A model as the file writes it: picklist items without their ids, which mean nothing elsewhere. */
const fileModel = ({ picklistItems, ...constraints }: ReturnType<typeof fieldModelOf>) => ({
  ...constraints,
  picklistItems: picklistItems.map(({ name, tbxName, sortIndex }) => ({ name, tbxName, sortIndex })),
});

/** Domains parents first, each followed by its subtree (siblings by sortIndex, then id). */
function treeOrder(domains: readonly Domain[]): Domain[] {
  const children = new Map<number | null, Domain[]>();
  for (const domain of domains) {
    const parent = domains.some((d) => d.id === domain.parentId) ? (domain.parentId ?? null) : null;
    children.set(parent, [...(children.get(parent) ?? []), domain]);
  }
  const ordered: Domain[] = [];
  const visit = (parent: number | null) => {
    for (const child of children.get(parent) ?? []) {
      ordered.push(child);
      visit(child.id);
    }
  };
  visit(null);
  return ordered;
}

/** The filters the caller may see, with the users, groups and deleted fields they name. */
async function exportedFilters(
  scope: Scope,
  em: EntityManager,
  dictionaryId: number,
  liveFieldOids: Set<string>,
): Promise<DefinitionFilters> {
  const filters = await em.find(
    Filter,
    { $and: [{ dictionary: dictionaryId }, await visibleFiltersWhere(scope)] },
    { orderBy: { name: 'ASC', id: 'ASC' }, filters: NO_TENANT },
  );
  const userIds = new Set(
    filters.flatMap((f) => [f.ownerId, ...f.criteria.createdBy, ...f.criteria.changedBy]),
  );
  const groupIds = new Set(filters.flatMap((f) => (f.groupId ? [f.groupId] : [])));
  const deletedFieldOids = new Set(
    filters
      .flatMap((f) => f.criteria.fieldConditions.map((c) => c.fieldOid))
      .filter((oid) => !liveFieldOids.has(oid)),
  );
  const [users, groups, deletedFields] = await Promise.all([
    userIds.size ? em.find(User, { id: { $in: [...userIds] } }, { filters: false }) : [],
    groupIds.size ? em.find(Group, { id: { $in: [...groupIds] } }, { filters: false }) : [],
    deletedFieldOids.size
      ? em.find(Field, { dictionary: dictionaryId, oid: { $in: [...deletedFieldOids] } }, { filters: false })
      : [],
  ]);
  const userRefs = new Map<number, NamedRef>(
    users.map((u) => [u.id, { oid: refOid('user', u), id: u.id, name: u.username }]),
  );
  const groupRefs = new Map<number, NamedRef>(
    groups.map((g) => [g.id, { oid: refOid('group', g), id: g.id, name: g.name }]),
  );
  return {
    users: [...userRefs.values()],
    groups: [...groupRefs.values()],
    fieldRefs: deletedFields.map((f) => ({ oid: f.oid ?? String(f.id), level: f.level, name: f.name })),
    filters: filters
      .filter((f) => userRefs.has(f.ownerId))
      .map((f) => ({
        name: f.name,
        description: f.description ?? null,
        visibility: f.visibility,
        owner: userRefs.get(f.ownerId)!.oid,
        group: f.groupId ? (groupRefs.get(f.groupId)?.oid ?? null) : null,
        criteria: {
          ...f.criteria,
          // Users that no longer exist cannot be mapped; they are left out of the criteria.
          createdBy: f.criteria.createdBy.filter((id) => userRefs.has(id)),
          changedBy: f.criteria.changedBy.filter((id) => userRefs.has(id)),
        },
      })),
  };
}

/** A dictionary's structure as a Definition; only its administrators may export it. */
export async function exportDefinition(scope: Scope, dictionaryId: number, includeFilters: boolean) {
  const { em } = scope;
  const dictionary = await administrableDictionary(scope, dictionaryId);
  const ids = [dictionary.id];
  const [{ languages, variants }, { fields, items }, views, sections, domains, client] = await Promise.all([
    languagesOf(em, ids),
    fieldsOf(em, ids),
    em.find(View, { dictionary: dictionary.id }, { orderBy: { name: 'ASC' }, filters: NO_TENANT }),
    em.find(
      Section,
      { dictionary: dictionary.id },
      { orderBy: { sortIndex: 'ASC', id: 'ASC' }, filters: NO_TENANT },
    ),
    em.find(
      Domain,
      { dictionary: dictionary.id },
      { orderBy: { sortIndex: 'ASC', id: 'ASC' }, filters: NO_TENANT },
    ),
    em.findOneOrFail(Client, dictionary.client.id),
  ]);
  const fieldOid = (field: Field) => field.oid ?? String(field.id);
  const viewName = new Map(views.map((v) => [v.id, v.name]));
  const domainOid = new Map(domains.map((d) => [d.id, d.oid ?? String(d.id)]));
  const definition: Definition = {
    dictionary: {
      name: dictionary.name,
      description: dictionary.description ?? null,
      domainPresentation: dictionary.domainPresentation,
      sortIndex: dictionary.sortIndex,
    },
    languages: languages.map((language) => ({
      code: language.code,
      name: language.name,
      custom: language.custom,
      rtl: language.rtl,
      sortIndex: language.sortIndex,
      variants: variants
        .filter((v) => v.language.id === language.id)
        .map((v) => ({ type: v.type as 0 | 1, code: v.code, name: v.name, sortIndex: v.sortIndex })),
    })),
    fields: fields.map((field) => ({
      oid: fieldOid(field),
      level: field.level,
      name: field.name,
      specifiedName: field.specifiedName ?? null,
      dataCategory: field.dataCategory,
      fieldType: field.fieldType,
      sortIndex: field.sortIndex,
      model: fileModel(fieldModelOf(field, items)),
    })),
    views: views.map((view) => ({ name: view.name, fields: view.fields })),
    sections: sections.map((section) => ({
      oid: section.oid ?? String(section.id),
      name: section.name,
      view: section.view ? (viewName.get(section.view.id) ?? null) : null,
      sortIndex: section.sortIndex,
    })),
    domains: treeOrder(domains).map((domain) => ({
      oid: domainOid.get(domain.id)!,
      name: domain.name,
      parent: domain.parentId ? (domainOid.get(domain.parentId) ?? null) : null,
      sortIndex: domain.sortIndex,
    })),
    filters: includeFilters
      ? await exportedFilters(scope, em, dictionary.id, new Set(fields.map(fieldOid)))
      : { users: [], groups: [], fieldRefs: [], filters: [] },
  };
  return {
    fileName: `${dictionary.name.replace(/[^\p{L}\p{N}._-]+/gu, '_')}-definition.xml`,
    xml: definitionXml(definition, { client: client.loginName }),
  };
}
