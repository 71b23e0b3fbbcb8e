/**
 * The workflow editor's rules end to end, in Debian's Chromium (issue 26): a transition defined through
 * the form with groups, languages, a condition, a required field, a comment, a vote rule and SET_FIELD,
 * NOTIFY and ASSIGN actions, plus the workflow's approved-entry settings; a refused vote count shows the
 * server's message beside its control; the saved definition read back through the API holds every rule.
 * Names from users (fields, groups) are shown as text, never as HTML; axe-core on both states.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId: number;
let subjectOid: string;
let posOid: string;
let groupId: number;
let groupName: string;
let meId: number;
/** A field name with markup: it must reach the screen as these characters. */
const SUBJECT = 'Subject <i>area</i>';

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  meId = (await api.ui.sessionData.query()).user.id!;
  const suffix = uniqueSuffix();
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Rules ${suffix}`,
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [{ name: SUBJECT, fieldType: 'SINGLELINE' }],
    termFields: [{ name: 'Part of speech', fieldType: 'SINGLELINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  subjectOid = dictionary.conceptFields![0]!.oid!;
  posOid = dictionary.termFields![0]!.oid!;
  groupName = `Reviewers <b>${suffix}</b>`;
  groupId = (await api.groups.create.mutate({ format: 'FULL', name: groupName })).id!;
  // The default definition, disabled: the form edits it.
  await api.workflows.create.mutate({
    format: 'FULL',
    name: 'Default workflow',
    dictionaryId,
    unit: 'LANGUAGE',
    enabled: false,
  });
  page = await openPage(browser);
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

/** The stored workflow of the dictionary, as the API lists it. */
const storedWorkflow = async () =>
  (
    await api.workflows.list.query({
      'dictionary-id': dictionaryId,
      page: 0,
      size: 10,
      format: 'FULL',
      'include-deleted': false,
    })
  ).content[0]!;

describe('workflow editor rules', { timeout: 120_000 }, () => {
  it('defines a transition with every rule, shows a refusal beside its control, and saves', async () => {
    await page.goto(`${web.base}/workflows?d=${dictionaryId}`);
    await signIn(page);
    await page.getByRole('heading', { name: /Default workflow/ }).waitFor();

    await page.getByRole('button', { name: 'Add a transition' }).click();
    const transition = page.getByRole('group', { name: /^Transition 5:/ });
    await transition.getByLabel('Key', { exact: true }).fill('check');
    await transition.getByLabel('Name', { exact: true }).fill('Check terms');
    const groups = transition.getByRole('group', { name: 'Groups whose members may fire it' });
    // The group's name is text: its <b> is not an element.
    await groups.getByLabel(groupName, { exact: true }).check();
    await transition
      .getByRole('group', { name: /Only on these languages/ })
      .getByLabel(/\(deu\)/)
      .check();

    await transition.getByRole('button', { name: 'Add a condition' }).click();
    const condition = transition.getByRole('group', { name: 'Condition 1' });
    await condition.getByRole('combobox', { name: /^Field/ }).selectOption({ label: SUBJECT });
    await condition.getByLabel(/Equal to one of/).fill('mechanics\nhydraulics');

    await transition.getByRole('button', { name: 'Add a required field' }).click();
    const required = transition.getByRole('group', { name: 'Required field 1' });
    await required.getByLabel('Level').selectOption('TERM');
    await required.getByRole('combobox', { name: /^Field/ }).selectOption({ label: 'Part of speech' });
    await transition.getByLabel('Comment required').check();

    await transition.getByLabel('Vote mode').selectOption('MINIMUM_VOTES');
    // A count the server refuses (at least 1): its message beside the control.
    await transition.getByLabel('Votes needed').fill('0');

    await transition.getByRole('button', { name: /Add action: Set a field/ }).click();
    const setField = transition.getByRole('group', { name: 'Action 1: Set a field' });
    await setField.getByRole('combobox', { name: /^Field/ }).selectOption({ label: SUBJECT });
    await setField.getByLabel(/New values/).fill('checked');
    await transition.getByRole('button', { name: /Add action: Notify/ }).click();
    const notify = transition.getByRole('group', { name: 'Action 2: Notify' });
    await notify
      .getByRole('group', { name: 'Groups to notify' })
      .getByLabel(groupName, { exact: true })
      .check();
    await notify.getByLabel('Also the assignee').check();
    await transition.getByRole('button', { name: /Add action: Assign/ }).click();
    await transition
      .getByRole('group', { name: 'Action 3: Assign' })
      .getByLabel('Assign to')
      .selectOption(String(meId));

    await page.getByLabel('When an approved entry is edited').selectOption('KEEP');
    await page.getByLabel(/Re-validate approved entries after days/).fill('365');
    await page.getByLabel('Re-validation moves them into').selectOption('inReview');
    await page.getByLabel('Style of state 1').fill('color: #555');

    await page.getByRole('button', { name: 'Save workflow' }).click();
    const count = transition.getByLabel('Votes needed');
    await poll(() => count.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await count.getAttribute('aria-describedby'))!;
    const beside = page.locator(`[id="${describedBy}"]`);
    expect(await beside.textContent()).toMatch(/>=\s*1/);
    // The message sits right under the control, inside the transition it is about.
    expect(await transition.locator(`[id="${describedBy}"]`).count()).toBe(1);
    expect(await page.getByRole('alert').textContent()).toContain('transitions.4.votes.count');
    expect(await page.locator('.workflow-editor b, .workflow-editor i').count()).toBe(0);
    expect(
      await condition
        .getByRole('combobox', { name: /^Field/ })
        .locator('option:checked')
        .textContent(),
    ).toBe(SUBJECT);
    await expectAccessible(page, 'workflow rules refused');
    await condition.evaluate((element) => element.scrollIntoView());
    await screenshot(page, 'workflow-rules');
    // Refused: nothing was stored.
    expect((await storedWorkflow()).definition!.transitions).toHaveLength(4);

    await count.fill('2');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Default workflow saved.');
    const definition = (await storedWorkflow()).definition!;
    expect(definition.transitions[4]).toEqual({
      key: 'check',
      name: 'Check terms',
      from: ['suggested'],
      to: 'inReview',
      groupIds: [groupId],
      roles: ['DICTIONARY_ADMIN'],
      languages: ['deu'],
      condition: [
        { fieldOid: subjectOid, level: 'CONCEPT', equals: ['mechanics', 'hydraulics'], present: true },
      ],
      requiredFields: [{ fieldOid: posOid, level: 'TERM' }],
      commentRequired: true,
      votes: { mode: 'MINIMUM_VOTES', count: 2 },
      actions: [
        { type: 'SET_FIELD', fieldOid: subjectOid, level: 'CONCEPT', values: ['checked'] },
        { type: 'NOTIFY', userIds: [], groupIds: [groupId], assignee: true, enteredBy: false },
        { type: 'ASSIGN', userId: meId },
      ],
    });
    expect(definition).toMatchObject({
      onEditOfApproved: 'KEEP',
      revalidateAfterDays: 365,
      revalidateState: 'inReview',
    });
    expect(definition.states[0]!.style).toBe('color: #555');
    // The form starts again from the saved version, with the rules shown and no message left.
    await poll(() =>
      page
        .getByRole('group', { name: /^Transition 5:/ })
        .getByLabel('Votes needed')
        .inputValue(),
    ).toBe('2');
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
    await expectAccessible(page, 'workflow rules saved');
  });
});
