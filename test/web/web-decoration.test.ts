/**
 * The Check text page end to end, in Debian's Chromium: pasted text decorated through
 * termDecoration.decorate, each match marked with its status (as text and as style), the preferred
 * replacement and the translations shown when a mark gets focus, keyboard reachable; a term and a text
 * that look like HTML stay text; axe-core finds no serious violation.
 * One server and one browser for the file; the steps share one page, in order.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, poll, signIn } from './session.js';

const XSS = '<img src=x onerror=alert(1)>';
const SENTENCE = `Replace the petrol pump, then test the spark plug and the fuel pump. ${XSS}`;

let web: WebServer;
let browser: Browser;
let page: Page;
let dictionaryId: number;
const dialogs: string[] = [];

async function post<T>(token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${web.base}/api/v4${path}`, {
    method: 'POST',
    headers: { 'x-auth-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A dictionary in English and German whose terms carry a usage status, with two concepts. */
async function seed(token: string) {
  const dictionary = await post<{ id: number; sections: { oid: string }[]; termFields: { oid: string }[] }>(
    token,
    '/dictionaries',
    {
      name: `Check ${uniqueSuffix()}`,
      languages: [{ code: 'eng' }, { code: 'deu' }],
      termFields: [
        {
          name: 'Usage status',
          dataCategory: 'USAGE_STATUS',
          fieldType: 'PICKLIST',
          model: { picklistItems: [{ name: 'preferredTerm-admn-sts' }, { name: 'forbidden' }] },
        },
      ],
    },
  );
  const status = dictionary.termFields[0]!.oid;
  const term = (name: string, languageCode: string, usage?: string) => ({
    name,
    languageCode,
    ...(usage ? { fieldMap: { [status]: usage } } : {}),
  });
  const concept = (terms: ReturnType<typeof term>[]) =>
    post(token, '/concepts', { dictionaryId: dictionary.id, sectionOid: dictionary.sections[0]!.oid, terms });
  await concept([
    term('fuel pump', 'eng', 'preferredTerm-admn-sts'),
    term('petrol pump', 'eng', 'forbidden'),
    term('Kraftstoffpumpe', 'deu', 'preferredTerm-admn-sts'),
  ]);
  await concept([term('spark plug', 'eng', 'preferredTerm-admn-sts'), term(XSS, 'deu')]);
  return dictionary.id;
}

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  dictionaryId = await seed((await apiSession(web.base)).token);
  page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const mark = (name: string) => page.locator('.decorated-text button.term-mark', { hasText: name });

describe('check text', { timeout: 120_000 }, () => {
  it('signs in and opens Check text from the menu', async () => {
    await page.goto(`${web.base}/check?d=${dictionaryId}`);
    await signIn(page);
    await poll(() => new URL(page.url()).pathname).toBe('/check');
    await page.getByRole('heading', { name: 'Check text' }).waitFor();
    expect(await page.getByRole('link', { name: 'Check text' }).getAttribute('aria-current')).toBe('page');
  });

  it('marks the terms of pasted text with their status, in the URL', async () => {
    await page.getByLabel('Language of the text').selectOption('eng');
    await page.getByRole('checkbox', { name: /German/ }).check();
    await poll(() => new URL(page.url()).searchParams.get('to')).toBe('deu');
    await page.getByLabel('Text', { exact: true }).fill(SENTENCE);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await poll(() => new URL(page.url()).searchParams.get('t')).toBe(SENTENCE);
    await poll(() => mark('petrol pump').count()).toBe(1);
    const marks = await page.locator('.decorated-text button.term-mark').allTextContents();
    expect(marks).toEqual(['petrol pumpforbidden', 'spark plugpreferred', 'fuel pumppreferred']);
    expect(await mark('petrol pump').getAttribute('class')).toContain('term-forbidden');
    expect(await mark('fuel pump').getAttribute('class')).toContain('term-preferred');
    // Styled by status, not by colour alone: the forbidden term is struck through.
    const line = await mark('petrol pump').evaluate((el) => getComputedStyle(el).textDecorationLine);
    expect(line).toContain('line-through');
    expect(await page.getByRole('status').first().textContent()).toBe('3 terms: 1 forbidden, 2 preferred');
    // The whole text is there once, the HTML-looking part as text.
    expect(await page.locator('.decorated-text').textContent()).toBe(
      SENTENCE.replace('petrol pump', 'petrol pumpforbidden')
        .replace('spark plug', 'spark plugpreferred')
        .replace('fuel pump', 'fuel pumppreferred'),
    );
  });

  it('shows the replacement and the translations on focus, by keyboard', async () => {
    await page.getByRole('button', { name: 'Check', exact: true }).focus();
    await page.keyboard.press('Tab');
    await poll(() => mark('petrol pump').evaluate((el) => el === document.activeElement)).toBe(true);
    const details = page.locator('#term-details');
    await poll(() => details.locator('.replacement').textContent()).toBe('fuel pump');
    expect(await mark('petrol pump').getAttribute('aria-pressed')).toBe('true');
    expect(await details.locator('.translation').textContent()).toBe('Kraftstoffpumpepreferred');
    expect(await details.getByText('In German', { exact: true }).count()).toBe(1);
    expect(await details.getByRole('heading').textContent()).toBe('petrol pump');
    await expectAccessible(page, 'check-text');
    await screenshot(page, 'check-text');

    await page.keyboard.press('Tab');
    await poll(() => details.getByRole('heading').textContent()).toBe('spark plug');
    // A preferred term needs no replacement; its German term looks like HTML and stays text.
    expect(await details.locator('.replacement').count()).toBe(0);
    expect(await details.locator('.translation').textContent()).toBe(`${XSS}admitted`);
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('keeps a long text in the page, not in the URL', async () => {
    const long = Array.from({ length: 40 }, () => SENTENCE).join('\n');
    expect(long.length).toBeGreaterThan(2000);
    await page.getByLabel('Text', { exact: true }).fill(long);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await poll(() => page.locator('.decorated-text button.term-mark').count()).toBe(120);
    expect(new URL(page.url()).searchParams.get('t')).toBeNull();
    expect(await page.getByRole('status').first().textContent()).toBe(
      '120 terms: 40 forbidden, 80 preferred',
    );
    expect(await page.locator('main img').count()).toBe(0);
    await page.goBack();
    await poll(() => new URL(page.url()).searchParams.get('t')).toBe(SENTENCE);
    await poll(() => page.locator('.decorated-text button.term-mark').count()).toBe(3);
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe(SENTENCE);
  });

  it('opens the same view from its link', async () => {
    await page.reload();
    await poll(() => mark('fuel pump').count()).toBe(1);
    await mark('fuel pump').click();
    await poll(() => page.locator('#term-details h2').textContent()).toBe('fuel pump');
    expect(await page.locator('#term-details .replacement').count()).toBe(0);
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe(SENTENCE);
  });

  it('checks a translation: terms to avoid and approved translations missing', async () => {
    await page.getByLabel('Language of the translation').selectOption('deu');
    await page.getByLabel(/^Translation \(optional/).fill('Ersetzen Sie die Pumpe und die Zündkerze.');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await poll(() => new URL(page.url()).searchParams.get('tt')).toBe(
      'Ersetzen Sie die Pumpe und die Zündkerze.',
    );
    const report = page.getByRole('region', { name: 'Translation check' });
    await poll(() => report.locator('.avoided li').allTextContents()).toEqual([
      'petrol pump forbidden in the text: use fuel pump',
    ]);
    expect(await report.locator('.missing li').allTextContents()).toEqual([
      'petrol pump: expected Kraftstoffpumpe in German',
      'spark plug: expected <img src=x onerror=alert(1)> in German',
      'fuel pump: expected Kraftstoffpumpe in German',
    ]);
    expect(await page.locator('main img').count()).toBe(0);
    await expectAccessible(page, 'check-translation');
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'check-translation');
    expect(dialogs).toEqual([]);
  });
});
