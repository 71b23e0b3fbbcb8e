/**
 * The web application's speed (not a test: it prints figures).
 *
 *   npx tsx bench/web.ts                 # BENCH_RUNS=20 searches of 100 rows
 *
 * Builds web/ (dist/web), starts our server on a fresh database of BENCH_DATABASE_URL (see
 * bench-database.ts) with 300 concepts, and drives Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) through playwright-core:
 * - the JavaScript the first screen loads (sign-in, then the search with its results): every script
 *   response the browser received up to then, each gzipped (zlib level 6, as a server would send it);
 * - from the last answer of the server to 100 result rows rendered: the page marks the moment its
 *   search call resolved and the layout effect after the rows were committed (performance.measure
 *   'polyterm:render', web/src/screens/SearchScreen.tsx), over BENCH_RUNS searches of 100 rows each.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { createBenchDatabase } from './bench-database.js';
import { sleep } from './lib/interrupt.js';
import { ADMIN_PASSWORD, importTbx, login, serverEnv } from './lib/polyterm-api.js';
import { startServer, stopServers } from './lib/servers.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ROWS = 100;
const root = fileURLToPath(new URL('..', import.meta.url));

function tbx(concepts: number) {
  const entries = Array.from({ length: concepts }, (_, i) => {
    const n = String(i).padStart(4, '0');
    return `<conceptEntry id="b${n}"><langSec xml:lang="en"><termSec><term>bench term ${n}</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Messbegriff ${n}</term></termSec></langSec></conceptEntry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>bench</p></sourceDesc></fileDesc></tbxHeader><text><body>${entries.join('')}</body></text></tbx>`;
}

await build({ configFile: path.join(root, 'web/vite.config.ts'), logLevel: 'warn' });
const database = await createBenchDatabase();
const folder = await mkdtemp(path.join(tmpdir(), 'polyterm-bench-web-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const server = await startServer('web', serverEnv(database.url), { showStdout: false });
  const headers = await login(server);
  const file = path.join(folder, 'bench.tbx');
  await writeFile(file, tbx(300));
  const dictionaryId = await importTbx(server, headers, file);
  // 100 rows a page: the admin's search settings.
  const settings = (await (await fetch(`${server.url}/api/v4/user-search-settings`, { headers })).json()) as {
    version: number;
  };
  const put = await fetch(`${server.url}/api/v4/user-search-settings`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      version: settings.version,
      pageSize: ROWS,
      searchMode: 'PREFIX',
      targetLanguages: [],
    }),
  });
  if (!put.ok) throw new Error(`search settings: ${put.status} ${await put.text()}`);

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => null);
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
  });
  await page.goto(`${server.url}/search?d=${dictionaryId}&lang=eng&q=bench`);
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .locator('table.results tbody tr')
    .nth(ROWS - 1)
    .waitFor({ timeout: 60_000 });
  const firstScreen = [...scripts.values()].reduce((a, b) => a + b, 0);

  const durations: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.evaluate('performance.clearMeasures(); performance.clearMarks()');
    // Alternate two texts that each match 300 terms: every run is a new search of a full page.
    await page.getByRole('searchbox').fill(run % 2 ? 'bench' : 'bench term');
    // Polled through evaluate: waitForFunction's string would be an eval, which the page's CSP forbids.
    while (!(await page.evaluate("performance.getEntriesByName('polyterm:render').length > 0")))
      await sleep(20);
    const rows = await page.locator('table.results tbody tr').count();
    if (rows !== ROWS) throw new Error(`expected ${ROWS} rows, saw ${rows}`);
    durations.push(
      (await page.evaluate("performance.getEntriesByName('polyterm:render')[0].duration")) as number,
    );
  }
  durations.sort((a, b) => a - b);
  console.log(
    `first screen JavaScript, gzipped: ${(firstScreen / 1024).toFixed(1)} KiB in ${scripts.size} files`,
  );
  for (const [name, size] of scripts) console.log(`  ${name}: ${(size / 1024).toFixed(1)} KiB`);
  console.log(
    `server answer -> ${ROWS} rows rendered over ${RUNS} searches: median ${durations[Math.floor(RUNS / 2)]!.toFixed(1)} ms, ` +
      `max ${durations.at(-1)!.toFixed(1)} ms`,
  );
} finally {
  await browser.close();
  await stopServers();
  await database.drop();
  await rm(folder, { recursive: true, force: true });
}
