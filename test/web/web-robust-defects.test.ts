/**
 * Defects of issue 36 ("Other defects"), in Debian's Chromium, each failing on the code before: a double
 * click on Import imports once; a concept link naming the search language twice shows its column once;
 * a history restore asks before it rewrites the concept; actions are offered only to who may use them.
 * One server and one browser for the file.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { createUser, uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId = 0;
let conceptId = 0;
let answer: 'accept' | 'dismiss' = 'dismiss';
const asked: string[] = [];

const read = () =>
  api.concepts.get.query({ id: conceptId, format: 'FULL', 'with-comments': false, 'include-deleted': false });

const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>web test</p></sourceDesc></fileDesc></tbxHeader>
<text><body><conceptEntry id="d1"><langSec xml:lang="en"><termSec><term>double one</term></termSec></langSec></conceptEntry></body></text></tbx>`;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Defects ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  const created = await api.concepts.create.mutate({
    format: 'FULL',
    dictionaryId,
    sectionOid: dictionary.sections![0]!.oid!,
    terms: [
      { name: 'valve', languageCode: 'eng' },
      { name: 'Ventil', languageCode: 'deu' },
    ],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  conceptId = created.id!;
  await api.concepts.patch.mutate({
    id: conceptId,
    version: created.version!,
    format: 'ID',
    'with-comments': false,
    terms: created.terms!.map((term) => ({
      id: term.id,
      name: term.name === 'valve' ? 'ball valve' : term.name,
      languageCode: term.languageCode,
    })),
  } as Parameters<typeof api.concepts.patch.mutate>[0]);
  page = await openPage(browser);
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('other defects', { timeout: 120_000 }, () => {
  it('imports once on a double click of Import', async () => {
    await page.goto(`${web.base}/tbx`);
    await signIn(page);
    const name = `Double ${uniqueSuffix()}`;
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'double.tbx', mimeType: 'application/xml', buffer: Buffer.from(tbx) });
    await page.getByLabel('Name of the new dictionary').fill(name);
    await page.getByRole('button', { name: 'Import', exact: true }).dblclick();
    await page.getByText('Imported: 1 concept').waitFor({ timeout: 60_000 });
    const named = async () =>
      (
        await api.dictionaries.list.query({ page: 0, size: 500, format: 'SHORT', 'include-deleted': false })
      ).content.filter((dictionary) => dictionary.name === name).length;
    expect(await named()).toBe(1);
    // The new dictionary is offered for export at once (the list was the one read before the import).
    await page.getByRole('option', { name, exact: true }).first().waitFor({ state: 'attached' });
    await expectAccessible(page, 'import after a double click');
  });

  it('lists on Import and export a dictionary created since the list was first read', async () => {
    // Search reads the list of dictionaries (which the session kept until now).
    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    await page.getByRole('searchbox').first().waitFor();
    const name = `Later ${uniqueSuffix()}`;
    await api.dictionaries.create.mutate({ format: 'FULL', name, languages: [{ code: 'eng' }] } as Parameters<
      typeof api.dictionaries.create.mutate
    >[0]);
    await page.getByRole('navigation').getByRole('link', { name: 'Import and export' }).click();
    await page.getByRole('option', { name, exact: true }).first().waitFor({ state: 'attached' });
  });

  it('keeps the letters of an Icelandic dictionary name in the export file name (filename*)', async () => {
    const name = `Orðabók þýðinga ${uniqueSuffix()}`;
    const created = await api.dictionaries.create.mutate({
      format: 'FULL',
      name,
      languages: [{ code: 'eng' }],
    } as Parameters<typeof api.dictionaries.create.mutate>[0]);
    await page.goto(`${web.base}/tbx?d=${created.id}`);
    await page.getByRole('button', { name: 'Prepare the export' }).click();
    const link = page.getByRole('link', { name: /^Download / });
    await link.waitFor();
    expect(await link.getAttribute('download')).toMatch(/^Orðabók þýðinga/);
  });

  it('shows the search language once when a link names it twice', async () => {
    await page.goto(`${web.base}/search?q=ball&d=${dictionaryId}&lang=eng&cols=eng,deu`);
    const link = page.getByRole('link', { name: 'ball valve' });
    await link.waitFor();
    expect(new URL((await link.getAttribute('href'))!, web.base).searchParams.get('langs')).toBe('eng,deu');
    await page.goto(`${web.base}/concepts/${conceptId}?langs=eng,deu,eng`);
    await page.getByRole('region', { name: 'German' }).waitFor();
    expect(await page.getByRole('region', { name: 'English' }).count()).toBe(1);
  });

  it('asks before a history restore, and restores only when confirmed', async () => {
    await page.getByRole('tab', { name: 'History' }).click();
    const restore = page.getByRole('button', { name: /^Restore version/ }).last();
    const before = (await read()).version;
    answer = 'dismiss';
    await restore.click();
    await poll(() => asked).toEqual([expect.stringMatching(/^Restore revision 1\?/)]);
    expect((await read()).version).toBe(before);

    answer = 'accept';
    await restore.click();
    await poll(async () => (await read()).terms?.map((term) => term.name).sort()).toEqual([
      'Ventil',
      'valve',
    ]);
  });

  it('offers a reader no action they may not use, and an editor every one', async () => {
    // A reader: reads the dictionary and its history, nothing more. The editor is the administrator.
    const me = await api.ui.sessionData.query();
    const reader = await createUser(web.server.orm, me.user.clientId!, {});
    const readers = await api.groups.create.mutate({
      format: 'FULL',
      name: `Readers ${uniqueSuffix()}`,
      groupMembers: [reader.id],
    } as Parameters<typeof api.groups.create.mutate>[0]);
    const scheme = await api.permissionSchemes.create.mutate({
      format: 'FULL',
      name: `Read only ${uniqueSuffix()}`,
      grants: [
        {
          groupId: readers.id!,
          dictionaryPermissions: ['DICT_READ'],
          conceptPermissions: ['CONCEPT_VIEW_HISTORY'],
          termPermissions: [],
          languages: [],
        },
      ],
    } as Parameters<typeof api.permissionSchemes.create.mutate>[0]);
    const dictionary = await api.dictionaries.create.mutate({
      format: 'FULL',
      name: `Rights ${uniqueSuffix()}`,
      languages: [{ code: 'eng' }],
      permissionSchemeId: scheme.id!,
    } as Parameters<typeof api.dictionaries.create.mutate>[0]);
    const created = await api.concepts.create.mutate({
      format: 'FULL',
      dictionaryId: dictionary.id!,
      sectionOid: dictionary.sections![0]!.oid!,
      terms: [{ name: 'gate valve', languageCode: 'eng' }],
    } as Parameters<typeof api.concepts.create.mutate>[0]);
    await api.concepts.patch.mutate({
      id: created.id!,
      version: created.version!,
      format: 'ID',
      'with-comments': false,
      terms: [{ id: created.terms![0]!.id, name: 'gate valves', languageCode: 'eng' }],
    } as Parameters<typeof api.concepts.patch.mutate>[0]);
    await api.comments.create.mutate({ 'entry-id': created.id!, text: 'Check the plural.' });
    // A workflow that only the system administrator moves, whose drafts readers see (published).
    const definition = defaultDefinition();
    for (const transition of definition.transitions) transition.roles = ['SYSADMIN'];
    for (const state of definition.states) Object.assign(state, { unpublished: false, hidden: false });
    await api.workflows.create.mutate({
      format: 'FULL',
      name: 'Admin review',
      dictionaryId: dictionary.id!,
      unit: 'CONCEPT',
      enabled: true,
      definition,
    });

    const check = async (who: Page, editor: boolean) => {
      // Each action: none for the reader, at least one for the editor.
      const offered = async (locator: Locator) => {
        if (editor) expect(await locator.count()).toBeGreaterThan(0);
        else expect(await locator.count()).toBe(0);
      };
      await who.goto(`${web.base}/concepts/${created.id}`);
      await who.getByRole('heading', { name: /gate valves/ }).waitFor();
      // What the session data and the permissions say arrives after the concept: wait for the editor's.
      if (editor) await who.getByRole('link', { name: 'New concept' }).waitFor();
      await who.locator('.workflow-entry').waitFor();
      await offered(who.getByRole('button', { name: 'Edit', exact: true }));
      await offered(who.getByRole('button', { name: 'Delete concept' }));
      await offered(who.getByRole('link', { name: 'New concept' }));
      await offered(who.locator('.workflow-entry button'));
      await who.getByRole('tab', { name: 'Comments' }).click();
      await who.getByText('Check the plural.').waitFor();
      await offered(who.getByRole('button', { name: /^Delete comment by/ }));
      await who.getByRole('tab', { name: 'History' }).click();
      await who.locator('.history-item').nth(1).waitFor();
      await offered(who.getByRole('button', { name: /^Restore version/ }));
      if (!editor) await expectAccessible(who, "a reader's concept view");
      // Bulk transitions on the search results: only where the caller may fire one.
      await who.goto(`${web.base}/search?q=gate&d=${dictionary.id}`);
      await who.getByRole('link', { name: 'gate valves' }).waitFor();
      if (editor) await who.getByRole('heading', { name: 'Workflow on the results' }).waitFor();
      await offered(who.getByRole('heading', { name: 'Workflow on the results' }));
    };

    const readerPage = await openPage(browser);
    await readerPage.goto(`${web.base}/signin`);
    await signIn(readerPage, reader.username, reader.password);
    await readerPage.getByRole('navigation').waitFor();
    await check(readerPage, false);
    await readerPage.context().close();

    const editorPage = await openPage(browser);
    await editorPage.goto(`${web.base}/signin`);
    await signIn(editorPage);
    await editorPage.getByRole('navigation').waitFor();
    await check(editorPage, true);
    await editorPage.context().close();
  });
});
