/**
 * Workflow defects of issue 36, in Debian's Chromium: a workflow move while the concept is edited is no
 * conflict (it counts a version, changes no value) while a real change still opens the dialog; the task
 * inbox lists open tasks only; a result row's workflow style belongs to the matched term's language, not
 * to the other languages' columns. One server and one browser for the file; the steps share one page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId = 0;
const ids = { valve: 0, pump: 0, gasket: 0 };

const read = (id: number) =>
  api.concepts.get.query({ id, format: 'FULL', 'with-comments': false, 'include-deleted': false });
/** Fires a transition on a language's entry from the API (another session: a reviewer elsewhere). */
async function fire(conceptId: number, languageCode: string, transition: string) {
  const entries = await api.workflows.conceptStates.query({ conceptId });
  const entry = entries.entries.find((e) => e.languageCode === languageCode)!;
  await api.workflows.fire.mutate({ conceptId, languageCode, transition, version: entry.version });
}

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const me = await api.ui.sessionData.query();
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Robust flow ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  const create = async (english: string, german: string) =>
    (
      await api.concepts.create.mutate({
        format: 'ID',
        dictionaryId,
        sectionOid: dictionary.sections![0]!.oid!,
        terms: [
          { name: english, languageCode: 'eng' },
          { name: german, languageCode: 'deu' },
        ],
      } as Parameters<typeof api.concepts.create.mutate>[0])
    ).id!;
  ids.valve = await create('valve', 'Ventil');
  ids.pump = await create('pump', 'Pumpe');
  ids.gasket = await create('gasket', 'Dichtung');
  // The default workflow, whose submit assigns the entry to the administrator, who may also review.
  const definition = defaultDefinition();
  definition.transitions.find((t) => t.key === 'submit')!.actions = [{ type: 'ASSIGN', userId: me.user.id! }];
  for (const transition of definition.transitions) transition.roles.push('SYSADMIN');
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review',
    dictionaryId,
    unit: 'LANGUAGE',
    enabled: true,
    definition,
  });
  // Pump in German: submitted and approved (done, no style); gasket in English: submitted (open).
  await fire(ids.pump, 'deu', 'submit');
  await fire(ids.pump, 'deu', 'approve');
  await fire(ids.gasket, 'eng', 'submit');
  page = await openPage(browser);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('workflow items', { timeout: 120_000 }, () => {
  it('saves over a workflow move made meanwhile, without a conflict dialog', async () => {
    await page.goto(`${web.base}/concepts/${ids.valve}?langs=eng,deu`);
    await signIn(page);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Term', exact: true }).first().fill('ball valve');
    const before = (await read(ids.valve)).version!;
    await fire(ids.valve, 'eng', 'submit');
    expect((await read(ids.valve)).version).toBeGreaterThan(before);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await poll(async () => (await read(ids.valve)).terms?.map((term) => term.name).sort()).toEqual([
      'Ventil',
      'ball valve',
    ]);
  });

  it('still opens the dialog when the content changed meanwhile', async () => {
    // Changed by someone else while this page shows the version before.
    const current = await read(ids.valve);
    await api.concepts.patch.mutate({
      id: ids.valve,
      version: current.version!,
      format: 'ID',
      'with-comments': false,
      terms: current.terms!.map((term) => ({
        id: term.id,
        name: term.name === 'Ventil' ? 'Absperrventil' : term.name,
        languageCode: term.languageCode,
      })),
    } as Parameters<typeof api.concepts.patch.mutate>[0]);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Term', exact: true }).first().fill('gate valve');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Cancel and release the lock' }).click();
  });

  it('lists open tasks only in the inbox', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Tasks' }).click();
    // The submitted gasket and valve are open; the approved pump is done, though still assigned.
    await page.locator(`table.inbox a[href="/concepts/${ids.gasket}"]`).waitFor();
    expect(await page.locator(`table.inbox a[href="/concepts/${ids.pump}"]`).count()).toBe(0);
    expect(await page.locator('table.inbox tbody tr').count()).toBe(2);
    await expectAccessible(page, 'inbox with open tasks');
  });

  it("styles a result's matched term by its own language's state, not the other columns", async () => {
    await page.goto(`${web.base}/search?q=pump&d=${dictionaryId}&lang=eng&cols=deu`);
    const row = page.getByRole('row').filter({ hasText: 'Pumpe' });
    await row.waitFor();
    const fontStyle = (cell: string) =>
      row
        .locator(cell)
        .first()
        .evaluate((element) => getComputedStyle(element).fontStyle);
    // English is suggested (italic); German is approved (no style).
    expect(await fontStyle('th')).toBe('italic');
    expect(await fontStyle('td')).toBe('normal');
  });
});
