import type { Config } from '../config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseLocation {
  url: string;
  embedded?: EmbeddedDatabase;
}

/** DATABASE_URL when configured; otherwise the embedded PostgreSQL under EMBEDDED_PG_DIR. */
export async function resolveDatabase(
  config: Config,
  log: (message: string) => void,
): Promise<DatabaseLocation> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const embedded = await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT, log);
  return { url: embedded.url, embedded };
}
