/**
 * The mail settings page in Chromium (docs/ui.md, "Mail settings"): a system administrator points the
 * installation at an SMTP server with a password (never shown again), a client administrator sets the
 * client's sender name and reply-to and sends a test message that a real SMTP server on loopback
 * receives with them; axe finds nothing serious at 1440 and 390 px. Installation-wide settings: a
 * database of its own, so the suites beside this one keep the configuration's mail.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { clientApi, signInToClient } from './admin-session.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll } from './session.js';

const SECRET = `smtp-${uniqueSuffix()}`;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let configured: MailCatcher;
let own: MailCatcher;
let ownPort: number;
let web: WebServer;
let browser: Browser;
let sysadmin: Api;
let loginName: string;
let admin: Api;
const adminPassword = `pw-${uniqueSuffix()}-Secret1`;

beforeAll(async () => {
  database = await isolatedDatabase();
  configured = new MailCatcher();
  own = new MailCatcher({ username: 'mailer', password: SECRET });
  const [configuredPort, port] = await Promise.all([configured.start(), own.start()]);
  ownPort = port;
  ({ web, browser } = await startWebSuite({
    DATABASE_URL: database.url,
    SMTP_URL: `smtp://127.0.0.1:${configuredPort}`,
    MAIL_FROM: 'Polyterm <config@example.org>',
  }));
  ({ api: sysadmin } = await apiSession(web.base));
  loginName = `mail${uniqueSuffix()}`;
  await sysadmin.clients.create.mutate({
    format: 'ID',
    name: `Mail ${loginName}`,
    loginName,
    active: true,
    adminUser: { username: 'chief', password: adminPassword },
  });
  admin = await clientApi(web.base, loginName, 'chief', adminPassword);
}, 240_000);

afterAll(async () => {
  await closeWebSuite(browser, web);
  await Promise.all([configured?.close(), own?.close()]);
  await database?.drop();
});

async function sysadminPage(width = 1440): Promise<Page> {
  const page = await openPage(browser, { viewport: { width, height: 900 }, locale: 'en-US' });
  await page.goto(`${web.base}/admin/settings/mail`);
  await page.locator('input[name=username]').fill('admin');
  await page.locator('input[name=password]').fill(TEST_ADMIN_PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('input[name=password]').waitFor({ state: 'detached' });
  return page;
}

async function adminPage(width = 1440): Promise<Page> {
  const page = await openPage(browser, { viewport: { width, height: 900 }, locale: 'en-US' });
  await signInToClient(page, `${web.base}/admin/settings/mail`, loginName, 'chief', adminPassword);
  return page;
}

describe('mail settings page', { timeout: 180_000 }, () => {
  it("lets a system administrator set the installation's SMTP server; the password is not shown again", async () => {
    const page = await sysadminPage();
    const nav = page.getByRole('navigation', { name: 'Administration' });
    await nav.getByRole('link', { name: 'Settings' }).first().waitFor();
    const server = page.getByRole('region', { name: 'Mail server of the installation' });
    await server.getByText(/The configured server \(smtp:\/\/127\.0\.0\.1:\d+, sender Polyterm/).waitFor();
    await server.getByLabel('This SMTP server').check();
    await server.getByLabel('SMTP server', { exact: true }).fill('127.0.0.1');
    await server.getByLabel('Port', { exact: true }).fill(String(ownPort));
    await server.getByLabel('Connection security').selectOption('NONE');
    await server.getByLabel('SMTP username').fill('mailer');
    await server.getByLabel('SMTP password').fill(SECRET);
    await server.getByLabel('Sender address').fill('terms@example.org');
    await server.getByLabel('Sender name when a client gives none').fill('Polyterm Terms');
    await server.getByRole('button', { name: 'Save' }).click();
    await server.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await poll(() => server.getByLabel('SMTP password').inputValue()).toBe('******');
    expect(await page.content()).not.toContain(SECRET);
    const saved = await sysadmin.mailSettings.server.query();
    expect(saved).toMatchObject({
      useConfiguration: false,
      host: '127.0.0.1',
      port: ownPort,
      password: '******',
    });
    await screenshot(page, 'admin-mail-server');
    await page.context().close();
  });

  it('lets a client administrator set the sender and send a test message that arrives with it', async () => {
    const page = await adminPage(390);
    // The installation's server is not theirs to see.
    await page.getByRole('heading', { name: 'Mail settings', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Send a test message' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Mail server of the installation' }).count()).toBe(0);
    const client = page.getByRole('region', { name: 'Mail of this client' });
    await client.getByLabel('Sender name').fill('Orðabók team');
    await client.getByLabel('Reply-to address').fill('team@example.org');
    await client.getByLabel('Signature below every mail').fill('The terminology team');
    await client.getByRole('button', { name: 'Save' }).click();
    await client.getByText('Mail of this client is sent as "Orðabók team" <terms@example.org>.').waitFor();
    expect(await admin.mailSettings.get.query()).toMatchObject({
      senderName: 'Orðabók team',
      replyTo: 'team@example.org',
    });

    const test = page.getByRole('region', { name: 'Send a test message' });
    await test.getByLabel('Send to').fill('checker@example.org');
    await test.getByRole('button', { name: 'Send a test message' }).click();
    await test
      .getByText(/^Sent to checker@example\.org as "Orðabók team" <terms@example\.org> through 127\.0\.0\.1:/)
      .waitFor();
    const mail = await own.waitFor('checker@example.org');
    expect(mail.text).toMatch(/^Reply-To: team@example\.org/m);
    expect(mail.text).toContain('The terminology team');
    expect(mail.text).toMatch(/^From: .*<terms@example\.org>/m);
    expect(configured.to('checker@example.org')).toEqual([]);
    await screenshot(page, 'admin-mail-phone');
    await page.context().close();
  });

  it('has no serious axe findings at 1440 px and 390 px, and fits a phone', async () => {
    for (const width of [1440, 390]) {
      for (const open of [sysadminPage, adminPage]) {
        const page = await open(width);
        await page.getByRole('heading', { name: 'Send a test message' }).waitFor();
        if (open === sysadminPage)
          await page.getByRole('heading', { name: 'Mail server of the installation' }).waitFor();
        await expectAccessible(page, `${open.name} /admin/settings/mail at ${width}px`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ width, overflow }).toEqual({ width, overflow: 0 });
        await page.context().close();
      }
    }
  });
});
