import { type ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOrm } from '../../src/db/orm.js';
import { uniqueSuffix } from '../factories/tenant.js';

/**
 * The server as `npm start` runs it (src/server.ts), on an empty database of its own: every line it
 * writes goes through the logger as JSON (standard output is no terminal here), and the generated
 * administrator password is shown once, clearly, on the first start only.
 */
const shared = new URL(inject('databaseUrl'));
const name = `${shared.pathname.slice(1)}_startup_${uniqueSuffix()}`;
const url = new URL(shared);
url.pathname = `/${name}`;

async function onShared(sql: string) {
  const client = new pg.Client({ connectionString: shared.toString() });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

interface Run {
  lines: string[];
  stderr: string;
}

/** Starts the server, waits until it listens, stops it; everything it wrote. */
async function runServer(): Promise<Run> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    // Only what the server needs: no ADMIN_PASSWORD, so the first start generates one.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: url.toString(),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within 150 s:\n${stdout}\n${stderr}`)),
      150_000,
    );
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      if (/Server listening at/.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { lines: stdout.split('\n').filter(Boolean), stderr };
}

let first: Run;
let second: Run;
beforeAll(async () => {
  await onShared(`create database "${name}"`);
  first = await runServer();
  second = await runServer();
}, 400_000);
afterAll(() => onShared(`drop database if exists "${name}" with (force)`));

describe('the start-up log', () => {
  it('is JSON lines only, migrations included', () => {
    for (const run of [first, second]) {
      for (const line of run.lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(run.stderr).toBe('');
    }
    const migrations = first.lines
      .map((line) => JSON.parse(line) as { msg: string; migrations?: string[] })
      .find((entry) => entry.migrations);
    expect(migrations?.msg).toMatch(/^applied \d+ migrations$/);
    expect(migrations?.migrations?.length).toBeGreaterThan(10);
  });

  it('shows the generated administrator password once, on the first start only', () => {
    const announce = (run: Run) =>
      run.lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => /Generated password/.test(entry.msg));
    const [shown, ...more] = announce(first);
    expect(more).toEqual([]);
    expect(shown?.level).toBe(40);
    expect(shown?.msg).toMatch(/administrator "admin"\. Generated password, shown only now: \S{12,}$/);
    expect(announce(second)).toEqual([]);
  });

  it('routes the database driver\'s pool warnings (knex\'s "Connection Error") to the logger', async () => {
    const lines: string[] = [];
    const log = {
      warn: (line: string) => lines.push(line),
      error: (line: string) => lines.push(line),
      debug: () => {},
    };
    const orm = await openOrm(shared.toString(), { pool: { min: 1, max: 1 } }, undefined, log);
    try {
      const [row] = await orm.em.getConnection().execute<{ pid: number }[]>('select pg_backend_pid() as pid');
      // The server ends the pooled connection under the pool's feet, as a restart or a proxy would; the
      // pool notices on the next acquire, warns, and opens another connection.
      await onShared(`select pg_terminate_backend(${row!.pid})`);
      // pg_terminate_backend answers before the backend has gone: a statement sent meanwhile meets the
      // dying connection ("terminating connection due to administrator command") instead of the pool's
      // check. Wait for the backend to end; a statement that still meets it is sent again.
      await expect
        .poll(() => onShared(`select count(*)::int as n from pg_stat_activity where pid = ${row!.pid}`), {
          timeout: 10_000,
        })
        .toEqual([{ n: 0 }]);
      for (let attempt = 0; ; attempt++) {
        try {
          await orm.em.getConnection().execute('select 1');
          break;
        } catch (error) {
          if (attempt >= 3 || !/terminating connection/.test(String(error))) throw error;
        }
      }
      expect(lines.find((line) => /Connection Error/.test(line))).toMatch(
        /^database driver: Connection Error: /,
      );
    } finally {
      await orm.close(true);
    }
  });
});
