import pg from 'pg';
import { inject } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';

/**
 * A database of its own on the run's server, migrated and bootstrapped, for suites that change
 * installation-wide state (the licence) that would disturb suites running beside them. It is a copy of
 * the global setup's template, the run's database as migration and bootstrap left it: the same state
 * as migrating a new database, in a fraction of the time (a copy of files instead of every migration).
 */
export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = new URL(inject('databaseUrl'));
  const name = `${shared.pathname.slice(1)}_${uniqueSuffix()}`;
  const admin = new pg.Client({ connectionString: shared.toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${inject('databaseTemplate')}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: shared.toString() });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}
