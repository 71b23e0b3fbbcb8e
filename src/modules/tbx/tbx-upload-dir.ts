/**
 * Where uploaded files wait for their import: `<tmp>/polyterm-uploads/<host>-<pid>-<instance>-<random>`.
 * The import removes its directory when its job ends, but a process that is killed cannot: the next start
 * sweeps the directories whose process is gone. The name says who owns a directory, so the sweep needs no
 * shared state: `host` (a hash of the host name) keeps machines or containers that share a temporary
 * folder off each other's files, `pid` tells whether the owner still runs, and `instance` (random per
 * process) tells a restarted server that got its predecessor's pid (pid 1 in a container) from it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export const UPLOADS_FOLDER = 'polyterm-uploads';
/** Uploads of versions before the shared folder: `<tmp>/polyterm-tbx-*`, with no owner in the name. */
const LEGACY_PREFIX = 'polyterm-tbx-';
/** A legacy directory has no owner to ask; after a day no import of it can still be running. */
export const LEGACY_MIN_AGE_MS = 24 * 60 * 60 * 1000;

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const INSTANCE = randomBytes(4).toString('hex');
const OWNED = /^([0-9a-f]{8})-(\d+)-([0-9a-f]{8})-/;

/** The name prefix of a directory owned by a process (this one by default). */
export const uploadDirPrefix = (pid = process.pid, instance = INSTANCE, host = HOST): string =>
  `${host}-${pid}-${instance}-`;

/**
 * The shared folder, made private to this user: in a temporary folder others can write to, a folder
 * someone else made (or a link) could let them swap an upload before it is imported.
 */
async function uploadsRoot(tmp: string): Promise<string> {
  const root = join(tmp, UPLOADS_FOLDER);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const info = await lstat(root);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o022) !== 0) {
    throw new Error(`${root} is not a directory of this user that only it can write to; remove it`);
  }
  return root;
}

/** A new directory for one upload, owned by this process; the caller removes it when done. */
export async function makeUploadDir(tmp = tmpdir()): Promise<string> {
  return mkdtemp(join(await uploadsRoot(tmp), uploadDirPrefix()));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether nothing can still be using the directory: its process on this host is gone. */
function isOrphan(name: string): boolean {
  const owner = OWNED.exec(name);
  if (!owner) return false;
  const [, host, pid, instance] = owner;
  if (host !== HOST) return false;
  if (Number(pid) === process.pid) return instance !== INSTANCE;
  return !isAlive(Number(pid));
}

/** The sweep is best effort: a folder it cannot read (absent, not ours) has nothing for it. */
async function directories(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

export interface SweepOptions {
  /** The temporary folder (default os.tmpdir()). */
  tmp?: string;
  legacyMinAgeMs?: number;
}

/** Removes a directory; one that cannot be removed (another user's) stays and never stops a start. */
async function remove(path: string, removed: string[]): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  } catch {
    // left for whoever may remove it
  }
}

/**
 * Removes the upload directories left by processes that ended without cleaning up (killed during an
 * import), and this user's legacy `polyterm-tbx-*` directories older than a day. Run at server start;
 * safe while other instances on the same host run. Answers the removed paths.
 */
export async function sweepUploadDirs(options: SweepOptions = {}): Promise<string[]> {
  const tmp = options.tmp ?? tmpdir();
  const legacyMinAge = options.legacyMinAgeMs ?? LEGACY_MIN_AGE_MS;
  const removed: string[] = [];
  const root = join(tmp, UPLOADS_FOLDER);
  for (const name of await directories(root)) {
    if (isOrphan(name)) await remove(join(root, name), removed);
  }
  const now = Date.now();
  const uid = process.getuid?.();
  for (const name of await directories(tmp)) {
    if (!name.startsWith(LEGACY_PREFIX)) continue;
    const path = join(tmp, name);
    const info = await stat(path).catch(() => null);
    if (!info || now - info.mtimeMs < legacyMinAge || (uid !== undefined && info.uid !== uid)) continue;
    await remove(path, removed);
  }
  return removed;
}
