/**
 * `npm run skos` (scripts/skos.ts) as a child process, through a server on a socket and directly in the
 * database: an import prints the TBX tool's summary, an export writes --out with the same concepts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { TestTenant } from '../factories/tenant.js';
import { newTenant, uniqueSuffix } from '../helpers/structure.js';
import { conceptsOf, turtleQuads } from './skos-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const { BASE_URL: _vite, ...shellEnv } = process.env;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['scripts/skos.ts', ...args],
      { cwd: ROOT, env: { ...shellEnv, MULTI_TENANT: 'true' }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const VOCABULARY = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://example.org/c/a> a skos:Concept ; skos:prefLabel "alpha"@en , "alfa"@is ; skos:altLabel "first"@en .
<http://example.org/c/b> a skos:Concept ; skos:prefLabel "beta"@en ; skos:broader <http://example.org/c/a> .
`;
const SUMMARY = /^dictionary (\d+): (\d+) concepts, (\d+) terms$/m;

let server: Server;
let tenant: TestTenant;
let token: string;
let work: string;

beforeAll(async () => {
  server = await startServer({ ASYNC_THRESHOLD_MS: '0' });
  const created = await newTenant(server.t, server.sysadmin);
  tenant = created.tenant;
  token = created.admin.token!;
  work = await mkdtemp(join(tmpdir(), 'polyterm-skos-cli-'));
  await writeFile(join(work, 'v.ttl'), VOCABULARY);
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

it('imports and exports through a server and directly in the database', { timeout: 300_000 }, async () => {
  const viaServer = await cli([
    'import',
    join(work, 'v.ttl'),
    '--name',
    `cli ${uniqueSuffix()}`,
    '--server',
    server.base,
    '--token',
    token,
  ]);
  expect(viaServer.code, viaServer.stderr).toBe(0);
  const [, id, concepts, terms] = SUMMARY.exec(viaServer.stdout) ?? [];
  expect([concepts, terms]).toEqual(['2', '4']);

  const out = join(work, 'out.rdf');
  const exported = await cli([
    'export',
    id!,
    '--out',
    out,
    '--format',
    'rdfxml',
    '--server',
    server.base,
    '--token',
    token,
  ]);
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).toMatch(/^wrote .*out\.rdf: 2 concepts, 4 terms \(rdfxml\)$/m);
  expect(await readFile(out, 'utf8')).toContain('<skos:prefLabel xml:lang="is">alfa</skos:prefLabel>');

  const database = ['--database', inject('databaseUrl'), '--user', 'admin', '--client', tenant.loginName];
  const direct = await cli(['import', out, '--name', `cli direct ${uniqueSuffix()}`, ...database]);
  expect(direct.code, direct.stderr).toBe(0);
  const [, directId] = SUMMARY.exec(direct.stdout) ?? [];
  const ttl = join(work, 'again.ttl');
  const again = await cli(['export', directId!, '--out', ttl, ...database]);
  expect(again.code, again.stderr).toBe(0);
  expect(Object.fromEntries(conceptsOf(turtleQuads(await readFile(ttl, 'utf8'))))).toEqual(
    Object.fromEntries(conceptsOf(turtleQuads(VOCABULARY))),
  );

  const refused = await cli([
    'import',
    join(work, 'v.ttl'),
    '--dictionary',
    '999999',
    '--server',
    server.base,
    '--token',
    token,
  ]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^Import failed: 404 NOT_FOUND: /m);
});
