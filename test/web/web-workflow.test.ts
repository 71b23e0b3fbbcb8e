/**
 * Workflow screens end to end, in Debian's Chromium: the concept page's state badges per language with
 * the transitions the caller may fire, a move that changes the badge (and assigns the entry), and the
 * task inbox listing it; axe-core finds no serious violation on either.
 * One server and one browser for the file; the steps share one page, in order.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let conceptId: number;
let dictionaryName: string;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const { api } = await apiSession(web.base);
  const me = await api.ui.sessionData.query();
  dictionaryName = `Flow ${uniqueSuffix()}`;
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: dictionaryName,
    languages: [{ code: 'eng' }, { code: 'deu' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  const concept = await api.concepts.create.mutate({
    format: 'FULL',
    dictionaryId: dictionary.id!,
    sectionOid: dictionary.sections![0]!.oid!,
    terms: [
      { name: 'valve', languageCode: 'eng' },
      { name: 'Ventil', languageCode: 'deu' },
    ],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  conceptId = concept.id!;
  // The default workflow, whose submit also assigns the entry to the administrator (the inbox).
  const definition = defaultDefinition();
  const submit = definition.transitions.find((transition) => transition.key === 'submit')!;
  submit.actions = [{ type: 'ASSIGN', userId: me.user.id! }];
  // The system administrator reviews too (the default names dictionary administrators only).
  for (const transition of definition.transitions) transition.roles.push('SYSADMIN');
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review',
    dictionaryId: dictionary.id!,
    unit: 'LANGUAGE',
    enabled: true,
    definition,
  });
  page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const entry = (language: string) => page.locator('.workflow-entry', { hasText: language });

describe('workflow screens', { timeout: 120_000 }, () => {
  it('shows a state badge per language with the transitions the caller may fire', async () => {
    await page.goto(`${web.base}/concepts/${conceptId}?langs=eng,deu`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Workflow' }).waitFor();
    expect(await entry('English').locator('.state-badge').textContent()).toBe('Suggested');
    expect(await entry('German').locator('.state-badge').textContent()).toBe('Suggested');
    expect(await entry('English').locator('.state-badge').getAttribute('class')).toContain('state-draft');
    await entry('English').getByRole('button', { name: 'Submit for review' }).waitFor();
  });

  it('fires a transition by keyboard and shows the new state', async () => {
    await entry('English').getByRole('button', { name: 'Submit for review' }).focus();
    await page.keyboard.press('Enter');
    await poll(() => entry('English').locator('.state-badge').textContent()).toBe('In review');
    expect(await entry('English').locator('.state-badge').getAttribute('class')).toContain('state-review');
    expect(await entry('German').locator('.state-badge').textContent()).toBe('Suggested');
    await expectAccessible(page, 'workflow');
    await screenshot(page, 'workflow');
  });

  it("shows the server's message beside the entry, and a comment fires a transition that needs one", async () => {
    const english = entry('English');
    await english.getByRole('button', { name: 'Reject (comment required)' }).click();
    await poll(() => english.getByRole('alert').textContent()).toMatch(/comment/i);
    expect(await english.locator('.state-badge').textContent()).toBe('In review');
    await english.getByRole('textbox', { name: 'Comment on the move of English' }).fill('Not our term');
    await english.getByRole('button', { name: 'Reject (comment required)' }).click();
    await poll(() => english.locator('.state-badge').textContent()).toBe('Rejected');
    expect(await english.getByText('read-only').count()).toBe(1);
    expect(await english.getByRole('alert').count()).toBe(0);
    // Submitting again puts it back in review, where the inbox finds it.
    await english.getByRole('button', { name: 'Submit for review' }).click();
    await poll(() => english.locator('.state-badge').textContent()).toBe('In review');
  });

  it('lists the assigned entry in the task inbox, linked to its concept', async () => {
    await page.getByRole('link', { name: 'Tasks' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/inbox');
    const row = page.locator('table.inbox tbody tr', { hasText: dictionaryName });
    await poll(() => row.count()).toBe(1);
    // The labels load after the tasks (one call for the page): wait for them before reading the row.
    await poll(() => row.locator('td').first().textContent()).toMatch(/^(valve|Ventil)$/);
    expect(await row.locator('td').allTextContents()).toEqual([
      // inbox-labels: the concept's label (concepts.labels) in admin's first working language, which
      // other files of the run may set, no longer "Concept N"
      expect.stringMatching(/^(valve|Ventil)$/),
      dictionaryName,
      'English',
      'In review',
      expect.any(String),
    ]);
    await expectAccessible(page, 'inbox');
    await screenshot(page, 'inbox');
    await row.getByRole('link').click();
    await poll(() => new URL(page.url()).pathname).toBe(`/concepts/${conceptId}`);
    await page.getByRole('heading', { name: 'Workflow' }).waitFor();
  });
});
