/**
 * Load runs of SQL statements straight on PostgreSQL (no Node server, no HTTP): the statements our
 * PostgreSQL engine sends, from `connections` clients over rotating statements, warmed up first, reduced
 * to the figures http-load.ts prints. The floor of the PG engine, as "Elasticsearch direct" is the ES
 * engine's.
 */
import pg from 'pg';
import type { Figures } from './http-load.js';
import { WARM_UP_SECONDS } from './http-load.js';
import { throwIfInterrupted } from './interrupt.js';

export interface SqlLoadRun {
  connectionString: string;
  /** Complete statements (parameters inlined, as MikroORM sends them), run in turn. */
  statements: string[];
  connections: number;
}

/** A warm-up, then `duration` seconds of measured load. */
export async function measureSqlLoad(run: SqlLoadRun, duration: number): Promise<Figures> {
  throwIfInterrupted();
  const pool = new pg.Pool({ connectionString: run.connectionString, max: run.connections });
  try {
    await hammer(pool, run, WARM_UP_SECONDS);
    return await hammer(pool, run, duration);
  } finally {
    await pool.end();
  }
}

async function hammer(pool: pg.Pool, { statements, connections }: SqlLoadRun, duration: number) {
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const until = performance.now() + duration * 1000;
  const client = async () => {
    const connection = await pool.connect();
    try {
      while (performance.now() < until) {
        const started = performance.now();
        try {
          await connection.query(statements[next++ % statements.length]!);
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    } finally {
      connection.release();
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / duration, errors } satisfies Figures;
}
