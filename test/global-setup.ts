import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startElasticsearch } from '../scripts/elasticsearch.js';
import { prepareDatabase, startThrowawayCluster } from './helpers/embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /**
     * A copy of the run's database right after migration and bootstrap, which nothing connects to:
     * isolated databases are cloned from it (CREATE DATABASE ... TEMPLATE) instead of migrated anew.
     */
    databaseTemplate: string;
    /** A real Elasticsearch: ELASTICSEARCH_URL when given, else one started for the run. */
    elasticsearchUrl: string;
    /** Index names of this run start with it, so runs sharing a cluster never meet. */
    elasticsearchIndexPrefix: string;
    /** An empty folder of the run where the first browser suite builds the web application for all. */
    webBuildRoot: string;
  }
}

/**
 * One fresh database per test run: a new database on DATABASE_URL's server when given, otherwise a
 * throw-away embedded PostgreSQL. Migrations and the first-start bootstrap run here, as at server start.
 */
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
    const cluster = await startThrowawayCluster();
    await cluster.server.createDatabase(name);
    databaseUrl = cluster.urlOf(name);
    teardown = cluster.stop;
  }

  // Elasticsearch starts while PostgreSQL migrates: both take a while.
  const elasticsearch = process.env.ELASTICSEARCH_URL
    ? Promise.resolve({ url: process.env.ELASTICSEARCH_URL, stop: async () => {} })
    : startElasticsearch();
  elasticsearch.catch(() => {});
  await prepareDatabase(databaseUrl);
  // Cloned before any suite connects to the run's database (a template must have no other sessions).
  const template = `${name}_template`;
  await withAdmin(databaseUrl, (admin) => admin.query(`create database "${template}" template "${name}"`));
  const dropTemplate = () =>
    withAdmin(databaseUrl, (admin) => admin.query(`drop database if exists "${template}" with (force)`));

  let search: { url: string; stop(): Promise<void> };
  try {
    search = await elasticsearch;
  } catch (error) {
    await dropTemplate();
    await teardown();
    throw error;
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('databaseTemplate', template);
  project.provide('elasticsearchUrl', search.url);
  project.provide('elasticsearchIndexPrefix', name);
  const webBuildRoot = await mkdtemp(join(tmpdir(), 'polyterm-web-'));
  project.provide('webBuildRoot', webBuildRoot);
  return async () => {
    await rm(webBuildRoot, { recursive: true, force: true });
    await search.stop();
    await dropTemplate();
    await teardown();
  };
}

/** Runs `use` on a connection to the server of `url`, on its maintenance database `postgres`. */
async function withAdmin<T>(url: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}
