import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { DEFAULT_CLIENT_LOGIN } from '../auth/auth.service.js';
import { hashPassword } from '../auth/password.js';
import { storedApiKey } from '../auth/tokens.js';
import { Client } from '../client/client.entity.js';
import { createSystemGroups } from '../group/group.service.js';
import { User } from '../user/user.entity.js';

// Any constant will do: it only serialises concurrent first starts of several instances.
const BOOTSTRAP_LOCK = 7_406_123;

/**
 * On an empty database, creates the default client (login `admin`) and its system administrator `admin`,
 * with ADMIN_PASSWORD or a random password that is printed once. Returns the printed password, if any.
 */
export async function ensureDefaultClient(orm: MikroORM, config: Config): Promise<string | undefined> {
  const generated = config.ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(config.ADMIN_PASSWORD ?? (generated as string));
  const created = await orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(?)', [BOOTSTRAP_LOCK]);
    if ((await em.count(Client, {}, { filters: false })) > 0) return false;
    const client = em.create(Client, {
      name: 'Default',
      loginName: DEFAULT_CLIENT_LOGIN,
      ...storedApiKey(),
    });
    createSystemGroups(em, client, null);
    em.create(User, {
      client,
      username: 'admin',
      fullName: 'Administrator',
      passwordHash,
      roles: ['SYSADMIN', 'ADMIN'],
    });
    return true;
  });
  return created ? generated : undefined;
}
