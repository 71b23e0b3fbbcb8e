/**
 * Feedback in Chromium (docs/feedback.md): a reader sends feedback on a term from the concept view on a
 * phone, with a file; the dictionary's administrator finds it in the administration list, opens it,
 * answers and closes it (each row a card on a phone, the message readable); the reader reads the answer
 * under My feedback; a guest of a client that allows it sends feedback on the dictionary from the
 * search screen. axe finds nothing serious at 390 px and at 1440 px; nothing scrolls sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueSuffix } from '../factories/tenant.js';
import { clientApi, signInToClient } from './admin-session.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, poll } from './session.js';
import { importSmallTbx } from './web-seed.js';

let web: WebServer;
let browser: Browser;
let loginName: string;
let clientId: number;
let conceptId: number;
let dictionaryId: number;
let reader: { username: string; password: string };
const adminPassword = `pw-${uniqueSuffix()}-Secret1`;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const sql = <T>(text: string, params: unknown[] = []) =>
  web.server.orm.em.fork().getConnection().execute<T[]>(text, params);

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const { api: sysadmin } = await apiSession(web.base);
  loginName = `fb${uniqueSuffix()}`;
  const client = await sysadmin.clients.create.mutate({
    format: 'ID',
    name: `Feedback ${loginName}`,
    loginName,
    active: true,
    adminUser: { username: 'chief', password: adminPassword },
  });
  clientId = client.id as number;
  const login = await fetch(`${web.base}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'chief', password: adminPassword, client: loginName }),
  });
  const token = ((await login.json()) as { token: { token: string } }).token.token;
  dictionaryId = await importSmallTbx(web.base, token, `Valves ${loginName}`, [
    { en: 'valve', de: 'Ventil' },
  ]);
  [{ id: conceptId }] = (await sql<{ id: number }>('select id from concepts where dictionary_id = ?', [
    dictionaryId,
  ])) as [{ id: number }];
  reader = await createUser(web.server.orm, clientId);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

async function signedIn(
  path: string,
  width: number,
  who: 'reader' | 'admin',
  locale = 'en-US',
): Promise<Page> {
  const page = await openPage(browser, { viewport: { width, height: 900 }, locale });
  const [username, password] =
    who === 'reader' ? [reader.username, reader.password] : ['chief', adminPassword];
  await signInToClient(page, `${web.base}${path}`, loginName, username, password);
  await page.goto(`${web.base}${path}`);
  return page;
}

async function noSidewaysScroll(page: Page, width: number) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect({ width, overflow }).toEqual({ width, overflow: 0 });
}

describe('feedback in the web application', { timeout: 180_000 }, () => {
  it('a reader sends feedback on a term with a file from the concept view on a phone', async () => {
    const page = await signedIn(`/concepts/${conceptId}`, 390, 'reader');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send feedback' });
    const term = await dialog.locator('option', { hasText: 'The term “valve”' }).getAttribute('value');
    await dialog.getByLabel('About').selectOption(term!);
    await dialog.getByLabel('Message').fill('Should be “valve seat”?');
    await dialog
      .getByLabel(/A file, up to/)
      .setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
    await expectAccessible(page, 'send feedback dialog at 390px');
    await screenshot(page, 'feedback-dialog-phone');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Thank you. Your feedback was sent.' }).waitFor();
    await poll(async () =>
      sql<{ target: string; attachment_type: string | null }>(
        'select target, attachment_type from feedback where client_id = ?',
        [clientId],
      ),
    ).toEqual([{ target: 'TERM', attachment_type: 'image/png' }]);
    await noSidewaysScroll(page, 390);
    await page.context().close();
  });

  it('the administrator lists, opens, answers and closes it; both pages pass axe at 1440 and 390 px', async () => {
    for (const width of [1440, 390]) {
      const page = await signedIn('/admin/feedback', width, 'admin');
      await page.getByRole('heading', { name: 'Feedback', level: 1 }).waitFor();
      await page.getByLabel('Status').selectOption('OPEN');
      const table = page.getByRole('table', { name: 'Feedback' });
      await table.getByRole('row', { name: /The term “valve”/ }).waitFor();
      await expectAccessible(page, `/admin/feedback at ${width}px`);
      await noSidewaysScroll(page, width);
      // Every cell, the message included, is on the screen: on a phone each row is a card.
      const message = table.getByRole('cell', { name: /Should be “valve seat”\?/ });
      const box = (await message.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await message.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
      await screenshot(page, width === 390 ? 'admin-feedback-phone' : 'admin-feedback');
      await table.getByRole('link').first().click();
      await page.getByRole('heading', { name: /Feedback on The term “valve”/ }).waitFor();
      await page.getByText('Should be “valve seat”?').waitFor();
      await page.getByText('Attached file: shot.png').waitFor();
      // The side menu keeps the list's item marked on its detail page.
      expect(await page.locator('.admin-side a[aria-current="location"]').textContent()).toBe('Feedback');
      await expectAccessible(page, `/admin/feedback/:id at ${width}px`);
      await noSidewaysScroll(page, width);
      await screenshot(page, width === 390 ? 'admin-feedback-id-phone' : 'admin-feedback-id');
      if (width === 390) {
        await page.getByLabel('Your answer').fill('Yes, renamed.');
        await page.getByRole('button', { name: 'Answer and close' }).click();
        await page.getByText('Yes, renamed.').waitFor();
        await page.getByRole('button', { name: 'Reopen' }).waitFor();
      }
      await page.context().close();
    }
    expect(await sql('select status from feedback where client_id = ?', [clientId])).toEqual([
      { status: 'CLOSED' },
    ]);
  });

  it('the reader finds the answer under My feedback, from the menu, at 1440 px in English and 390 px in German', async () => {
    const page = await signedIn('/search', 1440, 'reader');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My feedback' }).click();
    await page.getByRole('heading', { name: 'My feedback', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: 'The term “valve”' });
    await card.getByText('Should be “valve seat”?').waitFor();
    await card.getByText('Closed', { exact: true }).waitFor();
    await card
      .getByRole('region', { name: 'Answers about The term “valve”' })
      .getByText('Yes, renamed.')
      .waitFor();
    await card.getByText('With the file shot.png').waitFor();
    await expectAccessible(page, '/feedback at 1440px');
    await noSidewaysScroll(page, 1440);
    await screenshot(page, 'my-feedback');
    await page.getByLabel('Status').selectOption('OPEN');
    await page
      .getByRole('status')
      .filter({ hasText: 'You have not sent feedback yet, or none matches.' })
      .waitFor();
    expect(new URL(page.url()).search).toBe('?status=OPEN');
    await page.context().close();

    const phone = await signedIn('/search', 390, 'reader', 'de-DE');
    await phone.getByRole('button', { name: 'Menü' }).click();
    await phone.getByRole('link', { name: 'Meine Rückmeldungen' }).click();
    await phone.getByRole('heading', { name: 'Meine Rückmeldungen', level: 1 }).waitFor();
    await phone.getByText('Yes, renamed.').waitFor();
    await phone.getByRole('article').getByText('Geschlossen', { exact: true }).waitFor();
    await expectAccessible(phone, '/feedback at 390px, German');
    await noSidewaysScroll(phone, 390);
    await screenshot(phone, 'my-feedback-phone');
    await phone.context().close();
  });

  it('a guest, when the client allows it, sends feedback on the dictionary from the search screen', async () => {
    const chief = await clientApi(web.base, loginName, 'chief', adminPassword);
    const groups = await sql<{ id: number; type: string }>(
      'select id, type from groups where client_id = ?',
      [clientId],
    );
    const grant = (type: string) => ({
      groupId: groups.find((group) => group.type === type)!.id,
      dictionaryPermissions: ['DICT_READ'],
      conceptPermissions: [],
      termPermissions: [],
      languages: [],
    });
    const scheme = await chief.permissionSchemes.create.mutate({
      format: 'ID',
      name: 'Readers and guests',
      grants: [grant('ALL_USERS'), grant('GUEST')],
    } as Parameters<typeof chief.permissionSchemes.create.mutate>[0]);
    await sql('update dictionaries set permission_scheme_id = ? where id = ?', [scheme.id, dictionaryId]);
    const guestPassword = `guest-${uniqueSuffix()}-Pw1`;
    await chief.guests.update.mutate({
      enabled: true,
      username: 'visitor',
      password: guestPassword,
      loginMethod: 'NORMAL',
      enableFeedback: true,
    });
    const page = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const search = `/search?d=${dictionaryId}&q=valve`;
    await signInToClient(page, `${web.base}${search}`, loginName, 'visitor', guestPassword);
    await page.goto(`${web.base}${search}`);
    await page.getByRole('button', { name: 'Send feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send feedback' });
    await dialog.getByText(`About: The dictionary Valves ${loginName}`).waitFor();
    await dialog.getByLabel('Message').fill('Please add Icelandic.');
    await dialog.getByLabel('Your name (optional)').fill('Ann');
    await dialog.getByLabel('Your e-mail address, for the answer (optional)').fill('ann@example.org');
    await expectAccessible(page, 'guest feedback dialog at 1440px');
    await screenshot(page, 'feedback-guest');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Thank you. Your feedback was sent.' }).waitFor();
    await poll(async () =>
      sql<{ sender_guest: boolean; sender_email: string }>(
        "select sender_guest, sender_email from feedback where client_id = ? and target = 'DICTIONARY'",
        [clientId],
      ),
    ).toEqual([{ sender_guest: true, sender_email: 'ann@example.org' }]);
    await page.context().close();
  });
});
