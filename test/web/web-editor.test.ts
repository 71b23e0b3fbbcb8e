/**
 * The concept editor's fuller controls end to end, in Debian's Chromium: every value of a multi-valued
 * field, domains, relations picked by searching, reference links, the server's messages beside each of
 * them; deleting a concept (refused under another session's edit lock, confirmed in a dialog, back to
 * search); a term's own comments and its history with restore. axe-core on the editor with the new
 * controls, on a term's comments and history, and on the delete dialog.
 * One server and one browser for the file; the steps share one page, in order.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId: number;
const ids = { valve: 0, pipe: 0, pump: 0, gasket: 0, washer: 0 };
const field = { definition: '', tags: '', note: '' };
let hydraulics = '';

const read = (id: number) =>
  api.concepts.get.query({ id, format: 'FULL', 'with-comments': false, 'include-deleted': false });

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Editor ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [
      { name: 'Definition', fieldType: 'MULTILINE' },
      { name: 'Tags', fieldType: 'MULTISELECT', model: { picklistItems: [{ name: 'a' }, { name: 'b' }] } },
    ],
    termFields: [{ name: 'Note', fieldType: 'SINGLELINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  const oid = (name: string) =>
    [...(dictionary.conceptFields ?? []), ...(dictionary.termFields ?? [])].find((f) => f.name === name)!
      .oid!;
  Object.assign(field, { definition: oid('Definition'), tags: oid('Tags'), note: oid('Note') });
  const domain = await api.domains.create.mutate({ format: 'FULL', name: 'Hydraulics', dictionaryId });
  await api.domains.create.mutate({ format: 'FULL', name: 'Electrics', dictionaryId });
  hydraulics = domain.oid!;
  const create = async (name: string, german: string, fieldMap: Record<string, string[]> = {}) =>
    (
      await api.concepts.create.mutate({
        format: 'ID',
        dictionaryId,
        sectionOid: dictionary.sections![0]!.oid!,
        fieldMap,
        terms: [
          { name, languageCode: 'eng' },
          { name: german, languageCode: 'deu' },
        ],
      } as Parameters<typeof api.concepts.create.mutate>[0])
    ).id!;
  ids.valve = await create('valve', 'Ventil', {
    [field.definition]: ['A valve controls the flow of fluid.'],
  });
  ids.pipe = await create('pipe', 'Rohr');
  ids.pump = await create('pump', 'Pumpe');
  ids.gasket = await create('gasket', 'Dichtung');
  page = await openPage(browser);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const relations = () => page.locator('.relations-editor');
const conceptLinks = () => page.locator('.links-editor', { hasText: 'Reference links of the concept' });
const tags = () => page.locator('fieldset.field-values', { hasText: 'Tags' });

/** Types into a picker and waits for the match to be offered. */
async function find(picker: Locator, text: string, match: string): Promise<Locator> {
  await picker.getByLabel('Find a concept by a term').fill(text);
  const button = picker.getByRole('button', { name: new RegExp(`^${match} `) });
  await button.waitFor();
  return button;
}

describe('concept editor', { timeout: 120_000 }, () => {
  it('edits every value of a multi-valued field, domains, relations and links, with messages beside them', async () => {
    await page.goto(`${web.base}/concepts/${ids.valve}?langs=eng,deu`);
    await signIn(page);
    await page.getByRole('button', { name: 'Edit' }).click();
    const before = (await read(ids.valve)).version;

    await page.getByRole('checkbox', { name: 'Hydraulics' }).check();
    await page.getByLabel('Tags', { exact: true }).selectOption('a');
    await page.getByRole('button', { name: 'Add value to Tags' }).click();
    await page.getByLabel('Tags, value 2', { exact: true }).selectOption('a');

    // A relation picked by keyboard: Enter in the search box goes to the first match, Enter picks it.
    const picker = relations().locator('fieldset.picker');
    await find(picker, 'pip', 'pipe');
    await picker.getByLabel('Find a concept by a term').press('Enter');
    await page.keyboard.press('Enter');
    await relations().getByLabel('Kind of the relation to pipe').selectOption({ label: 'related' });

    await page.getByRole('button', { name: 'Add a reference link in the concept' }).click();
    await conceptLinks().getByLabel('Linked text').fill('flow');
    await conceptLinks().getByRole('textbox', { name: 'Address' }).fill('https://example.org/flow');
    await conceptLinks().getByRole('button', { name: 'Add link' }).click();
    await conceptLinks().getByText('“flow” in Definition → https://example.org/flow').waitFor();
    await expectAccessible(page, 'editor with values, domains, links and relations');
    await conceptLinks().scrollIntoViewIfNeeded();
    await screenshot(page, 'editor-full');

    // The same picklist value twice: the server's message stands beside Tags, and nothing is saved.
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => tags().locator('.field-error').allTextContents()).toEqual([
      expect.stringMatching(/"a" is given more than once/),
    ]);
    expect(await page.getByLabel('Tags, value 2', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await read(ids.valve)).version).toBe(before);

    await page.getByLabel('Tags, value 2', { exact: true }).selectOption('b');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    const saved = await read(ids.valve);
    expect(saved.fieldMap?.[field.tags]).toEqual(['a', 'b']);
    expect(saved.domainList).toEqual([hydraulics]);
    expect(saved.conceptRelations?.map((r) => [r.sourceConceptId, r.targetConceptId, r.attribute])).toEqual([
      [ids.valve, ids.pipe, 11],
    ]);
    expect(saved.refLinks?.map((l) => [l.type, l.text, l.position, l.url])).toEqual([
      ['URL', 'flow', 'A valve controls the '.length, 'https://example.org/flow'],
    ]);
    // The view shows them: the domain by name, the relation as a link.
    await page.getByText('Hydraulics').waitFor();
    await page.getByRole('link', { name: 'pipe' }).waitFor();
    const link = page.getByRole('list', { name: 'Reference links' }).getByRole('link');
    expect([await link.textContent(), await link.getAttribute('href')]).toEqual([
      'https://example.org/flow',
      'https://example.org/flow',
    ]);
  });

  it("places the server's messages beside a relation and a link, and removes them", async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await find(relations().locator('fieldset.picker'), 'pum', 'pump').then((button) => button.click());
    await relations().locator('.relation-list > li', { hasText: 'pump' }).waitFor();
    // The link's text no longer stands where the link says, and the related concept goes meanwhile.
    await page.getByLabel('Definition', { exact: true }).fill('A valve controls fluids.');
    await api.concepts.delete.mutate({ id: ids.pump });
    await page.getByRole('button', { name: 'Save' }).click();
    const pumpItem = relations().locator('.relation-list > li', { hasText: 'pump' });
    await poll(() => pumpItem.locator('.field-error').textContent()).toMatch(/concept \d+ is not a concept/);
    await poll(() => conceptLinks().locator('.field-error').textContent()).toMatch(
      /reference link "flow" does not stand at position/,
    );
    expect(
      await relations().locator('.relation-list > li', { hasText: 'pipe' }).locator('.field-error').count(),
    ).toBe(0);

    await relations().getByRole('button', { name: 'Remove the relation to pump' }).click();
    await conceptLinks()
      .getByRole('button', { name: /^Remove the link “flow”/ })
      .click();
    await page.getByRole('button', { name: 'Remove value 1 of Tags' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    const saved = await read(ids.valve);
    expect(saved.fieldMap?.[field.tags]).toEqual(['b']);
    expect(saved.refLinks).toEqual([]);
    expect(saved.conceptRelations?.map((r) => r.targetConceptId)).toEqual([ids.pipe]);
  });

  it("refuses to delete under another session's lock, confirms, deletes and goes back to search", async () => {
    const other = (await apiSession(web.base)).api;
    expect(await other.concepts.acquireLock.mutate({ id: ids.gasket })).toBe(true);
    await page.goto(`${web.base}/concepts/${ids.gasket}?langs=eng,deu`);
    // The same user's other session: said to be their other tab (web-robust-edits.test.ts).
    await page.getByText(/You are editing this concept in another tab or window/).waitFor();
    expect(await page.getByRole('button', { name: 'Delete concept' }).isDisabled()).toBe(true);
    await other.concepts.releaseLock.mutate({ id: ids.gasket });

    await page.reload();
    const remove = page.getByRole('button', { name: 'Delete concept' });
    await poll(() => remove.isEnabled()).toBe(true);
    await remove.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete “gasket”?' });
    await dialog.waitFor();
    await expectAccessible(page, 'delete dialog');
    await screenshot(page, 'delete-concept');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect((await read(ids.gasket)).id).toBe(ids.gasket);

    await remove.click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/search');
    expect(new URL(page.url()).searchParams.get('d')).toBe(String(dictionaryId));
    await expect(read(ids.gasket)).rejects.toThrow(/not found|404/i);
  });

  it('offers no delete to a user without CONCEPT_DELETE', async () => {
    const me = await api.ui.sessionData.query();
    const user = await createUser(web.server.orm, me.user.clientId!, {});
    const group = await api.groups.create.mutate({
      format: 'FULL',
      name: `Editors ${uniqueSuffix()}`,
      groupMembers: [user.id],
    } as Parameters<typeof api.groups.create.mutate>[0]);
    const scheme = await api.permissionSchemes.create.mutate({
      format: 'FULL',
      name: `Editors only ${uniqueSuffix()}`,
      grants: [
        {
          groupId: group.id!,
          dictionaryPermissions: ['DICT_READ'],
          conceptPermissions: ['CONCEPT_UPDATE'],
          termPermissions: ['TERM_UPDATE'],
          languages: [],
        },
      ],
    } as Parameters<typeof api.permissionSchemes.create.mutate>[0]);
    const guarded = await api.dictionaries.create.mutate({
      format: 'FULL',
      name: `Guarded ${uniqueSuffix()}`,
      languages: [{ code: 'eng' }],
      permissionSchemeId: scheme.id!,
    } as Parameters<typeof api.dictionaries.create.mutate>[0]);
    const kept = await api.concepts.create.mutate({
      format: 'ID',
      dictionaryId: guarded.id!,
      sectionOid: guarded.sections![0]!.oid!,
      terms: [{ name: 'flange', languageCode: 'eng' }],
    } as Parameters<typeof api.concepts.create.mutate>[0]);
    const other = await openPage(browser);
    await other.goto(`${web.base}/concepts/${kept.id}`);
    await signIn(other, user.username, user.password);
    await other.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await other.getByRole('button', { name: 'Delete concept' }).count()).toBe(0);
    await other.context().close();
  });

  it("adds and deletes a term's own comments, shown as text", async () => {
    const valveTerm = (await read(ids.valve)).terms!.find((t) => t.name === 'valve')!;
    await page.goto(`${web.base}/concepts/${ids.valve}?langs=eng,deu`);
    const valveGroup = page.getByRole('article', { name: 'valve', exact: true });
    const toggle = valveGroup.getByRole('button', { name: 'Show comments and history' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const hide = valveGroup.getByRole('button', { name: 'Hide comments and history' });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    const text = '<img src=x onerror="window.__pwned=1"> check the plural';
    await page.getByLabel('New comment on “valve”').fill(text);
    await page.getByRole('button', { name: 'Add comment on “valve”' }).click();
    const comments = page.getByRole('region', { name: 'Comments on “valve”' });
    // The list item, not the text: the controlled textarea holds the same text until the answer.
    const listed = comments.getByRole('listitem').filter({ hasText: text });
    await listed.waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    const stored = await api.comments.list.query({ 'entry-id': valveTerm.id, 'field-level': 'TERM' });
    expect(stored.map((c) => [c.text, c.fieldLevel, c.entryId])).toEqual([[text, 'TERM', valveTerm.id]]);
    expect(await api.comments.list.query({ 'entry-id': ids.valve })).toEqual([]);
    await expectAccessible(page, 'term comments and history');

    await comments.getByRole('button', { name: /^Delete comment on “valve”/ }).click();
    await poll(() => listed.count()).toBe(0);
    expect(await api.comments.list.query({ 'entry-id': valveTerm.id, 'field-level': 'TERM' })).toEqual([]);
  });

  it("shows a term's history field by field and restores an earlier state of the term", async () => {
    const concept = await read(ids.valve);
    const terms = concept.terms!;
    const valve = terms.find((t) => t.name === 'valve')!;
    const others = terms
      .filter((t) => t.id !== valve.id)
      .map((t) => ({ id: t.id, name: t.name, languageCode: t.languageCode }));
    const patch = (version: number, name: string, note: string) =>
      api.concepts.patch.mutate({
        id: ids.valve,
        version,
        format: 'FULL',
        'with-comments': false,
        terms: [{ id: valve.id, name, languageCode: 'eng', fieldMap: { [field.note]: [note] } }, ...others],
      });
    const first = await patch(concept.version!, 'valve', 'first note');
    const second = await patch(first.version!, 'valve body', 'second note');
    // A concept-level change after them is not the term's and stays when the term is restored.
    await api.concepts.patch.mutate({
      id: ids.valve,
      version: second.version!,
      format: 'ID',
      'with-comments': false,
      fieldMap: { [field.tags]: ['a'] },
    });

    await page.goto(`${web.base}/concepts/${ids.valve}?langs=eng,deu`);
    await page
      .getByRole('article', { name: 'valve body', exact: true })
      .getByRole('button', { name: 'Show comments and history' })
      .click();
    const history = page.getByRole('region', { name: 'History of “valve body”' });
    const newest = history.locator('li.history-item').first();
    await newest.locator('tbody tr').first().waitFor();
    expect(
      await newest
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
        ),
    ).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^changed: term · “valve body”/), 'name: valve', 'name: valve body'],
        [expect.stringMatching(/^changed: term field · “valve body” · Note/), 'first note', 'second note'],
      ]),
    );
    expect(await newest.locator('del').count()).toBeGreaterThan(0);
    expect(await newest.locator('ins').count()).toBeGreaterThan(0);
    // The newest state is the term's now: only earlier ones can be restored.
    expect(await newest.getByRole('button').count()).toBe(0);
    await newest.scrollIntoViewIfNeeded();
    await screenshot(page, 'term-history');

    // A restore asks first (web-robust-defects.test.ts): dismissed, nothing changes; accepted, it restores.
    const restoreButton = history.getByRole('button', {
      name: `Restore the term as of version ${first.version}`,
    });
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    const versionBefore = (await read(ids.valve)).version;
    await restoreButton.click();
    await poll(() => asked).toEqual([expect.stringMatching(/^Restore revision/)]);
    expect((await read(ids.valve)).version).toBe(versionBefore);
    page.once('dialog', (dialog) => void dialog.accept());
    await restoreButton.click();
    await page.locator('.term-name', { hasText: /^valve$/ }).waitFor();
    const restored = await read(ids.valve);
    const term = restored.terms!.find((t) => t.id === valve.id)!;
    expect([term.name, term.fieldMap[field.note]]).toEqual(['valve', ['first note']]);
    expect(restored.fieldMap?.[field.tags]).toEqual(['a']);
    expect(restored.terms!.find((t) => t.languageCode === 'deu')!.name).toBe('Ventil');
  });
});
