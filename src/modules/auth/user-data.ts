import { z } from 'zod';
import { notFound } from '../../shared/errors.js';
import { isSysadmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions } from '../access/access.service.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { userStagingAreas } from '../staging/staging-areas.service.js';
import { User, UserClient } from '../user/user.entity.js';
import { UserOutputSchema } from '../user/user.schema.js';
import { getUser } from '../user/user.service.js';
import { rolesActingIn } from './auth.service.js';
import { Session } from './session.entity.js';

const NamedSchema = z.object({ id: z.number().int(), name: z.string() });

export const UserDataSchema = z.object({
  activeClientIds: z.array(z.number().int()).describe('clients the user may switch to'),
  clients: z.array(NamedSchema.extend({ loginName: z.string() })),
  dictionaries: z.array(NamedSchema).describe('dictionaries the user may read in the current client'),
  filters: z.array(NamedSchema),
  isSystem: z.boolean().describe('system administrator'),
  permissions: z.record(z.string(), z.boolean()).describe('quickFilters, searchModes, commenting, feedback'),
  preferences: z.record(z.string(), z.unknown()),
  roles: z.array(z.string()),
  selectedTermNames: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
  stagingAreas: z
    .array(NamedSchema.extend({ dictionaryId: z.number().int() }))
    .describe('staging areas the user may use (docs/staging.md)'),
  user: UserOutputSchema,
});
export type UserData = z.infer<typeof UserDataSchema>;

/** Clients the actor may act in: the home client and mapped ones; every active client for system administrators. */
async function switchableClients(scope: Scope): Promise<Client[]> {
  if (isSysadmin(scope.actor)) return scope.em.find(Client, { active: true }, { orderBy: { name: 'ASC' } });
  const mapped = (await scope.em.find(UserClient, { user: scope.actor.userId })).map((row) => row.client.id);
  return scope.em.find(
    Client,
    { id: { $in: [scope.actor.homeClientId, ...mapped] }, active: true },
    { orderBy: { name: 'ASC' } },
  );
}

/** The User data object: who the caller is and what the interface may offer in the current client. */
export async function userData(scope: Scope): Promise<UserData> {
  const clients = await switchableClients(scope);
  const dictionaries = await scope.em.find(
    Dictionary,
    { client: scope.actor.clientId },
    { orderBy: { name: 'ASC', id: 'ASC' }, fields: ['id', 'name'] },
  );
  const readable = dictionaries.length
    ? await dictionaryPermissions(
        scope,
        dictionaries.map((dictionary) => dictionary.id),
      )
    : [];
  const guestSettings = scope.actor.guest
    ? await scope.em.findOne(GuestSettings, { client: scope.actor.clientId })
    : null;
  const guestMay = (flag: boolean | undefined) => !scope.actor.guest || flag === true;
  return {
    activeClientIds: clients.map((client) => client.id),
    clients: clients.map((client) => ({ id: client.id, name: client.name, loginName: client.loginName })),
    dictionaries: dictionaries
      .filter((dictionary) => readable.find((p) => p.dictionaryId === dictionary.id)?.permissions.DICT_READ)
      .map((dictionary) => ({ id: dictionary.id, name: dictionary.name })),
    filters: [],
    isSystem: isSysadmin(scope.actor),
    permissions: {
      quickFilters: guestMay(guestSettings?.enableQuickFilters),
      searchModes: guestMay(guestSettings?.enableSearchModes),
      commenting: guestMay(guestSettings?.enableCommenting),
      feedback: guestMay(guestSettings?.enableFeedback),
    },
    preferences: {},
    roles: [...scope.actor.roles],
    selectedTermNames: [],
    settings: {},
    stagingAreas: await userStagingAreas(scope),
    user: await getUser(scope, scope.actor.userId, 'FULL', false),
  };
}

/**
 * Moves the session to another client: the home client, a mapped one, or any active client for system
 * administrators. Anything else answers 404, as if the client did not exist.
 */
export async function switchClient(scope: Scope, clientId: number): Promise<UserData> {
  const allowed = await switchableClients(scope);
  if (!allowed.some((client) => client.id === clientId)) throw notFound('Client', clientId);
  await scope.em.nativeUpdate(Session, { id: scope.actor.sessionId }, { client: clientId });
  const user = await scope.em.findOneOrFail(User, scope.actor.userId, { filters: false });
  const roles = rolesActingIn(user.roles, scope.actor.homeClientId, clientId, scope.actor.guest);
  const actor = { ...scope.actor, clientId, roles };
  scope.em.setFilterParams('tenant', { clientId });
  return userData({ ...scope, actor });
}
