import type { Options } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type MikroORM, openOrm } from '../../src/db/orm.js';
import { databaseTimeouts } from '../../src/db/timeouts.js';
import { TEST_ADMIN_PASSWORD } from './constants.js';

export interface TestApp {
  app: FastifyInstance;
  orm: MikroORM;
  config: Config;
  close(): Promise<void>;
}

/** The whole server on the run's fresh database (see global-setup); not listening unless a test asks. */
export async function buildTestApp(
  overrides: Record<string, string> = {},
  ormOverrides: Partial<Options> = {},
  /** More of the server's dependencies, e.g. webAppDirectory for the browser tests (test/web). */
  extraDeps: Pick<AppDeps, 'webAppDirectory'> = {},
): Promise<TestApp> {
  const config = loadConfig({
    DATABASE_URL: inject('databaseUrl'),
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Most suites create tenants and log in to them; the single-tenant suite overrides this.
    MULTI_TENANT: 'true',
    // Suites run side by side on two cores: a statement waiting its turn (a lock, a busy CPU) can take
    // longer than the product's few seconds. The outage suites set the product's bounds explicitly.
    DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    DATABASE_ACQUIRE_TIMEOUT_MS: '30000',
    // Suites share the run's database: only the webhook suites deliver (with their loopback allowance),
    // so no other suite's server takes their subscriptions with the product's settings.
    WEBHOOKS_DISPATCH: 'false',
    // Many suites write sessions, users or rights straight into the database and expect the very next
    // request to see it; with the access cache that holds only once the notification has arrived (within
    // milliseconds, not before the next statement). The cache's own suites turn it on (test/access/
    // access-cache.test.ts: every kind of change on two servers; search-round-trips: what a warm search
    // costs), as the product's default does.
    ACCESS_CACHE: 'false',
    ...overrides,
  });
  const orm = await openOrm(config.DATABASE_URL!, ormOverrides, databaseTimeouts(config));
  const app = await buildApp({ config, orm, ...extraDeps });
  await app.ready();
  return {
    app,
    orm,
    config,
    close: async () => {
      await app.close();
      await orm.close(true);
    },
  };
}
