/**
 * The embedded PostgreSQL of the default set-up (no DATABASE_URL) starts with memory settings sized
 * from the machine, not PostgreSQL's 128 MB default, and starts again after its server process was
 * killed with SIGKILL: real servers started by src/db/embedded-postgres.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedDatabase,
  embeddedMemoryFlags,
  startEmbeddedPostgres,
  stopOrphanedPostgres,
} from '../../src/db/embedded-postgres.js';

/** A process that starts the embedded PostgreSQL on `dataDir` and keeps it, as a server does. */
async function startOwner(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/shared/fixtures/start-embedded-postgres.ts', dataDir, String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += String(chunk);
  });
  const deadline = Date.now() + 90_000;
  while (!output.includes('ready')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`owner did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('select 1 as one')).rows[0]!.one;
  } finally {
    await client.end();
  }
}

const GB = 1024 ** 3;

describe('embedded PostgreSQL memory settings', () => {
  it('gives shared buffers a quarter of the memory, between 128 MB and 2 GB', () => {
    expect(embeddedMemoryFlags(4 * GB)).toEqual([
      '-c',
      'shared_buffers=1024MB',
      '-c',
      'effective_cache_size=2048MB',
    ]);
    expect(embeddedMemoryFlags(24 * GB)).toContain('shared_buffers=2048MB');
    expect(embeddedMemoryFlags(24 * GB)).toContain('effective_cache_size=12288MB');
    expect(embeddedMemoryFlags(256 * 1024 ** 2)).toEqual([
      '-c',
      'shared_buffers=128MB',
      '-c',
      'effective_cache_size=128MB',
    ]);
  });

  describe('a started server', () => {
    let dir: string;
    let database: EmbeddedDatabase | undefined;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'polyterm-embedded-'));
      // Run as root, PostgreSQL runs as user postgres, which must be able to enter the folder.
      await chmod(dir, 0o755);
      const port = 50000 + Math.floor(Math.random() * 5000);
      database = await startEmbeddedPostgres(path.join(dir, 'data'), port, () => {});
    });
    afterAll(async () => {
      await database?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('runs with those settings', async () => {
      const client = new pg.Client({ connectionString: database!.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string; setting: string; unit: string }>(
          `select name, setting, unit from pg_settings where name in ('shared_buffers', 'effective_cache_size') order by name`,
        );
        // Both are counted in 8 kB pages.
        const mb = (row: { setting: string; unit: string } | undefined) =>
          row?.unit === '8kB' ? (Number(row.setting) * 8) / 1024 : Number.NaN;
        const expected = embeddedMemoryFlags(totalmem());
        expect(`shared_buffers=${mb(rows[1])}MB`).toBe(expected[1]);
        expect(`effective_cache_size=${mb(rows[0])}MB`).toBe(expected[3]);
      } finally {
        await client.end();
      }
    });
  });

  describe('after its server process was killed with SIGKILL', () => {
    let dir: string;
    let owner: ChildProcess | undefined;
    let database: EmbeddedDatabase | undefined;
    const port = 45000 + Math.floor(Math.random() * 4000);
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'polyterm-embedded-orphan-'));
      await chmod(dir, 0o755);
      owner = await startOwner(path.join(dir, 'data'), port);
    });
    afterAll(async () => {
      owner?.kill('SIGKILL');
      await database?.stop();
      await stopOrphanedPostgres(path.join(dir, 'data'), () => {}).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    });

    it('refuses to take the data folder from a server process that still runs', async () => {
      await expect(stopOrphanedPostgres(path.join(dir, 'data'), () => {})).rejects.toThrow(
        /belongs to a running process/,
      );
    });

    it('stops the orphaned PostgreSQL, says so, and starts again with the data kept', async () => {
      const url = `postgres://polyterm:polyterm@127.0.0.1:${port}/polyterm`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('create table kept (value text)');
        await client.query('insert into kept values ($1)', ['before the crash']);
      } finally {
        await client.end();
      }
      owner!.kill('SIGKILL');
      await once(owner!, 'exit');
      // The orphan still answers: nothing stopped it.
      expect(await selectOne(url)).toBe(1);

      const lines: string[] = [];
      database = await startEmbeddedPostgres(path.join(dir, 'data'), port, (line) => lines.push(line));
      expect(lines.join('\n')).toMatch(/left running by an earlier process .* stopping it/);
      const again = new pg.Client({ connectionString: database.url });
      await again.connect();
      try {
        expect((await again.query('select value from kept')).rows).toEqual([{ value: 'before the crash' }]);
      } finally {
        await again.end();
      }
    });
  });
});
