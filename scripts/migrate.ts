/** Applies pending migrations to DATABASE_URL or the embedded PostgreSQL (the server also does this at start). */
import { loadConfig } from '../src/config.js';
import { resolveDatabase } from '../src/db/database.js';
import { migrate, openOrm } from '../src/db/orm.js';

const config = loadConfig();
const db = await resolveDatabase(config, console.log);
const orm = await openOrm(db.url);
try {
  const applied = await migrate(orm);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await orm.close(true);
  await db.embedded?.stop();
}
