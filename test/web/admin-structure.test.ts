/**
 * The dictionary structure pages of the administration (docs/ui.md, "Dictionary administration"), in
 * Debian's Chromium: a client administrator of an empty client creates a dictionary and gives it
 * languages, fields with a picklist, sections and domains in the browser alone (read back over tRPC);
 * the server's messages sit beside the control they are about; a change made elsewhere opens the 409
 * dialog; copy, empty and delete; a dictionary administrator sees only what they may do; statistics;
 * axe-core at 1440 px and 390 px, and the pages in Icelandic.
 */

import { readFile } from 'node:fs/promises';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { loginSysadmin } from '../helpers/rest.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, openPage, poll } from './session.js';

let web: WebServer;
let browser: Browser;
let tenant: TestTenant;
let api: Api;
let page: Page;
let dictionaryId = 0;
const name = `Wind energy ${uniqueSuffix()}`;

async function signInTo(tab: Page, client: string, username: string, password: string) {
  await tab.getByLabel(/^Client/).fill(client);
  await tab.getByLabel('User name').fill(username);
  await tab.getByLabel('Password').fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
}

const read = (id = dictionaryId) =>
  api.dictionaries.get.query({ id, format: 'FULL', 'include-deleted': false });

beforeAll(async () => {
  ({ web, browser } = await startWebSuite({ MULTI_TENANT: 'true' }));
  tenant = await createTenant(await loginSysadmin(web.server.app));
  const login = await createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${web.base}/trpc` })],
  }).auth.login.mutate({
    client: tenant.loginName,
    username: 'admin',
    password: tenant.adminPassword,
  });
  api = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${web.base}/trpc`, headers: { 'x-auth-token': login.token!.token } })],
  });
  page = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.goto(`${web.base}/admin/dictionaries`);
  await signInTo(page, tenant.loginName, 'admin', tenant.adminPassword);
  await page.waitForURL((url) => url.pathname === '/admin/dictionaries');
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('a client administrator sets up a dictionary in the browser', { timeout: 120_000 }, () => {
  it('creates an empty dictionary and gives it languages', async () => {
    await page.getByRole('heading', { name: 'Dictionaries', level: 1 }).waitFor();
    await expectAccessible(page, 'dictionaries, empty client');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create dictionary' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/admin\/dictionaries\/\d+\/languages$/);
    dictionaryId = Number(new URL(page.url()).pathname.split('/')[3]);

    for (const code of ['eng', 'isl']) {
      await page.getByLabel('Language code').fill(code);
      await page.getByRole('button', { name: 'Add the language' }).click();
    }
    // English gets a regional variant before the first save.
    const english = page.getByRole('listitem', { name: 'eng', exact: true });
    await english.getByLabel('Kind of variant').selectOption('0');
    await english.getByLabel('Variant code').fill('GB');
    await english.getByRole('button', { name: 'Add the variant' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('listitem', { name: 'Icelandic (isl)' }).waitFor();
    await expectAccessible(page, 'languages');
    const saved = await read();
    expect(saved.name).toBe(name);
    expect(saved.languages?.map((language) => language.code).sort()).toEqual(['eng', 'isl']);
    const variants = saved.languages?.find((language) => language.code === 'eng')?.variants;
    expect(variants?.map((variant) => [variant.code, variant.type])).toEqual([['GB', 0]]);
  });

  it('adds fields with a picklist, and shows a refused limit beside its control', async () => {
    await page.getByRole('link', { name: 'Fields and picklists' }).click();
    const concept = page.getByRole('form', { name: 'Add a concept field' });
    await concept.getByLabel('Field name').fill('Definition');
    await concept.getByRole('button', { name: 'Add a concept field' }).click();
    const term = page.getByRole('form', { name: 'Add a term field' });
    await term.getByLabel('Field name').fill('Gender');
    await term.getByLabel('Type').selectOption('PICKLIST');
    await term.getByRole('button', { name: 'Add a term field' }).click();
    const gender = page.getByRole('listitem', { name: 'Gender' });
    for (const item of ['masculine', 'feminine']) {
      await gender.getByLabel('New item').fill(item);
      await gender.getByRole('button', { name: 'Add the item' }).click();
    }
    const longest = page
      .getByRole('listitem', { name: 'Definition' })
      .getByLabel('Longest value (0: no limit)');
    await longest.fill('99999');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // The server's refusal is named by the control it is about (aria-describedby), not only above the form.
    await poll(() => longest.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await longest.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toMatch(/16383|less than or equal/i);
    expect((await read()).conceptFields).toEqual([]);

    await longest.fill('500');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => (await read()).conceptFields?.map((field) => field.name)).toEqual(['Definition']);
    const saved = await read();
    expect(saved.conceptFields?.[0]?.model.maxLen).toBe(500);
    expect(saved.termFields?.[0]?.fieldType).toBe('PICKLIST');
    expect(saved.termFields?.[0]?.model.picklistItems.map((item) => item.name)).toEqual([
      'masculine',
      'feminine',
    ]);
    await page.getByRole('listitem', { name: 'Gender' }).getByText('feminine').waitFor();
    await expectAccessible(page, 'fields and picklists');
    await screenshot(page, 'admin-structure-fields');
  });

  it('offers a change made elsewhere meanwhile as a 409 dialog, and saves over it keeping the other change', async () => {
    await page.getByRole('link', { name: 'Languages' }).click();
    const english = page.getByRole('listitem', { name: 'English (eng)' });
    await english.getByLabel('Name').waitFor();
    // Someone else renames the dictionary while this page is open.
    const current = await read();
    await api.dictionaries.update.mutate({
      id: dictionaryId,
      version: current.version,
      format: 'ID',
      name: `${name} (renamed)`,
      languages: current.languages!.map((l) => ({
        id: l.id,
        code: l.code,
        name: l.name,
        variants: l.variants.map((v) => ({ id: v.id, code: v.code, type: v.type })),
      })),
      conceptFields: current.conceptFields!.map((f) => ({ id: f.id, name: f.name, fieldType: f.fieldType })),
      termFields: current.termFields!.map((f) => ({
        id: f.id,
        name: f.name,
        fieldType: f.fieldType,
        model: { ...f.model, picklistItems: f.model.picklistItems.map((i) => ({ id: i.id, name: i.name })) },
      })),
    } as Parameters<typeof api.dictionaries.update.mutate>[0]);
    await english.getByLabel('Name').fill('English (UK)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Someone else changed this' });
    await dialog.waitFor();
    await expectAccessible(page, 'structure conflict dialog');
    await screenshot(page, 'admin-structure-conflict');
    await dialog.getByRole('button', { name: 'Save my version over it' }).click();
    await poll(async () => (await read()).languages?.find((l) => l.code === 'eng')?.name).toBe(
      'English (UK)',
    );
    expect((await read()).name).toBe(`${name} (renamed)`);
  });

  it('adds, renames and deletes sections, and builds a domain tree', async () => {
    await page.getByRole('link', { name: 'Sections' }).click();
    await page.getByRole('heading', { name: 'Add a section' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Offshore');
    await page.getByRole('button', { name: 'Add the section' }).click();
    const offshore = page.getByRole('listitem', { name: 'Offshore' });
    await offshore.getByRole('button', { name: 'Rename Offshore' }).click();
    await offshore.getByLabel('New name').fill('Offshore wind');
    await offshore.getByRole('button', { name: 'Save' }).click();
    const sections = async () =>
      (
        await api.sections.list.query({
          'dictionary-id': dictionaryId,
          format: 'FULL',
          page: 0,
          'include-deleted': false,
        })
      ).content
        .map((section) => section.name)
        .sort();
    await poll(sections).toEqual([`${name}`, 'Offshore wind'].sort());
    await expectAccessible(page, 'sections');
    const renamed = page.getByRole('listitem', { name: 'Offshore wind' });
    await renamed.getByRole('button', { name: 'Delete' }).click();
    await renamed.getByRole('button', { name: 'Delete' }).click();
    await poll(sections).toEqual([name]);

    await page.getByRole('link', { name: 'Domains' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Turbines');
    await page.getByRole('button', { name: 'Add the domain' }).click();
    await page.getByRole('listitem', { name: 'Turbines' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Blades');
    await page.getByLabel('Under').selectOption({ label: 'Turbines' });
    await page.getByRole('button', { name: 'Add the domain' }).click();
    await page.getByRole('listitem', { name: 'Blades' }).waitFor();
    const domains = (
      await api.domains.list.query({
        'dictionary-id': dictionaryId,
        format: 'FULL',
        page: 0,
        'include-deleted': false,
      })
    ).content;
    const turbines = domains.find((domain) => domain.name === 'Turbines')!;
    expect(domains.find((domain) => domain.name === 'Blades')?.parentDomainId).toBe(turbines.id);
    // A domain with subdomains says why it cannot go instead of offering Delete.
    await page.getByRole('listitem', { name: 'Turbines' }).getByText('Has subdomains').waitFor();
    await expectAccessible(page, 'domains');
  });

  it('refuses a second dictionary of the same name beside the Create button', async () => {
    await page.goto(`${web.base}/admin/dictionaries`);
    await page.getByLabel('Name', { exact: true }).fill(`${name} (renamed)`);
    await page.getByRole('button', { name: 'Create dictionary' }).click();
    await page
      .locator('#create-dictionary-problems')
      .getByText(/exists|already|taken/i)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/dictionaries');
  });
});

describe('copy, empty and delete at 390 px', { timeout: 120_000 }, () => {
  it('copies a dictionary, empties it and deletes it', async () => {
    const phone = await openPage(browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(`${web.base}/admin/dictionaries`);
    await signInTo(phone, tenant.loginName, 'admin', tenant.adminPassword);
    const original = phone.getByRole('listitem', { name: `${name} (renamed)` });
    await original.getByRole('button', { name: 'Copy' }).click();
    await original.getByLabel('Name of the copy').fill(`Copy ${name}`);
    await original.getByRole('button', { name: 'Make the copy' }).click();
    const copy = phone.getByRole('listitem', { name: `Copy ${name}` });
    await copy.waitFor();
    await expectAccessible(phone, 'dictionaries at 390 px');
    await screenshot(phone, 'admin-structure-dictionaries-phone');
    expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    const copied = (
      await api.dictionaries.list.query({ page: 0, format: 'FULL', 'include-deleted': false })
    ).content.find((dictionary) => dictionary.name === `Copy ${name}`)!;
    expect(copied.languages?.map((language) => language.code).sort()).toEqual(['eng', 'isl']);

    await copy.getByRole('button', { name: 'Empty' }).click();
    await copy.getByRole('button', { name: 'Erase the content' }).click();
    await phone.getByText(`Emptied Copy ${name}.`).waitFor();

    await phone
      .getByRole('listitem', { name: `Copy ${name}` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expectAccessible(phone, 'delete question at 390 px');
    await phone.getByRole('button', { name: 'Delete the dictionary' }).click();
    await phone.getByText(`Deleted Copy ${name}.`).waitFor();
    await poll(() => phone.getByRole('listitem', { name: `Copy ${name}` }).count()).toBe(0);
    await expect(read(copied.id)).rejects.toThrow();

    await phone.goto(`${web.base}/admin/dictionaries/${dictionaryId}/fields`);
    await phone.getByRole('listitem', { name: 'Gender' }).waitFor();
    await expectAccessible(phone, 'fields at 390 px');
    expect(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await phone.context().close();
  });
});

describe('permissions', { timeout: 120_000 }, () => {
  it('shows a dictionary administrator only their dictionary, without create and copy', async () => {
    const other = await api.dictionaries.create.mutate({ format: 'FULL', name: `Other ${uniqueSuffix()}` });
    const user = await createUser(web.server.orm, tenant.id, {
      roles: [`DICTIONARY_ADMIN@${other.oid ?? other.id}`],
    });
    const tab = await openPage(browser);
    await tab.goto(`${web.base}/admin/dictionaries`);
    await signInTo(tab, tenant.loginName, user.username, user.password);
    const mine = tab.getByRole('listitem', { name: other.name! });
    await mine.waitFor();
    expect(await tab.getByRole('listitem', { name: `${name} (renamed)` }).count()).toBe(0);
    expect(await tab.getByRole('button', { name: 'Create dictionary' }).count()).toBe(0);
    expect(await mine.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    expect(await mine.getByRole('button', { name: 'Rename' }).count()).toBe(1);
    await tab.context().close();
  });
  it("follows a permission scheme's grant to a group: its member changes the dictionary's structure", async () => {
    // Administrator of this dictionary by a scheme's DICT_UPDATE grant to a group, without any role.
    const member = await createUser(web.server.orm, tenant.id);
    const group = await api.groups.create.mutate({
      format: 'ID',
      name: `Granted ${uniqueSuffix()}`,
      groupMembers: [member.id],
    });
    const scheme = await api.permissionSchemes.create.mutate({
      format: 'ID',
      name: `Structure editors ${uniqueSuffix()}`,
      grants: [{ groupId: group.id, dictionaryPermissions: ['DICT_READ', 'DICT_UPDATE'] }],
    });
    const granted = await api.dictionaries.create.mutate({
      format: 'FULL',
      name: `Granted ${uniqueSuffix()}`,
      permissionSchemeId: scheme.id,
    });
    const tab = await openPage(browser);
    await tab.goto(`${web.base}/search`);
    await signInTo(tab, tenant.loginName, member.username, member.password);
    await tab.getByRole('link', { name: 'Administration' }).click();
    const nav = tab.getByRole('navigation', { name: 'Administration' });
    await nav.getByRole('link', { name: 'Dictionaries' }).first().waitFor();
    const mine = tab.getByRole('listitem', { name: granted.name! });
    await mine.waitFor();
    expect(await tab.getByRole('listitem', { name: `${name} (renamed)` }).count()).toBe(0);
    expect(await tab.getByRole('button', { name: 'Create dictionary' }).count()).toBe(0);
    expect(await mine.getByRole('button', { name: 'Rename' }).count()).toBe(1);

    await tab.goto(`${web.base}/admin/dictionaries/${granted.id}/sections`);
    await tab.getByRole('heading', { name: 'Add a section' }).waitFor();
    await tab.getByLabel('Name', { exact: true }).fill('Granted section');
    await tab.getByRole('button', { name: 'Add the section' }).click();
    await tab.getByRole('listitem', { name: 'Granted section' }).waitFor();
    const sections = await api.sections.list.query({
      'dictionary-id': granted.id,
      format: 'FULL',
      page: 0,
      'include-deleted': false,
    });
    expect(sections.content.map((section) => section.name)).toContain('Granted section');
    await tab.context().close();
  });

  it('shows a user who may administer nothing no Administration link, only their account', async () => {
    const plain = await createUser(web.server.orm, tenant.id);
    const tab = await openPage(browser);
    await tab.goto(`${web.base}/search`);
    await signInTo(tab, tenant.loginName, plain.username, plain.password);
    const account = tab.getByRole('link', { name: 'My account' });
    await account.waitFor();
    expect(await tab.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await account.click();
    await tab.getByRole('heading', { name: 'Your profile' }).waitFor();
    await tab.context().close();
  });
});

describe('statistics and the definition import', { timeout: 120_000 }, () => {
  it('shows the totals, the sessions online and a month', async () => {
    await page.goto(`${web.base}/admin/statistics`);
    await page.getByText('Visits').first().waitFor();
    await expectAccessible(page, 'statistics');
    await page.getByRole('link', { name: 'Online users' }).first().click();
    await page.getByRole('cell', { name: 'admin' }).first().waitFor();
    await expectAccessible(page, 'online users');
    await page.goto(`${web.base}/admin/statistics/month?year=2026&month=3`);
    await page.getByRole('heading', { name: /March 2026/ }).waitFor();
    await expectAccessible(page, 'statistics of a month');
  });

  it('imports an exported definition as a new dictionary', async () => {
    // The definition leaves through the browser too: Export, then the download link.
    await page.goto(`${web.base}/admin/dictionaries/${dictionaryId}/languages`);
    await page.getByRole('button', { name: 'Export the definition' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: /^Download .*-definition\.xml$/ }).click();
    const download = await downloading;
    const exported = await readFile((await download.path())!, 'utf8');
    const target = `Imported ${uniqueSuffix()}`;
    const xml = exported.replace(/(<dictionary\b[^>]*\bname=")[^"]*"/, `$1${target}"`);
    expect(xml).toContain(`name="${target}"`);
    await page.goto(`${web.base}/admin/dictionaries/import`);
    // A file that is no definition is refused beside the file control, and nothing is opened.
    const fileControl = page.getByLabel('Definition file (XML)');
    await fileControl.setInputFiles({
      name: 'broken.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from('<nope/>'),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await poll(() => fileControl.getAttribute('aria-describedby')).toBe('definition-problems');
    expect(await page.locator('#definition-problems').textContent()).not.toBe('');
    await fileControl.setInputFiles({
      name: 'definition.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(xml),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await page.getByText('The file is valid.').waitFor();
    await expectAccessible(page, 'definition import');
    await page.getByLabel('Write it into').selectOption('new');
    await page.getByRole('button', { name: 'Import the definition' }).click();
    await page.getByText('The dictionary was created.').waitFor();
    await page.getByRole('link', { name: 'Open its languages' }).click();
    await page.getByRole('listitem', { name: 'English (UK) (eng)' }).waitFor();
  });
  it('shows what a definition holds, then imports its filters too, asking for a group it lacks', async () => {
    const groupName = `Filter readers ${uniqueSuffix()}`;
    const group = await api.groups.create.mutate({ format: 'ID', name: groupName });
    await api.filters.create.mutate({ format: 'ID', name: 'Mine only', dictionaryId, criteria: {} });
    await api.filters.create.mutate({
      format: 'ID',
      name: 'For the readers',
      dictionaryId,
      visibility: 'GROUP',
      groupId: group.id,
      criteria: {},
    });
    const exported = await api.dictionaryDefinitions.exportXml.query({
      id: dictionaryId,
      'include-filters': true,
    });
    const target = `With filters ${uniqueSuffix()}`;
    // The group is named otherwise in the file: the import asks what stands for it here.
    const gone = `Gone ${uniqueSuffix()}`;
    const xml = exported.xml
      .replace(/(<dictionary\b[^>]*\bname=")[^"]*"/, `$1${target}"`)
      .replaceAll(groupName, gone);
    expect(xml).toContain(gone);

    await page.goto(`${web.base}/admin/dictionaries/import`);
    await page.getByLabel('Definition file (XML)').setInputFiles({
      name: 'definition.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(xml),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    const holds = page.locator('dl[aria-label="What the file holds"]');
    await holds.waitFor();
    await expect.poll(() => holds.innerText()).toMatch(/Languages\s*eng, isl/);
    expect(await holds.innerText()).toMatch(
      /Filters\s*Mine only, For the readers|Filters\s*For the readers, Mine only/,
    );
    await page.getByLabel('Import its 2 filters too').waitFor();
    await page.getByLabel('Write it into').selectOption('new');
    await page.getByRole('button', { name: 'Import the definition' }).click();
    const mapping = page.getByRole('group', { name: 'Users, groups and fields the filters need' });
    await mapping.getByLabel(`Group ${gone}`).selectOption(String(group.id));
    await expectAccessible(page, 'definition import, filter mapping');
    await mapping.getByRole('button', { name: 'Import the filters' }).click();
    await page.getByText('Filters imported: 2, skipped: 0.').waitFor();

    const created = (
      await api.dictionaries.list.query({ page: 0, size: 500, format: 'SHORT', 'include-deleted': false })
    ).content.find((d) => d.name === target)!;
    const filters = await api.filters.list.query({ page: 0, format: 'FULL', dictionary_id: created.id });
    expect(filters.content.map((f) => [f.name, f.groupId ?? null]).sort()).toEqual(
      [
        ['For the readers', group.id],
        ['Mine only', null],
      ].sort(),
    );
  });
});

describe('in Icelandic', { timeout: 120_000 }, () => {
  it('shows the structure pages from the Icelandic catalogue', async () => {
    await page.evaluate("localStorage.setItem('polyterm.interfaceLanguage', 'is')");
    await page.goto(`${web.base}/admin/dictionaries/${dictionaryId}/languages`);
    await page.getByRole('link', { name: 'Svið og vallistar' }).waitFor();
    await page.getByRole('button', { name: 'Bæta tungumálinu við' }).waitFor();
    await expectAccessible(page, 'languages in Icelandic');
    await page.evaluate("localStorage.removeItem('polyterm.interfaceLanguage')");
  });
});
