/**
 * Users export and import as XML (format in docs/user-transfer.md): users with password hashes, their
 * roles, groups and client mappings, and the client's groups. An import is validated completely before
 * anything is written, then written in one transaction: a bad file changes nothing.
 */
import { z } from 'zod';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import { isSysadmin, type Scope } from '../../shared/scope.js';
import { buildXml, parseXml, xmlBoolean, xmlListOf, xmlText } from '../../shared/xml-document.js';
import { Client } from '../client/client.entity.js';
import { Group, GroupMember } from '../group/group.entity.js';
import { listRoles } from '../role/role.service.js';
import { GuestUserTypes, OriginTypes, User, UserClient } from './user.entity.js';
import { assertMayImportExportUsers } from './user.policy.js';
import { UsernameSchema } from './user.schema.js';
import { assertUserSlotFree } from './user.service.js';
import type { UserImportInput, UserImportResult } from './user-transfer.schema.js';

export const USER_TRANSFER_VERSION = '1';
const NO_TENANT = { tenant: false } as const;
const LIST_ELEMENTS = new Set(['group', 'user', 'role', 'client']);

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The users of the token's client (own accounts, not guests, not deleted) as an XML document. */
export async function exportUsersXml(scope: Scope): Promise<string> {
  assertMayImportExportUsers(scope.actor);
  const { em } = scope;
  const clientId = scope.actor.clientId;
  const client = await em.findOneOrFail(Client, clientId);
  const groups = await em.find(Group, { client: clientId }, { orderBy: { name: 'ASC' }, filters: NO_TENANT });
  const users = await em.find(
    User,
    { client: clientId, type: { $nin: [...GuestUserTypes] } },
    { orderBy: { username: 'ASC' }, filters: NO_TENANT },
  );
  const userIds = users.map((user) => user.id);
  const memberships = userIds.length
    ? await em.find(GroupMember, { user: { $in: userIds } }, { filters: false })
    : [];
  const mappings = userIds.length
    ? await em.find(UserClient, { user: { $in: userIds } }, { populate: ['client'] })
    : [];
  const groupName = new Map(groups.map((group) => [group.id, group.name]));
  return buildXml({
    'polyterm-users': {
      '@_version': USER_TRANSFER_VERSION,
      '@_client': client.loginName,
      '@_exported': new Date().toISOString(),
      groups: {
        group: groups.map((group) => ({
          '@_name': group.name,
          '@_type': group.type,
          '@_hasApiAccess': String(group.hasApiAccess),
          ...(group.timeout != null ? { '@_timeout': String(group.timeout) } : {}),
          ...(group.pwdChange != null ? { '@_pwdChange': String(group.pwdChange) } : {}),
          ...(group.langCode3 ? { '@_langCode3': group.langCode3 } : {}),
          ...(group.description ? { description: group.description } : {}),
        })),
      },
      users: {
        user: users.map((user) => ({
          '@_username': user.username,
          '@_active': String(user.active),
          '@_forcePasswordChange': String(user.forcePasswordChange),
          ...(user.expDate ? { '@_expDate': day(user.expDate) } : {}),
          ...(user.originType ? { '@_originType': user.originType } : {}),
          ...(user.fullName ? { fullName: user.fullName } : {}),
          ...(user.email ? { email: user.email } : {}),
          ...(user.title ? { title: user.title } : {}),
          ...(user.passwordHash ? { passwordHash: user.passwordHash } : {}),
          roles: { role: user.roles },
          groups: {
            group: memberships
              .filter((membership) => membership.user.id === user.id)
              .map((membership) => groupName.get(membership.group.id))
              .filter((name): name is string => name !== undefined),
          },
          clients: {
            client: mappings
              .filter((mapping) => mapping.user.id === user.id)
              .map((mapping) => mapping.client.getEntity().loginName),
          },
        })),
      },
    },
  });
}

const FileGroupSchema = z.object({
  '@_name': xmlText.min(1).max(255),
  '@_type': z.enum(['NORMAL', 'ALL_USERS', 'GUEST', 'OWNER']).default('NORMAL'),
  '@_hasApiAccess': xmlBoolean.default(false),
  '@_timeout': z.coerce.number().int().min(60).optional(),
  '@_pwdChange': z.coerce.number().int().min(1).optional(),
  '@_langCode3': z
    .string()
    .regex(/^[a-z]{3}$/)
    .optional(),
  description: z.string().max(4000).optional(),
});
const FileUserSchema = z.object({
  '@_username': UsernameSchema,
  '@_active': xmlBoolean.default(true),
  '@_forcePasswordChange': xmlBoolean.default(false),
  '@_expDate': z.iso.date().optional(),
  '@_originType': z.enum(OriginTypes).optional(),
  fullName: xmlText.max(255).optional(),
  email: z.email().max(320).optional(),
  title: xmlText.max(255).optional(),
  passwordHash: z
    .string()
    .trim()
    .regex(/^\$argon2(id|i|d)\$/, 'passwordHash must be an argon2 PHC string')
    .max(255)
    .optional(),
  roles: xmlListOf('role', xmlText.max(128)).optional(),
  groups: xmlListOf('group', xmlText.max(255)).optional(),
  clients: xmlListOf('client', xmlText.max(64)).optional(),
});
const FileSchema = z.object({
  'polyterm-users': z.object({
    '@_version': z.literal(USER_TRANSFER_VERSION, { message: `version must be ${USER_TRANSFER_VERSION}` }),
    groups: xmlListOf('group', FileGroupSchema).optional(),
    users: xmlListOf('user', FileUserSchema).optional(),
  }),
});
type FileContent = z.infer<typeof FileSchema>['polyterm-users'];

/** Parses and validates the whole document; any problem is a 400 naming the line or the entry. */
export function parseUsersXml(xml: string): FileContent {
  return parseXml(xml, { schema: FileSchema, listElements: LIST_ELEMENTS, label: 'users file' })[
    'polyterm-users'
  ];
}

/**
 * `name`, else `name_1`, `name_2`...: the first that is not taken (compared ignoring case), the name
 * shortened where the suffix would pass the column's length.
 */
function freeName(name: string, taken: Set<string>, maxLength: number): string {
  let candidate = name;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, maxLength - suffix.length)}${suffix}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Imports a users file into the token's client. Without overwrite, a name already taken gets a numeric
 * suffix; with overwrite, the existing user or group takes the file's attributes. Roles the importer may
 * not assign (SYSADMIN for a client administrator) or that do not exist here are skipped and reported;
 * client mappings are applied for system administrators only.
 */
export async function importUsersXml(scope: Scope, input: UserImportInput): Promise<UserImportResult> {
  assertMayImportExportUsers(scope.actor);
  const file = parseUsersXml(input.xml);
  const clientId = scope.actor.clientId;
  const sysadmin = isSysadmin(scope.actor);
  const result: UserImportResult = {
    userCount: 0,
    groupCount: 0,
    renamedUsers: {},
    renamedGroups: {},
    skippedRoles: [],
  };
  const assignable = new Set((await listRoles(scope)).map((role) => role.systemname));

  await scope.em.transactional(async (em) => {
    const groups = await em.find(Group, { client: clientId }, { filters: NO_TENANT });
    const groupByName = new Map(groups.map((group) => [group.name.toLowerCase(), group]));
    const takenGroups = new Set(groupByName.keys());
    const importedGroup = new Map<string, Group>();
    for (const entry of file.groups?.group ?? []) {
      const name = entry['@_name'];
      let group: Group | undefined;
      if (entry['@_type'] !== 'NORMAL') {
        // System groups exist in every client: merge into ours, never create a second one.
        group = groups.find((candidate) => candidate.type === entry['@_type']);
        if (!group || !input['overwrite-group']) {
          if (group) importedGroup.set(name.toLowerCase(), group);
          continue;
        }
      } else if (input['overwrite-group'] && groupByName.get(name.toLowerCase())?.type === 'NORMAL') {
        group = groupByName.get(name.toLowerCase());
      } else {
        const given = freeName(name, takenGroups, 255);
        if (given !== name) result.renamedGroups[name] = given;
        group = em.create(Group, {
          client: clientId,
          name: given,
          type: 'NORMAL',
          createdById: scope.actor.userId,
          changedById: scope.actor.userId,
        });
      }
      if (!group) continue;
      group.description = entry.description ?? null;
      group.hasApiAccess = entry['@_type'] === 'GUEST' ? false : entry['@_hasApiAccess'];
      group.timeout = entry['@_timeout'] ?? null;
      group.pwdChange = entry['@_pwdChange'] ?? null;
      group.langCode3 = entry['@_langCode3'] ?? null;
      group.changedById = scope.actor.userId;
      importedGroup.set(name.toLowerCase(), group);
      result.groupCount++;
    }
    await em.flush();

    const existing = await em.find(User, { client: clientId }, { filters: NO_TENANT });
    const userByName = new Map(existing.map((user) => [user.username.toLowerCase(), user]));
    const takenUsers = new Set(userByName.keys());
    const clientLogins = [
      ...new Set((file.users?.user ?? []).flatMap((entry) => entry.clients?.client ?? [])),
    ];
    const mappedClients =
      sysadmin && clientLogins.length
        ? await em.find(Client, {
            [lowerOf('login_name')]: { $in: clientLogins.map((l) => l.toLowerCase()) },
          })
        : [];

    for (const entry of file.users?.user ?? []) {
      const name = entry['@_username'];
      const current = userByName.get(name.toLowerCase());
      let user: User;
      if (current && input['overwrite-user'] && !GuestUserTypes.includes(current.type as never)) {
        if (current.roles.includes('SYSADMIN') && !sysadmin) {
          throw new AppError(
            'FORBIDDEN',
            `A client administrator cannot overwrite the system administrator ${name}`,
          );
        }
        user = current;
      } else {
        await assertUserSlotFree(em, clientId);
        const given = freeName(name, takenUsers, 128);
        if (given !== name) result.renamedUsers[name] = given;
        user = em.create(User, { client: clientId, username: given, createdById: scope.actor.userId });
      }
      const roles: string[] = [];
      for (const role of entry.roles?.role ?? []) {
        const allowed = assignable.has(role) && (role !== 'SYSADMIN' || sysadmin);
        if (allowed) roles.push(role);
        else result.skippedRoles.push({ username: user.username, role });
      }
      user.fullName = entry.fullName ?? null;
      user.email = entry.email ?? null;
      user.title = entry.title ?? null;
      user.active = entry['@_active'];
      user.forcePasswordChange = entry['@_forcePasswordChange'];
      user.expDate = entry['@_expDate'] ? new Date(`${entry['@_expDate']}T00:00:00Z`) : null;
      user.originType = entry['@_originType'] ?? 'TERMWEB';
      if (entry.passwordHash) {
        user.passwordHash = entry.passwordHash;
        user.passwordChangedAt = new Date();
      }
      // Nobody changes their own roles, not even by import.
      if (user.id !== scope.actor.userId) user.roles = [...new Set(roles)];
      user.changedById = scope.actor.userId;
      await em.flush();

      const memberOf = (entry.groups?.group ?? [])
        .map(
          (groupName) =>
            importedGroup.get(groupName.toLowerCase()) ?? groupByName.get(groupName.toLowerCase()),
        )
        .filter((group): group is Group => group?.type === 'NORMAL');
      await em.nativeDelete(GroupMember, {
        user: user.id,
        group: { $in: groups.map((g) => g.id).concat(0) },
      });
      for (const group of new Set(memberOf)) em.create(GroupMember, { group, user });
      if (sysadmin && entry.clients) {
        await em.nativeDelete(UserClient, { user: user.id });
        for (const login of entry.clients.client) {
          const target = mappedClients.find((c) => c.loginName.toLowerCase() === login.toLowerCase());
          if (target && target.id !== clientId) em.create(UserClient, { user, client: target });
        }
      }
      result.userCount++;
    }
    await em.flush();
  });
  return result;
}
