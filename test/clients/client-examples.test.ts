/**
 * docs/clients.md's three examples, as a new TypeScript user meets them: compiled in a fresh project with
 * `tsc --init`'s defaults (strict, current TypeScript), against the packed tRPC types package and a
 * REST client generated from the OpenAPI document, then run against a real server. No network: the
 * project's few packages are links into this checkout's node_modules.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRoutePaths } from '../../src/app.js';
import { buildOpenApiDocument } from '../../src/trpc/openapi.js';
import { listen } from '../e2e/structure-graphql-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { loginSysadmin } from '../helpers/rest.js';
import { createDictionary, uniqueSuffix } from '../helpers/structure.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'docs/examples');
const run = promisify(execFile);
/** The environment of a shell: vitest adds Vite's BASE_URL ('/'). */
const { BASE_URL: _vite, ...shellEnv } = process.env;

let t: TestApp;
let base: string;
let project: string;
let dictionaryName: string;
let dictionaryId: number;

/** A project as `npm init` and `tsc --init` make it, with the examples and their packages. */
async function consumerProject(tarball: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'polyterm-client-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'frontend', private: true, type: 'module' }),
  );
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@polyterm/trpc-types'), { recursive: true });
  // The packed package, as npm would install it from the tarball.
  await run('tar', ['-xzf', tarball, '-C', join(modules, '@polyterm/trpc-types'), '--strip-components=1']);
  await mkdir(join(modules, '@trpc'), { recursive: true });
  for (const name of ['@trpc/client', '@trpc/server', 'openapi-fetch']) {
    await symlink(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
  }
  // The server's own package beside it, as a workspace links it: each of its exports must compile too.
  await symlink(ROOT, join(modules, 'polyterm'), 'dir');
  await writeFile(join(dir, 'server-exports.ts'), await serverExportsModule());
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '--init'], { cwd: dir });
  for (const file of await readdir(EXAMPLES)) await copyFile(join(EXAMPLES, file), join(dir, file));
  const ast = await openapiTS(buildOpenApiDocument(rawRoutePaths) as never);
  await writeFile(join(dir, 'polyterm-api.ts'), astToString(ast));
  return dir;
}

/** A module that uses every export of the server's package.json (`polyterm/router` is the router's type). */
async function serverExportsModule(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  const entries = Object.keys(manifest.exports ?? {}).map(
    (entry) => `polyterm/${entry.replace(/^\.\//, '')}`,
  );
  expect(entries).toEqual(['polyterm/router']);
  return [
    "import type { AppRouter } from 'polyterm/router';",
    "import type { AppRouter as PackagedRouter } from '@polyterm/trpc-types';",
    "export type Procedures = keyof AppRouter['_def']['procedures'];",
    'export const sameRouter = (router: AppRouter): PackagedRouter => router;',
    '',
  ].join('\n');
}

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  // The examples sign in without a client name: the default client's administrator.
  const admin = await loginSysadmin(t.app);
  // First by name on the examples' first page, however many dictionaries other suites add to the client.
  dictionaryName = `0 Examples ${uniqueSuffix()}`;
  const dictionary = await createDictionary(admin, { name: dictionaryName, languages: [{ code: 'eng' }] });
  dictionaryId = dictionary.id;
  for (const name of ['one', 'two', 'three']) {
    const created = await admin.post('/concepts', {
      dictionaryId,
      sectionOid: dictionary.sections[0]!.oid,
      terms: [{ name, languageCode: 'eng' }],
    });
    expect(created.status, created.text).toBe(201);
  }

  await run(process.execPath, ['--import', 'tsx', 'scripts/build-trpc-types.ts'], {
    cwd: ROOT,
    env: shellEnv,
  });
  const packDir = await mkdtemp(join(tmpdir(), 'polyterm-pack-'));
  const { stdout } = await run(
    'npm',
    ['pack', './packages/trpc-types', '--pack-destination', packDir, '--json'],
    {
      cwd: ROOT,
      env: { ...shellEnv, npm_config_offline: 'true' },
    },
  );
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  expect(packed!.files.map((file) => file.path).sort()).toEqual(['dist/index.d.ts', 'package.json']);
  project = await consumerProject(join(packDir, packed!.filename));
  await rm(packDir, { recursive: true, force: true });
}, 300_000);
afterAll(async () => {
  await t?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('docs/clients.md examples', () => {
  it('are the files the docs page shows', async () => {
    const page = await readFile(join(ROOT, 'docs/clients.md'), 'utf8');
    for (const file of await readdir(EXAMPLES)) {
      expect(page, file).toContain((await readFile(join(EXAMPLES, file), 'utf8')).trim());
    }
  });

  it('compile in a strict project with tsc --init defaults, against the packed types only', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: project }).catch(
      (error: { stdout: string; code: number }) => error,
    );
    expect(compiled.stdout).toBe('');
    // The package's own declaration is sound too, not only skipped as a library file.
    const checked = await run(process.execPath, [tsc, '--noEmit', '-p', '.', '--skipLibCheck', 'false'], {
      cwd: project,
    }).catch((error: { stdout: string }) => error);
    expect(checked.stdout.split('\n').filter((line) => line.includes('@polyterm/trpc-types'))).toEqual([]);
    const tsconfig = await readFile(join(project, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toMatch(/"strict": true/);
  }, 120_000);

  it('run against the server: REST, tRPC and GraphQL', async () => {
    // Imported by path: this checkout's compiler never sees them (they need the generated and packed types).
    type Names = (server: string, username: string, password: string) => Promise<string[]>;
    const example = (file: string) => import(join(EXAMPLES, file));
    const restNames = (await example('rest-client.ts')).dictionaryNames as Names;
    const trpcNames = (await example('trpc-client.ts')).dictionaryNames as Names;
    const allTermNames = (await example('graphql-query.ts')).allTermNames as (
      ...args: [...Parameters<Names>, number]
    ) => Promise<string[]>;
    const rest = await restNames(base, 'admin', TEST_ADMIN_PASSWORD);
    expect(rest).toContain(dictionaryName);
    expect(await trpcNames(base, 'admin', TEST_ADMIN_PASSWORD)).toContain(dictionaryName);
    expect(await allTermNames(base, 'admin', TEST_ADMIN_PASSWORD, dictionaryId)).toEqual([
      'one',
      'two',
      'three',
    ]);
  });
});
