/**
 * Interface languages in Chromium: the browser's language decides until one is chosen in Preferences;
 * the choice switches every string at once (menu, search, preferences), is kept across a reload, and
 * numbers follow the language. Screens in Icelandic have no serious axe finding at 390 and 1440 px.
 * One server and one browser for the file.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, poll } from './session.js';
import { importSmallTbx } from './web-seed.js';

let web: WebServer;
let browser: Browser;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const { token } = await apiSession(web.base);
  await importSmallTbx(web.base, token, `Tungumál ${uniqueSuffix()}`, [
    { en: 'term one', is: 'íðorð eitt', de: 'Terminus eins' },
  ]);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

async function signInAs(page: Page, labels: { user: string; password: string; submit: string }) {
  await page.getByLabel(labels.user).fill('admin');
  const { TEST_ADMIN_PASSWORD } = await import('../helpers/constants.js');
  await page.getByLabel(labels.password).fill(TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: labels.submit }).click();
}

describe('interface languages', { timeout: 180_000 }, () => {
  it('follows the browser language (German) from the sign-in page on, numbers included', async () => {
    const page = await openPage(browser, { locale: 'de-DE' });
    await page.goto(`${web.base}/signin`);
    await page.getByRole('heading', { name: 'Bei Polyterm anmelden' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('de');
    await signInAs(page, { user: 'Benutzername', password: 'Passwort', submit: 'Anmelden' });
    await page.getByRole('link', { name: 'Einstellungen' }).waitFor();
    await page.getByRole('searchbox').fill('Terminus');
    await poll(() => page.getByRole('status').first().textContent()).toMatch(/^\d+ Termin(us|i)$/);
    await expect(page.getByRole('button', { name: 'Abmelden' }).isVisible()).resolves.toBe(true);
    await page.context().close();
  });

  for (const width of [1440, 390]) {
    it(`is chosen in Preferences (Icelandic) and kept across a reload, at ${width} px`, async () => {
      const page = await openPage(browser, { locale: 'en-GB', viewport: { width, height: 844 } });
      await page.goto(`${web.base}/signin?next=/preferences`);
      await signInAs(page, { user: 'User name', password: 'Password', submit: 'Sign in' });
      const choice = page.getByLabel('Interface language');
      await choice.selectOption('is');
      await page.getByRole('heading', { name: 'Stillingar' }).waitFor();
      await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('is');
      await expect(page.getByLabel('Tungumál viðmóts').inputValue()).resolves.toBe('is');
      await expectAccessible(page, `preferences in Icelandic at ${width}`);
      await screenshot(page, `preferences-is-${width}`);

      await page.reload();
      await page.getByRole('heading', { name: 'Stillingar' }).waitFor();
      if (width < 768) await page.getByRole('button', { name: 'Valmynd' }).click();
      await page.getByRole('link', { name: 'Leit' }).click();
      await page.getByRole('searchbox').fill('term one');
      await poll(() => page.getByRole('status').first().textContent()).toBe('1 íðorð');
      await expect(page.getByRole('search', { name: 'Íðorðaleit' }).isVisible()).resolves.toBe(true);
      await expectAccessible(page, `search in Icelandic at ${width}`);
      await screenshot(page, `search-is-${width}`);

      // Back to English: every string again, without a reload.
      await page.goto(`${web.base}/preferences`);
      await page.getByLabel('Tungumál viðmóts').selectOption('en');
      await page.getByRole('heading', { name: 'Preferences' }).waitFor();
      await page.context().close();
    });
  }
});
