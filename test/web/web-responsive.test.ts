/**
 * The web application on a phone and on a desktop, and what it costs on the wire: assets go out
 * precompressed (Brotli or gzip, as the browser accepts), the first screen (sign-in, then search) takes
 * under 120 KiB of JavaScript on the wire, and at 390 px and 1440 px every screen fits the width (no
 * horizontal scrolling), the menu and Sign out are reachable, and axe finds nothing serious.
 * One server and one browser for the file.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, poll, signIn } from './session.js';
import { importSmallTbx } from './web-seed.js';

let web: WebServer;
let browser: Browser;
let conceptId: number;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const { api, token } = await apiSession(web.base);
  const dictionaryId = await importSmallTbx(web.base, token, `Responsive ${uniqueSuffix()}`, [
    {
      en: 'translation memory with a rather long English name',
      de: 'Übersetzungsspeicher',
      is: 'þýðingaminni',
    },
    { en: 'terminology', de: 'Terminologie', is: 'íðorðafræði' },
  ]);
  const found = await api.concepts.byOid.query({
    oid: 'r1',
    format: 'FULL',
    'with-comments': false,
    'include-deleted': false,
  });
  conceptId = found!.id;
  expect(dictionaryId).toBeGreaterThan(0);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('assets', { timeout: 120_000 }, () => {
  async function firstScript(): Promise<string> {
    const html = await (await fetch(`${web.base}/signin`)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!asset) throw new Error('index.html names no script');
    return asset;
  }

  it('sends Brotli or gzip as the browser accepts, the same bytes once decoded, and plain otherwise', async () => {
    const asset = await firstScript();
    const plain = await fetch(`${web.base}${asset}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const plainText = await plain.text();
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(`${web.base}${asset}`, { headers: { 'accept-encoding': encoding } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // fetch decodes the body: the same script; the length on the wire is far below the plain one.
      expect(await response.text()).toBe(plainText);
      const wire = Number(
        (await fetch(`${web.base}${asset}.${encoding === 'br' ? 'br' : 'gz'}`)).headers.get('content-length'),
      );
      expect(wire).toBeGreaterThan(0);
      expect(wire).toBeLessThan(plainText.length / 2);
    }
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(await (await fetch(`${web.base}/signin`)).text())?.[1];
    const style = await fetch(`${web.base}${css}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(style.headers.get('content-encoding')).toBe('br');
    expect(style.headers.get('content-type')).toMatch(/text\/css/);
  });

  it('takes under 120 KiB of JavaScript on the wire for sign-in and the first search', async () => {
    const page = await openPage(browser);
    const client = await page.context().newCDPSession(page);
    await client.send('Network.enable');
    const scripts = new Map<string, string>();
    const wire = new Map<string, number>();
    client.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') scripts.set(event.requestId, event.response.url);
    });
    client.on('Network.loadingFinished', (event) => {
      wire.set(event.requestId, event.encodedDataLength);
    });
    await page.goto(`${web.base}/signin?next=${encodeURIComponent('/search?q=term')}`);
    await signIn(page);
    await poll(() => page.locator('table.results tbody tr').count()).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    const total = [...scripts.keys()].reduce((sum, id) => sum + (wire.get(id) ?? 0), 0);
    const each = [...scripts].map(([id, url]) => `${url.split('/').pop()} ${wire.get(id)}`);
    console.info(
      `first screen: ${(total / 1024).toFixed(1)} KiB of JavaScript on the wire: ${each.join(', ')}`,
    );
    expect(scripts.size).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(10 * 1024);
    expect(total).toBeLessThan(120 * 1024);
    await page.context().close();
  });
});

/** The page is no wider than the window: nothing to scroll sideways. */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect({ screen, scroll: widths.scroll }).toEqual({ screen, scroll: widths.client });
}

const screens = () => [
  { name: 'search', path: '/search?q=t', ready: 'table.results tbody tr' },
  { name: 'concept', path: `/concepts/${conceptId}`, ready: '.languages' },
  { name: 'new-concept', path: '/concepts/new', ready: 'form' },
  { name: 'tbx', path: '/tbx', ready: 'form' },
  { name: 'inbox', path: '/inbox', ready: 'h1' },
  { name: 'workflows', path: '/workflows', ready: 'h1' },
  { name: 'check', path: '/check', ready: 'textarea' },
  { name: 'preferences', path: '/preferences', ready: 'form' },
];

for (const width of [390, 1440]) {
  describe(`at ${width} px`, { timeout: 180_000 }, () => {
    let page: Page;
    beforeAll(async () => {
      page = await openPage(browser, { viewport: { width, height: 844 } });
    });
    afterAll(() => page.context().close());

    it('signs in on a screen that fits', async () => {
      await page.goto(`${web.base}/signin`);
      await expectNoSidewaysScroll(page, 'signin');
      await expectAccessible(page, `signin at ${width}`);
      await signIn(page);
      await poll(() => new URL(page.url()).pathname).toBe('/search');
    });

    it('reaches every menu link and Sign out inside the window', async () => {
      await page
        .getByRole('button', { name: 'Sign out' })
        .or(page.getByRole('button', { name: 'Menu' }))
        .first()
        .waitFor();
      const toggle = page.getByRole('button', { name: 'Menu' });
      if (width < 768) {
        await expect(toggle.isVisible()).resolves.toBe(true);
        await expect(page.getByRole('link', { name: 'Check text' }).isVisible()).resolves.toBe(false);
        await toggle.click();
        await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
      } else {
        await expect(toggle.isVisible()).resolves.toBe(false);
      }
      const nav = page.getByRole('navigation', { name: 'Main' });
      // New concept shows once the caller's rights are read (CONCEPT_CREATE somewhere).
      await nav.getByRole('link', { name: 'New concept' }).waitFor({ state: 'attached' });
      const targets = [
        ...(await nav.getByRole('link').all()),
        page.getByRole('button', { name: 'Sign out' }),
      ];
      expect(targets.length).toBeGreaterThanOrEqual(8);
      for (const target of targets) {
        const box = await target.boundingBox();
        expect(box, (await target.textContent()) ?? '').not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      }
      await expectAccessible(page, `menu at ${width}`);
      await screenshot(page, `menu-${width}`);
      // Choosing a page closes the menu on a phone.
      await nav.getByRole('link', { name: 'Check text' }).click();
      await poll(() => new URL(page.url()).pathname).toBe('/check');
      // The menu closes on the render after the route changes: waited for, not read at once.
      if (width < 768) await poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    });

    it('fits every screen in the width, with no serious axe finding', async () => {
      for (const screen of screens()) {
        await page.goto(`${web.base}${screen.path}`);
        await page.locator(screen.ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        await expectNoSidewaysScroll(page, screen.name);
        await expectAccessible(page, `${screen.name} at ${width}`);
        await screenshot(page, `${screen.name}-${width}`);
      }
    });
  });
}
