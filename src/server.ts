import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { resolveDatabase } from './db/database.js';
import { migrate, openOrm } from './db/orm.js';
import { databaseTimeouts } from './db/timeouts.js';
import { failAbandonedJobs } from './modules/jobs/job-heartbeat.js';
import { ensureDefaultClient } from './modules/system/bootstrap.js';
import { sweepUploadDirs } from './modules/tbx/tbx-upload-dir.js';
import { consoleLogStream, startupLogger } from './shared/logger.js';

const config = loadConfig();
// One destination for every line: JSON for collectors, readable lines on a terminal.
const logStream = consoleLogStream();
const log = startupLogger(config.LOG_LEVEL, logStream);

const database = await resolveDatabase(config, (message) => log.info(message));
const orm = await openOrm(database.url, {}, databaseTimeouts(config), log);
const applied = await migrate(orm);
if (applied.length) log.info({ migrations: applied }, `applied ${applied.length} migrations`);
const generatedPassword = await ensureDefaultClient(orm, config);
if (generatedPassword) {
  // The first start's only chance to read it: logged once, whatever LOG_LEVEL, never again.
  log
    .child({}, { level: 'info' })
    .warn(
      { username: 'admin', client: 'admin' },
      `Created the default client "admin" and its administrator "admin". Generated password, shown only now: ${generatedPassword}`,
    );
}
// Jobs whose server stopped (this one before its restart, or another instance) can never finish.
await failAbandonedJobs(orm.em.fork());
await sweepUploadDirs();

const app = await buildApp({ config, orm, ...(logStream ? { logStream } : {}) });

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
