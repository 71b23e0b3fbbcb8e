import pg from 'pg';
import { inject } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { prepareDatabase } from './embedded-postgres.js';

/**
 * A database of its own on the run's server, migrated and bootstrapped, for suites that change
 * installation-wide state (the licence) that would disturb suites running beside them.
 */
export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = new URL(inject('databaseUrl'));
  const name = `${shared.pathname.slice(1)}_${uniqueSuffix()}`;
  const admin = new pg.Client({ connectionString: shared.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  await prepareDatabase(url.toString());
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
