import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
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
export const GuestUserTypes = ['GUEST', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN'] as const;
export const isGuestType = (type: UserType): boolean => (GuestUserTypes as readonly string[]).includes(type);

export const OriginTypes = ['TERMWEB', 'OPENID', 'OIDC', 'SAML', 'LDAP', 'API'] as const;

/** A person or integration account of one client (its home client); mappings add other clients. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    username: p.string().length(128),
    fullName: p.string().length(255).nullable(),
    email: p.string().length(320).nullable(),
    title: p.string().length(255).nullable(),
    /** argon2id PHC string; null means no password login until one is set. */
    passwordHash: p.string().length(255).nullable(),
    /** When the password was last set; with a group's pwdChange it decides when a change is due. */
    passwordChangedAt: p.datetime().nullable(),
    type: p.enum([...UserTypes]).default('NORMAL'),
    originType: p
      .enum([...OriginTypes])
      .nullable()
      .default('TERMWEB'),
    active: p.boolean().default(true),
    expDate: p.datetime().nullable(),
    roles: p.array().default([]),
    forcePasswordChange: p.boolean().default(false),
    /** Preferred interface language (e.g. eng), set in the profile; null: the language sent at login. */
    language: p.string().length(16).nullable(),
  },
});
export type User = InferEntity<typeof User>;

/**
 * A user's mapping to a client other than its home client: the user may switch to that client and is
 * listed among its users. Only system administrators change mappings.
 */
export const UserClient = defineEntity({
  name: 'UserClient',
  tableName: 'user_clients',
  properties: {
    user: () => p.manyToOne(User).primary().ref(),
    client: () => p.manyToOne(Client).primary().ref(),
  },
});
export type UserClient = InferEntity<typeof UserClient>;
