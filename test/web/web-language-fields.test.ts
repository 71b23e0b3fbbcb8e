/**
 * Language values in the web application (docs/concepts.md, Language fields), in Debian's Chromium: the
 * concept view shows them under their language; the editor edits them with the field controls of the
 * concept's fields, and the save stores them (read back over tRPC). axe-core on the editor.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let conceptId = 0;
let usage = '';

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Language values ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
    termFields: [{ name: 'Usage', fieldType: 'SINGLELINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  usage = dictionary.termFields!.find((field) => field.name === 'Usage')!.oid!;
  const created = await api.concepts.create.mutate({
    format: 'ID',
    dictionaryId: dictionary.id!,
    sectionOid: dictionary.sections![0]!.oid!,
    terms: [
      { name: 'valve', languageCode: 'eng' },
      { name: 'Ventil', languageCode: 'deu' },
    ],
    languageFields: [{ languageCode: 'eng', fieldMap: { [usage]: 'Imported English note' } }],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  conceptId = created.id!;
  page = await openPage(browser);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const read = () =>
  api.concepts.get.query({ id: conceptId, format: 'FULL', 'with-comments': false, 'include-deleted': false });

describe('language values', { timeout: 120_000 }, () => {
  it('are shown under their language and edited like concept fields', async () => {
    await page.goto(`${web.base}/concepts/${conceptId}?langs=eng,deu`);
    await signIn(page);
    const english = page.getByRole('region', { name: 'English' });
    await english
      .getByRole('region', { name: 'Language values: English' })
      .getByText('Imported English note')
      .waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    const englishUsage = page.getByLabel('Usage of English', { exact: true });
    expect(await englishUsage.inputValue()).toBe('Imported English note');
    await englishUsage.fill('Edited English note');
    await page.getByLabel('Usage of German', { exact: true }).fill('Deutscher Hinweis');
    await expectAccessible(page, 'editor with language values');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();

    const saved = await read();
    expect(saved.languageFields).toEqual([
      {
        languageCode: 'deu',
        regionCode: null,
        scriptCode: null,
        fieldMap: { [usage]: ['Deutscher Hinweis'] },
      },
      {
        languageCode: 'eng',
        regionCode: null,
        scriptCode: null,
        fieldMap: { [usage]: ['Edited English note'] },
      },
    ]);
    await page
      .getByRole('region', { name: 'German' })
      .getByRole('region', { name: 'Language values: German' })
      .getByText('Deutscher Hinweis')
      .waitFor();

    // Clearing a value removes it; the other language keeps its own.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Usage of English', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect((await read()).languageFields?.map((row) => [row.languageCode, row.fieldMap])).toEqual([
      ['deu', { [usage]: ['Deutscher Hinweis'] }],
    ]);
  });
});
