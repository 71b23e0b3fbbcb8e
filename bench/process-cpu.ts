/**
 * CPU time by process kind, read from /proc, so a benchmark can say where a load's time went: the
 * server (one pid), PostgreSQL (every `postgres` process) and Elasticsearch (every `java` process).
 * Take a sample before and after and subtract. A process that ends between the two samples (a short
 * PostgreSQL worker) is missed, so the PostgreSQL figure is a lower bound.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat; 100 on Linux (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

export interface CpuSample {
  server: number;
  postgresql: number;
  elasticsearch: number;
}

/** utime + stime of a process in seconds, and its command name; null once it is gone. */
function processCpu(pid: string): { command: string; seconds: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after the state field.
    return { command, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** CPU seconds of the given processes (those still running). */
export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (processCpu(String(pid))?.seconds ?? 0), 0);
}

export function sampleCpu(serverPid: number): CpuSample {
  const sample: CpuSample = { server: 0, postgresql: 0, elasticsearch: 0 };
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cpu = processCpu(pid);
    if (!cpu) continue;
    if (Number(pid) === serverPid) sample.server += cpu.seconds;
    else if (cpu.command === 'postgres') sample.postgresql += cpu.seconds;
    else if (cpu.command === 'java') sample.elasticsearch += cpu.seconds;
  }
  return sample;
}

/** "server 41.2 s, PostgreSQL 90.3 s, Elasticsearch 80.1 s; 211.6 s of 2 cores x 120.0 s (88%)" */
export function describeCpu(before: CpuSample, after: CpuSample, wallSeconds: number, cores: number): string {
  const server = after.server - before.server;
  const postgresql = after.postgresql - before.postgresql;
  const elasticsearch = after.elasticsearch - before.elasticsearch;
  const total = server + postgresql + elasticsearch;
  const available = cores * wallSeconds;
  return `server ${server.toFixed(1)} s, PostgreSQL ${postgresql.toFixed(1)} s, Elasticsearch ${elasticsearch.toFixed(1)} s; ${total.toFixed(1)} s of ${cores} cores x ${wallSeconds.toFixed(1)} s (${Math.round((100 * total) / available)}%)`;
}
