/**
 * Projects in the web application (issue 40, docs/projects.md, docs/ui.md "Projects"), in Debian's
 * Chromium: a coordinator (administrator of the dictionary, no other role) creates a project, imports
 * candidate terms from a small TBX file and types one in, merges one into its likely duplicate, comments
 * on and promotes two, rejects two, chooses the workflow transitions assignments fire, and assigns an
 * English revision to itself that it changes into a translator's validation (type, assignee, due date,
 * instructions); the translator finds it
 * in the task inbox, works through its entries with "Next entry" and completes it, which approves them
 * through the workflow; a German validation follows; the coordinator sees the progress and exports the
 * approved entries of both languages. Every screen is axe-clean at 1440 and 390 px
 * and does not scroll sideways. One server and one browser; the steps run in order.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let api: Api;
let coordinator: Page;
let translator: Page;
let dictionaryName: string;
let projectName: string;
let projectId: number;
let memoryConceptId: number;
const people = { coordinator: '', translator: '', password: '' };

const candidatesTbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>launch glossary</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="c1"><langSec xml:lang="en"><termSec><term>translation memory</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Übersetzungsspeicher</term></termSec></langSec></conceptEntry>
<conceptEntry id="c2"><langSec xml:lang="en"><termSec><term>term base</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Termdatenbank</term></termSec></langSec></conceptEntry>
<conceptEntry id="c3"><langSec xml:lang="en"><termSec><term>glossary</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Glossar</term></termSec></langSec></conceptEntry>
<conceptEntry id="c4"><langSec xml:lang="en"><termSec><term>widget</term></termSec></langSec></conceptEntry>
</body></text></tbx>`;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const suffix = uniqueSuffix();
  dictionaryName = `Launch ${suffix}`;
  projectName = `Product launch ${suffix}`;
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: dictionaryName,
    languages: [{ code: 'en' }, { code: 'de' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  // A workflow whose approval any user may fire (the validation assignment fires it), also from draft.
  const definition = defaultDefinition();
  const approve = definition.transitions.find((transition) => transition.key === 'approve')!;
  approve.from = ['suggested', 'inReview'];
  approve.roles.push('USER');
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review',
    dictionaryId: dictionary.id!,
    unit: 'LANGUAGE',
    enabled: true,
    definition,
  });
  memoryConceptId = (
    await api.concepts.create.mutate({
      format: 'FULL',
      dictionaryId: dictionary.id!,
      sectionOid: dictionary.sections![0]!.oid!,
      terms: [{ name: 'translation memory', languageCode: 'en' }],
    } as Parameters<typeof api.concepts.create.mutate>[0])
  ).id!;
  people.password = `Launch-${suffix}-pw1`;
  people.coordinator = `coordinator${suffix}`;
  people.translator = `translator${suffix}`;
  for (const [username, roles] of [
    [people.coordinator, [`DICTIONARY_ADMIN@${dictionary.oid ?? dictionary.id}`]],
    [people.translator, []],
  ] as const) {
    await api.users.create.mutate({
      format: 'ID',
      username,
      password: people.password,
      confirmPassword: people.password,
      roles: [...roles],
    } as Parameters<typeof api.users.create.mutate>[0]);
  }
  coordinator = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  translator = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

/** axe at 1440 and at 390 px, nothing scrolling sideways at either; the page is left at 1440 px. */
async function checkBothWidths(page: Page, screen: string, shot?: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${screen} at ${width} px`);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      `${screen} at ${width} px scrolls sideways`,
    ).toBe(true);
    if (shot) await screenshot(page, width === 390 ? `${shot}-phone` : shot);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const path = (page: Page) => new URL(page.url()).pathname;
/** The select of a label that wraps it (its accessible name also holds the chosen option's text). */
const select = (page: Page, label: string) =>
  page
    .locator('label')
    .filter({ hasText: new RegExp(`^${label}`) })
    .locator('select');

describe('projects', { timeout: 180_000 }, () => {
  it('a coordinator creates a project from the projects list', async () => {
    await coordinator.goto(`${web.base}/projects`);
    await signIn(coordinator, people.coordinator, people.password);
    await coordinator.getByRole('heading', { name: 'Projects' }).waitFor();
    await coordinator.getByRole('link', { name: 'New project' }).click();
    await coordinator.getByRole('heading', { name: 'New project' }).waitFor();
    await coordinator.getByLabel('Name', { exact: true }).fill(projectName);
    await coordinator.getByLabel('Description').fill('Terms of the spring launch, in English and German.');
    await coordinator.getByRole('checkbox', { name: dictionaryName }).check();
    await coordinator.getByRole('checkbox', { name: people.coordinator }).check();
    await coordinator.getByLabel('Due date').fill('2031-03-31');
    await checkBothWidths(coordinator, 'new project', 'project-new');
    await coordinator.getByRole('button', { name: 'Create project' }).click();
    await poll(() => path(coordinator)).toMatch(/^\/projects\/\d+$/);
    projectId = Number(path(coordinator).split('/')[2]);
    await coordinator.getByRole('heading', { name: projectName }).waitFor();
    expect(await coordinator.locator('h1 .badge').first().textContent()).toBe('Draft');
    // The list finds it by the coordinator filter ("Me") and by status.
    await coordinator.goto(`${web.base}/projects?coordinator=me&status=DRAFT`);
    await coordinator.getByRole('link', { name: projectName }).waitFor();
    await checkBothWidths(coordinator, 'projects list', 'projects');
    await select(coordinator, 'Status').selectOption('DONE');
    await coordinator.getByText('No project matches.').waitFor();
  });

  it('imports candidates from a TBX file and decides on each beside its likely duplicates', async () => {
    await coordinator.goto(`${web.base}/projects/${projectId}`);
    await coordinator.getByRole('link', { name: /^Review candidates/ }).click();
    await coordinator.getByRole('heading', { name: `Candidates of ${projectName}` }).waitFor();
    await coordinator.getByLabel(/^File of candidate terms/).setInputFiles({
      name: 'launch.tbx',
      mimeType: 'application/xml',
      buffer: Buffer.from(candidatesTbx),
    });
    await coordinator.getByRole('button', { name: 'Import candidates' }).click();
    await coordinator.getByText('4 candidates added.').waitFor();
    const list = coordinator.getByRole('navigation', { name: 'Candidates' });
    await poll(() => list.getByRole('link').count()).toBe(4);
    // One more typed in.
    await coordinator.getByText('Add a candidate by hand').click();
    await coordinator.getByLabel('Term (English)').fill('style guide');
    await coordinator.getByRole('button', { name: 'Add the candidate' }).click();
    await coordinator.getByText('Candidate added.').waitFor();
    await poll(() => list.getByRole('link').count()).toBe(5);

    // Merge: the existing concept is found as a likely duplicate.
    await list.getByRole('link', { name: /^translation memory/ }).click();
    const duplicates = coordinator.locator('.duplicates');
    await duplicates.getByRole('link', { name: 'translation memory' }).waitFor();
    await checkBothWidths(coordinator, 'candidate review', 'project-candidates');
    await duplicates
      .getByRole('button', {
        name: `Merge into this concept (translation memory, concept ${memoryConceptId})`,
      })
      .click();
    await coordinator
      .locator('.candidate-detail')
      .getByText(/^Merged by/)
      .waitFor();
    await poll(() => list.getByRole('link').count()).toBe(4);

    // Comment, then promote.
    await list.getByRole('link', { name: /^term base/ }).click();
    await coordinator.getByRole('heading', { name: 'term base · Termdatenbank' }).waitFor();
    await coordinator
      .locator('.duplicates')
      .getByText("No term of the project's dictionaries matches.")
      .waitFor();
    await coordinator.getByLabel('Your comment').fill('Marketing uses this one.');
    await coordinator.getByRole('button', { name: 'Add comment' }).click();
    await coordinator.locator('.comment-list').getByText('Marketing uses this one.').waitFor();
    await coordinator.getByRole('button', { name: 'Promote to a new concept' }).click();
    await coordinator
      .locator('.candidate-detail')
      .getByText(/^Promoted by/)
      .waitFor();

    await list.getByRole('link', { name: /^glossary/ }).click();
    await coordinator.getByRole('heading', { name: 'glossary · Glossar' }).waitFor();
    await coordinator.getByRole('button', { name: 'Promote to a new concept' }).click();
    await coordinator
      .locator('.candidate-detail')
      .getByText(/^Promoted by/)
      .waitFor();

    await list.getByRole('link', { name: 'widget' }).click();
    await coordinator.getByRole('heading', { name: 'widget' }).waitFor();
    await coordinator.getByLabel('Comment on the decision (optional)').fill('Not a term.');
    await coordinator.getByRole('button', { name: 'Reject' }).click();
    await coordinator
      .locator('.candidate-detail')
      .getByText(/^Rejected by/)
      .waitFor();
    await list.getByRole('link', { name: 'style guide' }).click();
    await coordinator.getByRole('heading', { name: 'style guide' }).waitFor();
    await coordinator.getByRole('button', { name: 'Reject' }).click();
    await coordinator
      .locator('.candidate-detail')
      .getByText(/^Rejected by/)
      .waitFor();
    await coordinator.getByText('No candidates with this status.').waitFor();
  });

  it('assigns the English validation to a translator', async () => {
    await coordinator.getByRole('link', { name: `Back to ${projectName}` }).click();
    await coordinator.getByText('3 entries.').waitFor();
    // Its managers change its details in place. The workflows held back (as on a loaded server): the pickers say so and offer nothing to type in,
    // not even hidden (typed keys are only for dictionaries whose workflows the caller cannot read).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await coordinator.route(/\/trpc\/[^?]*workflows\.list/, async (route) => {
      await held;
      await route.continue();
    });
    await coordinator.getByRole('button', { name: 'Edit details' }).click();
    const edit = coordinator.getByRole('form', { name: 'Edit the project' });
    const fired = edit.getByRole('group', { name: 'Workflow transitions completing an assignment fires' });
    await fired.getByRole('status').getByText('Loading…').waitFor();
    expect(await fired.locator('input, select').count()).toBe(0);
    release();
    await fired.getByRole('combobox').first().waitFor();
    await coordinator.unroute(/\/trpc\/[^?]*workflows\.list/);
    await edit.getByLabel('Instructions').fill('English first, German after the review.');
    // The workflow transitions its assignments fire, chosen among the workflow's.
    await fired.getByLabel('Drafting').selectOption({ label: 'Submit for review' });
    expect(await fired.getByLabel('Validation').inputValue()).toBe('approve');
    await checkBothWidths(coordinator, 'project details edited');
    await edit.getByRole('button', { name: 'Save' }).click();
    const details = coordinator.locator('dl.fields');
    await details.getByText('English first, German after the review.').waitFor();
    await details.getByText('Drafting: Submit for review; Validation: Approve').waitFor();
    // A revision by the coordinator first, then changed into the translator's validation.
    await select(coordinator, 'Type').selectOption('REVISION');
    await select(coordinator, 'Language').selectOption({ label: 'English' });
    await select(coordinator, 'User').selectOption({ label: people.coordinator });
    await coordinator.getByLabel('Due', { exact: true }).fill('2031-03-01');
    await coordinator.getByRole('button', { name: 'Create assignment' }).click();
    await coordinator.getByText('Assignment created.').waitFor();
    const row = coordinator.locator('table.assignments tbody tr');
    await poll(() => row.count()).toBe(1);
    await row
      .getByRole('button', { name: `Edit the assignment Revision, English, ${people.coordinator}` })
      .click();
    const change = coordinator.getByRole('form', { name: 'Edit the assignment' });
    await change.waitFor();
    expect(await coordinator.getByRole('form', { name: 'New assignment' }).count()).toBe(0);
    await select(coordinator, 'Type').selectOption('VALIDATION');
    await select(coordinator, 'User').selectOption({ label: people.translator });
    await change.getByLabel('Due', { exact: true }).fill('2031-03-15');
    await change.getByLabel('Instructions').fill('Check each English term against the style guide.');
    await checkBothWidths(coordinator, 'assignment changed on the project page');
    await change.getByRole('button', { name: 'Save the assignment' }).click();
    await coordinator.getByText('Assignment saved.').waitFor();
    await coordinator.getByRole('form', { name: 'New assignment' }).waitFor();
    await poll(() => row.locator('td').allTextContents()).toEqual([
      'Validation',
      'English',
      people.translator,
      expect.stringContaining('Mar 15, 2031'),
      'Open',
      expect.stringMatching(/^0 of 3/),
      'Edit',
    ]);
    // The first assignment started the project.
    await poll(() => coordinator.locator('h1 .badge').first().textContent()).toBe('Ongoing');
  });

  it('the translator finds it in the inbox and works through its entries with "Next entry"', async () => {
    await translator.goto(`${web.base}/inbox`);
    await signIn(translator, people.translator, people.password);
    await translator.getByRole('heading', { name: 'My assignments' }).waitFor();
    const mine = translator.locator('.my-assignments tbody tr', { hasText: projectName });
    await poll(() => mine.count()).toBe(1);
    await checkBothWidths(translator, 'inbox with assignments', 'inbox-assignments');
    await mine.getByRole('link', { name: 'Validation' }).click();
    await translator.getByRole('heading', { name: 'Validation: English' }).waitFor();
    await checkBothWidths(translator, 'assignment', 'project-assignment');
    // An assignee completes, a manager cancels: the translator is offered the one, not the other.
    await translator.getByRole('button', { name: 'Complete the assignment' }).waitFor();
    expect(await translator.getByRole('button', { name: 'Cancel the assignment' }).count()).toBe(0);
    await translator.getByRole('button', { name: /^Open next entry/ }).click();
    await poll(() => path(translator)).toMatch(/^\/concepts\/\d+$/);
    const bar = translator.locator('.assignment-bar');
    await bar.getByRole('heading', { name: `Validation for ${projectName}` }).waitFor();
    await checkBothWidths(translator, 'concept with the next-entry bar', 'project-next-entry');
    const seen = [path(translator)];
    for (let step = 0; step < 2; step++) {
      await bar.getByRole('button', { name: 'Next entry' }).click();
      await poll(() => seen.includes(path(translator))).toBe(false);
      seen.push(path(translator));
      await translator.locator('#concept-title').waitFor();
    }
    expect(new Set(seen).size).toBe(3);
    // The concept shows the project it belongs to; its page offers a reader no manager's control.
    await translator.locator('.concept-projects').getByRole('link', { name: projectName }).click();
    await translator.getByRole('heading', { name: 'Progress per language' }).waitFor();
    for (const name of ['Edit details', 'Suspend', 'Create assignment', 'Delete the project']) {
      expect(await translator.getByRole('button', { name }).count(), name).toBe(0);
    }
    await translator.goBack();
  });

  it('completes the validation, which approves the entries through the workflow, and progress follows', async () => {
    await translator.locator('.assignment-bar').getByRole('link', { name: 'Back to the assignment' }).click();
    await translator.getByRole('button', { name: 'Complete the assignment' }).click();
    await translator.getByText(/^Assignment completed: approve moved 3 entries/).waitFor();
    await poll(() =>
      translator.locator('.assignment-page dd').filter({ hasText: /of 3/ }).textContent(),
    ).toMatch(/^3 of 3/);
    await coordinator.reload();
    await coordinator.getByRole('heading', { name: 'Progress per language' }).waitFor();
    const english = coordinator.locator('.project-page table').first().locator('tr', { hasText: 'English' });
    await poll(() => english.locator('td').allTextContents()).toEqual(['3', '3', '3', '100%']);
    await poll(() => coordinator.locator('table.assignments tbody tr td').nth(4).textContent()).toBe('Done');
    // A DONE assignment is no longer changed.
    expect(
      await coordinator.locator('table.assignments').getByRole('button', { name: /^Edit/ }).count(),
    ).toBe(0);
    await coordinator
      .getByRole('table', { name: 'Entries by language and state' })
      .getByText('Approved')
      .first()
      .waitFor();

    // German next: its terms came with the candidates; a second validation approves them.
    await select(coordinator, 'Type').selectOption('VALIDATION');
    await select(coordinator, 'Language').selectOption({ label: 'German' });
    await select(coordinator, 'User').selectOption({ label: people.translator });
    await coordinator.getByRole('button', { name: 'Create assignment' }).click();
    await coordinator.getByText('Assignment created.').waitFor();
    await poll(() => coordinator.locator('table.assignments tbody tr').count()).toBe(2);
    await translator.goto(`${web.base}/inbox`);
    const german = translator.locator('.my-assignments tbody tr', { hasText: projectName });
    await poll(() => german.count()).toBe(1);
    await german.getByRole('link', { name: 'Validation' }).click();
    await translator.getByRole('heading', { name: 'Validation: German' }).waitFor();
    await translator.getByRole('button', { name: 'Complete the assignment' }).click();
    await translator.getByText(/^Assignment completed: approve moved 3 entries/).waitFor();
    await coordinator.reload();
    const germanRow = coordinator.locator('.project-page table').first().locator('tr', { hasText: 'German' });
    await poll(() => germanRow.locator('td').allTextContents()).toEqual(['3', '3', '3', '100%']);
    await checkBothWidths(coordinator, 'project page', 'project');
    // The project's entries as TBX.
    await coordinator.getByRole('button', { name: `Export the entries of ${dictionaryName} as TBX` }).click();
    const link = coordinator.getByRole('link', { name: /^Download / });
    const [download] = await Promise.all([coordinator.waitForEvent('download'), link.click()]);
    const tbx = await readFile((await download.path())!, 'utf8');
    // The approved terms of both languages.
    expect(tbx).toContain('<term>term base</term>');
    expect(tbx).toContain('<term>Termdatenbank</term>');
    expect(tbx).not.toContain('widget');
  });
});
