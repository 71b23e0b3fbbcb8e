import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter } from '../../db/common.properties.js';

/** A tenant. Every tenant-owned row points at one; the default client has loginName `admin`. */
export const Client = defineEntity({
  name: 'Client',
  tableName: 'clients',
  filters: { ...notDeletedFilter },
  properties: {
    ...commonProperties(),
    name: p.string().length(255),
    loginName: p.string().length(64),
    active: p.boolean().default(true),
    /**
     * SHA-256 (hex) of the API key: the key itself is shown once, in the answer of generate-new-api-key,
     * and never stored (docs/identity.md, "API keys").
     */
    apiKeyHash: p.string().length(64),
    /** The key's first characters and an ellipsis, shown to administrators on reads; null for keys made before it. */
    apiKeyHint: p.string().length(16).nullable(),
    maxUsers: p.integer().nullable(),
    maxGuests: p.integer().nullable(),
    maxConcurrentUsers: p.integer().nullable(),
    /** Named (non-guest) users that are not deleted; a formula so that it sorts in SQL. */
    currentUsersNumber: p
      .integer()
      .formula(
        (alias) =>
          `(select count(*)::int from users u where u.client_id = ${alias}.id and u.deleted = false and u.type not in ('GUEST', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN'))`,
      )
      .persist(false)
      .nullable(),
  },
});
export type Client = InferEntity<typeof Client>;
