/** Sessions in a client other than the default one, for the administration suites. */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { Page } from 'playwright-core';
import type { AppRouter } from '../../src/trpc/router.js';
import type { Api } from './session.js';

/** A tRPC client signed in as `username` of the client `loginName`. */
export async function clientApi(
  base: string,
  loginName: string,
  username: string,
  password: string,
): Promise<Api> {
  const login = await createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc` })],
  }).auth.login.mutate({
    username,
    password,
    client: loginName,
  });
  const token = login.token!.token;
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token } })],
  });
}

/**
 * Opens `path`, fills the sign-in form it leads to (by field name: its labels are translated) and waits
 * until the form has gone, so that the next navigation carries the session.
 */
export async function signInToClient(
  page: Page,
  url: string,
  loginName: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(url);
  await page.locator('input[name=client]').fill(loginName);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.locator('input[name=password]').waitFor({ state: 'detached' });
}
