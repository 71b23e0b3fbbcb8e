/**
 * The web application end to end, in Debian's Chromium: sign in, search as you type (highlight, paging,
 * accents), a concept with languages side by side, editing under the lock with validation messages and
 * a 409 dialog, undo from history, comments, TBX import with job progress and export, preferences, sign
 * out; a term that looks like HTML stays text; axe-core finds no serious violation on any screen.
 * One server and one browser for the file; the steps share one page, in order.
 * Each step may take up to two minutes on a loaded machine (CI runs every suite at once on two cores).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppDirectory } from '../../src/modules/web-app/web-app.routes.js';
import type { AppRouter } from '../../src/trpc/router.js';
import { createTenant, uniqueSuffix } from '../factories/tenant.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { loginSysadmin } from '../helpers/rest.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

const XSS = '<img src=x onerror=alert(1)>';
const ROWS = 130;

function escapeXml(text: string) {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function entry(id: string, terms: Record<string, string | string[]>, definition?: string, extra = '') {
  const langSecs = Object.entries(terms)
    .map(([lang, names]) => {
      const termSecs = [names].flat().map((term) => `<termSec><term>${escapeXml(term)}</term></termSec>`);
      return `<langSec xml:lang="${lang}">${termSecs.join('')}</langSec>`;
    })
    .join('');
  const descrip = definition ? `<descrip type="definition">${escapeXml(definition)}</descrip>` : '';
  return `<conceptEntry id="${id}">${descrip}${extra}${langSecs}</conceptEntry>`;
}

/** A TBX-Basic v3 file of the given entries. */
function tbxFile(entries: string[]) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>web test</p></sourceDesc></fileDesc></tbxHeader>
<text><body>${entries.join('\n')}</body></text></tbx>`;
}

const seed = tbxFile([
  ...Array.from({ length: ROWS }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    return entry(`c${n}`, { en: `cluster ${n}`, de: `Haufen ${n}` });
  }),
  entry(
    't1',
    { en: 'translation', de: ['Übersetzung', 'Translation'] },
    'Rendering text in another language.',
    // Who made it by the file: the history shows it on the import's item (issue 37).
    '<transacGrp><transac type="transactionType">origination</transac><date>2019-03-02</date>' +
      '<transacNote type="responsibility">Anna Jónsdóttir</transacNote></transacGrp>',
  ),
  entry('x1', { en: XSS, de: 'harmlos' }),
]);

let web: WebServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: Api;
let dictionaryId: number;
const dialogs: string[] = [];

async function importTbx(text: string, name: string, token: string) {
  const form = new FormData();
  form.set('file', new Blob([text], { type: 'application/xml' }), 'seed.tbx');
  const response = await fetch(
    `${web.base}/api/v4/dictionaries/import-tbx?name=${encodeURIComponent(name)}`,
    {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    },
  );
  const body = (await response.json()) as { jobTaskId?: number; result?: { dictionaryId: number } };
  for (let tries = 0; !body.result && body.jobTaskId !== undefined && tries < 240; tries++) {
    const job = await api.jobs.get.query({ id: body.jobTaskId });
    if (job.status === 'FAILED') throw new Error(`seed import failed: ${job.message}`);
    if (job.status === 'DONE') body.result = job.result as { dictionaryId: number };
    else await new Promise((done) => setTimeout(done, 500));
  }
  if (!body.result) throw new Error(`seed import: ${response.status} ${JSON.stringify(body)}`);
  return body.result.dictionaryId;
}

beforeAll(async () => {
  // 0 ms: every TBX import answers 202 at once, so the page follows the job with its progress bar.
  ({ web, browser } = await startWebSuite({ ASYNC_THRESHOLD_MS: '0' }));
  const session = await apiSession(web.base);
  api = session.api;
  dictionaryId = await importTbx(seed, `Web ${uniqueSuffix()}`, session.token);
  // A relation to follow: from the HTML-looking term's concept to "cluster 001" (associative).
  const read = { format: 'FULL', 'with-comments': false, 'include-deleted': false } as const;
  const [from, to] = await Promise.all(
    ['x1', 'c001'].map((oid) => api.concepts.byOid.query({ oid, ...read })),
  );
  await api.concepts.patch.mutate({
    ...read,
    id: from!.id,
    version: from!.version,
    conceptRelations: [{ targetConceptId: to!.id, type: 4, attribute: 11 }],
  });
  page = await openPage(browser, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  context = page.context();
  page.on('dialog', (dialog) => {
    // A history restore asks first (web-robust-defects.test.ts); any other dialog is a script that ran.
    if (dialog.type() === 'confirm' && dialog.message().startsWith('Restore revision')) {
      void dialog.accept();
      return;
    }
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const rows = () => page.locator('table.results tbody tr');

async function search(text: string) {
  await page.getByRole('searchbox').fill(text);
  await poll(() => new URL(page.url()).searchParams.get('q')).toBe(text);
}

describe('serving', { timeout: 120_000 }, () => {
  it('serves the app at its pages with a CSP without inline scripts, hashed assets for a year', async () => {
    for (const path of ['/', '/search?q=x', '/concepts/12']) {
      const response = await fetch(`${web.base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      const html = await response.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset).toBeDefined();
      const script = await fetch(`${web.base}${asset}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('serves dist/web by default, from the sources (tsx) and from the build (dist/src)', () => {
    const root = resolve(import.meta.dirname, '../..');
    expect(webAppDirectory()).toBe(join(root, 'dist/web'));
  });

  it('keeps the API docs page and the JSON 404 of unknown API paths', async () => {
    expect((await fetch(`${web.base}/api/docs/`)).status).toBe(200);
    const unknown = await fetch(`${web.base}/api/v4/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fetch(`${web.base}/assets/missing-abc123.js`)).status).toBe(404);
  });
});

describe('in the browser', { timeout: 120_000 }, () => {
  it('signs in (a wrong password says so) and lands on the page it was sent from', async () => {
    await page.goto(`${web.base}/search?d=${dictionaryId}&q=cluster`);
    await poll(() => new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe('cluster');
    // The token is kept for this tab only.
    const stored = await page.evaluate(
      'JSON.stringify({ local: { ...localStorage }, session: Object.keys(sessionStorage) })',
    );
    expect(JSON.parse(stored as string)).toEqual({ local: {}, session: ['polyterm.session'] });
  });

  it('searches as you type, highlights the match, and pages by cursor on scroll', async () => {
    await page.getByRole('checkbox', { name: /^Web / }).waitFor();
    await search('cluster 0');
    await poll(() => rows().count()).toBeGreaterThan(0);
    const first = rows().first();
    expect(await first.locator('mark').first().textContent()).toBe('cluster 0');
    const url = new URL(page.url());
    expect(url.searchParams.get('d')).toContain(String(dictionaryId));
    expect(url.searchParams.get('lang')).toBe('eng');
    await search('cluster');
    await poll(() => page.getByRole('status').first().textContent()).toMatch(new RegExp(`${ROWS} terms`));
    const firstPage = await rows().count();
    expect(firstPage).toBeLessThan(ROWS);
    await page.getByRole('button', { name: 'More results' }).scrollIntoViewIfNeeded();
    await poll(() => rows().count()).toBeGreaterThan(firstPage);
    await expectAccessible(page, 'search');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'search');
  });

  it('finds a term whatever its accents, and the URL opens the same search', async () => {
    await page.getByLabel('Language').selectOption('deu');
    await search('ubersetz');
    await poll(() => rows().count()).toBe(1);
    expect(await rows().first().locator('mark').textContent()).toBe('Übersetz');
    // The concept's other German term is shown under the match.
    await rows().first().getByText('also: Translation').waitFor();
    const link = page.url();
    await page.goto(link);
    await poll(() => rows().count()).toBe(1);
    expect(await page.getByRole('searchbox').inputValue()).toBe('ubersetz');
  });

  it('opens a concept with its languages side by side (from the keyboard)', async () => {
    await rows().first().getByRole('link').focus();
    await page.keyboard.press('Enter');
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/concepts\/\d+$/);
    // The search was in German: the concept opens in German, and English joins beside it.
    await page.getByRole('region', { name: 'German' }).getByText('Übersetzung').waitFor();
    expect(await page.getByRole('region', { name: 'English' }).count()).toBe(0);
    await page
      .getByRole('group', { name: 'Languages shown' })
      .getByRole('checkbox', { name: 'English' })
      .check();
    await poll(() => new URL(page.url()).searchParams.get('langs')).toBe('deu,eng');
    await page.getByRole('region', { name: 'English' }).getByText('translation').waitFor();
    await page.getByRole('region', { name: 'German' }).getByText('Übersetzung').waitFor();
    await page.getByText('Rendering text in another language.').waitFor();
    await expectAccessible(page, 'concept');
    await screenshot(page, 'concept');
  });

  it('shows who holds the edit lock, and refuses to edit while they do', async () => {
    const conceptId = Number(new URL(page.url()).pathname.split('/').pop());
    // Another session of the same user (a lock belongs to a session): said to be the user's other tab,
    // which may be taken over (web-robust-edits.test.ts); Edit does not open the editor meanwhile.
    expect(await api.concepts.acquireLock.mutate({ id: conceptId })).toBe(true);
    await page.reload();
    await page.getByText(/You are editing this concept in another tab or window/).waitFor();
    expect(await page.getByText(/is editing this concept/).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Take over the lock in this tab' }).waitFor();
    expect(await page.getByLabel('Term', { exact: true }).count()).toBe(0);
    expect(await api.concepts.releaseLock.mutate({ id: conceptId })).toBe(true);
    await page.reload();
    await page.getByRole('region', { name: 'English' }).waitFor();
    expect(await page.getByText('is editing this concept').count()).toBe(0);
  });

  it('edits under the edit lock, with the validation message of the server beside the field', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByText('You hold the edit lock').waitFor();
    const english = termInput('translation');
    await (await english).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('name is required').waitFor();
    expect(await (await termInputAt(await indexOfEmptyTerm())).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'editor');
    await screenshot(page, 'editor');
    await (await termInputAt(await indexOfEmptyTerm())).fill('translation (edited)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('region', { name: 'English' }).getByText('translation (edited)').waitFor();
    expect(await page.getByText('You hold the edit lock').count()).toBe(0);
  });

  it('turns a 409 into a dialog showing both versions', async () => {
    const conceptId = Number(new URL(page.url()).pathname.split('/').pop());
    const current = await api.concepts.get.query({
      id: conceptId,
      format: 'FULL',
      'with-comments': false,
      'include-deleted': false,
    });
    const definition = Object.keys(current.fieldMap ?? {})[0]!;
    // Another session saves while this page still shows the version before.
    await api.concepts.patch.mutate({
      id: conceptId,
      version: current.version,
      format: 'ID',
      'with-comments': false,
      fieldMap: { [definition]: ['Changed by someone else.'] },
    });
    await page.getByRole('button', { name: 'Edit' }).click();
    await (await termInput('translation (edited)')).fill('translation (mine)');
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Someone else changed this concept' });
    await dialog.waitFor();
    await dialog
      .getByRole('region', { name: /^Saved version/ })
      .getByText('Changed by someone else.')
      .waitFor();
    await dialog.getByRole('region', { name: 'Your version' }).getByText('translation (mine)').waitFor();
    await expectAccessible(page, 'conflict dialog');
    await screenshot(page, 'conflict');
    // Escape closes the dialog and keeps the edit; saving again meets the same conflict.
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: 'Save my version over it' }).click();
    await page.getByRole('region', { name: 'English' }).getByText('translation (mine)').waitFor();
  });

  it('shows the history field by field and restores an earlier version', async () => {
    await page.getByRole('tab', { name: 'History' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('history');
    const change = page
      .getByRole('row')
      .filter({ hasText: 'translation (edited)' })
      .filter({ hasText: 'translation (mine)' });
    await change.first().waitFor();
    await page
      .getByRole('list', { name: 'In the imported file' })
      .getByText('Created by Anna Jónsdóttir on 2019-03-02 in the imported file')
      .waitFor();
    await expectAccessible(page, 'history');
    await screenshot(page, 'history');
    // The oldest version is the imported one.
    await page
      .getByRole('button', { name: /^Restore version/ })
      .last()
      .click();
    await page.getByRole('tab', { name: 'Terms' }).click();
    await page.getByRole('region', { name: 'English' }).getByText('translation', { exact: true }).waitFor();
  });

  it('adds a comment, shown as text, and deletes it', async () => {
    // Tabs follow the arrow keys: Terms -> Comments.
    await page.getByRole('tab', { name: 'Terms' }).focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('comments');
    const text = 'Check the <b>German</b> term';
    await page.getByLabel('New comment').fill(text);
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.locator('.comments').getByText(text, { exact: true }).waitFor();
    expect(await page.locator('.comments b').count()).toBe(0);
    await expectAccessible(page, 'comments');
    await screenshot(page, 'comments');
    await page.getByRole('button', { name: /^Delete comment/ }).click();
    await poll(() => page.locator('.comments li').count()).toBe(0);
  });

  it('shows a term that looks like HTML as text, and nothing runs', async () => {
    await page.goto(`${web.base}/search?d=${dictionaryId}&lang=eng&mode=SUBSTRING&q=onerror`);
    await poll(() => rows().count()).toBe(1);
    expect(await rows().first().getByRole('link').textContent()).toBe(XSS);
    await rows().first().getByRole('link').click();
    await page.getByRole('region', { name: 'English' }).getByText(XSS, { exact: true }).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    // Its relation leads to the related concept.
    await page.getByRole('region', { name: 'Relations' }).getByRole('link', { name: 'cluster 001' }).click();
    await page.getByRole('region', { name: 'English' }).getByText('cluster 001').waitFor();
  });

  it('creates a concept, naming what is missing first', async () => {
    await page.getByRole('link', { name: 'New concept' }).click();
    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption(String(dictionaryId));
    await page.getByRole('button', { name: 'Create concept' }).click();
    await page.getByText('name is required').waitFor();
    await expectAccessible(page, 'new concept');
    await screenshot(page, 'new-concept');
    await page.getByLabel('Term', { exact: true }).fill('brand-new term');
    await page.getByRole('button', { name: 'Create concept' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/concepts\/\d+$/);
    await page.getByText('brand-new term').first().waitFor();
  });

  it('imports a TBX file following the job, and exports a dictionary as TBX', async () => {
    await page.getByRole('link', { name: 'Import and export' }).click();
    const file = tbxFile([
      entry('s1', { en: 'small one', de: 'klein eins' }),
      entry('s2', { en: 'small two' }),
    ]);
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'small.tbx', mimeType: 'application/xml', buffer: Buffer.from(file) });
    const importedName = `Imported ${uniqueSuffix()}`;
    await page.getByLabel('Name of the new dictionary').fill(importedName);
    // The status mapping is optional and collapsed: here the file's deprecated terms become forbidden.
    const mapping = page.getByRole('group').filter({ hasText: 'Administrative status mapping' });
    expect(await page.getByLabel('Deprecated term (deprecatedTerm)').isVisible()).toBe(false);
    await page.getByText('Administrative status mapping').click();
    await mapping.getByLabel('Deprecated term (deprecatedTerm)').selectOption('forbidden');
    await expectAccessible(page, 'import status mapping');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
    await page.getByText('Imported: 2 concepts').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await expectAccessible(page, 'import and export');
    await screenshot(page, 'tbx');
    // The new dictionary keeps the import's mapping as its own (docs/tbx.md, Administrative statuses).
    const dictionaries = await api.dictionaries.list.query({ size: 1000, format: 'SHORT' });
    const imported = dictionaries.content.find((d) => d.name === importedName);
    const settings = await api.tbx.settings.query({ dictionaryId: imported!.id });
    expect(settings.statusMapping.deprecatedTerm).toBe('forbidden');

    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption(String(dictionaryId));
    await page.getByRole('combobox', { name: 'Format' }).selectOption('TBX_V2');
    await page
      .getByRole('group', { name: /^Languages/ })
      .getByRole('checkbox', { name: 'German' })
      .check();
    await page.getByRole('button', { name: 'Prepare the export' }).click();
    const link = page.getByRole('link', { name: /^Download / });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toContain('<martif');
    expect(text).toContain('Übersetzung');
    expect(text).not.toContain('cluster 001');
  });

  it('keeps working languages per user: they become result columns', async () => {
    await page.getByRole('link', { name: 'Preferences' }).click();
    await page
      .getByRole('group', { name: /^Working languages/ })
      .getByRole('checkbox', { name: 'German' })
      .check();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Preferences saved.').waitFor();
    await expectAccessible(page, 'preferences');
    await screenshot(page, 'preferences');
    const saved = await api.searchSettings.get.query({});
    expect(saved.targetLanguages).toContain('deu');
    await page.goto(`${web.base}/search?d=${dictionaryId}&lang=eng&q=translation`);
    await page.getByRole('columnheader', { name: 'German' }).waitFor();
    await rows().first().getByRole('cell').getByText('Übersetzung').waitFor();
  });

  it('signs out: the token is gone and pages ask to sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/signin');
    expect(await page.evaluate('sessionStorage.length + localStorage.length')).toBe(0);
    await page.goto(`${web.base}/preferences`);
    await poll(() => new URL(page.url()).pathname).toBe('/signin');
  });
});

describe('a guest', { timeout: 120_000 }, () => {
  it('signs in as the guest of a client that opens guest sessions, without the editing screens', async () => {
    const tenant = await createTenant(await loginSysadmin(web.server.app));
    const tenantAdmin = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${web.base}/trpc`,
          headers: async () => {
            const login = await createTRPCClient<AppRouter>({
              links: [httpLink({ url: `${web.base}/trpc` })],
            }).auth.login.mutate({
              client: tenant.loginName,
              username: 'admin',
              password: tenant.adminPassword,
            });
            return { 'x-auth-token': login.token!.token };
          },
        }),
      ],
    });
    await tenantAdmin.guests.update.mutate({
      enabled: true,
      username: `guest${uniqueSuffix()}`,
      password: `pw-${uniqueSuffix()}-guest`,
      loginMethod: 'GUEST_CLIENT_AUTOLOGIN',
      enableQuickFilters: false,
      enableSearchModes: true,
      enableCommenting: false,
    });
    const guestPage = await context.newPage();
    await guestPage.goto(`${web.base}/signin`);
    await guestPage.getByLabel(/^Client/).fill(tenant.loginName);
    await guestPage.getByRole('button', { name: 'Continue as guest' }).click();
    await poll(() => new URL(guestPage.url()).pathname).toBe('/search');
    await guestPage.getByText(`Guest @ ${tenant.loginName}`).waitFor();
    expect(await guestPage.getByRole('link', { name: 'New concept' }).count()).toBe(0);
    await expectAccessible(guestPage, 'guest search');
    await guestPage.close();
  });
});

describe('the session', { timeout: 120_000 }, () => {
  it('is extended while someone works in the tab', async () => {
    const tab = await context.newPage();
    // The page's clock runs 21 minutes in an instant; the server's session is real.
    await tab.clock.install();
    await tab.goto(`${web.base}/signin`);
    await signIn(tab);
    await poll(() => new URL(tab.url()).pathname).toBe('/search');
    const expiry = async () =>
      JSON.parse((await tab.evaluate("sessionStorage.getItem('polyterm.session')")) as string)
        .expirationTime as number;
    const before = await expiry();
    await tab.keyboard.press('Shift');
    await tab.clock.runFor(21 * 60 * 1000);
    await poll(expiry).toBeGreaterThan(before);
    await tab.close();
  });
});

/** The Term box of the editor whose value is `name`. */
async function termInput(name: string) {
  const boxes = page.getByLabel('Term', { exact: true });
  await boxes.first().waitFor();
  for (let index = 0; index < (await boxes.count()); index++) {
    if ((await boxes.nth(index).inputValue()) === name) return boxes.nth(index);
  }
  throw new Error(`no term box holds ${name}`);
}

async function termInputAt(index: number) {
  return page.getByLabel('Term', { exact: true }).nth(index);
}

async function indexOfEmptyTerm() {
  const boxes = page.getByLabel('Term', { exact: true });
  for (let index = 0; index < (await boxes.count()); index++) {
    if ((await boxes.nth(index).inputValue()) === '') return index;
  }
  throw new Error('no empty term box');
}
