/**
 * `npm run tbx -- import` shows its progress from the start in both modes, also when the import ends
 * within the server's async threshold (it answers the summary, no job id) and standard error is no
 * terminal: the bar then writes a progress line, ending at 100%.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { TestTenant } from '../factories/tenant.js';
import { newTenant, uniqueSuffix } from '../helpers/structure.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const FILE = fileURLToPath(new URL('../tbx/fixtures/v3-dca.tbx', import.meta.url));
/** The environment of a shell: vitest adds Vite's BASE_URL ('/'), which the server's config refuses. */
const { BASE_URL: _vite, ...shellEnv } = process.env;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['scripts/tbx.ts', ...args],
      { cwd: ROOT, env: { ...shellEnv, MULTI_TENANT: 'true' }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

let server: Server;
let tenant: TestTenant;
beforeAll(async () => {
  // The default threshold (15 s): a small import answers its summary directly.
  server = await startServer();
  tenant = (await newTenant(server.t, server.sysadmin)).tenant;
}, 120_000);
afterAll(() => server?.close());

const progressLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('importing ['));

describe('the import progress of npm run tbx', () => {
  it('through a server: from the start, although the server answers the summary at once', async () => {
    const run = await cli([
      'import',
      FILE,
      '--name',
      `progress ${uniqueSuffix()}`,
      '--server',
      server.base,
      '--user',
      'admin',
      '--password',
      tenant.adminPassword,
      '--client',
      tenant.loginName,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^dictionary \d+: \d+ concepts, \d+ terms$/m);
    const lines = progressLines(run.stderr);
    expect(lines.length, run.stderr).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/100% \| (\d+)\/\1 entries/);
  });

  it('directly in the database: the same bar', async () => {
    const run = await cli([
      'import',
      FILE,
      '--name',
      `progress ${uniqueSuffix()}`,
      '--database',
      inject('databaseUrl'),
      '--user',
      'admin',
      '--client',
      tenant.loginName,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = progressLines(run.stderr);
    expect(lines.length, run.stderr).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/100% \| (\d+)\/\1 entries/);
  });
});
