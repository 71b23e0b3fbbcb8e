/**
 * Writes a new migration from the difference between the entities and the database schema.
 * Uses DATABASE_URL or the embedded PostgreSQL; `--initial` creates the first migration.
 */
import { loadConfig } from '../src/config.js';
import { resolveDatabase } from '../src/db/database.js';
import { migrate, openOrm } from '../src/db/orm.js';

const config = loadConfig();
const db = await resolveDatabase(config, console.log);
const orm = await openOrm(db.url);
try {
  const initial = process.argv.includes('--initial');
  if (!initial) await migrate(orm);
  const result = await orm.getMigrator().createMigration('src/db/migrations', false, initial);
  if (result.diff.up.length === 0) console.log('No changes: entities and schema agree.');
  else console.log(`Created ${result.fileName}; add it to src/db/migrations/index.ts`);
} finally {
  await orm.close(true);
  await db.embedded?.stop();
}
