import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { User } from '../user/user.entity.js';
import type { SearchSettingValues } from './search-settings.schema.js';

/**
 * Search preferences of one user in one client (dictionaries are per client). A guest session keeps
 * its own row (sessionId set), so that one anonymous visitor never changes the settings of the others;
 * it starts from the guest account's row and ends with the session.
 */
export const UserSearchSettings = defineEntity({
  name: 'UserSearchSettings',
  tableName: 'user_search_settings',
  filters: { ...tenantFilter },
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).ref(),
    client: () => p.manyToOne(Client).ref(),
    sessionId: p.integer().nullable(),
    version: p.integer().version(),
    settings: p.json<Partial<SearchSettingValues>>(),
    changedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type UserSearchSettings = InferEntity<typeof UserSearchSettings>;
