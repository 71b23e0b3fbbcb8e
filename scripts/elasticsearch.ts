/**
 * A real Elasticsearch 8.x for tests, CI and benchmarks: fetched from Maven Central with `mvn` (the
 * `integ-test-zip` distribution, the only one the registries here serve), cached outside the clone,
 * started on 127.0.0.1 with throw-away data and log folders, stopped and cleaned up.
 *
 *   npx tsx scripts/elasticsearch.ts fetch              download + unpack, print the home folder
 *   npx tsx scripts/elasticsearch.ts run [--port N] [--verbose]
 *                                                       start, print the URL, stop on Ctrl-C
 *
 * No orphan servers: the server is started through `setpriv --pdeathsig KILL` in its own process
 * group. When the Node process dies in any way (even SIGKILL) the kernel kills the launcher JVM, whose
 * server JVM exits when its stdin from the launcher closes; on a normal exit an 'exit' handler kills the
 * whole group. See docs/elasticsearch.md.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ELASTICSEARCH_VERSION = '8.19.21';

const ARTIFACT = `org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ELASTICSEARCH_VERSION}:zip`;
/** Elasticsearch refuses to run as root; as root we run it as this system user. */
const ES_USER = 'polyterm-es';
const RUN_DIR_PREFIX = 'polyterm-es-';
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 20_000;
const LOG_TAIL_LINES = 60;

export interface StartElasticsearchOptions {
  /** HTTP port; a free one is picked when absent. */
  port?: number;
  /** Receives every line the server prints (stdout and stderr). */
  log?: (line: string) => void;
}

export interface RunningElasticsearch {
  url: string;
  /** SIGTERM, SIGKILL after a grace period; waits for the exit and removes the data and log folders. */
  stop(): Promise<void>;
  /** The launcher JVM, the leader of the server's process group. */
  pid: number;
  dataDir: string;
}

const isRoot = process.getuid?.() === 0;

/**
 * `$POLYTERM_CACHE/elasticsearch/<version>`, else `~/.cache/polyterm/elasticsearch/<version>`. As root
 * the default is /var/cache/polyterm instead: root's home (mode 700) is closed to the server's user.
 */
export function elasticsearchCacheDir(): string {
  const root =
    process.env.POLYTERM_CACHE ??
    (isRoot
      ? '/var/cache/polyterm'
      : path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'polyterm'));
  return path.join(path.resolve(root), 'elasticsearch', ELASTICSEARCH_VERSION);
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not be started: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${output}`);
  }
  return result.stdout;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Downloads and unpacks the distribution once; returns its home folder. The zip is unpacked into a
 * private folder and renamed into place, so an interrupted unpack is never taken for a finished one and
 * concurrent fetches (parallel test files) both end with the same complete folder.
 */
export async function fetchElasticsearch(log: (line: string) => void = () => {}): Promise<string> {
  const cacheDir = elasticsearchCacheDir();
  const home = path.join(cacheDir, `elasticsearch-${ELASTICSEARCH_VERSION}`);
  await mkdir(cacheDir, { recursive: true });
  // Leftovers of unpacks whose process died.
  for (const entry of readdirSync(cacheDir)) {
    const pid = /^\.unpack-(\d+)-/.exec(entry)?.[1];
    if (pid && !pidAlive(Number(pid))) await rm(path.join(cacheDir, entry), { recursive: true, force: true });
  }
  if (existsSync(path.join(home, 'bin', 'elasticsearch'))) return home;

  const work = await mkdtemp(path.join(cacheDir, `.unpack-${process.pid}-`));
  try {
    log(`fetching ${ARTIFACT} with mvn`);
    run('mvn', [
      '-B',
      '-q',
      'dependency:copy',
      `-Dartifact=${ARTIFACT}`,
      `-DoutputDirectory=${work}`,
      '-Dmdep.overWriteReleases=true',
    ]);
    const zip = path.join(work, `elasticsearch-${ELASTICSEARCH_VERSION}.zip`);
    log(`unpacking into ${cacheDir}`);
    run('unzip', ['-q', zip, '-d', work]);
    await rm(zip);
    const unpacked = path.join(work, `elasticsearch-${ELASTICSEARCH_VERSION}`);
    if (!existsSync(path.join(unpacked, 'bin', 'elasticsearch'))) {
      throw new Error(`${zip} did not contain elasticsearch-${ELASTICSEARCH_VERSION}/bin/elasticsearch`);
    }
    // The server's user (as root) only reads and executes the distribution.
    run('chmod', ['-R', 'a+rX', unpacked]);
    try {
      await rename(unpacked, home);
    } catch (error) {
      // Another process finished first: its copy is as good as ours.
      if (!existsSync(path.join(home, 'bin', 'elasticsearch'))) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await chmod(cacheDir, 0o755);
  return home;
}

/** The uid and gid of the server's user, created as a system user when missing. */
function ensureEsUser(): { uid: number; gid: number } {
  const lookup = () => spawnSync('id', ['-u', ES_USER], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    const created = spawnSync(
      'useradd',
      [
        '--system',
        '--user-group',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        ES_USER,
      ],
      { encoding: 'utf8' },
    );
    // A concurrent start may have created it in between.
    if (created.status !== 0 && lookup().status !== 0) {
      throw new Error(`useradd ${ES_USER} failed: ${created.stderr || created.error?.message}`);
    }
  }
  return { uid: Number(run('id', ['-u', ES_USER]).trim()), gid: Number(run('id', ['-g', ES_USER]).trim()) };
}

/** ES_JAVA_HOME, JAVA_HOME, or the JDK of the `java` on PATH (the distribution has no bundled JDK). */
function javaHome(): string {
  for (const candidate of [process.env.ES_JAVA_HOME, process.env.JAVA_HOME]) {
    if (candidate && existsSync(path.join(candidate, 'bin', 'java'))) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  if (!which) throw new Error('No Java found: install a JDK 17+ or set ES_JAVA_HOME');
  return path.dirname(path.dirname(realpathSync(which)));
}

/** Port 0 picks a free port; a given port is checked, so that we never wait on someone else's server. */
async function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', (error) =>
      reject(new Error(`Port ${port} on 127.0.0.1 is not free: ${error.message}`)),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const chosen = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(chosen));
    });
  });
}

/** Settings the distribution accepts: an x-pack setting is refused unless its module is present. */
function settings(home: string, runDir: string, httpPort: number, transportPort: number): string[] {
  const values: Record<string, string> = {
    'cluster.name': 'polyterm-test',
    'node.name': 'polyterm-es',
    'network.host': '127.0.0.1',
    'http.port': String(httpPort),
    'transport.port': String(transportPort),
    'discovery.type': 'single-node',
    'path.data': path.join(runDir, 'data'),
    'path.logs': path.join(runDir, 'logs'),
    // A nearly full disk must not turn indices read-only in tests.
    'cluster.routing.allocation.disk.threshold_enabled': 'false',
  };
  const modules = new Set(readdirSync(path.join(home, 'modules')));
  if (modules.has('x-pack-security')) values['xpack.security.enabled'] = 'false';
  if (modules.has('x-pack-ml')) values['xpack.ml.enabled'] = 'false';
  if (modules.has('ingest-geoip')) values['ingest.geoip.downloader.enabled'] = 'false';
  return Object.entries(values).map(([key, value]) => `-E${key}=${value}`);
}

// Every server this process started, killed on exit so that a test run that forgets stop() leaves none.
const running = new Map<number, string>();
process.on('exit', () => {
  for (const [pid, runDir] of running) {
    try {
      process.kill(-pid, 'SIGKILL');
      // The dying server may still be writing: what is left is removed by the next start.
      rmSync(runDir, { recursive: true, force: true });
    } catch {}
  }
});

/** Removes run folders of earlier processes that died without cleaning up (SIGKILL, crash). */
function removeStaleRunDirs(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(RUN_DIR_PREFIX)) continue;
    const dir = path.join(tmpdir(), entry);
    try {
      const owner = Number(readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
      if (owner && !pidAlive(owner)) rmSync(dir, { recursive: true, force: true });
    } catch {}
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** Ends the whole process group (launcher and server JVM): SIGTERM, then SIGKILL after the grace. */
async function killGroup(pid: number): Promise<void> {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {}
  if (await waitUntil(() => !groupAlive(pid), STOP_GRACE_MS)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
  if (!(await waitUntil(() => !groupAlive(pid), 10_000))) {
    throw new Error(`Elasticsearch process group ${pid} survived SIGKILL`);
  }
}

interface Health {
  status?: string;
  timed_out?: boolean;
}

/** Waits for green: a single node without replicated indices reaches it within seconds. */
async function waitForGreen(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Elasticsearch exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    }
    try {
      const response = await fetch(`${url}/_cluster/health?wait_for_status=green&timeout=5s`, {
        signal: AbortSignal.timeout(10_000),
      });
      const health = (await response.json()) as Health;
      if (health.status === 'green' && !health.timed_out) return;
      last = `status ${health.status ?? response.status}`;
    } catch (error) {
      last = (error as Error).cause ? String((error as Error).cause) : (error as Error).message;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Elasticsearch was not green after ${timeoutMs / 1000} s (${last})`);
}

/** Fetches when needed, starts a single node on 127.0.0.1 and resolves once the cluster is green. */
export async function startElasticsearch(
  options: StartElasticsearchOptions = {},
): Promise<RunningElasticsearch> {
  const log = options.log ?? (() => {});
  const home = await fetchElasticsearch(log);
  removeStaleRunDirs();

  const httpPort = await freePort(options.port);
  const transportPort = await freePort();
  const runDir = await mkdtemp(path.join(tmpdir(), RUN_DIR_PREFIX));
  writeFileSync(path.join(runDir, 'owner.pid'), String(process.pid));
  const dataDir = path.join(runDir, 'data');
  const logsDir = path.join(runDir, 'logs');
  for (const dir of [dataDir, logsDir, path.join(runDir, 'tmp')]) await mkdir(dir);
  // A private config folder: the server writes its keystore there, and the cache stays read-only.
  await cp(path.join(home, 'config'), path.join(runDir, 'config'), { recursive: true });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ES_JAVA_HOME: javaHome(),
    ES_PATH_CONF: path.join(runDir, 'config'),
    ES_TMPDIR: path.join(runDir, 'tmp'),
    // 512 MiB is plenty for test indices and leaves room for PostgreSQL and the app on a 2-core box.
    ES_JAVA_OPTS: process.env.POLYTERM_ES_JAVA_OPTS ?? '-Xms512m -Xmx512m',
    HOME: runDir,
  };
  // The launcher warns about these and ignores them.
  delete env.JAVA_HOME;
  delete env.JAVA_TOOL_OPTIONS;
  delete env._JAVA_OPTIONS;

  const identity: string[] = [];
  if (isRoot) {
    const { uid, gid } = ensureEsUser();
    run('chown', ['-R', `${uid}:${gid}`, runDir]);
    const probe = spawnSync('setpriv', [
      `--reuid=${uid}`,
      `--regid=${gid}`,
      '--clear-groups',
      'test',
      '-x',
      path.join(home, 'bin', 'elasticsearch'),
    ]);
    if (probe.status !== 0) {
      throw new Error(
        `User ${ES_USER} cannot run ${home}/bin/elasticsearch: put the cache where it can (POLYTERM_CACHE)`,
      );
    }
    identity.push(`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups');
  }

  const child = spawn(
    'setpriv',
    [
      ...identity,
      '--pdeathsig',
      'KILL',
      '--',
      path.join(home, 'bin', 'elasticsearch'),
      ...settings(home, runDir, httpPort, transportPort),
    ],
    // Own process group, so stop() and the exit handler reach the server JVM too; cwd for gc.log.
    { cwd: logsDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) {
    await rm(runDir, { recursive: true, force: true });
    throw new Error('setpriv could not be started (util-linux missing?)');
  }
  running.set(pid, runDir);

  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > LOG_TAIL_LINES) tail.shift();
      log(line);
    });
    // A server the caller forgot to stop must not keep the process alive; the exit handler kills it.
    if (stream instanceof Socket) stream.unref();
  }
  child.unref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await killGroup(pid);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
      running.delete(pid);
      await rm(runDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const url = `http://127.0.0.1:${httpPort}`;
  try {
    await waitForGreen(url, child, START_TIMEOUT_MS);
  } catch (error) {
    const logFile = path.join(logsDir, 'polyterm-test.log');
    const lines =
      tail.length > 0 || !existsSync(logFile)
        ? tail
        : readFileSync(logFile, 'utf8').split('\n').slice(-LOG_TAIL_LINES);
    await stop().catch(() => {});
    throw new Error(
      `${(error as Error).message}\n--- last lines of the Elasticsearch log ---\n${lines.join('\n')}`,
    );
  }
  return { url, stop, pid, dataDir };
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const verbose = rest.includes('--verbose');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  if (command === 'fetch') {
    process.stdout.write(`${await fetchElasticsearch(say)}\n`);
    return;
  }
  if (command === 'run') {
    const portIndex = rest.indexOf('--port');
    const port = portIndex >= 0 ? Number(rest[portIndex + 1]) : undefined;
    if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
      throw new Error('--port needs a port number');
    }
    const started = Date.now();
    const es = await startElasticsearch({ port, log: verbose ? say : () => {} });
    say(
      `Elasticsearch ${ELASTICSEARCH_VERSION} green after ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${es.pid}, data ${es.dataDir}); Ctrl-C stops it`,
    );
    process.stdout.write(`${es.url}\n`);
    // The child is unref'd: this timer keeps the CLI in the foreground and notices a server that died.
    let watch: NodeJS.Timeout | undefined;
    const died = await new Promise<boolean>((resolve) => {
      // `on`, not `once`: Ctrl-C reaches this process both from the terminal and relayed by tsx, and a
      // signal without a listener would end the process before stop() has cleaned up.
      process.on('SIGINT', () => resolve(false));
      process.on('SIGTERM', () => resolve(false));
      watch = setInterval(() => groupAlive(es.pid) || resolve(true), 1000);
    });
    clearInterval(watch);
    say(died ? 'Elasticsearch exited by itself' : 'stopping Elasticsearch');
    await es.stop();
    if (died) process.exitCode = 1;
    return;
  }
  throw new Error('usage: tsx scripts/elasticsearch.ts fetch | run [--port N] [--verbose]');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
