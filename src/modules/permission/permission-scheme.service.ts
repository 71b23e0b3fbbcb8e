import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  findPage,
  type ListSpec,
  listedClientId,
  markDeleted,
  nameWhere,
  rownumOf,
} from '../../shared/listing.js';
import { deletedFilter, isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { Group } from '../group/group.entity.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { DICTIONARY_ADMIN_PREFIX } from '../role/role.service.js';
import { Section } from '../section/section.entity.js';
import { type PermissionGrant, PermissionScheme } from './permission-scheme.entity.js';
import {
  type PermissionSchemeCreateInput,
  type PermissionSchemeDto,
  type PermissionSchemeListInput,
  type PermissionSchemePatchInput,
  type PermissionSchemeUpdateInput,
  SCHEME_SHORT_KEYS,
} from './permission-scheme.schema.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<PermissionScheme, 'name' | 'createdAt' | 'changedAt'> = {
  entity: PermissionScheme,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

/** Schemes are read by administrators and dictionary administrators (who assign them); written by administrators. */
function assertMayRead(scope: Scope): void {
  const dictionaryAdmin = scope.actor.roles.some((role) => role.startsWith(DICTIONARY_ADMIN_PREFIX));
  if (!isClientAdmin(scope.actor) && !dictionaryAdmin) {
    throw new AppError('FORBIDDEN', 'Only administrators read permission schemes');
  }
}
function assertMayWrite(scope: Scope): void {
  if (!isClientAdmin(scope.actor))
    throw new AppError('FORBIDDEN', 'Only administrators manage permission schemes');
}

function toDto(
  scheme: PermissionScheme,
  audit: Awaited<ReturnType<typeof loadAuditUsers>>,
): PermissionSchemeDto {
  return {
    ...commonDto(scheme, scheme.client.id, audit),
    name: scheme.name,
    description: scheme.description ?? null,
    grants: scheme.grants,
  };
}

async function render(scope: Scope, schemes: PermissionScheme[], format: Format) {
  if (format === 'ID') return schemes.map((scheme) => ({ id: scheme.id }));
  const audit = await loadAuditUsers(scope.em, schemes);
  return schemes.map((scheme) => applyFormat(toDto(scheme, audit), format, SCHEME_SHORT_KEYS));
}

function listWhere(scope: Scope, input: PermissionSchemeListInput): FilterQuery<PermissionScheme> | null {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<PermissionScheme>[] = [{ client: clientId }];
  where.push(...nameWhere<PermissionScheme>(input));
  return { $and: where };
}

export function listSchemes(scope: Scope, input: PermissionSchemeListInput) {
  assertMayRead(scope);
  return findPage(scope, spec, listWhere(scope, input), input, (rows) => render(scope, rows, input.format));
}

export function schemeRownum(scope: Scope, id: number, input: PermissionSchemeListInput) {
  assertMayRead(scope);
  return rownumOf(scope, spec, listWhere(scope, input), input, id);
}

/** Every live scheme of a client (the token's, or any for system administrators). */
export async function schemesOfClient(scope: Scope, clientId: number) {
  if (clientId !== scope.actor.clientId && !isSysadmin(scope.actor)) throw notFound('Client', clientId);
  assertMayRead(scope);
  const schemes = await scope.em.find(
    PermissionScheme,
    { client: clientId },
    { orderBy: { name: 'ASC', id: 'ASC' }, filters: NO_TENANT },
  );
  return render(scope, schemes, 'FULL');
}

async function loadVisible(scope: Scope, id: number, em = scope.em, includeDeleted = false) {
  const where: FilterQuery<PermissionScheme> = isSysadmin(scope.actor)
    ? { id }
    : { id, client: scope.actor.clientId };
  const scheme = await em.findOne(PermissionScheme, where, {
    filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) },
  });
  if (!scheme) throw notFound('Permission scheme', id);
  return scheme;
}

export async function getScheme(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  // Tenant first: another client's scheme is 404 whoever asks; then the role.
  const scheme = await loadVisible(scope, id, scope.em, includeDeleted);
  assertMayRead(scope);
  const [dto] = await render(scope, [scheme], format);
  return dto!;
}

/** Grants must name live groups of the scheme's client, each at most once. */
async function assertGrantsValid(em: EntityManager, clientId: number, grants: PermissionGrant[]) {
  const ids = grants.map((grant) => grant.groupId);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw new AppError('BAD_REQUEST', `Group ${duplicate} is granted twice`);
  if (ids.length === 0) return;
  const groups = await em.find(Group, { id: { $in: ids }, client: clientId }, { filters: NO_TENANT });
  const missing = ids.filter((id) => !groups.some((group) => group.id === id));
  if (missing.length) throw new AppError('BAD_REQUEST', `Unknown groups in grants: ${missing.join(', ')}`);
}

async function assertNameFree(em: EntityManager, clientId: number, name: string, exceptId?: number) {
  const clash = await em.findOne(
    PermissionScheme,
    {
      client: clientId,
      [lowerOf('name')]: name.toLowerCase(),
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A permission scheme named "${name}" already exists`);
}

export async function createScheme(scope: Scope, input: PermissionSchemeCreateInput) {
  assertMayWrite(scope);
  const grants = (input.grants ?? []) as PermissionGrant[];
  const scheme = await scope.em.transactional(async (em) => {
    await assertNameFree(em, scope.actor.clientId, input.name);
    await assertGrantsValid(em, scope.actor.clientId, grants);
    return em.create(PermissionScheme, {
      client: scope.actor.clientId,
      name: input.name,
      description: input.description ?? null,
      grants,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
  });
  return getScheme(scope, scheme.id, input.format, false);
}

export async function updateScheme(
  scope: Scope,
  input: PermissionSchemeUpdateInput | PermissionSchemePatchInput,
  partial: boolean,
) {
  await scope.em.transactional(async (em) => {
    const scheme = await loadVisible(scope, input.id, em);
    assertMayWrite(scope);
    assertVersion(scheme, input.version, 'Permission scheme');
    if (input.name !== undefined && input.name.toLowerCase() !== scheme.name.toLowerCase()) {
      await assertNameFree(em, scheme.client.id, input.name, scheme.id);
    }
    if (input.name !== undefined) scheme.name = input.name;
    if (!partial || input.description !== undefined) scheme.description = input.description ?? null;
    if (!partial || input.grants !== undefined) {
      const grants = (input.grants ?? []) as PermissionGrant[];
      await assertGrantsValid(em, scheme.client.id, grants);
      scheme.grants = grants;
    }
    scheme.changedById = scope.actor.userId;
  });
  scope.em.clear();
  return getScheme(scope, input.id, input.format, false);
}

/** Soft-deletes a scheme; one still assigned to a dictionary or section is refused (400 naming them). */
export async function deleteScheme(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional(async (em) => {
    const scheme = await loadVisible(scope, id, em);
    assertMayWrite(scope);
    const users = [
      ...(await em.find(Dictionary, { permissionScheme: id }, { filters: NO_TENANT })).map(
        (d) => `dictionary "${d.name}"`,
      ),
      ...(await em.find(Section, { permissionScheme: id }, { filters: NO_TENANT })).map(
        (s) => `section "${s.name}"`,
      ),
    ];
    if (users.length) {
      throw new AppError('BAD_REQUEST', `The permission scheme is in use by ${users.slice(0, 5).join(', ')}`);
    }
    markDeleted(scheme, scope.actor.userId);
  });
}

/** Deletes several schemes as one job; each id reports its own success. */
export function deleteSchemesAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'permissionschemes.delete', ids, deleteScheme);
}
