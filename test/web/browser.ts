/**
 * What the browser suites share: the web application built by Vite into a folder of the test run, the
 * server listening on a real socket with that build, Debian's Chromium driven by playwright-core,
 * axe-core run inside the page, and screenshots (into docs/ui with POLYTERM_SCREENSHOTS=1).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { expect, inject } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * `vite build` of web/, once per test run. A build takes 20–40 s and every browser suite needs the same
 * one: the first suite to ask builds it in the run's folder (global-setup.ts) and the others wait for it.
 * A `mkdir` that fails when the folder exists is the lock, so exactly one suite builds.
 */
export async function buildWebApp(): Promise<string> {
  const runRoot = inject('webBuildRoot');
  const outDir = join(runRoot, 'dist');
  const done = join(runRoot, 'done');
  const failed = join(runRoot, 'failed');
  const iBuild = await mkdir(join(runRoot, 'lock')).then(
    () => true,
    () => false,
  );
  if (iBuild) {
    // Vitest sets NODE_ENV=test, with which Vite builds React's development version (3 times larger and
    // slower): the suites test the build that ships. Only this worker's environment, during the build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: join(root, 'web/vite.config.ts'),
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
      await writeFile(done, '');
    } catch (error) {
      await writeFile(failed, String(error));
      throw error;
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    return outDir;
  }
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    if (existsSync(done)) return outDir;
    if (existsSync(failed)) throw new Error(`The web build failed: ${await readFile(failed, 'utf8')}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error('The web build of this run did not finish within 5 minutes');
}

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
    encoding: 'utf8',
  }).trim();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface WebServer {
  server: TestApp;
  base: string;
  webDir: string;
  close(): Promise<void>;
}

/** The whole server with a fresh build of the web application, listening on a free port. */
export async function startWebServer(overrides: Record<string, string> = {}): Promise<WebServer> {
  const webDir = await buildWebApp();
  const server = await buildTestApp(overrides, {}, { webAppDirectory: webDir });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    server,
    base: address,
    webDir,
    // The build is the run's, removed by the global teardown.
    close: () => server.close(),
  };
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations on the page as it is now (none expected). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  axeSource ??= await readFile(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })))`)) as unknown[];
  expect({ screen, violations }).toEqual({ screen, violations: [] });
}

/** A screenshot for docs/ui.md: written there with POLYTERM_SCREENSHOTS=1, else into a temporary folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder =
    process.env.POLYTERM_SCREENSHOTS === '1' ? join(root, 'docs/ui') : join(tmpdir(), 'polyterm-ui');
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`) });
}

/** The server and Chromium of a browser suite, started together (its beforeAll). */
export async function startWebSuite(
  overrides: Record<string, string> = {},
): Promise<{ web: WebServer; browser: Browser }> {
  const [web, browser] = await Promise.all([startWebServer(overrides), launchBrowser()]);
  return { web, browser };
}

/** Closes what a suite's beforeAll opened; either may be missing when the set-up failed half-way. */
export async function closeWebSuite(browser: Browser | undefined, web: WebServer | undefined): Promise<void> {
  await browser?.close();
  await web?.close();
}
