/**
 * A fresh database for one benchmark run on the PostgreSQL server of BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped again by `drop()` unless BENCH_KEEP_DATABASE=1
 * (to look at the loaded data afterwards: EXPLAIN a slow query, say).
 */
import pg from 'pg';

const serverUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase() {
  const name = `polyterm_bench_${Date.now()}`;
  await onServer(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  /** Drops the database; true when BENCH_KEEP_DATABASE=1 kept it instead. */
  const drop = async () => {
    if (process.env.BENCH_KEEP_DATABASE === '1') {
      console.log(`database kept: ${url}`);
      return true;
    }
    await onServer(`drop database if exists "${name}" with (force)`);
    return false;
  };
  return { name, url, drop };
}
