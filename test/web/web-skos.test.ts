/**
 * SKOS on the Import and export screen in Chromium (issue 39, docs/exchange.md): a Turtle file imports
 * into a new dictionary (no status mapping step: SKOS labels carry their kind), and the dictionary
 * downloads as SKOS Turtle and JSON-LD under the base IRI given, restricted to a language; axe finds
 * nothing serious on the phone (390 px) and the desktop. One server and one browser for the file.
 */
import { readFile } from 'node:fs/promises';
import { Parser } from 'n3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { openPage, signIn } from './session.js';

const VOCABULARY = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/web/> .
ex:weather a skos:Concept ; skos:prefLabel "weather"@en , "veður"@is ; skos:definition "State of the air."@en .
ex:rain a skos:Concept ; skos:prefLabel "rain"@en , "regn"@is ; skos:altLabel "rainfall"@en ;
  skos:broader ex:weather .
`;

let web: WebServer;
let browser: Browser;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

async function screen(width: number): Promise<Page> {
  const page = await openPage(browser, { viewport: { width, height: 900 }, locale: 'en-US' });
  await page.goto(`${web.base}/tbx`);
  await signIn(page);
  await page.getByRole('heading', { name: 'Import and export' }).waitFor();
  return page;
}

/** Prepares the export and downloads it, once the link names the file asked for. */
async function download(page: Page, fileName: string) {
  await page.getByRole('button', { name: 'Prepare the export' }).click();
  const link = page.getByRole('link', { name: `Download ${fileName}` });
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

describe('SKOS on the Import and export screen', { timeout: 180_000 }, () => {
  it('imports a Turtle file and exports Turtle and JSON-LD under a base IRI, one language', async () => {
    const page = await screen(1440);
    const name = `From SKOS ${uniqueSuffix()}`;
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'weather.ttl', mimeType: 'text/turtle', buffer: Buffer.from(VOCABULARY) });
    await page.getByLabel('Name of the new dictionary').fill(name);
    // Administrative statuses are TBX's: the SKOS import has no such step.
    expect(await page.getByText('Administrative status mapping').count()).toBe(0);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toMatch(/^Imported: 2 concepts, 5 terms/);
    await expectAccessible(page, 'SKOS import, desktop');

    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption({ label: name });
    await page.getByRole('combobox', { name: 'Format' }).selectOption('SKOS_TURTLE');
    const base = 'https://example.org/weather/';
    await page.getByLabel('Base IRI (optional)').fill(base);
    await page
      .getByRole('group', { name: /^Languages/ })
      .getByLabel('Icelandic')
      .check();
    const turtle = await download(page, `${name}.ttl`);
    expect(turtle.name).toBe(`${name}.ttl`);
    const quads = new Parser().parse(turtle.text);
    const labels = quads.filter((q) => q.predicate.value.endsWith('#prefLabel')).map((q) => q.object.value);
    expect(labels.sort()).toEqual([name, 'regn', 'veður']);
    expect(quads.some((q) => q.subject.value === base)).toBe(true);
    await expectAccessible(page, 'SKOS export, desktop');
    await page.getByLabel('Base IRI (optional)').scrollIntoViewIfNeeded();
    await screenshot(page, 'skos-export');

    await page.getByRole('combobox', { name: 'Format' }).selectOption('SKOS_JSONLD');
    const jsonld = await download(page, `${name}.jsonld`);
    expect(jsonld.name).toBe(`${name}.jsonld`);
    expect(JSON.stringify(JSON.parse(jsonld.text))).toContain('http://example.org/web/rain');
  });

  it('offers SKOS on the phone without anything wider than the screen', async () => {
    const page = await screen(390);
    await page.getByRole('combobox', { name: 'Format' }).selectOption('SKOS_RDFXML');
    await page.getByLabel('Base IRI (optional)').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page, 'SKOS export, phone');
    await page.getByLabel('Base IRI (optional)').scrollIntoViewIfNeeded();
    await screenshot(page, 'skos-export-phone');
  });
});
