import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { type AuditUsers, commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import { AUDIT_SORTS } from '../../shared/listing.js';
import { likePrefix, pageRequest, parseSort, toPage } from '../../shared/paging.js';
import { deletedFilter, isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { hashPassword } from '../auth/password.js';
import { Session } from '../auth/session.entity.js';
import { newApiKey, storedApiKey } from '../auth/tokens.js';
import { createSystemGroups } from '../group/group.service.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { assertWithinLicense } from '../license/license.service.js';
import { assertPasswordAllowed } from '../user/password-policy.js';
import { User } from '../user/user.entity.js';
import { Client } from './client.entity.js';
import {
  CLIENT_SHORT_KEYS,
  type ClientCreateInput,
  type ClientDto,
  type ClientListInput,
  type ClientPatchInput,
  type ClientUpdateInput,
} from './client.schema.js';

const SORTABLE = {
  name: 'name',
  loginName: 'loginName',
  login: 'loginName',
  currentUsersNumber: 'currentUsersNumber',
  usersCount: 'currentUsersNumber',
  maxConcurrentUsers: 'maxConcurrentUsers',
  maxGuests: 'maxGuests',
  maxUsers: 'maxUsers',
  active: 'active',
  status: 'active',
  ...AUDIT_SORTS,
} as const;

/** System administrators see every client; everyone else only the client of their session. */
function visibleClients(scope: Scope): FilterQuery<Client> {
  return isSysadmin(scope.actor) ? {} : { id: scope.actor.clientId };
}

/**
 * How a client's API key appears in an answer: the new key in the answer that generated it (`shown`),
 * its masked hint for administrators otherwise (only a hash is stored), absent for everyone else and
 * at creation.
 */
type ApiKeyView = { shown: string } | 'hidden' | 'omitted';

function toDto(scope: Scope, client: Client, users: AuditUsers, apiKey: ApiKeyView): ClientDto {
  return {
    ...commonDto(client, client.id, users),
    name: client.name,
    active: client.active,
    loginName: client.loginName,
    // The API key is a credential: only administrators learn even that it is hidden.
    ...(apiKey !== 'omitted' && isClientAdmin(scope.actor)
      ? { apiKey: apiKey === 'hidden' ? (client.apiKeyHint ?? null) : apiKey.shown }
      : {}),
    maxUsers: client.maxUsers ?? null,
    maxGuests: client.maxGuests ?? null,
    maxConcurrentUsers: client.maxConcurrentUsers ?? null,
    currentUsersNumber: client.currentUsersNumber ?? 0,
  };
}

async function render(scope: Scope, clients: Client[], format: Format, apiKey: ApiKeyView = 'hidden') {
  const users = format === 'ID' ? new Map() : await loadAuditUsers(scope.em, clients);
  return clients.map((client) => applyFormat(toDto(scope, client, users, apiKey), format, CLIENT_SHORT_KEYS));
}

function listWhere(scope: Scope, input: ClientListInput): FilterQuery<Client> {
  const where: FilterQuery<Client>[] = [visibleClients(scope)];
  if (input.name) {
    // "name" covers both the name and the login name.
    where.push({
      $or: [{ name: { $ilike: likePrefix(input.name) } }, { loginName: { $ilike: likePrefix(input.name) } }],
    });
  }
  if (input['name-eq']) where.push({ [lowerOf('name')]: input['name-eq'].toLowerCase() });
  if (input['login-name']) where.push({ loginName: { $ilike: likePrefix(input['login-name']) } });
  if (input['login-name-eq']) where.push({ [lowerOf('login_name')]: input['login-name-eq'].toLowerCase() });
  if (input['max-concurrent-users'] !== undefined)
    where.push({ maxConcurrentUsers: input['max-concurrent-users'] });
  if (input['max-user-accounts'] !== undefined) where.push({ maxUsers: input['max-user-accounts'] });
  return { $and: where };
}

function listOptions(scope: Scope, input: ClientListInput) {
  const sort = parseSort(input.sort, SORTABLE, 'name');
  return {
    sort,
    orderBy: [{ [sort.property]: sort.direction }, { id: sort.direction }],
    filters: deletedFilter(scope, input['include-deleted']),
  };
}

/** A page of clients under the list filters and sort. */
export async function listClients(scope: Scope, input: ClientListInput) {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const { sort, orderBy, filters } = listOptions(scope, input);
  const [clients, total] = await scope.em.findAndCount(Client, listWhere(scope, input), {
    orderBy,
    filters,
    limit: request.size,
    offset: request.offset,
  });
  return toPage(await render(scope, clients, input.format), total, request, sort.label);
}

/** 1-based position of a client under the list filters and sort; 0 when it is not in the list. */
export async function clientRownum(scope: Scope, id: number, input: ClientListInput): Promise<number> {
  const { orderBy, filters } = listOptions(scope, input);
  const ids = await scope.em.find(Client, listWhere(scope, input), { orderBy, filters, fields: ['id'] });
  return ids.findIndex((client) => client.id === id) + 1;
}

async function loadVisible(scope: Scope, id: number, includeDeleted = false): Promise<Client> {
  const client = await scope.em.findOne(
    Client,
    { $and: [{ id }, visibleClients(scope)] },
    { filters: deletedFilter(scope, includeDeleted) },
  );
  if (!client) throw notFound('Client', id);
  return client;
}

export async function getClient(
  scope: Scope,
  id: number,
  format: Format,
  includeDeleted: boolean,
  apiKey: ApiKeyView = 'hidden',
) {
  const [dto] = await render(scope, [await loadVisible(scope, id, includeDeleted)], format, apiKey);
  return dto!;
}

/** Refuses a name or login name another live client already has (422). */
async function assertUnique(em: EntityManager, name: string, loginName: string, exceptId?: number) {
  const clash = await em.findOne(Client, {
    $or: [{ [lowerOf('name')]: name.toLowerCase() }, { [lowerOf('login_name')]: loginName.toLowerCase() }],
    ...(exceptId ? { id: { $ne: exceptId } } : {}),
  });
  if (clash) {
    const what =
      clash.name.toLowerCase() === name.toLowerCase() ? `name "${name}"` : `login name "${loginName}"`;
    throw new AppError('UNPROCESSABLE', `A client with the ${what} already exists`);
  }
}

/** Creates a client and its administrator (login admin, full name Administrator unless given). */
export async function createClient(scope: Scope, input: ClientCreateInput) {
  const admin = input.adminUser ?? {};
  if (admin.password !== undefined) assertPasswordAllowed(scope.config, admin.password);
  // Hashing is slow on purpose: do it before the transaction opens.
  const passwordHash = admin.password !== undefined ? await hashPassword(admin.password) : null;
  // A client cannot have more accounts than concurrent users allowed in total.
  const maxUsers =
    input.maxUsers != null && input.maxConcurrentUsers != null
      ? Math.min(input.maxUsers, input.maxConcurrentUsers)
      : (input.maxUsers ?? null);
  const client = await scope.em.transactional(async (em) => {
    await assertUnique(em, input.name, input.loginName);
    await assertWithinLicense(em, maxUsers);
    const client = em.create(Client, {
      name: input.name,
      loginName: input.loginName,
      active: input.active,
      // Every client has a key; nobody learns this one (the contract omits it on creation).
      ...storedApiKey(),
      maxUsers,
      maxGuests: input.maxGuests ?? null,
      maxConcurrentUsers: input.maxConcurrentUsers ?? null,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    createSystemGroups(em, client, scope.actor.userId);
    em.create(User, {
      client,
      username: admin.username ?? 'admin',
      fullName: 'Administrator',
      email: admin.email ?? null,
      passwordHash,
      roles: ['ADMIN'],
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    return client;
  });
  return getClient(scope, client.id, input.format, false, 'omitted');
}

/** Full (PUT) or partial update of the attributes a system administrator may change. */
export async function updateClient(
  scope: Scope,
  input: ClientUpdateInput | ClientPatchInput,
  partial: boolean,
) {
  await scope.em.transactional(async (em) => {
    const client = await em.findOne(Client, { id: input.id });
    if (!client) throw notFound('Client', input.id);
    assertVersion(client, input.version, 'Client');
    const name = input.name ?? client.name;
    const loginName = input.loginName ?? client.loginName;
    if (name !== client.name || loginName !== client.loginName)
      await assertUnique(em, name, loginName, client.id);
    client.name = name;
    client.loginName = loginName;
    if (input.active !== undefined) client.active = input.active;
    for (const key of ['maxUsers', 'maxGuests', 'maxConcurrentUsers'] as const) {
      // PUT erases what is missing; PATCH leaves it, and clears what is sent as null.
      if (!partial || input[key] !== undefined) client[key] = input[key] ?? null;
    }
    await assertWithinLicense(em, client.maxUsers);
    client.changedById = scope.actor.userId;
  });
  scope.em.clear();
  return getClient(scope, input.id, input.format, false);
}

async function softDelete(em: EntityManager, scope: Scope, id: number): Promise<void> {
  if (id === scope.actor.clientId) {
    throw new AppError('BAD_REQUEST', 'The client of the current session cannot be deleted');
  }
  const client = await em.findOne(Client, { id });
  if (!client) throw notFound('Client', id);
  client.deleted = true;
  client.deletedAt = new Date();
  client.deletedById = scope.actor.userId;
  client.changedById = scope.actor.userId;
  await em.flush();
  // Its users can no longer log in, so their sessions end now.
  await em.nativeUpdate(Session, { client: id, endedAt: null }, { endedAt: new Date() });
}

/** Soft-deletes a client (never the client of the caller's session). */
export async function deleteClient(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete(em, scope, id));
}

/** Deletes several clients as one job; each id reports its own success. */
export function deleteClientsAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'clients.delete', ids, (tx, id) => softDelete(tx.em, tx, id));
}

/**
 * Replaces the API key; integrations holding the old key can no longer log in. The answer is the only
 * place the new key is ever shown: only its hash is stored.
 */
export async function regenerateApiKey(scope: Scope, id: number, format: Format) {
  const { key: apiKey, ...stored } = newApiKey();
  await scope.em.transactional(async (em) => {
    const client = await em.findOne(Client, { id });
    if (!client) throw notFound('Client', id);
    client.apiKeyHash = stored.apiKeyHash;
    client.apiKeyHint = stored.apiKeyHint;
    client.changedById = scope.actor.userId;
  });
  scope.em.clear();
  return getClient(scope, id, format, false, { shown: apiKey });
}
