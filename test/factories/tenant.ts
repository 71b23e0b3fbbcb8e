import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { hashPassword } from '../../src/modules/auth/password.js';
import { Client } from '../../src/modules/client/client.entity.js';
import { User } from '../../src/modules/user/user.entity.js';
import type { RestClient } from '../helpers/rest.js';

export const uniqueSuffix = (): string => randomBytes(5).toString('hex');

export interface TestTenant {
  id: number;
  name: string;
  loginName: string;
  adminPassword: string;
  version: number;
}

/** Creates a client through the API as a system administrator, with an administrator `admin`. */
export async function createTenant(
  sysadmin: RestClient,
  overrides: Record<string, unknown> = {},
): Promise<TestTenant> {
  const suffix = uniqueSuffix();
  const adminPassword = `pw-${suffix}-secret`;
  const body = {
    name: `Tenant ${suffix}`,
    loginName: `t${suffix}`,
    adminUser: { password: adminPassword },
    ...overrides,
  };
  const response = await sysadmin.post<{ id: number; name: string; loginName: string; version: number }>(
    '/clients',
    body,
  );
  if (response.status !== 201) throw new Error(`createTenant failed: ${response.status} ${response.text}`);
  return { ...response.body, adminPassword };
}

/**
 * Adds a user straight through the ORM (fast, and free of the policy under test); returns the password
 * so tests can log in as that user.
 */
export async function createUser(
  orm: MikroORM,
  clientId: number,
  options: {
    username?: string;
    roles?: string[];
    active?: boolean;
    expDate?: Date | null;
    email?: string | null;
  } = {},
) {
  const username = options.username ?? `u${uniqueSuffix()}`;
  const password = `pw-${uniqueSuffix()}`;
  const em = orm.em.fork();
  const user = em.create(User, {
    client: em.getReference(Client, clientId),
    username,
    fullName: `User ${username}`,
    passwordHash: await hashPassword(password),
    roles: options.roles ?? [],
    active: options.active ?? true,
    expDate: options.expDate ?? null,
    email: options.email ?? null,
  });
  await em.flush();
  return { id: user.id, username, password };
}
