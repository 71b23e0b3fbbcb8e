/**
 * Sessions of the browser suites: a tRPC client signed in for seeding and reading back, a page of its
 * own, the app's sign-in form, and polling with room for a loaded machine.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';

export type Api = ReturnType<typeof createTRPCClient<AppRouter>>;

/** A tRPC client of the server at `base`, signed in (the run's system administrator unless named). */
export async function apiSession(
  base: string,
  username = 'admin',
  password = TEST_ADMIN_PASSWORD,
): Promise<{ api: Api; token: string }> {
  const login = await createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc` })],
  }).auth.login.mutate({ username, password });
  const token = login.token!.token;
  return {
    api: createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token } })],
    }),
    token,
  };
}

/**
 * A page in a context of its own, 1280 × 900 unless `options` say otherwise, whose actions wait up to
 * 20 s (room for a loaded machine).
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options })
  ).newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Fills and sends the sign-in form the page shows (the run's system administrator unless named). */
export async function signIn(page: Page, username = 'admin', password = TEST_ADMIN_PASSWORD): Promise<void> {
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** expect.poll with room for a loaded machine (its default is one second). */
export const poll = <T>(value: () => T | Promise<T>) =>
  expect.poll(value, { timeout: 20_000, interval: 100 });
