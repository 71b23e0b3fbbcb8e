/**
 * The remaining structure pages in Debian's Chromium: views and filters, stemming settings, a
 * dictionary's counts (read back over tRPC); then every structure page at 1440 px and 390 px with axe
 * and without horizontal scrolling.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let api: Api;
let page: Page;
let dictionaryId = 0;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Structure pages ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [{ name: 'Definition', fieldType: 'MULTILINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id;
  await api.concepts.create.mutate({
    format: 'ID',
    dictionaryId,
    sectionOid: dictionary.sections![0]!.oid!,
    terms: [
      { name: 'mice', languageCode: 'eng' },
      { name: 'Mäuse', languageCode: 'deu' },
    ],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  page = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.goto(`${web.base}/admin/dictionaries/${dictionaryId}/views`);
  await signIn(page);
  await page.waitForURL((url) => url.pathname.endsWith('/views'));
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('views, filters and stemming', { timeout: 120_000 }, () => {
  it('adds a view with chosen fields and a public filter by language', async () => {
    const addView = page.getByRole('form', { name: 'Add a view' });
    await addView.getByLabel('Name', { exact: true }).fill('Editors');
    await addView.getByLabel('Definition').check();
    await addView.getByLabel('Term').check();
    await addView.getByRole('button', { name: 'Add the view' }).click();
    await page.getByRole('listitem', { name: 'Editors' }).waitFor();
    const views = (
      await api.views.list.query({
        'dictionary-id': dictionaryId,
        format: 'FULL',
        page: 0,
        'include-deleted': false,
      })
    ).content;
    const definition = (
      await api.dictionaries.get.query({ id: dictionaryId, format: 'FULL', 'include-deleted': false })
    ).conceptFields![0]!.oid;
    // The server keeps the term and its language in every view.
    expect(views.find((view) => view.name === 'Editors')?.fields).toEqual(
      expect.arrayContaining([definition, 'TERM']),
    );

    const addFilter = page.getByRole('form', { name: 'Add a filter' });
    await addFilter.getByLabel('Name', { exact: true }).fill('German only');
    await addFilter.getByLabel('Who can use it').selectOption('PUBLIC');
    await addFilter.getByRole('group', { name: 'Terms in these languages' }).getByLabel('German').check();
    await addFilter.getByRole('button', { name: 'Add the filter' }).click();
    await page.getByRole('listitem', { name: 'German only' }).getByText('Everyone · German').waitFor();
    const filters = (
      await api.filters.list.query({
        'dictionary-id': dictionaryId,
        format: 'FULL',
        page: 0,
        'include-deleted': false,
      })
    ).content;
    expect(filters.map((filter) => [filter.name, filter.visibility, filter.criteria?.languages])).toEqual([
      ['German only', 'PUBLIC', ['deu']],
    ]);

    // A filter for one group names that group.
    const group = await api.groups.create.mutate({
      format: 'ID',
      name: `Reviewers ${uniqueSuffix()}`,
    } as Parameters<typeof api.groups.create.mutate>[0]);
    await page.reload();
    const again = page.getByRole('form', { name: 'Add a filter' });
    await again.getByLabel('Name', { exact: true }).fill('For reviewers');
    await again.getByLabel('Who can use it').selectOption('GROUP');
    await again.getByRole('combobox', { name: /^Group/ }).selectOption(String(group.id));
    await again.getByRole('button', { name: 'Add the filter' }).click();
    await page.getByRole('listitem', { name: 'For reviewers' }).waitFor();
    const shared = (
      await api.filters.list.query({
        'dictionary-id': dictionaryId,
        format: 'FULL',
        page: 0,
        'include-deleted': false,
      })
    ).content.find((filter) => filter.name === 'For reviewers');
    expect([shared?.visibility, shared?.groupId]).toEqual(['GROUP', group.id]);
    await expectAccessible(page, 'views and filters');
  });

  it('saves a stemming override that the analysis then uses', async () => {
    await page
      .getByRole('navigation', { name: 'Pages of this dictionary' })
      .getByRole('link', { name: 'Stemming' })
      .click();
    const english = page.getByRole('form', { name: 'English (eng)' });
    await english.getByLabel(/Words that stand for others/).fill('mice = mouse');
    await english.getByRole('button', { name: 'Save the settings for English' }).click();
    await english.getByText('Saved the settings for English').waitFor();
    const settings = await api.stemming.settings.query({ id: dictionaryId });
    expect(settings.find((setting) => setting.langCode === 'eng')?.overrides).toEqual({ mice: 'mouse' });
    const analysed = await api.stemming.analyze.mutate({ langCode: 'eng', text: 'mice', dictionaryId });
    const plain = await api.stemming.analyze.mutate({ langCode: 'eng', text: 'mouse' });
    expect(analysed.tokens[0]?.stem).toBe(plain.tokens[0]?.stem);
    await expectAccessible(page, 'stemming');
  });

  it("shows the dictionary's counts by language", async () => {
    await page
      .getByRole('navigation', { name: 'Pages of this dictionary' })
      .getByRole('link', { name: 'Statistics' })
      .click();
    const table = page.getByRole('table', { name: 'Terms by language' });
    await table.getByRole('row', { name: /German 1/ }).waitFor();
    await expectAccessible(page, 'dictionary counts');
  });
});

describe('every structure page at 1440 px and 390 px', { timeout: 180_000 }, () => {
  const paths = () => [
    '/admin/dictionaries',
    ...['languages', 'fields', 'sections', 'domains', 'views', 'stemming', 'statistics'].map(
      (tab) => `/admin/dictionaries/${dictionaryId}/${tab}`,
    ),
    '/admin/dictionaries/import',
    '/admin/statistics',
    '/admin/statistics/online-users',
    '/admin/statistics/month',
  ];

  it('has no serious axe finding and no horizontal scrolling', async () => {
    const phone = await openPage(browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(`${web.base}/admin/dictionaries`);
    await signIn(phone);
    await phone.waitForURL((url) => url.pathname === '/admin/dictionaries');
    for (const [tab, size] of [
      [page, '1440 px'],
      [phone, '390 px'],
    ] as const) {
      for (const path of paths()) {
        await tab.goto(`${web.base}${path}`);
        await tab.locator('h1').first().waitFor();
        // Wait until the page's data is in (no "Loading…" left).
        await poll(() => tab.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(0);
        await expectAccessible(tab, `${path} at ${size}`);
        expect({
          path,
          size,
          fits: await tab.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
        }).toEqual({
          path,
          size,
          fits: true,
        });
      }
    }
    await phone.context().close();
  });
});
