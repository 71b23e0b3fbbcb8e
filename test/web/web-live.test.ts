/**
 * Live updates in the web application (issue 42, docs/events.md "Live updates in the web application"),
 * in Debian's Chromium with two signed-in users: while Ada has a concept open, Ben changes it through
 * the API. In the view Ada sees at once who changed what and the new value; in the editor her unsaved
 * edit stays, "Compare" shows Ben's version beside hers and a save is still refused by the version
 * check. The banner is axe-clean at 1440 and 390 px. A lock lasts 3 s here, so Ben may save while Ada's
 * editor is open (as after a lunch break); the editor renews only every 4 minutes.
 * One server and one browser; the steps run in order.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let ada: Page;
let ben: Page;
let benApi: Api;
let conceptId = 0;
let definition = '';
const people = { ada: '', ben: '', password: '', adaId: 0 };
let dictionaryId = 0;

const read = () =>
  benApi.concepts.get.query({
    id: conceptId,
    format: 'FULL',
    'with-comments': false,
    'include-deleted': false,
  });

/** Ben's change: the definition (a concept field) and the English term renamed. */
async function benChanges(text: string, term: string): Promise<void> {
  const now = await read();
  await benApi.concepts.patch.mutate({
    id: conceptId,
    version: now.version ?? 0,
    format: 'ID',
    'with-comments': false,
    fieldMap: { [definition]: [text] },
    terms: (now.terms ?? []).map((t) => ({
      id: t.id,
      name: t.languageCode === 'eng' ? term : t.name,
      languageCode: t.languageCode,
    })),
  } as Parameters<typeof benApi.concepts.patch.mutate>[0]);
}

beforeAll(async () => {
  ({ web, browser } = await startWebSuite({ CONCEPT_LOCK_TIMEOUT: '3' }));
  const { api } = await apiSession(web.base);
  const suffix = uniqueSuffix();
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Live ${suffix}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [{ name: 'Definition', fieldType: 'MULTILINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  definition = dictionary.conceptFields!.find((f) => f.name === 'Definition')!.oid!;
  conceptId = (
    await api.concepts.create.mutate({
      format: 'ID',
      dictionaryId: dictionary.id!,
      sectionOid: dictionary.sections![0]!.oid!,
      fieldMap: { [definition]: ['A valve controls a flow.'] },
      terms: [
        { name: 'valve', languageCode: 'eng' },
        { name: 'Ventil', languageCode: 'deu' },
      ],
    } as Parameters<typeof api.concepts.create.mutate>[0])
  ).id!;
  people.password = `Live-${suffix}-pw1`;
  people.ada = `ada${suffix}`;
  people.ben = `ben${suffix}`;
  dictionaryId = dictionary.id!;
  for (const [username, fullName] of [
    [people.ada, 'Ada Lovelace'],
    [people.ben, 'Ben Franklin'],
  ] as const) {
    const user = await api.users.create.mutate({
      format: 'ID',
      username,
      fullName,
      password: people.password,
      confirmPassword: people.password,
      roles: [`DICTIONARY_ADMIN@${dictionary.oid ?? dictionary.id}`],
    } as Parameters<typeof api.users.create.mutate>[0]);
    if (username === people.ada) people.adaId = user.id!;
  }
  ({ api: benApi } = await apiSession(web.base, people.ben, people.password));
  ada = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  ben = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const banner = (page: Page) => page.locator('.live-banner');
/** The live stream is open (the app marks it on the document once the stream's headers came). */
const streaming = (page: Page) =>
  poll(() => page.evaluate(() => document.documentElement.dataset.live)).toBe('open');

async function checkBothWidths(page: Page, screen: string, shot: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectAccessible(page, `${screen} at ${width} px`);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      `${screen} at ${width} px scrolls sideways`,
    ).toBe(true);
    await screenshot(page, width === 390 ? `${shot}-phone` : shot);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('live updates', { timeout: 180_000 }, () => {
  it('the view shows at once who changed the concept and what, with the new values', async () => {
    await ada.goto(`${web.base}/concepts/${conceptId}`);
    await signIn(ada, people.ada, people.password);
    await ben.goto(`${web.base}/concepts/${conceptId}`);
    await signIn(ben, people.ben, people.password);
    await ada.getByRole('heading', { name: /valve/ }).waitFor();
    await ben.getByRole('heading', { name: /valve/ }).waitFor();
    await streaming(ada);
    await streaming(ben);

    const started = Date.now();
    await benChanges('A valve controls the flow of a fluid.', 'valve body');
    // The view reloads by itself: the new definition and term, and a polite notice naming Ben.
    await expect
      .poll(() => banner(ada).textContent(), { timeout: 10_000, interval: 100 })
      .toContain('Ben Franklin changed this concept.');
    console.info(`live: the view showed Ben's change ${Date.now() - started} ms after his save began`);
    const text = (await banner(ada).textContent()) ?? '';
    expect(text).toContain('changed: field · Definition');
    expect(text).toMatch(/changed: term · “valve body”/);
    await poll(() => ada.locator('main').textContent()).toContain('A valve controls the flow of a fluid.');
    await ada.getByRole('heading', { name: /valve body/ }).waitFor();
    // The notice is inside a polite live region.
    const region = ada.locator('.live-banner-region');
    expect(await region.getAttribute('role')).toBe('status');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    // Ben's own page says nothing about his own change, though it reloads with it too.
    await ben.reload();
    await ben.getByRole('heading', { name: /valve body/ }).waitFor();
    expect(await banner(ben).count()).toBe(0);

    await checkBothWidths(ada, 'live change in the view', 'live-view');
    await ada.getByRole('button', { name: 'Dismiss' }).click();
    await poll(() => banner(ada).count()).toBe(0);
  });

  it("the editor keeps Ada's unsaved edit, offers Ben's version to compare, and the save is still checked", async () => {
    await ada.getByRole('button', { name: 'Edit', exact: true }).click();
    const definitionBox = ada.getByLabel('Definition');
    await definitionBox.first().waitFor();
    await definitionBox.first().fill("Ada's definition: a device that regulates a flow.");
    // Ada's lock lapses (3 s here); Ben saves meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    await benChanges('A valve regulates the flow of a fluid.', 'valve');

    await expect
      .poll(() => banner(ada).textContent(), { timeout: 10_000, interval: 100 })
      .toContain('Ben Franklin changed this concept. Your unsaved edits are kept.');
    expect(await definitionBox.first().inputValue()).toBe(
      "Ada's definition: a device that regulates a flow.",
    );
    await checkBothWidths(ada, 'live change in the editor', 'live-editor');

    // Compare: Ben's version beside Ada's, in the conflict dialog; closing it keeps her edit.
    await ada.getByRole('button', { name: 'Compare with their version' }).click();
    const dialog = ada.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('A valve regulates the flow of a fluid.');
    expect(await dialog.textContent()).toContain("Ada's definition: a device that regulates a flow.");
    await ada.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect(await definitionBox.first().inputValue()).toBe(
      "Ada's definition: a device that regulates a flow.",
    );

    // Saving over Ben's version unseen is still refused by the version check: the dialog opens again.
    await ada.getByRole('button', { name: 'Save', exact: true }).click();
    await ada.getByRole('dialog').waitFor();
    expect((await read()).fieldMap?.[definition]).toEqual(['A valve regulates the flow of a fluid.']);
  });

  it("a project's page and the task inbox refresh by themselves when Ben assigns work", async () => {
    const project = await benApi.projects.create.mutate({
      format: 'FULL',
      name: `Launch ${uniqueSuffix()}`,
      dictionaryIds: [dictionaryId],
      languages: ['eng', 'deu'],
    } as Parameters<typeof benApi.projects.create.mutate>[0]);
    const assignments = ada.locator('table.assignments tbody tr');
    await ada.goto(`${web.base}/projects/${project.id}`);
    await ada.getByRole('heading', { name: project.name! }).waitFor();
    await streaming(ada);
    expect(await assignments.count()).toBe(0);
    await benApi.projects.createAssignment.mutate({
      id: project.id!,
      type: 'TRANSLATION',
      languageCode: 'deu',
      assigneeUserId: people.adaId,
    } as Parameters<typeof benApi.projects.createAssignment.mutate>[0]);
    await expect.poll(() => assignments.count(), { timeout: 10_000, interval: 100 }).toBe(1);

    await ada.goto(`${web.base}/inbox`);
    await ada.getByRole('heading', { name: 'My assignments' }).waitFor();
    await poll(() => assignments.count()).toBe(1);
    await streaming(ada);
    await benApi.projects.createAssignment.mutate({
      id: project.id!,
      type: 'TRANSLATION',
      languageCode: 'eng',
      assigneeUserId: people.adaId,
    } as Parameters<typeof benApi.projects.createAssignment.mutate>[0]);
    await expect.poll(() => assignments.count(), { timeout: 10_000, interval: 100 }).toBe(2);

    // Signing out closes the stream.
    await ada.getByRole('button', { name: 'Sign out' }).click();
    await ada.getByLabel('User name').waitFor();
    await poll(() => ada.evaluate(() => document.documentElement.dataset.live)).toBe('closed');
  });
});
