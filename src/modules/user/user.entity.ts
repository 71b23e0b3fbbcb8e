import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';

export const UserTypes = [
  'NORMAL',
  'GUEST',
  'GUEST_AUTOLOGIN',
  'GUEST_CLIENT_AUTOLOGIN',
  'EXTSYSADMIN',
  'LEGACY',
  'ROLEBASED',
] as const;
export type UserType = (typeof UserTypes)[number];

export const SystemRoles = ['SYSADMIN', 'ADMIN', 'USEREDITOR'] as const;

/** A person or integration account of one client (its home client; mappings to others come later). */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  filters: {
    ...notDeletedFilter,
    // On by default: a query made without a bound client fails instead of leaking another tenant's rows.
    tenant: {
      name: 'tenant',
      cond: (args: { clientId: number }) => ({ client: args.clientId }),
      default: true,
    },
  },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    username: p.string().length(128),
    fullName: p.string().length(255).nullable(),
    email: p.string().length(320).nullable(),
    title: p.string().length(255).nullable(),
    /** argon2id PHC string; null means no password login until one is set. */
    passwordHash: p.string().length(255).nullable(),
    type: p.enum(() => UserTypes).default('NORMAL'),
    active: p.boolean().default(true),
    expDate: p.datetime().nullable(),
    roles: p.array().default([]),
    forcePasswordChange: p.boolean().default(false),
  },
});
export type User = InferEntity<typeof User>;
