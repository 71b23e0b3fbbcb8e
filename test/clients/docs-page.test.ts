import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../e2e/structure-graphql-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { launchBrowser } from '../web/browser.js';

/** The docs page in a real Chromium: "Try it out" on POST /login signs in and authorizes later calls. */
let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the docs page', () => {
  it('signs in with "Try it out" on POST /login (apiKey left empty) and then sends the token', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/api/docs/`);
      const login = page.locator('#operations-authentication-auth-login');
      await login.locator('.opblock-summary').click();
      await login.getByRole('button', { name: 'Try it out' }).click();
      await login.locator('input[placeholder="username"]').fill('admin');
      await login.locator('input[placeholder="password"]').fill(TEST_ADMIN_PASSWORD);
      await login.getByRole('button', { name: 'Execute' }).click();
      await login.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();

      const authorized = await page.waitForFunction(() => {
        const docs = (
          window as unknown as { polytermDocs?: { authSelectors: { authorized(): { toJS(): unknown } } } }
        ).polytermDocs;
        const auth = docs?.authSelectors.authorized().toJS() as
          | { XAuthToken?: { value?: string } }
          | undefined;
        return auth?.XAuthToken?.value ?? null;
      });
      const token = (await authorized.jsonValue()) as string;
      expect(token).toMatch(/^[\w-]{43}$/);
      const validate = await fetch(`${base}/api/v4/validate`, { headers: { 'x-auth-token': token } });
      expect(await validate.json()).toEqual({ tokenValid: true });

      // The token survives a reload (docs/clients.md): Swagger UI restores it from this browser's storage.
      await page.reload();
      const restored = await page.waitForFunction(() => {
        const docs = (
          window as unknown as { polytermDocs?: { authSelectors: { authorized(): { toJS(): unknown } } } }
        ).polytermDocs;
        const auth = docs?.authSelectors.authorized().toJS() as
          | { XAuthToken?: { value?: string } }
          | undefined;
        return auth?.XAuthToken?.value ?? null;
      });
      expect(await restored.jsonValue()).toBe(token);
    } finally {
      await page.close();
    }
  }, 120_000);
});
