import type { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { loading, unsizedListCost } from '../../graphql/cost.js';
import type { GuestSettingsDto } from '../guest/guest.schema.js';
import type {
  DictionaryPermissionsDto,
  PermissionSchemeOutputSchema,
} from '../permission/permission-scheme.schema.js';
import type { Role } from '../role/role.schema.js';

type SchemeOutput = z.infer<typeof PermissionSchemeOutputSchema>;

const RoleRef = builder.objectRef<Role>('Role').implement({
  fields: (t) => ({ name: t.exposeString('name'), systemname: t.exposeString('systemname') }),
});

const DictionaryPermissionsRef = builder
  .objectRef<DictionaryPermissionsDto>('DictionaryPermissions')
  .implement({
    description: "The caller's permissions in a dictionary and in each of its sections.",
    fields: (t) => ({
      dictionaryId: t.exposeInt('dictionaryId'),
      permissions: t.field({ type: 'JSON', resolve: (p) => p.permissions }),
      sectionPermissions: t.field({ type: 'JSON', resolve: (p) => p.sectionPermissions }),
      sectionOidPermissions: t.field({ type: 'JSON', resolve: (p) => p.sectionOidPermissions }),
    }),
  });

const PermissionSchemeRef = builder.objectRef<SchemeOutput>('PermissionScheme').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    version: t.int({ nullable: true, resolve: (s) => s.version ?? null }),
    name: t.string({ nullable: true, resolve: (s) => s.name ?? null }),
    description: t.string({ nullable: true, resolve: (s) => s.description ?? null }),
    grants: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.grants ?? null }),
  }),
});

const GuestSettingsRef = builder.objectRef<GuestSettingsDto>('GuestSettings').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    username: t.exposeString('username', { nullable: true }),
    loginMethod: t.exposeString('loginMethod'),
    autoAlwaysDisabled: t.exposeBoolean('autoAlwaysDisabled'),
    enableQuickFilters: t.exposeBoolean('enableQuickFilters'),
    enableSearchModes: t.exposeBoolean('enableSearchModes'),
    enableCommenting: t.exposeBoolean('enableCommenting'),
    enableFeedback: t.exposeBoolean('enableFeedback'),
  }),
});

builder.queryFields((t) => ({
  roles: t.field({
    type: [RoleRef],
    complexity: unsizedListCost,
    args: { clientId: t.arg.int({ required: false, description: 'default: the client of the token' }) },
    resolve: (_, { clientId }, { api }) =>
      clientId == null ? api.roles.list() : api.roles.forClient({ client_id: clientId }),
  }),
  dictionaryPermissions: t.field({
    type: [DictionaryPermissionsRef],
    complexity: (args) => loading(Math.max(args.dictionaryIds.length, 1)),
    args: { dictionaryIds: t.arg.intList({ required: true }) },
    resolve: (_, { dictionaryIds }, { api }) =>
      api.access.dictionaryPermissions({ dictionary_id: dictionaryIds }),
  }),
  permissionSchemes: t.field({
    type: [PermissionSchemeRef],
    complexity: unsizedListCost,
    args: { clientId: t.arg.int({ required: true }) },
    resolve: (_, { clientId }, { api }) => api.permissionSchemes.byClient({ client_id: clientId }),
  }),
  guestSettings: t.field({
    type: GuestSettingsRef,
    description: 'Guest access of the client (administrators).',
    resolve: (_, __, { api }) => api.guests.get(),
  }),
}));
