/**
 * Issue 36's "done when": a client administrator sets up a working team from an empty client in the
 * browser alone — a dictionary with languages and fields, a section, users and a group with members, a
 * permission scheme governing the dictionary, guest access, a workflow and the first import — in
 * English and in Icelandic, each at 1440 px and at 390 px (four runs, each in a client of its own, run
 * side by side in one browser). Labels are read from the message catalogues of
 * the language under test, so the same steps run in all four. The client administrator makes no API
 * call: the system administrator makes the empty client, and reads the result back by switching its own
 * session into that client; a member of the new group then signs in in the browser and finds the terms
 * in both languages.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { signInToClient } from './admin-session.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage } from './session.js';

let web: WebServer;
let browser: Browser;
let sysadmin: Api;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api: sysadmin } = await apiSession(web.base));
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const locales = resolve(import.meta.dirname, '../../web/src/i18n/locales');

/** A message of the catalogue `ns` in `language`, with its {{placeholders}} filled. */
function message(language: string, ns: string, key: string, values: Record<string, string> = {}): string {
  let node: unknown = JSON.parse(readFileSync(resolve(locales, language, `${ns}.json`), 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`${language}/${ns}: no message ${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>team set-up</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="s1"><langSec xml:lang="en"><termSec><term>heart</term></termSec></langSec><langSec xml:lang="is"><termSec><term>hjarta</term></termSec></langSec></conceptEntry>
<conceptEntry id="s2"><langSec xml:lang="en"><termSec><term>lung</term></termSec></langSec><langSec xml:lang="is"><termSec><term>lunga</term></termSec></langSec></conceptEntry>
</body></text></tbx>`;

const runs = [
  { language: 'en', locale: 'en-US', width: 1440 },
  { language: 'en', locale: 'en-US', width: 390 },
  { language: 'is', locale: 'is-IS', width: 1440 },
  { language: 'is', locale: 'is-IS', width: 390 },
];

// The four runs share the server and the browser, each in a context and a client of its own; run side by
// side, most of their time is spent waiting for the server, so the file takes little more than one run.
describe.concurrent('team set-up from an empty client, in the browser alone', { timeout: 300_000 }, () => {
  for (const { language, locale, width } of runs) {
    // Concurrent tests assert with their own `expect` (the global one does not know which test is running).
    it(`${language} at ${width} px`, async ({ expect }) => {
      const poll = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 20_000, interval: 100 });
      const m = (ns: string, key: string, values?: Record<string, string>) =>
        message(language, ns, key, values);
      const suffix = uniqueSuffix();
      const loginName = `team${suffix}`;
      const chiefPassword = `Chief-${suffix}-pw1`;
      const client = await sysadmin.clients.create.mutate({
        format: 'ID',
        name: `Team ${suffix}`,
        loginName,
        active: true,
        adminUser: { username: 'chief', password: chiefPassword },
      });
      const page: Page = await openPage(browser, { viewport: { width, height: 900 }, locale });
      const go = (path: string) => page.goto(`${web.base}${path}`);
      const button = (name: string) => page.getByRole('button', { name, exact: true });
      const label = (name: string) => page.getByLabel(name, { exact: true });
      const saved = () =>
        page
          .getByRole('status')
          .filter({ hasText: m('admin', 'saved') })
          .first()
          .waitFor();

      // Each step's seconds, printed at the end: where a slow run spends its time.
      const times: string[] = [];
      let last = Date.now();
      const step = (name: string) => {
        times.push(`${name} ${((Date.now() - last) / 1000).toFixed(1)} s`);
        last = Date.now();
      };
      await signInToClient(page, `${web.base}/admin`, loginName, 'chief', chiefPassword);
      await page.getByRole('navigation', { name: m('adminmenu', 'nav') }).waitFor();

      step('sign-in');
      // A dictionary, created empty.
      await go('/admin/dictionaries');
      const dictionaryName = `Medicine ${suffix}`;
      await label(m('structure', 'dictionaries.name')).fill(dictionaryName);
      await button(m('structure', 'dictionaries.createButton')).click();
      // Creating it opens its languages.
      await poll(() => /\/admin\/dictionaries\/\d+\/languages$/.test(new URL(page.url()).pathname)).toBe(
        true,
      );
      const dictionaryId = Number(new URL(page.url()).pathname.split('/')[3]);

      step('dictionary');
      // Its languages and a concept field.
      for (const code of ['eng', 'isl']) {
        await label(m('structure', 'languages.code')).fill(code);
        await button(m('structure', 'languages.addButton')).click();
      }
      await button(m('structure', 'save')).click();
      await poll(() => page.getByText(m('structure', 'unsaved')).count()).toBe(0);
      await go(`/admin/dictionaries/${dictionaryId}/fields`);
      const addField = page.getByRole('form', { name: m('structure', 'fields.add.conceptFields') });
      await addField.getByLabel(m('structure', 'fields.name'), { exact: true }).fill('Definition');
      await addField.getByRole('button', { name: m('structure', 'fields.add.conceptFields') }).click();
      await button(m('structure', 'save')).click();
      await poll(() => page.getByText(m('structure', 'unsaved')).count()).toBe(0);

      step('languages and field');
      // A section.
      await go(`/admin/dictionaries/${dictionaryId}/sections`);
      await label(m('structure', 'name')).fill('Cardiology');
      await button(m('structure', 'sections.addButton')).click();
      await page.getByRole('heading', { name: 'Cardiology' }).waitFor();

      step('section');
      // Two users, and a group with them as members.
      const memberPassword = `Member-${suffix}-pw1`;
      for (const username of ['anna', 'bjorn']) {
        await go('/admin/users/new');
        await label(m('admin', 'fields.username')).fill(username);
        await label(m('admin', 'password.new')).fill(memberPassword);
        await label(m('admin', 'password.confirm')).fill(memberPassword);
        await button(m('admin', 'create')).click();
        await page.getByRole('heading', { name: m('admin', 'users.edit', { name: username }) }).waitFor();
      }
      await go('/admin/groups');
      await label(m('admin', 'fields.name')).fill('Terminologists');
      await button(m('admin', 'create')).click();
      await page
        .getByRole('heading', { name: m('admin', 'groups.edit', { name: 'Terminologists' }) })
        .waitFor();
      for (const username of ['anna', 'bjorn']) {
        await page.getByLabel(m('admin', 'groups.addMember')).selectOption({ label: username });
        await button(m('admin', 'add')).click();
      }
      await button(m('admin', 'save')).click();
      await saved();

      step('users and group');
      // A permission scheme: the group edits concepts and terms; the scheme governs the dictionary.
      await go('/admin/permission-schemes');
      await label(m('admin', 'fields.name')).fill('Team permissions');
      await button(m('admin', 'create')).click();
      await page
        .getByRole('heading', { name: m('admin', 'schemes.edit', { name: 'Team permissions' }) })
        .waitFor();
      await page.getByLabel(m('admin', 'schemes.addGroup')).selectOption({ label: 'Terminologists' });
      await button(m('admin', 'add')).click();
      const grant = page.getByRole('group', {
        name: m('admin', 'schemes.grantFor', { name: 'Terminologists' }),
      });
      for (const permission of ['CONCEPT_CREATE', 'CONCEPT_UPDATE', 'TERM_CREATE', 'TERM_UPDATE']) {
        const kind =
          permission === 'CONCEPT_CREATE'
            ? 'dictionaryPermissions'
            : permission === 'TERM_UPDATE'
              ? 'termPermissions'
              : 'conceptPermissions';
        await grant
          .getByRole('group', { name: m('admin', `schemes.${kind}`) })
          .getByRole('checkbox', { name: m('admin', `permission.${permission}`), exact: true })
          .check();
      }
      await button(m('admin', 'save')).click();
      await saved();
      const governed = page.getByRole('checkbox', { name: dictionaryName });
      // Checked once the server has moved the dictionary to the scheme.
      await governed.click();
      await poll(() => governed.isDisabled()).toBe(false);
      await poll(() => governed.isChecked()).toBe(true);

      step('scheme');
      // Guest access.
      await go('/admin/users/guest');
      await label(m('admin', 'guest.enabled')).check();
      await label(m('admin', 'guest.username')).fill('visitor');
      await label(m('admin', 'guest.password')).fill(`Guest-${suffix}-pw1`);
      await button(m('admin', 'save')).click();
      await saved();
      await expectAccessible(page, `guest access, ${language} at ${width}px`);

      step('guest access and axe');
      // A workflow for the dictionary: the default one, left disabled (enabled, its unpublished entries
      // would be shown only to its reviewers, and the members below would find nothing).
      await go(`/workflows?d=${dictionaryId}`);
      await button(m('workflow', 'screen.createDefault')).click();
      const workflowName = m('workflow', 'screen.defaultName');
      await button(m('workflow', 'screen.enable', { name: workflowName })).waitFor();

      step('workflow');
      // The first import, into the dictionary, followed to its summary.
      await go(`/tbx?d=${dictionaryId}`);
      await page.locator('input[type=file][name=file]').setInputFiles({
        name: 'first.tbx',
        mimeType: 'application/xml',
        buffer: Buffer.from(TBX),
      });
      // The first choice of the import form is where to import (its short label, Í in Icelandic, is found in others).
      await page
        .getByRole('form', { name: m('tbx', 'import.title') })
        .locator('select')
        .first()
        .selectOption(String(dictionaryId));
      await button(m('tbx', 'import.submit')).click();
      const imported = m('tbx', 'import.done', {
        concepts: '2',
        terms: '4',
        updated: '0',
        skipped: '0',
        errors: '0',
      });
      await page.getByRole('status').filter({ hasText: imported }).waitFor({ timeout: 60_000 });
      await screenshot(page, `admin-team-setup-${language}-${width}`);
      await page.context().close();

      step('import');
      // A member of the group signs in and finds the imported terms, in English and in Icelandic.
      const member = await openPage(browser, { viewport: { width, height: 900 }, locale });
      await signInToClient(
        member,
        `${web.base}/search?q=heart&d=${dictionaryId}&lang=eng`,
        loginName,
        'anna',
        memberPassword,
      );
      step('member sign-in');
      // Terms imported into an existing dictionary reach the index through the outbox, after the job:
      // a search that came too early is asked again.
      const finds = (term: string, lang: string) =>
        expect
          .poll(
            async () => {
              if (!member.url().includes(`q=${term}`)) {
                await member.goto(`${web.base}/search?q=${term}&d=${dictionaryId}&lang=${lang}`);
              }
              const row = member.locator('table.results tbody tr').filter({ hasText: term });
              const found = await row
                .first()
                .waitFor({ timeout: 5_000 })
                .then(
                  () => true,
                  () => false,
                );
              if (!found) await member.reload();
              return found;
            },
            { timeout: 60_000, interval: 0 },
          )
          .toBe(true);
      await finds('heart', 'eng');
      step('finds heart');
      await finds('hjarta', 'isl');
      await member.context().close();

      step('finds hjarta');
      // Read back by the system administrator, in the new client: everything the team needs is there.
      const { api: reader } = await apiSession(web.base);
      await reader.auth.switchClient.mutate({ client_id: client.id });
      const dictionary = await reader.dictionaries.get.query({
        id: dictionaryId,
        format: 'FULL',
        'include-deleted': false,
      });
      expect(dictionary.concepts).toBe(2);
      expect(
        dictionary.languages
          ?.filter((l) => !l.deleted)
          .map((l) => l.code)
          .sort(),
      ).toEqual(['eng', 'isl']);
      expect(dictionary.conceptFields?.map((f) => f.name)).toContain('Definition');
      expect(dictionary.allSections?.map((s) => s.name)).toContain('Cardiology');
      const schemes = await reader.permissionSchemes.list.query({ page: 0, size: 10, format: 'FULL' });
      const scheme = schemes.content.find((s) => s.name === 'Team permissions')!;
      expect(dictionary.permissionSchemeId).toBe(scheme.id);
      const groups = await reader.groups.list.query({
        page: 0,
        size: 50,
        format: 'SHORT',
        'include-all': false,
        'include-guest': false,
      });
      const team = groups.content.find((g) => g.name === 'Terminologists')!;
      const members = (
        await reader.groups.get.query({ id: team.id, format: 'EDIT', 'include-deleted': false })
      ).groupMembers;
      expect(members?.map((m) => m.username).sort()).toEqual(['anna', 'bjorn']);
      expect(scheme.grants).toEqual([
        expect.objectContaining({ groupId: team.id, termPermissions: ['TERM_UPDATE'] }),
      ]);
      expect(await reader.guests.get.query()).toMatchObject({ enabled: true, username: 'visitor' });
      const workflows = (
        await reader.workflows.list.query({ page: 0, size: 10, 'dictionary-id': dictionaryId })
      ).content;
      expect(workflows.map((w) => w.name)).toEqual([workflowName]);
      step('read back');
      console.info(`team set-up, ${language} at ${width} px: ${times.join(', ')}`);
    });
  }
});
