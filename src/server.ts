import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { resolveDatabase } from './db/database.js';
import { migrate, openOrm } from './db/orm.js';
import { databaseTimeouts } from './db/timeouts.js';
import { failAbandonedJobs } from './modules/jobs/job-heartbeat.js';
import { ensureDefaultClient } from './modules/system/bootstrap.js';
import { sweepUploadDirs } from './modules/tbx/tbx-upload-dir.js';

const config = loadConfig();
const log = (message: string) => process.stdout.write(`${message}\n`);

const database = await resolveDatabase(config, log);
const orm = await openOrm(database.url, {}, databaseTimeouts(config));
const applied = await migrate(orm);
if (applied.length) log(`Applied migrations: ${applied.join(', ')}`);
const generatedPassword = await ensureDefaultClient(orm, config);
if (generatedPassword) {
  // Printed once, on the console only (never through the logger), as the first start's only chance to read it.
  log(`Created the default client "admin" and its administrator "admin" with password: ${generatedPassword}`);
}
// Jobs whose server stopped (this one before its restart, or another instance) can never finish.
await failAbandonedJobs(orm.em.fork());
await sweepUploadDirs();

const app = await buildApp({ config, orm });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await orm.close(true);
  await database.embedded?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.PORT, host: config.HOST });
