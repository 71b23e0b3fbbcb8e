/**
 * The search screen's extras end to end, in Debian's Chromium (issue 28): a fuzzy-only match marked,
 * result columns beyond the languages chosen in Preferences (kept per user), saved queries (save by
 * keyboard, open, delete), the task inbox naming concepts by their label (concepts.labels), bulk
 * transitions from the results (selected rows, then all matching the search) with a progress bar and a
 * report per entry, and the workflow editor (create the default workflow, enable it, a refused
 * definition with the server's message, a saved one, and the 409 dialog); axe-core on every screen.
 * One server and one browser for the file; the steps share one page, in order.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { createUser, uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId: number;
let editorDictionaryId: number;
let dictionaryName: string;
let posOid: string;
/** A system administrator of its own: preferences and saved queries are per user, other files use admin. */
let user: { username: string; password: string };
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  const admin = (await apiSession(web.base)).api;
  const clientId = (await admin.ui.sessionData.query()).user.clientId!;
  user = await createUser(web.server.orm, clientId, { roles: ['SYSADMIN'] });
  ({ api } = await apiSession(web.base, user.username, user.password));
  const me = await api.ui.sessionData.query();
  const suffix = uniqueSuffix();
  dictionaryName = `Extras ${suffix}`;
  const create = (name: string) =>
    api.dictionaries.create.mutate({
      format: 'FULL',
      name,
      languages: [{ code: 'eng' }, { code: 'deu' }],
      termFields: [{ name: 'Part of speech', fieldType: 'SINGLELINE' }],
    } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  const [dictionary, editorDictionary] = await Promise.all([
    create(dictionaryName),
    create(`Editor ${suffix}`),
  ]);
  dictionaryId = dictionary.id!;
  editorDictionaryId = editorDictionary.id!;
  posOid = dictionary.termFields![0]!.oid!;
  const sectionOid = dictionary.sections![0]!.oid!;
  for (const [english, german] of [
    ['valve', 'Ventil'],
    ['valve seat', 'Ventilsitz'],
    ['pump', 'Pumpe'],
  ] as const) {
    const concept = await api.concepts.create.mutate({
      format: 'FULL',
      dictionaryId,
      sectionOid,
      terms: [
        { name: english, languageCode: 'eng', fieldMap: { [posOid]: ['noun'] } },
        { name: german, languageCode: 'deu' },
      ],
    } as Parameters<typeof api.concepts.create.mutate>[0]);
    ids[english] = concept.id!;
  }
  // The default workflow; submitting assigns the entry to the administrator (the inbox).
  const definition = defaultDefinition();
  definition.transitions.find((t) => t.key === 'submit')!.actions = [{ type: 'ASSIGN', userId: me.user.id! }];
  for (const transition of definition.transitions) transition.roles.push('SYSADMIN');
  // Approval needs a part of speech: only "valve"'s English term has one (the report's reasons).
  definition.transitions
    .find((t) => t.key === 'approve')!
    .requiredFields.push({ fieldOid: posOid, level: 'TERM' });
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review',
    dictionaryId,
    unit: 'LANGUAGE',
    enabled: true,
    definition,
  });
  page = await openPage(browser);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const search = (query: string) => `${web.base}/search?d=${dictionaryId}&lang=eng&${query}`;
const rowOf = (name: string) =>
  page.locator('table.results tbody tr', { has: page.getByRole('link', { name, exact: true }) });

describe('search extras', { timeout: 120_000 }, () => {
  it('marks the closest words of a fuzzy-only match', async () => {
    await page.goto(search('q=valbe&mode=PREFIX&fuzzy=1'));
    await signIn(page, user.username, user.password);
    await poll(() => rowOf('valve').locator('mark.fuzzy').allTextContents()).toEqual(['valve']);
    expect(await page.locator('table.results mark:not(.fuzzy)').count()).toBe(0);
    // An exact part keeps the ordinary mark.
    await page.goto(search('q=valv&mode=PREFIX&fuzzy=1'));
    await poll(() => page.locator('table.results mark').first().textContent()).toBe('valv');
    expect(await page.locator('table.results mark.fuzzy').count()).toBe(0);
  });

  it('shows the result columns chosen in Preferences, kept on the server', async () => {
    await page.getByRole('link', { name: 'Preferences' }).click();
    const columns = page.getByRole('group', { name: 'Other result columns' });
    await columns.getByLabel(`Part of speech (term, ${dictionaryName})`).check();
    await columns.getByLabel('Section').check();
    await page
      .getByRole('group', { name: /Working languages/ })
      .getByLabel('German')
      .check();
    await expectAccessible(page, 'preferences with columns');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Preferences saved.');
    const stored = await api.searchSettings.get.query({});
    expect(stored.resultColumns).toEqual([`field:${posOid}`, 'section']);
    await page.goto(search('q=valve'));
    await poll(() => page.locator('table.results thead th').allTextContents()).toEqual([
      'Selected',
      'English',
      'German',
      `Part of speech (term, ${dictionaryName})`,
      'Section',
    ]);
    const cells = await rowOf('valve').locator('td').allTextContents();
    expect(cells.slice(1, 3)).toEqual(['Ventil', 'noun']);
    expect(cells[3]).not.toBe('');
  });

  it('saves the search under a name by keyboard, opens it from the list and deletes it', async () => {
    await page.getByText('Saved queries').click();
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Valves <b>');
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('status').filter({ hasText: 'Saved as' }).textContent()).toBe(
      'Saved as "Valves <b>".',
    );
    const saved = await api.savedQueries.list.query({});
    expect(saved.map((query) => query.name)).toEqual(['Valves <b>']);
    expect(new URLSearchParams(saved[0]!.query).get('q')).toBe('valve');
    await expectAccessible(page, 'search with saved queries');
    await screenshot(page, 'search-extras');
    // Elsewhere, the saved query's link brings the search back.
    await page.goto(search('q=pump'));
    await page.getByText('Saved queries').click();
    await page.getByRole('link', { name: 'Valves <b>' }).click();
    await poll(() => page.getByRole('searchbox').inputValue()).toBe('valve');
    expect(new URL(page.url()).searchParams.get('d')).toBe(String(dictionaryId));
    // The list stays open across the in-app navigation.
    await page.getByRole('button', { name: 'Delete Valves <b>' }).click();
    await poll(() => page.getByRole('link', { name: 'Valves <b>' }).count()).toBe(0);
    expect(await api.savedQueries.list.query({})).toEqual([]);
  });

  it('fires a transition on the selected rows as a job, with a progress bar and a report per entry', async () => {
    await page.goto(search('q=valve'));
    await rowOf('valve').getByRole('checkbox').check();
    await page.getByLabel(/^Transition/).selectOption('submit');
    await page.getByRole('button', { name: 'Apply to entries' }).click();
    const bulk = page.locator('section.bulk');
    await poll(() => bulk.getByRole('status').textContent()).toBe('2 entries moved to In review.');
    expect(await bulk.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    const report = bulk.locator('table.bulk-report tbody tr');
    expect(await report.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Moved to In review')]),
    );
    expect(await report.count()).toBe(2);
    const states = await api.workflows.entries.query({ 'dictionary-id': dictionaryId, state: 'inReview' });
    expect(states.map((entry) => entry.conceptId)).toEqual([ids.valve, ids.valve]);
  });

  it('fires a transition on every concept matching the search, and reports those it could not move', async () => {
    const bulk = page.locator('section.bulk');
    await bulk.getByLabel('All matching the search').check();
    await page.getByLabel(/^Transition/).selectOption('submit');
    await bulk.getByRole('button', { name: 'Apply to entries' }).click();
    // "valve" is in review already; "valve seat" moves (English and German).
    await poll(() => bulk.getByRole('status').textContent()).toBe('2 entries moved to In review.');
    const rows = bulk.locator('table.bulk-report tbody tr');
    await poll(() => rows.count()).toBe(3);
    const texts = await rows.allTextContents();
    expect(texts.filter((text) => text.startsWith('valve seat') && text.includes('Moved'))).toHaveLength(2);
    expect(texts.filter((text) => text.startsWith('valve') && text.includes('Not moved'))).toHaveLength(1);
    await expectAccessible(page, 'bulk transition');
    await screenshot(page, 'bulk-transition');
  });

  it("lists the entries the server refused, with the server's reason", async () => {
    // "valve" is in review in both languages; its German term has no part of speech.
    await page.goto(search('q=valve'));
    const bulk = page.locator('section.bulk');
    await rowOf('valve').getByRole('checkbox').check();
    await bulk.getByLabel('Selected rows (1)').check();
    await page.getByLabel(/^Transition/).selectOption('approve');
    await bulk.getByRole('button', { name: 'Apply to entries' }).click();
    await poll(() => bulk.getByRole('status').textContent()).toBe('1 entry moved to Approved.');
    const rows = bulk.locator('table.bulk-report tbody tr');
    await poll(() => rows.count()).toBe(2);
    const texts = await rows.allTextContents();
    expect(texts).toContainEqual(expect.stringMatching(/^valveengMoved to Approved$/));
    expect(texts).toContainEqual(`valvedeuNot moved: required fields are empty: TERM:${posOid}`);
    const approved = await api.workflows.entries.query({ 'dictionary-id': dictionaryId, state: 'approved' });
    expect(approved.map((entry) => [entry.conceptId, entry.languageCode])).toEqual([[ids.valve, 'eng']]);
  });

  it("names each task by its concept's label in the first working language", async () => {
    // "pump" is submitted one entry at a time, whose ASSIGN action puts it in the inbox (whether bulk
    // moves run actions is the bulk job's business: only pump's rows are counted).
    const states = await api.workflows.conceptStates.query({ conceptId: ids.pump! });
    for (const entry of states.entries) {
      await api.workflows.fire.mutate({
        conceptId: ids.pump!,
        languageCode: entry.languageCode!,
        transition: 'submit',
        version: entry.version,
      });
    }
    await page.getByRole('link', { name: 'Tasks' }).click();
    const rows = page.locator(`table.inbox tbody tr:has(a[href="/concepts/${ids.pump}"])`);
    await poll(() => rows.count()).toBe(2);
    // German is the first working language now: the label is the German term.
    await poll(() => rows.locator('td:first-child').allTextContents()).toEqual(['Pumpe', 'Pumpe']);
    expect(await rows.locator('td:nth-child(3)').allTextContents()).toEqual(
      expect.arrayContaining(['English', 'German']),
    );
    await expectAccessible(page, 'inbox with labels');
    await screenshot(page, 'inbox-labels');
  });

  it('creates, enables and edits a workflow, with the messages of the server and the 409 dialog', async () => {
    await page.getByRole('link', { name: 'Workflows' }).click();
    // The inbox has a Dictionary picker too: act once the Workflows screen is the one shown.
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption(String(editorDictionaryId));
    await page.getByText('This dictionary has no workflow.').waitFor();
    await page.getByRole('button', { name: 'Create the default workflow' }).click();
    await page.getByRole('heading', { name: /Default workflow/ }).waitFor();
    await page.getByRole('button', { name: 'Enable Default workflow' }).click();
    // Enabling asks first, showing who would stop seeing entries (web-enable-preview.test.ts).
    await page.getByRole('dialog').getByRole('button', { name: 'Enable the workflow' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Default workflow enabled.');
    // A state key twice: the server's message, nothing saved.
    await page.getByLabel('Key of state 2').fill('suggested');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('state suggested appears twice');
    await page.getByLabel('Key of state 2').fill('inReview');
    await page.getByLabel('Name of state 2').fill('Being checked');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Default workflow saved.');
    const [stored] = (
      await api.workflows.list.query({
        'dictionary-id': editorDictionaryId,
        page: 0,
        size: 10,
        format: 'FULL',
        'include-deleted': false,
      })
    ).content;
    expect(stored!.enabled).toBe(true);
    expect(stored!.definition!.states[1]!.name).toBe('Being checked');
    await expectAccessible(page, 'workflow editor');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'workflow-editor');
    // Someone else saves meanwhile: this save meets a 409 and a dialog.
    await api.workflows.patch.mutate({
      id: stored!.id,
      version: stored!.version,
      format: 'FULL',
      description: 'Changed elsewhere',
    });
    await page.getByLabel('Name of state 3').fill('Done');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Someone else changed this workflow' });
    await dialog.waitFor();
    await expectAccessible(page, 'workflow 409 dialog');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect(await page.getByLabel('Name of state 3').inputValue()).toBe('Done');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await dialog.getByRole('button', { name: 'Reload the saved version' }).click();
    await poll(() => page.getByLabel('Name of state 3').inputValue()).toBe('Approved');
  });
});
