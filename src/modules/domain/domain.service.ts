import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  findPage,
  type ListSpec,
  markDeleted,
  nameWhere,
  rownumOf,
} from '../../shared/listing.js';
import { newOid } from '../../shared/oid.js';
import { deletedFilter, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import type { DomainPresentation } from '../dictionary/dictionary.entity.js';
import {
  administrableDictionary,
  markStructureChanged,
  readableDictionary,
} from '../dictionary/dictionary-access.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { Domain } from './domain.entity.js';
import {
  DOMAIN_SHORT_KEYS,
  type DomainCreateInput,
  type DomainDto,
  type DomainListInput,
  type DomainPatchInput,
} from './domain.schema.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<Domain, 'name' | 'sortIndex' | 'createdAt' | 'changedAt'> = {
  entity: Domain,
  sortable: {
    name: 'name',
    sortIndex: 'sortIndex',
    ...AUDIT_SORTS,
  },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

async function render(scope: Scope, domains: readonly Domain[], format: Format) {
  if (format === 'ID') return domains.map((d) => ({ id: d.id }));
  const ids = domains.map((d) => d.id);
  const [audit, counts, children] = await Promise.all([
    loadAuditUsers(scope.em, domains),
    ids.length
      ? scope.em.execute<{ domain_id: number; n: number }[]>(
          `select cd.domain_id, count(*)::int as n from concept_domains cd join concepts c on c.id = cd.concept_id
           where cd.domain_id in (?) and not c.deleted group by cd.domain_id`,
          [ids],
        )
      : [],
    ids.length
      ? scope.em.find(
          Domain,
          { parentId: { $in: ids } },
          { filters: NO_TENANT, orderBy: { sortIndex: 'ASC', id: 'ASC' } },
        )
      : [],
  ]);
  const countOf = new Map(counts.map((row) => [row.domain_id, row.n]));
  return domains.map((domain) => {
    const dto: DomainDto = {
      ...commonDto(domain, domain.client.id, audit),
      name: domain.name,
      dictionaryId: domain.dictionary.id,
      parentDomainId: domain.parentId ?? null,
      numberOfConcepts: countOf.get(domain.id) ?? 0,
      children: children.filter((c) => c.parentId === domain.id).map((c) => c.id),
      sortIndex: domain.sortIndex,
    };
    return applyFormat(dto, format, DOMAIN_SHORT_KEYS);
  });
}

function listWhere(input: DomainListInput): FilterQuery<Domain> {
  const where: FilterQuery<Domain>[] = [{ dictionary: input['dictionary-id'] }];
  if (input['parent-id'] !== undefined) where.push({ parentId: input['parent-id'] });
  where.push(...nameWhere<Domain>(input));
  return { $and: where };
}

/** Domains of a dictionary the caller may read. */
export async function listDomains(scope: Scope, input: DomainListInput) {
  await readableDictionary(scope, input['dictionary-id']);
  return findPage(scope, spec, listWhere(input), input, (rows) => render(scope, rows, input.format));
}

export async function domainRownum(scope: Scope, id: number, input: DomainListInput) {
  await readableDictionary(scope, input['dictionary-id']);
  return rownumOf(scope, spec, listWhere(input), input, id);
}

async function findDomain(scope: Scope, id: number, em: EntityManager = scope.em, includeDeleted = false) {
  const domain = await em.findOne(
    Domain,
    { id, client: scope.actor.clientId },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!domain) throw notFound('Domain', id);
  return domain;
}

export async function getDomain(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const domain = await findDomain(scope, id, scope.em, includeDeleted);
  await readableDictionary(scope, domain.dictionary.id).catch(() => {
    throw notFound('Domain', id);
  });
  const [dto] = await render(scope, [domain], format);
  return dto!;
}

/** The parent must be a live domain of the same dictionary, and never the domain itself or one below it. */
async function assertParent(
  em: EntityManager,
  dictionaryId: number,
  domainId: number | null,
  parentId: number,
) {
  const all = await em.find(
    Domain,
    { dictionary: dictionaryId },
    { filters: NO_TENANT, fields: ['id', 'parentId'] },
  );
  const parentOf = new Map(all.map((d) => [d.id, d.parentId ?? null]));
  if (!parentOf.has(parentId)) {
    throw new AppError(
      'BAD_REQUEST',
      `Parent domain ${parentId} is not a domain of dictionary ${dictionaryId}`,
    );
  }
  for (let at: number | null = parentId, steps = 0; at !== null; at = parentOf.get(at) ?? null, steps++) {
    if (at === domainId || steps > all.length) {
      throw new AppError('BAD_REQUEST', 'A domain cannot be placed below itself or one of its subdomains');
    }
  }
}

export async function createDomain(scope: Scope, input: DomainCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, input.dictionaryId, { em });
    if (input.parentDomainId) await assertParent(em, dictionary.id, null, input.parentDomainId);
    const domain = em.create(Domain, {
      client: dictionary.client,
      dictionary,
      oid: newOid(),
      name: input.name,
      parentId: input.parentDomainId ?? null,
      sortIndex: input.sortIndex ?? 0,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await em.flush();
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'domain',
      action: 'created',
      id: domain.id,
    });
    return domain.id;
  });
  scope.em.clear();
  return getDomain(scope, id, input.format, false);
}

export async function updateDomain(scope: Scope, input: DomainPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const domain = await findDomain(scope, input.id, em);
    const dictionary = await administrableDictionary(scope, domain.dictionary.id, { em });
    assertVersion(domain, input.version, 'Domain');
    if (input.dictionaryId !== undefined && input.dictionaryId !== dictionary.id) {
      throw new AppError('BAD_REQUEST', 'A domain cannot move to another dictionary');
    }
    if (input.name !== undefined) domain.name = input.name;
    if (!partial || input.parentDomainId !== undefined) {
      if (input.parentDomainId) await assertParent(em, dictionary.id, domain.id, input.parentDomainId);
      domain.parentId = input.parentDomainId ?? null;
    }
    if (!partial || input.sortIndex !== undefined) domain.sortIndex = input.sortIndex ?? 0;
    domain.changedById = scope.actor.userId;
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'domain',
      action: 'updated',
      id: domain.id,
    });
  });
  scope.em.clear();
  return getDomain(scope, input.id, input.format, false);
}

/** A domain with live subdomains cannot be deleted; concepts simply lose a deleted domain. */
async function softDelete(scope: Scope, id: number) {
  const domain = await findDomain(scope, id);
  const dictionary = await administrableDictionary(scope, domain.dictionary.id);
  const children = await scope.em.count(Domain, { parentId: id }, { filters: NO_TENANT });
  if (children > 0)
    throw new AppError(
      'BAD_REQUEST',
      `Domain "${domain.name}" has ${children} subdomains; delete or move them first`,
    );
  markDeleted(domain, scope.actor.userId);
  await markStructureChanged(scope.em, dictionary.id, {
    actorId: scope.actor.userId,
    subject: 'domain',
    action: 'deleted',
    id: domain.id,
  });
}

export async function deleteDomain(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteDomainsAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'domains.delete', ids, softDelete);
}

export async function domainConfig(scope: Scope, dictionaryId: number) {
  const dictionary = await readableDictionary(scope, dictionaryId);
  return { presentation: dictionary.domainPresentation };
}

export async function setDomainConfig(scope: Scope, dictionaryId: number, presentation: DomainPresentation) {
  await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, dictionaryId, { em });
    dictionary.domainPresentation = presentation;
    dictionary.changedById = scope.actor.userId;
  });
  return { presentation };
}
