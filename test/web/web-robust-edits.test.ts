/**
 * Edits are never lost (issue 36), in Debian's Chromium: the leave-page guard on a menu link, Back and
 * reload; the draft kept in the browser and back in the editor after a reload or a later visit; the edit
 * lock released when the editor is left; an expired session leading through sign-in (which says why) back
 * to the editor with the draft; the same user's second tab taking the edit over. axe-core on the notes at
 * 1440 px and 390 px. One server and one browser for the file; the steps share one page, in order.
 */
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let conceptId = 0;
let dictionaryId = 0;
/** The questions the page asked (confirm and beforeunload), answered by `answer`. */
const asked: string[] = [];
let answer: 'accept' | 'dismiss' = 'dismiss';

const read = () =>
  api.concepts.get.query({ id: conceptId, format: 'FULL', 'with-comments': false, 'include-deleted': false });
const LOCK_MOVED = 'This concept is now being edited in another tab; your changes are kept as a draft.';
const termBox = (of: Page = page) => of.getByRole('textbox', { name: 'Term', exact: true }).first();
const onDialog = (dialog: Dialog) => {
  asked.push(dialog.type());
  void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
};

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Robust ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  conceptId = (
    await api.concepts.create.mutate({
      format: 'ID',
      dictionaryId,
      sectionOid: dictionary.sections![0]!.oid!,
      terms: [{ name: 'valve', languageCode: 'eng' }],
    } as Parameters<typeof api.concepts.create.mutate>[0])
  ).id!;
  page = await openPage(browser);
  page.on('dialog', onDialog);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('edits are never lost', { timeout: 120_000 }, () => {
  it('asks before a menu link, Back or a reload leaves unsaved changes, and focus follows the work', async () => {
    await page.goto(`${web.base}/search?d=${dictionaryId}`);
    await signIn(page);
    await page.getByRole('searchbox').first().waitFor();
    // Opened from a result link, so Back stays in the same document.
    await page.getByRole('searchbox').first().fill('valve');
    await page.getByRole('link', { name: 'valve', exact: true }).first().click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    // Opened: the title has the focus, not the page body.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('concept-title');
    await page.getByRole('button', { name: 'Edit' }).click();
    await poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    await termBox().fill('valve, ball');

    answer = 'dismiss';
    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    await poll(() => asked).toEqual(['confirm']);
    expect(new URL(page.url()).pathname).toBe(`/concepts/${conceptId}`);
    expect(await termBox().inputValue()).toBe('valve, ball');

    await page.evaluate(() => history.back());
    await poll(() => asked).toEqual(['confirm', 'confirm']);
    await poll(() => new URL(page.url()).pathname).toBe(`/concepts/${conceptId}`);
    expect(await termBox().inputValue()).toBe('valve, ball');

    const prevented = await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
  });

  it('keeps the draft over a reload: the editor comes back with it, still holding the lock', async () => {
    answer = 'accept';
    asked.length = 0;
    await page.reload();
    await page.getByText(/Your unsaved changes from .* are back in the editor/).waitFor();
    expect(await termBox().inputValue()).toBe('valve, ball');
    expect(new URL(page.url()).searchParams.get('edit')).toBe('1');
    await poll(async () => (await read()).lock?.name).toBe('admin');
    await expectAccessible(page, 'editor with a restored draft');
  });

  it('releases the lock when the editor is left, and offers the draft on the next visit', async () => {
    asked.length = 0;
    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    await poll(() => asked).toEqual(['confirm']);
    await poll(() => new URL(page.url()).pathname).toBe('/search');
    await poll(async () => (await read()).lock).toBeNull();

    await page.goto(`${web.base}/concepts/${conceptId}`);
    await page.getByText(/This concept has unsaved changes from/).waitFor();
    await expectAccessible(page, 'concept with a kept draft');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'concept with a kept draft, 390 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Restore the changes' }).click();
    expect(await termBox().inputValue()).toBe('valve, ball');
  });

  it('on session expiry, sign-in says why and leads back to the editor with the draft, which saves', async () => {
    await termBox().fill('ball valve');
    await poll(() => page.evaluate(() => JSON.stringify(localStorage).includes('ball valve'))).toBe(true);
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem('polyterm.session') ?? '{}') as { token: string }).token,
    );
    // The session ends elsewhere (as when it runs out): the next call answers 401.
    const response = await fetch(`${web.base}/api/v4/logout`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
    });
    expect(response.status).toBe(204);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your session has expired' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await expectAccessible(page, 'sign-in after the session expired');

    await signIn(page);
    await page.getByText(/Your unsaved changes from .* are back in the editor/).waitFor();
    expect(await termBox().inputValue()).toBe('ball valve');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect((await read()).terms?.map((term) => term.name)).toEqual(['ball valve']);
    expect((await read()).lock).toBeNull();
    // Saved: the draft is gone and the title has the focus again.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('concept-title');
    expect(await page.getByText(/This concept has unsaved changes/).count()).toBe(0);
  });

  it("the same user's second tab takes the edit over, with the first tab's draft", async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await termBox().fill('globe valve');
    // A second tab of the same browser: its own session (sessionStorage), the same stored drafts.
    const second = await page.context().newPage();
    second.setDefaultTimeout(20_000);
    second.on('dialog', onDialog);
    await second.goto(`${web.base}/concepts/${conceptId}`);
    await signIn(second);
    await second.getByText(/You are editing this concept in another tab or window/).waitFor();
    expect(await second.getByText(/is editing this concept/).count()).toBe(0);
    await expectAccessible(second, 'own lock in another tab');
    await second.getByRole('button', { name: 'Take over the lock in this tab' }).click();
    expect(await termBox(second).inputValue()).toBe('globe valve');
    // The first tab, still in the editor, learns it at once (a storage event between the tabs): it says
    // so, keeps its draft on screen and no longer saves.
    await page.getByText(LOCK_MOVED).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await termBox().inputValue()).toBe('globe valve');
    await expectAccessible(page, 'edit moved to another tab');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'edit moved to another tab, 390 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByRole('button', { name: 'Edit' }).waitFor();
    expect((await read()).terms?.map((term) => term.name)).toEqual(['globe valve']);
    await second.close();
    // Leaving the editor there releases nothing and forgets no draft that is not its own.
    await page.getByRole('button', { name: 'Cancel and release the lock' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
  });

  it('a tab whose lock was taken over elsewhere learns it on Save and keeps its draft', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await termBox().fill('check valve');
    // The same user's session in another browser takes the edit over: no storage event reaches this tab.
    const { api: elsewhere } = await apiSession(web.base);
    expect(await elsewhere.concepts.takeOverLock.mutate({ id: conceptId })).toBe(true);
    const version = (await read()).version;
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(LOCK_MOVED).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await termBox().inputValue()).toBe('check valve');
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Nothing saved over the other session's edit, and its lock stands after this tab leaves the editor.
    await page.getByRole('button', { name: 'Cancel and release the lock' }).click();
    await page.getByText(/You are editing this concept in another tab or window/).waitFor();
    const after = await read();
    expect(after.version).toBe(version);
    expect(after.terms?.map((term) => term.name)).toEqual(['globe valve']);
    expect(after.lock).not.toBeNull();
    await elsewhere.concepts.releaseLock.mutate({ id: conceptId });
  });
});
