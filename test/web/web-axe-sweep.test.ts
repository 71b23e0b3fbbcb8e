/**
 * Issue 36: every screen of the web application at 1440 px and at 390 px with no serious or critical
 * axe finding and nothing to scroll sideways. The list of screens is read from the code, so a new screen
 * is swept without touching this file: the paths the app's `Screen` switch names (web/src/App.tsx), and
 * every page pattern of web/src/screens/admin/pages-*.ts, its `:id` filled from data seeded here. The
 * system administrator, who may open every page, visits them; the sign-in screen is visited signed out.
 * A user without a role then visits the app's screens and the administration pages of their own menu
 * at 390 px. One server and one browser; the three runs go side by side, each in its own context, and
 * each reports all its findings at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_PAGES } from '../../src/modules/web-app/web-app.routes.js';
import type { AdminPageRoute } from '../../web/src/screens/admin/admin-page.js';
import { PROJECT_PAGES } from '../../web/src/screens/projects/project-routes.js';
import { STAGING_PAGES } from '../../web/src/screens/staging/staging-routes.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, signIn } from './session.js';
import { importSmallTbx } from './web-seed.js';

const web_src = resolve(import.meta.dirname, '../../web/src');

let web: WebServer;
let browser: Browser;
/** Ids for the `:id` of admin patterns, by the segment before it (dictionaries, users, …). */
const ids: Record<string, number> = {};
let conceptId = 0;
let screens: string[] = [];
/** The seeded user: no role, a member of the seeded group. */
const terminologist = { username: 'terminologist', password: '' };

/** The app's own screens: the literal paths of App.tsx's Screen switch, a concept, and search (its default). */
function appScreens(): string[] {
  const source = readFileSync(resolve(web_src, 'App.tsx'), 'utf8');
  const body = source.slice(source.indexOf('function Screen('), source.indexOf('export function App'));
  const literal = [...body.matchAll(/path === '([^']+)'/g)].map((match) => match[1]!);
  expect(body).toContain('/^\\/concepts\\/(\\d+)$/');
  return ['/signin', '/search', '/concepts/:id', ...literal.filter((path) => path !== '/admin')];
}

/** Every pattern of every admin page list (pages-*.ts), read by importing the lists themselves. */
async function adminScreens(): Promise<string[]> {
  const folder = resolve(web_src, 'screens/admin');
  const files = readdirSync(folder).filter((name) => /^pages-.+\.ts$/.test(name));
  expect(files.length).toBeGreaterThanOrEqual(2);
  const patterns: string[] = [];
  for (const file of files) {
    const module = (await import(resolve(folder, file))) as { pages: AdminPageRoute[] };
    patterns.push(...module.pages.map((route) => route.pattern));
  }
  return ['/admin', ...patterns];
}

/** Queries that give a screen something to show (a search with results, a dictionary chosen, …). */
const QUERIES: Record<string, () => string> = {
  '/search': () => '?q=t',
  '/tbx': () => `?d=${ids.dictionaries}`,
  '/inbox': () => `?d=${ids.dictionaries}`,
  '/workflows': () => `?d=${ids.dictionaries}`,
  '/check': () => `?d=${ids.dictionaries}&from=eng&to=deu&t=${encodeURIComponent('The translation memory.')}`,
  '/concepts/new': () => `?d=${ids.dictionaries}`,
};

/** The URL of a screen's pattern: `:id` from the seeded data, the query that fills it. */
function urlOf(pattern: string): string {
  const path = pattern.replace(/\/([^/]+)\/:id/, (_, segment: string) => {
    const id = segment === 'concepts' ? conceptId : ids[segment];
    if (!id) throw new Error(`No seeded id for ${pattern}: seed one in the sweep's beforeAll`);
    return `/${segment}/${id}`;
  });
  return path + (QUERIES[pattern]?.() ?? '');
}

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const { api, token } = await apiSession(web.base);
  const suffix = uniqueSuffix();
  ids.dictionaries = await importSmallTbx(web.base, token, `Localisation ${suffix}`, [
    { en: 'translation memory', de: 'Übersetzungsspeicher', is: 'þýðingaminni' },
    { en: 'terminology', de: 'Terminologie', is: 'íðorðafræði' },
  ]);
  conceptId = (await api.concepts.byOid.query({
    oid: 'r1',
    format: 'FULL',
    'with-comments': false,
    'include-deleted': false,
  }))!.id;
  // Feedback with an answer: its administration page shows text, sender and answers (docs/feedback.md).
  ids.feedback = (await api.feedback.create.mutate({ conceptId, text: 'Is the German term current?' })).id;
  await api.feedback.answer.mutate({ id: ids.feedback, text: 'Yes, checked.', close: false });
  const password = `Sweep-${suffix}-pw1`;
  terminologist.password = password;
  ids.users = (
    await api.users.create.mutate({
      format: 'ID',
      username: 'terminologist',
      password,
      confirmPassword: password,
    })
  ).id;
  // A group with a member, a scheme granting it permissions, a workflow: the pages show their full forms.
  ids.groups = (
    await api.groups.create.mutate({ format: 'ID', name: 'Terminologists', groupMembers: [ids.users] })
  ).id;
  ids['permission-schemes'] = (
    await api.permissionSchemes.create.mutate({
      format: 'ID',
      name: 'Team permissions',
      grants: [
        { groupId: ids.groups, conceptPermissions: ['CONCEPT_UPDATE'], termPermissions: ['TERM_UPDATE'] },
      ],
    } as Parameters<typeof api.permissionSchemes.create.mutate>[0])
  ).id;
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review before publishing',
    dictionaryId: ids.dictionaries,
    unit: 'LANGUAGE',
    enabled: false,
  });
  ids.clients = (
    await api.clients.create.mutate({
      format: 'ID',
      name: `Northwind ${suffix}`,
      loginName: `northwind${suffix}`,
      active: true,
    })
  ).id;
  // A project with an entry, a candidate and an assignment (projects: the pages of PROJECT_PAGES).
  ids.projects = (
    await api.projects.create.mutate({
      format: 'ID',
      name: `Launch ${suffix}`,
      dictionaryIds: [ids.dictionaries],
      dueAt: Date.now() + 7 * 86_400_000,
    })
  ).id;
  await api.projects.addEntries.mutate({ id: ids.projects, conceptIds: [conceptId] });
  await api.projects.addCandidates.mutate({
    id: ids.projects,
    candidates: [{ terms: [{ languageCode: 'en', term: 'translation memory' }] }],
  });
  ids.assignments = (
    await api.projects.createAssignment.mutate({
      id: ids.projects,
      type: 'TRANSLATION',
      assigneeUserId: ids.users,
    })
  ).id;
  // A staging area open to the dictionary's readers with the terminologist's suggested change of the
  // seeded concept: both pages open for the system administrator (a reviewer) and for its suggester
  // (staging: the pages of STAGING_PAGES).
  ids.staging = (
    await api.staging.createArea.mutate({
      dictionaryId: ids.dictionaries,
      name: 'Incoming',
      openToReaders: true,
    })
  ).id;
  const { api: suggester } = await apiSession(web.base, terminologist.username, password);
  ids.entries = (
    await suggester.staging.suggest.mutate({
      id: ids.staging,
      conceptId,
      entry: {
        languages: [{ lang: 'en', terms: [{ term: 'translation memory' }, { term: 'TM' }] }],
      } as Parameters<typeof api.staging.suggest.mutate>[0]['entry'],
      comment: 'The abbreviation is common.',
    })
  ).id;
  screens = [...appScreens(), ...PROJECT_PAGES, ...STAGING_PAGES, ...(await adminScreens())];
  // Every page the server answers is among them (a new WEB_APP_PAGES entry needs a screen here); `/`
  // is the search, the Screen switch's default.
  for (const served of WEB_APP_PAGES) {
    const covered = screens.some((screen) =>
      served.endsWith('/*')
        ? screen.startsWith(served.slice(0, -1))
        : screen === (served === '/' ? '/search' : served),
    );
    expect(covered, served).toBe(true);
  }
  console.info(`axe sweep: ${screens.length} screens: ${screens.join(' ')}`);
}, 300_000);

afterAll(() => closeWebSuite(browser, web));

let axeSource: string | undefined;

/** The serious and critical axe findings and the sideways overflow of the page as it is now. */
async function findings(page: Page, screen: string): Promise<string[]> {
  axeSource ??= readFileSync(resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')))`)) as string[];
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  const wide =
    widths.scroll > widths.client ? [`scrolls sideways: ${widths.scroll} px in ${widths.client} px`] : [];
  return [...violations, ...wide].map((finding) => `${screen}: ${finding}`);
}

/** The page has loaded its data: no request in flight, no "Loading…" left in the main part. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('main').getByText('Loading…', { exact: true }).first().waitFor({ state: 'detached' });
  await page.locator('main h1, main h2').first().waitFor();
}

/** What shows that the screen did not open as meant: an error message, the admin's "no such page", sign-in. */
async function opened(page: Page, url: string): Promise<string[]> {
  const problems: string[] = [];
  for (const alert of await page.locator('main [role=alert]').allTextContents()) {
    if (alert.trim()) problems.push(`shows an error: ${alert.trim()}`);
  }
  if (await page.getByRole('heading', { name: 'No such page' }).count()) problems.push('no such page');
  if (new URL(page.url()).pathname === '/signin') problems.push('sent to sign-in');
  return problems.map((problem) => `${url}: ${problem}`);
}

/** Opens each of `paths` (patterns, filled by urlOf) in `page` and answers every finding. */
async function sweep(page: Page, paths: string[], width: number): Promise<string[]> {
  const found: string[] = [];
  for (const screen of paths) {
    const url = urlOf(screen);
    await page.goto(`${web.base}${url}`);
    await settled(page);
    found.push(...(await findings(page, url)), ...(await opened(page, url)));
    // docs/ui.md shows each administration page (admin-users-id.png for /admin/users/:id).
    if (width === 1440 && screen.startsWith('/admin/')) {
      await screenshot(page, `admin${screen.slice('/admin'.length).replace(/[/:]+/g, '-')}`);
    }
    // SWEEP_SHOTS=1 keeps a picture of each screen in /tmp/sweep, to see what was checked.
    if (process.env.SWEEP_SHOTS)
      await page.screenshot({ path: `/tmp/sweep/${width}${url.replace(/[/?&=]/g, '_')}.png` });
  }
  return found;
}

describe.concurrent('every screen', { timeout: 600_000 }, () => {
  for (const width of [1440, 390]) {
    // Concurrent tests assert with their own `expect` (the global one does not know which test is running).
    it(`at ${width} px has no serious or critical axe finding and no sideways scrolling`, async ({
      expect,
    }) => {
      const page = await openPage(browser, { viewport: { width, height: 844 }, locale: 'en-US' });
      await page.goto(`${web.base}/signin`);
      await page.getByLabel('User name').waitFor();
      // The checks can fail: a pale line too wide for the window is found twice over, then removed.
      await page.evaluate(() => {
        const probe = document.createElement('p');
        probe.id = 'sweep-probe';
        probe.textContent = 'probe';
        probe.style.cssText = 'color: #eee; background: #fff; width: 3000px';
        document.body.append(probe);
      });
      const probed = (await findings(page, 'probe')).join('\n');
      expect(probed).toMatch(/color-contrast \(serious\)/);
      expect(probed).toMatch(/scrolls sideways/);
      await page.evaluate(() => document.getElementById('sweep-probe')?.remove());
      const found = await findings(page, '/signin');
      await signIn(page);
      await page.waitForURL((url) => url.pathname !== '/signin');
      found.push(
        ...(await sweep(
          page,
          screens.filter((path) => path !== '/signin'),
          width,
        )),
      );
      await page.context().close();
      expect(found).toEqual([]);
    });
  }

  // A user without a role sees the same screens with fewer controls, and only the administration
  // pages their menu (as the server gives it) names.
  it('as a terminologist at 390 px, the app and the pages of their menu', async ({ expect }) => {
    const { api } = await apiSession(web.base, terminologist.username, terminologist.password);
    const top = await api.ui.topMenu.query();
    const menu = await Promise.all(top.map((_, idx) => api.ui.sideMenu.query({ idx })));
    const pages = menu.flatMap((section) =>
      section.items.filter((item) => !item.disabled).map((item) => item.href),
    );
    expect(pages).toContain('/admin/profile');
    console.info(`axe sweep, the terminologist's administration pages: ${pages.join(' ')}`);
    const page = await openPage(browser, { viewport: { width: 390, height: 844 }, locale: 'en-US' });
    await page.goto(`${web.base}/signin`);
    await signIn(page, terminologist.username, terminologist.password);
    await page.waitForURL((url) => url.pathname !== '/signin');
    // A staging area's decision history is its reviewers' (linked from the area for them only, 403 to a
    // suggester, as an administration page outside their menu).
    const reviewersOnly = ['/staging/:id/decisions'];
    const app = screens.filter(
      (path) => path !== '/signin' && !path.startsWith('/admin') && !reviewersOnly.includes(path),
    );
    const found = await sweep(page, [...app, '/admin', ...pages], 390);
    await page.context().close();
    expect(found).toEqual([]);
  });
});
