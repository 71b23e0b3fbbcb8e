import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  type ListSpec,
  listCalls,
  listedClientId,
  markDeleted,
  nameWhere,
} from '../../shared/listing.js';
import { deletedFilter, isClientAdmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { accessSubject } from '../access/access.service.js';
import { readableDictionariesWhere, readableDictionary } from '../dictionary/dictionary-access.js';
import { Domain } from '../domain/domain.entity.js';
import { fieldsOf } from '../field/field.service.js';
import { Group } from '../group/group.entity.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { languagesOf } from '../language/language.service.js';
import { Section } from '../section/section.entity.js';
import { enabledWorkflows } from '../workflow/workflow-effects.js';
import { Filter } from './filter.entity.js';
import {
  FILTER_SHORT_KEYS,
  type FilterCreateInput,
  type FilterDto,
  type FilterListInput,
  type FilterPatchInput,
} from './filter.schema.js';
import type { FilterCriteria } from './filter-criteria.js';
import { unknownStates } from './filter-sql.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<Filter, 'name' | 'createdAt' | 'changedAt'> = {
  entity: Filter,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

const mayEdit = (scope: Scope, filter: Filter) =>
  filter.ownerId === scope.actor.userId || isClientAdmin(scope.actor);

async function render(scope: Scope, filters: readonly Filter[], format: Format) {
  if (format === 'ID') return filters.map((f) => ({ id: f.id }));
  const audit = await loadAuditUsers(scope.em, filters);
  return filters.map((filter) => {
    const dto: FilterDto = {
      ...commonDto(filter, filter.client.id, audit),
      name: filter.name,
      description: filter.description ?? null,
      dictionaryId: filter.dictionary.id,
      ownerId: filter.ownerId,
      visibility: filter.visibility,
      groupId: filter.groupId ?? null,
      // Filters saved before workflow states were a criterion lack the member.
      criteria: { ...filter.criteria, workflowStates: filter.criteria.workflowStates ?? [] },
      editable: mayEdit(scope, filter),
    };
    return applyFormat(dto, format, FILTER_SHORT_KEYS);
  });
}

/** Filters the actor sees: own, public, and those of their groups, in dictionaries they may read. */
export async function visibleFiltersWhere(scope: Scope): Promise<FilterQuery<Filter>> {
  if (isClientAdmin(scope.actor)) return {};
  const subject = await accessSubject(scope);
  return {
    $or: [
      { ownerId: scope.actor.userId },
      { visibility: 'PUBLIC' },
      { visibility: 'GROUP', groupId: { $in: [...subject.groupIds] } },
    ],
  };
}

async function listWhere(scope: Scope, input: FilterListInput): Promise<FilterQuery<Filter> | null> {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const dictionaryId = input['dictionary-id'] ?? input.dictionary_id;
  const where: FilterQuery<Filter>[] = [{ client: clientId }, await visibleFiltersWhere(scope)];
  if (dictionaryId !== undefined) where.push({ dictionary: dictionaryId });
  where.push(...nameWhere<Filter>(input));
  where.push(...(await readableDictionariesWhere(scope, clientId)));
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listFilters = listing.list;
export const filterRownum = listing.rownum;

/** A filter the actor may see (others, and those of unreadable dictionaries, are 404). */
async function visibleFilter(scope: Scope, id: number, em: EntityManager = scope.em, includeDeleted = false) {
  const filter = await em.findOne(
    Filter,
    { $and: [{ id, client: scope.actor.clientId }, await visibleFiltersWhere(scope)] },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!filter) throw notFound('Filter', id);
  await readableDictionary(scope, filter.dictionary.id, { em }).catch(() => {
    throw notFound('Filter', id);
  });
  return filter;
}

export async function getFilter(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const filter = await visibleFilter(scope, id, scope.em, includeDeleted);
  const [dto] = await render(scope, [filter], format);
  return dto!;
}

/**
 * Criteria may only name the dictionary's own sections, domains, fields and languages, and the states
 * of its enabled workflow (while none is enabled the states cannot be checked and are kept).
 */
export async function assertCriteria(em: EntityManager, dictionaryId: number, criteria: FilterCriteria) {
  const problems: string[] = [];
  if (criteria.sectionOids.length) {
    const found = await em.find(
      Section,
      { dictionary: dictionaryId, oid: { $in: criteria.sectionOids } },
      { filters: NO_TENANT },
    );
    const missing = criteria.sectionOids.filter((oid) => !found.some((s) => s.oid === oid));
    if (missing.length) problems.push(`unknown sections ${missing.join(', ')}`);
  }
  if (criteria.domainOids.length) {
    const found = await em.find(
      Domain,
      { dictionary: dictionaryId, oid: { $in: criteria.domainOids } },
      { filters: NO_TENANT },
    );
    const missing = criteria.domainOids.filter((oid) => !found.some((d) => d.oid === oid));
    if (missing.length) problems.push(`unknown domains ${missing.join(', ')}`);
  }
  if (criteria.fieldConditions.length) {
    const { fields } = await fieldsOf(em, [dictionaryId]);
    const missing = criteria.fieldConditions
      .map((c) => c.fieldOid)
      .filter((oid) => !fields.some((f) => f.oid === oid));
    if (missing.length) problems.push(`unknown fields ${missing.join(', ')}`);
  }
  if (criteria.languages.length) {
    const { languages, variants } = await languagesOf(em, [dictionaryId]);
    for (const selector of criteria.languages) {
      const [code = '', region = '', script = ''] = selector.split(';');
      // The schema has read the code by the one rule (en is eng); the dictionary must have it.
      const language = languages.find((l) => l.code.toLowerCase() === code.toLowerCase());
      const own = variants.filter((v) => language && v.language.id === language.id);
      const known =
        language &&
        (!region || own.some((v) => v.type === 0 && v.code.toLowerCase() === region.toLowerCase())) &&
        (!script || own.some((v) => v.type === 1 && v.code.toLowerCase() === script.toLowerCase()));
      if (!known) problems.push(`unknown language ${selector}`);
    }
  }
  if (criteria.workflowStates?.length) {
    const workflow = (await enabledWorkflows(em, [dictionaryId])).get(dictionaryId);
    const missing = workflow ? unknownStates(criteria.workflowStates, [workflow]) : [];
    if (missing.length) problems.push(`unknown workflow states ${missing.join(', ')}`);
  }
  if (problems.length) throw new AppError('BAD_REQUEST', `Filter criteria: ${problems.join('; ')}`);
}

/** GROUP visibility names a group of the client that the owner belongs to (administrators: any). */
async function assertAudience(
  scope: Scope,
  em: EntityManager,
  visibility: string,
  groupId: number | null | undefined,
) {
  if (visibility !== 'GROUP') return null;
  if (!groupId) throw new AppError('BAD_REQUEST', 'A filter visible to a group needs groupId');
  const group = await em.findOne(
    Group,
    { id: groupId, client: scope.actor.clientId },
    { filters: NO_TENANT },
  );
  if (!group) throw new AppError('BAD_REQUEST', `Group ${groupId} does not exist`);
  if (!isClientAdmin(scope.actor) && !(await accessSubject(scope)).groupIds.has(groupId)) {
    throw new AppError('FORBIDDEN', 'You can share a filter only with a group you belong to');
  }
  return groupId;
}

export async function createFilter(scope: Scope, input: FilterCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const dictionary = await readableDictionary(scope, input.dictionaryId, { em });
    await assertCriteria(em, dictionary.id, input.criteria);
    const filter = em.create(Filter, {
      client: dictionary.client,
      dictionary,
      name: input.name,
      description: input.description ?? null,
      ownerId: scope.actor.userId,
      visibility: input.visibility,
      groupId: await assertAudience(scope, em, input.visibility, input.groupId),
      criteria: input.criteria,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await em.flush();
    return filter.id;
  });
  scope.em.clear();
  return getFilter(scope, id, input.format, false);
}

function assertMayEdit(scope: Scope, filter: Filter) {
  if (!mayEdit(scope, filter))
    throw new AppError('FORBIDDEN', 'Only the owner or an administrator changes a filter');
}

export async function updateFilter(scope: Scope, input: FilterPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const filter = await visibleFilter(scope, input.id, em);
    assertMayEdit(scope, filter);
    assertVersion(filter, input.version, 'Filter');
    if (input.dictionaryId !== undefined && input.dictionaryId !== filter.dictionary.id) {
      const dictionary = await readableDictionary(scope, input.dictionaryId, { em });
      filter.dictionary = dictionary as never;
    }
    if (input.name !== undefined) filter.name = input.name;
    if (!partial || input.description !== undefined) filter.description = input.description ?? null;
    if (!partial || input.visibility !== undefined || input.groupId !== undefined) {
      const visibility = input.visibility ?? (partial ? filter.visibility : 'PRIVATE');
      filter.groupId = await assertAudience(
        scope,
        em,
        visibility,
        input.groupId ?? (partial ? filter.groupId : null),
      );
      filter.visibility = visibility;
    }
    if (!partial || input.criteria !== undefined) filter.criteria = input.criteria ?? filter.criteria;
    await assertCriteria(em, filter.dictionary.id, filter.criteria);
    filter.changedById = scope.actor.userId;
  });
  scope.em.clear();
  return getFilter(scope, input.id, input.format, false);
}

async function softDelete(scope: Scope, id: number) {
  const filter = await visibleFilter(scope, id);
  assertMayEdit(scope, filter);
  markDeleted(filter, scope.actor.userId);
}

export async function deleteFilter(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteFiltersAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'filters.delete', ids, softDelete);
}
