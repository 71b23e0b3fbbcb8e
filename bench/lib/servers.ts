/**
 * The processes a benchmark runs: our server (or another Node script) as a child process on a free port,
 * its memory read from /proc as its own, and Elasticsearch (BENCH_ELASTICSEARCH_URL or one started here).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startElasticsearch } from '../../scripts/elasticsearch.js';
import { sleep } from './interrupt.js';
import { mb } from './report.js';

export interface BenchServer {
  name: string;
  process: ChildProcess;
  url: string;
  peakRss: number;
  stopSampling: () => void;
}

export interface ServerOptions {
  /** The script to run, from the repository root; src/server.ts by default. */
  script?: string;
  /** Node flags before the script. */
  nodeArgs?: string[];
  /** Echo the child's stdout (its log) besides its stderr; true by default. */
  showStdout?: boolean;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Node flags the server runs with in production (package.json's start, docker/Dockerfile): a young
 * generation of 16 MB semi-spaces. Node's default on a machine with this much memory lets it grow to
 * 64 MB ones, about 100 MB of RSS that a server holding little between requests gains nothing from.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];

/** Every server spawned, ready or not, so that stopServers() stops them all. */
const spawned = new Set<ChildProcess>();
const started = new Set<BenchServer>();

/**
 * Starts the server itself (node with the tsx loader, no wrapper process, so /proc/<pid> is the server
 * alone) on 127.0.0.1 and a free port, and resolves once GET /health answers.
 */
export async function startServer(
  name: string,
  env: Record<string, string>,
  { script = 'src/server.ts', nodeArgs = [], showStdout = true }: ServerOptions = {},
): Promise<BenchServer> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' };
  if (!env.ELASTICSEARCH_URL) delete childEnv.ELASTICSEARCH_URL;
  // BENCH_CPU_PROF=<folder>: each server writes V8 CPU profiles into <folder>/<name> when it stops
  // (one per thread: the largest is the main thread's; the loader thread's is small).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF, name)}`]
    : [];
  // BENCH_BUILT=1: the server as production runs it, built JavaScript (npm run build) without the tsx
  // loader, whose transpiled sources and source maps add some 50 MB to the server's memory.
  const ourServer = script === 'src/server.ts';
  const built = ourServer && process.env.BENCH_BUILT === '1';
  const args = built ? ['dist/src/server.js'] : ['--import', 'tsx', script];
  const flags = ourServer ? [...SERVER_NODE_FLAGS, ...nodeArgs] : nodeArgs;
  const child = spawn(process.execPath, [...profile, ...flags, ...args], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', showStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  spawned.add(child);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) =>
      process.stderr.write(`  [${name}] ${line.length > 400 ? `${line.slice(0, 400)}...` : line}\n`),
    );
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${name} server did not start`);
    await sleep(200);
  }
  const server: BenchServer = { name, process: child, url, peakRss: 0, stopSampling: () => {} };
  const timer = setInterval(() => {
    server.peakRss = Math.max(server.peakRss, memoryOf(child.pid!).rss);
  }, 200);
  server.stopSampling = () => clearInterval(timer);
  started.add(server);
  return server;
}

/** Stops every server startServer spawned: SIGTERM, SIGKILL after 15 s. */
export async function stopServers() {
  for (const server of started) server.stopSampling();
  for (const child of spawned) await stopProcess(child).catch(() => {});
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Current and peak RSS of a server (its peak as sampled, and as the kernel keeps it). */
export function rssLine(server: BenchServer) {
  const { rss, hwm } = memoryOf(server.process.pid!);
  return `${server.name} server RSS ${mb(rss)} now, peak ${mb(Math.max(server.peakRss, rss))} (VmHWM ${mb(hwm)})`;
}

export interface BenchElasticsearch {
  url: string;
  /** True for BENCH_ELASTICSEARCH_URL: a server this benchmark neither started nor stops. */
  external: boolean;
  stop(): Promise<void>;
}

/** BENCH_ELASTICSEARCH_URL, or one started with scripts/elasticsearch.ts (heap: POLYTERM_ES_JAVA_OPTS). */
export async function startBenchElasticsearch(): Promise<BenchElasticsearch> {
  const url = process.env.BENCH_ELASTICSEARCH_URL?.replace(/\/$/, '');
  if (url) return { url, external: true, stop: async () => {} };
  const running = await startElasticsearch();
  return { url: running.url, external: false, stop: () => running.stop() };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killed);
}
