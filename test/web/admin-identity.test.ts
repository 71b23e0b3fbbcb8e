/**
 * The administration view's identity pages in Chromium (docs/ui.md, "Administration"): the menu the
 * server publishes and the pages agree, a client administrator manages users, groups, permission
 * schemes and guest access, the server's messages sit beside their controls, a stale save opens the
 * conflict dialog, a forced password change holds the user back until done, and axe finds nothing
 * serious at 1440 px and 390 px. One server and one browser for the file; the client is set up by API.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { clientApi, signInToClient } from './admin-session.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll } from './session.js';

let web: WebServer;
let browser: Browser;
let sysadmin: Api;
let tenant: { id: number; loginName: string };
let admin: Api;
const adminPassword = `pw-${uniqueSuffix()}-Secret1`;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api: sysadmin } = await apiSession(web.base));
  const loginName = `id${uniqueSuffix()}`;
  const created = await sysadmin.clients.create.mutate({
    format: 'ID',
    name: `Identity ${loginName}`,
    loginName,
    active: true,
    adminUser: { username: 'chief', password: adminPassword },
  });
  tenant = { id: created.id, loginName };
  admin = await clientSession('chief', adminPassword);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

function clientSession(username: string, password: string): Promise<Api> {
  return clientApi(web.base, tenant.loginName, username, password);
}

function signInTo(page: Page, username: string, password: string, path = '/search') {
  return signInToClient(page, `${web.base}${path}`, tenant.loginName, username, password);
}

async function adminPage(width = 1440): Promise<Page> {
  const page = await openPage(browser, { viewport: { width, height: 900 }, locale: 'en-US' });
  await signInTo(page, 'chief', adminPassword, '/admin');
  return page;
}

/** The messages the control labelled `label` names in aria-describedby. */
async function describedText(page: Page, label: string): Promise<string> {
  const control = page.getByLabel(label, { exact: true });
  await expect.poll(() => control.getAttribute('aria-describedby'), { timeout: 20_000 }).toBeTruthy();
  const id = (await control.getAttribute('aria-describedby'))!;
  return page.locator(`[id="${id}"]`).innerText();
}

describe('administration shell', { timeout: 120_000 }, () => {
  it('shows a client administrator the sections the menu API gives, not the system administrator ones', async () => {
    const page = await adminPage();
    const top = await admin.ui.topMenu.query();
    const nav = page.getByRole('navigation', { name: 'Administration' });
    // /admin opens the first page the caller may see.
    await poll(() => new URL(page.url()).pathname).toBe(top[0]!.href);
    for (const item of top) await nav.getByRole('link', { name: item.label }).first().waitFor();
    expect(top.map((item) => item.label)).not.toContain('Clients');
    await poll(() => page.getByRole('link', { name: 'Administration' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.goto(`${web.base}/admin/no-such-page`);
    await page.getByRole('heading', { name: 'No such page' }).first().waitFor();
    await page.context().close();
  });

  it('shows a user without administrator roles only their own account', async () => {
    const password = `pw-${uniqueSuffix()}-Plain1`;
    await admin.users.create.mutate({ format: 'ID', username: 'plain', password, confirmPassword: password });
    const page = await openPage(browser, { locale: 'en-US' });
    await signInTo(page, 'plain', password);
    // Nothing to administer: the main menu's link says what it opens.
    await page.getByRole('link', { name: 'My account' }).click();
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    const nav = page.getByRole('navigation', { name: 'Administration' });
    await nav.getByRole('link', { name: 'My account' }).first().waitFor();
    await poll(() => nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await poll(() => nav.getByRole('link', { name: 'Groups' }).count()).toBe(0);
    // The server still decides: a page opened by URL shows the server's refusal beside the button.
    await page.goto(`${web.base}/admin/permission-schemes`);
    await page.getByLabel('Name', { exact: true }).fill('Not mine to make');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#new-scheme-general[role=alert]').waitFor();
    expect(
      (await admin.permissionSchemes.list.query({ page: 0, size: 50, format: 'SHORT' })).content.map(
        (s) => s.name,
      ),
    ).not.toContain('Not mine to make');
    await page.context().close();
  });
});

describe('users', { timeout: 120_000 }, () => {
  it('creates a user with a group, showing the server message beside the wrong field first', async () => {
    const group = await admin.groups.create.mutate({ format: 'ID', name: 'Reviewers' });
    const page = await adminPage();
    await page.goto(`${web.base}/admin/users/new`);
    await page.getByLabel('Username', { exact: true }).fill('bad name!');
    await page.getByLabel('New password', { exact: true }).fill('Initial-pass1');
    await page.getByLabel('New password again', { exact: true }).fill('Initial-pass1');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await describedText(page, 'Username')).toMatch(/username may hold Latin letters/);
    await page.getByLabel('Username', { exact: true }).fill('terminologist');
    await page.getByLabel('Full name').fill('Þóra Terminologist');
    await page.getByRole('checkbox', { name: 'Reviewers' }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await poll(() => /\/admin\/users\/\d+$/.test(new URL(page.url()).pathname)).toBe(true);
    await page.getByRole('heading', { name: 'User terminologist' }).first().waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = await admin.users.get.query({ id, format: 'EDIT', 'include-deleted': false });
    expect(saved.fullName).toBe('Þóra Terminologist');
    expect(saved.groups?.map((g) => g.id)).toEqual([group.id]);
    await page.goto(`${web.base}/admin/users?login=term`);
    await page.getByRole('link', { name: 'terminologist' }).first().waitFor();
    await page.context().close();
  });
});

describe('groups and permission schemes', { timeout: 120_000 }, () => {
  it('adds members to a group and answers a stale save with the conflict dialog', async () => {
    const password = `pw-${uniqueSuffix()}-Member1`;
    const member = await admin.users.create.mutate({
      format: 'ID',
      username: 'member',
      password,
      confirmPassword: password,
    });
    const page = await adminPage();
    await page.goto(`${web.base}/admin/groups`);
    await page.getByLabel('Name', { exact: true }).fill('Editors');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Group Editors' }).first().waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByLabel('Add a member').selectOption({ label: 'member' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // Someone else renames the group meanwhile: this save carries a stale version.
    const current = await admin.groups.get.query({ id, format: 'FULL', 'include-deleted': false });
    await admin.groups.patch.mutate({
      id,
      version: current.version,
      format: 'ID',
      description: 'changed elsewhere',
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.first().waitFor();
    await dialog.getByRole('button', { name: 'Save my version over it' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    const saved = await admin.groups.get.query({ id, format: 'EDIT', 'include-deleted': false });
    expect(saved.groupMembers?.map((m) => m.id)).toEqual([member.id]);
    await page.context().close();
  });

  it('gives a group permissions in a new scheme', async () => {
    const page = await adminPage();
    await page.goto(`${web.base}/admin/permission-schemes`);
    await page.getByLabel('Name', { exact: true }).fill('Team scheme');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Permission scheme Team scheme' }).first().waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByLabel('Give permissions to a group').selectOption({ label: 'Reviewers' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const grant = page.getByRole('group', { name: 'Members of Reviewers may' });
    await grant
      .getByRole('group', { name: 'On concepts' })
      .getByRole('checkbox', { name: 'Edit concepts' })
      .check();
    await grant.getByRole('checkbox', { name: 'Edit terms' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    const scheme = await admin.permissionSchemes.get.query({ id, format: 'FULL', 'include-deleted': false });
    expect(scheme.grants).toEqual([
      expect.objectContaining({
        dictionaryPermissions: ['DICT_READ'],
        conceptPermissions: ['CONCEPT_UPDATE'],
        termPermissions: ['TERM_UPDATE'],
      }),
    ]);
    await page.context().close();
  });
});

describe('guest access', { timeout: 120_000 }, () => {
  it('asks for the guest account when guests are enabled without one, then saves', async () => {
    const page = await adminPage();
    await page.goto(`${web.base}/admin/users/guest`);
    await page.getByLabel('Guests may sign in').check();
    await page.getByLabel('Guest account', { exact: true }).fill('');
    await page
      .getByLabel('Guest account', { exact: true })
      .evaluate((input) => input.removeAttribute('required'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByLabel('Guest account', { exact: true }).fill('visitor');
    await page.getByLabel('Guest password').fill(`Guest-${uniqueSuffix()}1`);
    await page.getByLabel('Guests may comment').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    const settings = await admin.guests.get.query();
    expect(settings).toMatchObject({ enabled: true, username: 'visitor', enableCommenting: true });
    await page.context().close();
  });
});

describe('own account', { timeout: 120_000 }, () => {
  it('holds a user whose password change is forced on the password form until it is changed', async () => {
    const first = `pw-${uniqueSuffix()}-First1`;
    const second = `pw-${uniqueSuffix()}-Second1`;
    await admin.users.create.mutate({
      format: 'ID',
      username: 'forced',
      password: first,
      confirmPassword: first,
      forcePasswordChange: true,
    });
    const page = await openPage(browser, { locale: 'en-US' });
    await signInTo(page, 'forced', first);
    await page.getByRole('heading', { name: 'Choose a new password' }).first().waitFor();
    // Another screen by URL is held back too.
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Choose a new password' }).first().waitFor();
    await page.getByLabel('Current password').fill('wrong');
    await page.getByLabel('New password', { exact: true }).fill(second);
    await page.getByLabel('New password again').fill(second);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByLabel('Current password').fill(first);
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.getByRole('heading', { name: 'Choose a new password' }).count()).toBe(0);
    const forced = await clientSession('forced', second);
    expect((await forced.profile.get.query()).user.forcePasswordChange).toBe(false);
    await page.context().close();
  });

  it('changes the profile and the interface language with it', async () => {
    const page = await adminPage();
    await page.goto(`${web.base}/admin/profile`);
    // Past the browser's own check (type=email), refused by the server's.
    await page.getByLabel('E-mail').fill('chief@localhost');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await describedText(page, 'E-mail')).not.toBe('');
    await page.getByLabel('E-mail').fill('chief@example.org');
    await page.getByLabel('Interface language').selectOption('isl');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Notandasniðið þitt' }).first().waitFor();
    expect((await admin.profile.get.query()).user).toMatchObject({
      email: 'chief@example.org',
      language: 'isl',
    });
    await page.evaluate(() => localStorage.clear());
    await page.context().close();
  });
});

describe('every identity page', { timeout: 240_000 }, () => {
  it('has no serious axe findings at 1440 px and 390 px, and fits a phone', async () => {
    const users = await admin.users.list.query({ page: 0, size: 5, format: 'SHORT', login: 'terminologist' });
    const groups = await admin.groups.list.query({ page: 0, size: 50, format: 'SHORT' });
    const schemes = await admin.permissionSchemes.list.query({ page: 0, size: 5, format: 'SHORT' });
    const paths = [
      '/admin/users',
      `/admin/users/${users.content[0]!.id}`,
      '/admin/users/new',
      '/admin/users/transfer',
      '/admin/users/guest',
      '/admin/groups',
      `/admin/groups/${groups.content.find((g) => g.name === 'Editors')!.id}`,
      '/admin/permission-schemes',
      `/admin/permission-schemes/${schemes.content[0]!.id}`,
      '/admin/roles',
      '/admin/profile',
      '/admin/profile/password',
    ];
    for (const width of [1440, 390]) {
      const page = await adminPage(width);
      await page.getByRole('navigation', { name: 'Administration' }).waitFor();
      for (const path of paths) {
        await page.goto(`${web.base}${path}`);
        await page.locator('.admin-page h1').first().waitFor();
        await page.locator('.admin-page form, .admin-page table, .admin-page ul').first().waitFor();
        await expectAccessible(page, `${path} at ${width}px`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, width, overflow }).toEqual({ path, width, overflow: 0 });
      }
      await screenshot(page, `admin-roles-${width}`);
      await page.context().close();
    }
  });

  it('shows a system administrator the clients and the licence', async () => {
    const page = await openPage(browser, { locale: 'en-US' });
    await page.goto(`${web.base}/admin/clients`);
    await page.locator('input[name=username]').fill('admin');
    await page
      .locator('input[name=password]')
      .fill((await import('../helpers/constants.js')).TEST_ADMIN_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await page
      .getByRole('link', { name: `Identity ${tenant.loginName}` })
      .first()
      .waitFor();
    await expectAccessible(page, 'clients');
    await page.getByRole('link', { name: `Identity ${tenant.loginName}` }).click();
    await page.getByLabel('Most user accounts').fill('-1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await describedText(page, 'Most user accounts')).not.toBe('');
    await page.getByLabel('Most user accounts').fill('25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    expect(
      (await sysadmin.clients.get.query({ id: tenant.id, format: 'FULL', 'include-deleted': false }))
        .maxUsers,
    ).toBe(25);
    // Every page the menu names for the system administrator has a page here (the menu and pages agree).
    const sections = await Promise.all(
      (await sysadmin.ui.topMenu.query()).map((_, idx) => sysadmin.ui.sideMenu.query({ idx })),
    );
    for (const item of sections.flatMap((section) => section.items)) {
      await page.goto(`${web.base}${item.href}`);
      await page.locator('main h1').first().waitFor();
      expect({
        href: item.href,
        missing: await page.getByRole('heading', { name: 'No such page' }).count(),
      }).toEqual({
        href: item.href,
        missing: 0,
      });
    }
    await page.goto(`${web.base}/admin/license`);
    await page.getByRole('heading', { name: 'Licence', exact: true }).first().waitFor();
    await expectAccessible(page, 'licence');
    await page.context().close();
  });
});
