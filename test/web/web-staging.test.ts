/**
 * Staging areas in the web application (issue 41, docs/staging.md, docs/ui.md "Staging areas"), in
 * Debian's Chromium: a reviewer (administrator of the dictionary, no other role) creates an area,
 * imports a small TBX file into it through the import wizard, reviews an entry beside the concept it
 * would change (the field-level difference, marked in words), accepts it into a chosen workflow state,
 * edits one, rejects one with a reason, bulk-accepts the rest, reads the area's decisions, reaches the
 * area from the dictionary's admin pages, and suggests a change from a concept's page. Every screen is axe-clean at 1440 and 390 px and does not scroll sideways. One server and one
 * browser; the steps run in order.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let api: Api;
let reviewer: Page;
let dictionaryId: number;
let dictionaryName: string;
let diskConceptId: number;
let areaId: number;
const areaName = 'Supplier glossary';
const people = { reviewer: '', reader: '', password: '' };

const supplierTbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>supplier glossary</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="s1"><langSec xml:lang="en"><termSec><term>disk</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Platte</term></termSec></langSec></conceptEntry>
<conceptEntry id="s2"><langSec xml:lang="en"><termSec><term>keyboard</term></termSec></langSec><langSec xml:lang="de"><termSec><term>Tastatur</term></termSec></langSec></conceptEntry>
<conceptEntry id="s3"><langSec xml:lang="en"><termSec><term>mouse</term></termSec></langSec></conceptEntry>
<conceptEntry id="s4"><langSec xml:lang="en"><termSec><term>screen</term></termSec></langSec></conceptEntry>
<conceptEntry id="s5"><langSec xml:lang="en"><termSec><term>printer</term></termSec></langSec></conceptEntry>
<conceptEntry id="s6"><langSec xml:lang="en"><termSec><term>thingamajig</term></termSec></langSec></conceptEntry>
</body></text></tbx>`;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const suffix = uniqueSuffix();
  dictionaryName = `Hardware ${suffix}`;
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: dictionaryName,
    languages: [{ code: 'en' }, { code: 'de' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Review',
    dictionaryId,
    unit: 'LANGUAGE',
    enabled: true,
    definition: defaultDefinition(),
  });
  diskConceptId = (
    await api.concepts.create.mutate({
      format: 'FULL',
      dictionaryId,
      sectionOid: dictionary.sections![0]!.oid!,
      terms: [{ name: 'disk', languageCode: 'en' }],
    } as Parameters<typeof api.concepts.create.mutate>[0])
  ).id!;
  people.password = `Staging-${suffix}-pw1`;
  people.reviewer = `reviewer${suffix}`;
  await api.users.create.mutate({
    format: 'ID',
    username: people.reviewer,
    password: people.password,
    confirmPassword: people.password,
    roles: [`DICTIONARY_ADMIN@${dictionary.oid ?? dictionary.id}`],
  } as Parameters<typeof api.users.create.mutate>[0]);
  people.reader = `reader${suffix}`;
  await api.users.create.mutate({
    format: 'ID',
    username: people.reader,
    password: people.password,
    confirmPassword: people.password,
  } as Parameters<typeof api.users.create.mutate>[0]);
  reviewer = await openPage(browser, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

// A failed step shows what the page said (its errors are in the text).
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && reviewer) {
    console.info(
      `${reviewer.url()}\n${await reviewer
        .locator('main')
        .innerText()
        .catch(() => '')}`,
    );
  }
});

/** axe at 1440 and at 390 px, nothing scrolling sideways at either; the page is left at 1440 px. */
async function checkBothWidths(page: Page, screen: string, shot?: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${screen} at ${width} px`);
    // The elements reaching past the window's right edge, to name in the failure.
    const wide = await page.evaluate(() => {
      const limit = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= limit) return [];
      return [...document.querySelectorAll('main *')]
        .filter((element) => element.getBoundingClientRect().right > limit + 1)
        .filter((element) => !element.closest('.table-scroll') || element.classList.contains('table-scroll'))
        .slice(0, 8)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`,
        );
    });
    expect(wide, `${screen} at ${width} px scrolls sideways`).toEqual([]);
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

/** The area's entries as the API reads them, by status. */
async function entriesOf(status: 'PENDING' | 'ACCEPTED' | 'REJECTED') {
  return (await api.staging.listEntries.query({ id: areaId, status, page: 0, size: 100 })).content;
}

describe('staging areas', { timeout: 180_000 }, () => {
  it('a reviewer creates a staging area from the menu', async () => {
    await reviewer.goto(`${web.base}/search`);
    await signIn(reviewer, people.reviewer, people.password);
    await reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staging' }).click();
    await reviewer.getByRole('heading', { name: 'Staging areas', level: 1 }).waitFor();
    await reviewer.getByText('No staging area yet.').waitFor();
    const form = reviewer.getByRole('form', { name: 'New staging area' });
    await form.getByLabel('Name').fill(areaName);
    await form.getByLabel('Description').fill('Terms the hardware supplier sent.');
    await form.getByRole('button', { name: 'Create the staging area' }).click();
    await reviewer.getByText(`Staging area ${areaName} created.`).waitFor();
    await reviewer.getByRole('link', { name: areaName }).waitFor();
    areaId = (await api.staging.listAreas.query({ dictionaryId, page: 0, size: 10 })).content[0]!.id;
    await checkBothWidths(reviewer, 'staging areas', 'staging-areas');
  });

  it('imports a TBX file into the area through the import wizard', async () => {
    await reviewer.getByRole('link', { name: areaName }).click();
    await reviewer.getByRole('heading', { name: `Staging area ${areaName}` }).waitFor();
    await reviewer.getByRole('link', { name: 'Import a file into this staging area' }).click();
    await poll(() => path(reviewer)).toBe('/tbx');
    const into = select(reviewer, 'Into');
    await poll(() => into.inputValue()).toBe(`area:${areaId}`);
    await reviewer.getByLabel('TBX file').setInputFiles({
      name: 'supplier.tbx',
      mimeType: 'application/xml',
      buffer: Buffer.from(supplierTbx),
    });
    await select(reviewer, 'Entries that exist already').selectOption('TERM');
    await reviewer.getByRole('button', { name: 'Import', exact: true }).click();
    await reviewer.getByText(/^Staged for review in Supplier glossary: 6 entries, 1 of them/).waitFor();
    // Nothing went into the dictionary yet.
    expect((await entriesOf('PENDING')).length).toBe(6);
    await reviewer.getByRole('link', { name: `Review the entries in ${areaName}` }).click();
    await reviewer.getByText('6 entries.').waitFor();
    await checkBothWidths(reviewer, 'staging area entries', 'staging-area');
  });

  it('reviews the entry that changes a concept: the difference, then accepts it into a workflow state', async () => {
    await reviewer.getByLabel('Term contains').fill('disk');
    await reviewer.getByRole('button', { name: 'Find' }).click();
    await reviewer.getByText('1 entry.').waitFor();
    await reviewer.getByRole('link', { name: /disk/ }).click();
    await poll(() => path(reviewer)).toMatch(/^\/staging\/entries\/\d+$/);
    const current = reviewer.getByRole('region', { name: 'Now in the dictionary' });
    await current.getByRole('link', { name: `Concept ${diskConceptId}` }).waitFor();
    await current.getByText('disk', { exact: true }).waitFor();
    await reviewer.getByRole('region', { name: 'Staged entry' }).getByText('Platte').waitFor();
    // The German term is what accepting adds, said in words (not by colour alone).
    const changes = reviewer.locator('.change-list > li');
    await poll(() => changes.count()).toBeGreaterThan(0);
    const added = changes.filter({ hasText: 'Platte' });
    expect(await added.locator('.change-kind').textContent()).toContain('Added');
    await checkBothWidths(reviewer, 'staged entry review', 'staging-entry');
    await select(reviewer, 'Start in workflow state').selectOption({ label: 'In review' });
    await reviewer.getByRole('button', { name: 'Accept into the dictionary' }).click();
    await reviewer.getByText(`Accepted into concept ${diskConceptId}.`).waitFor();
    await reviewer.locator('h1 .badge').getByText('Accepted').waitFor();
    await reviewer.locator('.decision-list').getByText('started in In review').waitFor();
    // Its terms are in review now, which only the workflow's reviewers (the dictionary's administrators) see.
    const { api: asReviewer } = await apiSession(web.base, people.reviewer, people.password);
    const disk = await asReviewer.concepts.get.query({
      id: diskConceptId,
      format: 'FULL',
      'with-comments': false,
      'include-deleted': false,
    });
    expect((disk.terms ?? []).map((term) => term.name).sort()).toEqual(['Platte', 'disk']);
  });

  it('edits one entry, rejects another with a reason', async () => {
    await reviewer.goto(`${web.base}/staging/${areaId}?text=keyboard`);
    await reviewer.getByRole('link', { name: /keyboard/ }).click();
    await reviewer
      .getByRole('region', { name: 'Now in the dictionary' })
      .getByText(/makes a new concept/)
      .waitFor();
    await reviewer.getByRole('button', { name: 'Edit the entry' }).click();
    const editor = reviewer.getByRole('form', { name: 'Edit the staged entry' });
    await editor.getByLabel('Term (English)').fill('computer keyboard');
    await editor.getByRole('button', { name: 'Add a value (Values of computer keyboard)' }).click();
    await editor.getByLabel('Field', { exact: true }).fill('partOfSpeech');
    await editor.getByLabel('Value', { exact: true }).fill('noun');
    await checkBothWidths(reviewer, 'staged entry editor');
    await editor.getByRole('button', { name: 'Save the entry' }).click();
    await reviewer.getByText('Entry saved.').waitFor();
    await reviewer.getByRole('region', { name: 'Staged entry' }).getByText('computer keyboard').waitFor();
    await reviewer.locator('.decision-list').getByText('Edited').waitFor();
    const edited = (await entriesOf('PENDING')).find((e) => e.label.includes('computer keyboard'));
    expect(edited?.entry.languages[0]?.terms[0]?.values).toEqual([
      expect.objectContaining({ category: 'partOfSpeech', value: 'noun' }),
    ]);

    await reviewer.goto(`${web.base}/staging/${areaId}?text=thingamajig`);
    await reviewer.getByRole('link', { name: /thingamajig/ }).click();
    await reviewer.getByLabel('Reason for rejecting (optional)').fill('Not a term of the domain.');
    await reviewer.getByRole('button', { name: 'Reject' }).click();
    await reviewer.getByText('Rejected.').waitFor();
    await reviewer.locator('.decision-list').getByText('Not a term of the domain.').waitFor();
    expect((await entriesOf('REJECTED')).map((e) => e.label)).toEqual([
      expect.stringContaining('thingamajig'),
    ]);
  });

  it('bulk-accepts selected entries, then every pending one the filters find', async () => {
    await reviewer.getByRole('link', { name: 'Back to the staging area' }).click();
    await reviewer.getByText('4 entries.').waitFor();
    await reviewer.getByRole('checkbox', { name: /^Select .*mouse/ }).check();
    await reviewer.getByRole('checkbox', { name: /^Select .*screen/ }).check();
    await reviewer.getByText('The selected entries (2)').waitFor();
    await select(reviewer, 'Start in workflow state').selectOption({ label: 'Suggested' });
    await checkBothWidths(reviewer, 'staging area, entries selected');
    await reviewer.getByRole('button', { name: 'Accept', exact: true }).click();
    await reviewer.getByText('Accepted 2, skipped 0.').waitFor();
    await reviewer.getByText('2 entries.').waitFor();
    await reviewer.getByLabel(/^All 2 pending entries the filters find/).check();
    await reviewer.getByRole('button', { name: 'Accept', exact: true }).click();
    await reviewer.getByText('Accepted 2, skipped 0.').waitFor();
    await reviewer.getByText('No entry matches.').waitFor();
    expect((await entriesOf('ACCEPTED')).length).toBe(5);
    // The counts on the list of areas follow.
    await reviewer.getByRole('link', { name: 'All staging areas' }).click();
    const row = reviewer.locator('table.staging-areas tbody tr');
    await poll(() => row.locator('td').allTextContents()).toEqual([
      expect.stringContaining(areaName),
      expect.any(String),
      '0',
      '5',
      '1',
      'No',
      expect.any(String),
    ]);
  });

  it("lists the area's decisions from its page, filtered by decision", async () => {
    await reviewer.goto(`${web.base}/staging/${areaId}`);
    await reviewer.getByRole('link', { name: 'Decisions in this area' }).click();
    await poll(() => path(reviewer)).toBe(`/staging/${areaId}/decisions`);
    await reviewer.getByRole('heading', { name: `Decisions in ${areaName}`, level: 1 }).waitFor();
    // disk accepted, keyboard edited, thingamajig rejected, then 2 + 2 accepted in bulk.
    await reviewer.getByText('7 decisions.').waitFor();
    const rows = reviewer.locator('table.staging-decisions tbody tr');
    expect(await rows.count()).toBe(7);
    const rejection = rows.filter({ hasText: 'thingamajig' });
    expect(await rejection.locator('td').allTextContents()).toEqual([
      expect.any(String),
      people.reviewer,
      expect.stringContaining('thingamajig'),
      'Rejected',
      expect.stringContaining('Not a term of the domain.'),
    ]);
    const accepted = rows.filter({ hasText: 'disk' }).filter({ hasText: 'Accepted' });
    await accepted.getByRole('link', { name: `Concept ${diskConceptId}` }).waitFor();
    await checkBothWidths(reviewer, 'staging area decisions', 'staging-decisions');
    await select(reviewer, 'Decision').selectOption('EDITED');
    await reviewer.getByText('1 decision.').waitFor();
    await rows.filter({ hasText: 'computer keyboard' }).getByText('Edited').waitFor();
    await rows.getByRole('link', { name: /computer keyboard/ }).click();
    await poll(() => path(reviewer)).toMatch(/^\/staging\/entries\/\d+$/);
  });

  it("the dictionary's admin pages link to its staging areas", async () => {
    await reviewer.goto(`${web.base}/admin/dictionaries/${dictionaryId}/languages`);
    await reviewer
      .getByRole('navigation', { name: 'Pages of this dictionary' })
      .getByRole('link', { name: 'Staging areas' })
      .click();
    await poll(() => new URL(reviewer.url()).search).toBe(`?d=${dictionaryId}`);
    await reviewer.getByRole('heading', { name: 'Staging areas', level: 1 }).waitFor();
    await reviewer.locator('table.staging-areas').getByRole('link', { name: areaName }).waitFor();
    await reviewer.goto(`${web.base}/admin/dictionaries`);
    await reviewer.getByRole('link', { name: `Staging areas of ${dictionaryName}` }).click();
    await poll(() => new URL(reviewer.url()).search).toBe(`?d=${dictionaryId}`);
    await reviewer.locator('table.staging-areas').getByRole('link', { name: areaName }).waitFor();
  });

  it('suggests a change from a concept page; the reviewer finds it pending', async () => {
    await reviewer.goto(`${web.base}/concepts/${diskConceptId}`);
    await reviewer.getByRole('button', { name: 'Suggest a change' }).click();
    const form = reviewer.getByRole('form', { name: 'Suggestion' });
    await form.getByRole('button', { name: 'Add a term in English' }).click();
    await form.getByLabel('Term (English)').last().fill('hard disk');
    await form.getByLabel('Note to the reviewers (optional)').fill('The long form is common.');
    await checkBothWidths(reviewer, 'suggest a change');
    await form.getByRole('button', { name: 'Send the suggestion' }).click();
    await reviewer.getByText(`Suggestion sent to ${areaName}.`).waitFor();
    const pending = await entriesOf('PENDING');
    expect(pending).toEqual([
      expect.objectContaining({
        source: 'SUGGESTION',
        targetConceptId: diskConceptId,
        comment: 'The long form is common.',
      }),
    ]);
    await reviewer.getByRole('link', { name: 'Open it' }).click();
    await reviewer.getByText('The long form is common.').waitFor();
    const added = reviewer.locator('.change-list > li').filter({ hasText: 'hard disk' });
    expect(await added.locator('.change-kind').textContent()).toContain('Added');
  });

  it('a reader suggests on a phone where the area is open to readers, and withdraws it', async () => {
    const area = await api.staging.getArea.query({ id: areaId });
    await api.staging.updateArea.mutate({ id: areaId, version: area.version, openToReaders: true });
    const reader = await openPage(browser, { viewport: { width: 390, height: 844 }, locale: 'en-US' });
    await reader.goto(`${web.base}/concepts/${diskConceptId}`);
    await signIn(reader, people.reader, people.password);
    await reader.getByRole('button', { name: 'Suggest a change' }).click();
    const form = reader.getByRole('form', { name: 'Suggestion' });
    // The concept's terms are in review, which readers do not see: the reader starts a language afresh.
    await form.getByRole('button', { name: 'Add a language' }).click();
    await form.getByLabel('Term (English)').last().fill('fixed disk');
    await form.getByRole('button', { name: 'Send the suggestion' }).click();
    await reader.getByText(`Suggestion sent to ${areaName}.`).waitFor();
    await reader.getByRole('link', { name: 'Open it' }).click();
    await reader.getByRole('heading', { name: 'What accepting changes' }).waitFor();
    // Its suggester edits or withdraws it; accepting is the reviewers'.
    await reader.getByRole('button', { name: 'Edit the entry' }).waitFor();
    expect(await reader.getByRole('button', { name: 'Accept into the dictionary' }).count()).toBe(0);
    await checkBothWidths(reader, 'own suggestion on a phone');
    await reader.getByRole('button', { name: 'Withdraw' }).click();
    await reader.getByText('Rejected.').waitFor();
    // The area lists only the reader's own entries.
    await reader.getByRole('link', { name: 'Back to the staging area' }).click();
    await select(reader, 'Status').selectOption('ALL');
    await reader.getByText('1 entry.').waitFor();
    await reader.context().close();
  });
});
