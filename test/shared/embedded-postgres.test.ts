/**
 * The embedded PostgreSQL of the default set-up (no DATABASE_URL) starts with memory settings sized
 * from the machine, not PostgreSQL's 128 MB default: a real server started by src/db/embedded-postgres.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedDatabase,
  embeddedMemoryFlags,
  startEmbeddedPostgres,
} from '../../src/db/embedded-postgres.js';

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
});
