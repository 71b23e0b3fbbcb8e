/**
 * Issue 36's "done when": a client administrator sets up a working team from an empty client in the
 * browser alone — a dictionary with languages and fields, a section, users and a group with members, a
 * permission scheme governing the dictionary, guest access, a workflow and the first import — in
 * English at 1440 px and in Icelandic at 390 px. Labels are read from the message catalogues of the
 * language under test, so the same steps run in both. The API is used only to make the empty client
 * (a system administrator's job) and to read the result back.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { clientApi, signInToClient } from './admin-session.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll } from './session.js';

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

for (const { language, locale, width } of [
  { language: 'en', locale: 'en-US', width: 1440 },
  { language: 'is', locale: 'is-IS', width: 390 },
]) {
  describe(`team set-up in ${language} at ${width} px`, { timeout: 300_000 }, () => {
    it('goes from an empty client to a working team without an API call', async () => {
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

      await signInToClient(page, `${web.base}/admin`, loginName, 'chief', chiefPassword);
      await page.getByRole('navigation', { name: m('adminmenu', 'nav') }).waitFor();

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

      // A section.
      await go(`/admin/dictionaries/${dictionaryId}/sections`);
      await label(m('structure', 'name')).fill('Cardiology');
      await button(m('structure', 'sections.addButton')).click();
      await page.getByRole('heading', { name: 'Cardiology' }).waitFor();

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

      // Guest access.
      await go('/admin/users/guest');
      await label(m('admin', 'guest.enabled')).check();
      await label(m('admin', 'guest.username')).fill('visitor');
      await label(m('admin', 'guest.password')).fill(`Guest-${suffix}-pw1`);
      await button(m('admin', 'save')).click();
      await saved();
      await expectAccessible(page, `guest access, ${language} at ${width}px`);

      // A workflow (the default one) for the dictionary.
      await go(`/workflows?d=${dictionaryId}`);
      await page.locator('.workflows-page .actions button').first().click();
      await page.locator('.workflows-page section.card h2').first().waitFor();

      // The first import, into the dictionary.
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
      await screenshot(page, `admin-team-setup-${language}-${width}`);

      // Read back: everything the team needs is there.
      const chief = await clientApi(web.base, loginName, 'chief', chiefPassword);
      await poll(
        async () =>
          (await chief.dictionaries.get.query({ id: dictionaryId, format: 'FULL', 'include-deleted': false }))
            .concepts,
      ).toBe(2);
      const dictionary = await chief.dictionaries.get.query({
        id: dictionaryId,
        format: 'FULL',
        'include-deleted': false,
      });
      expect(
        dictionary.languages
          ?.filter((l) => !l.deleted)
          .map((l) => l.code)
          .sort(),
      ).toEqual(['eng', 'isl']);
      expect(dictionary.conceptFields?.map((f) => f.name)).toContain('Definition');
      expect(dictionary.allSections?.map((s) => s.name)).toContain('Cardiology');
      const schemes = await chief.permissionSchemes.list.query({ page: 0, size: 10, format: 'FULL' });
      const scheme = schemes.content.find((s) => s.name === 'Team permissions')!;
      expect(dictionary.permissionSchemeId).toBe(scheme.id);
      const groups = await chief.groups.list.query({
        page: 0,
        size: 50,
        format: 'SHORT',
        'include-all': false,
        'include-guest': false,
      });
      const team = groups.content.find((g) => g.name === 'Terminologists')!;
      const members = (
        await chief.groups.get.query({ id: team.id, format: 'EDIT', 'include-deleted': false })
      ).groupMembers;
      expect(members?.map((m) => m.username).sort()).toEqual(['anna', 'bjorn']);
      expect(scheme.grants).toEqual([
        expect.objectContaining({ groupId: team.id, termPermissions: ['TERM_UPDATE'] }),
      ]);
      expect(await chief.guests.get.query()).toMatchObject({ enabled: true, username: 'visitor' });
      expect(
        (await chief.workflows.list.query({ page: 0, size: 10, 'dictionary-id': dictionaryId })).content,
      ).toHaveLength(1);
      // A member signs in and finds the imported terms.
      const anna = await clientApi(web.base, loginName, 'anna', memberPassword);
      const heart = await anna.concepts.byOid.query({
        oid: 's1',
        format: 'FULL',
        'with-comments': false,
        'include-deleted': false,
      });
      expect(heart?.terms?.map((term) => term.name).sort()).toEqual(['heart', 'hjarta']);
      expect(client.id).toBeGreaterThan(0);
      await page.context().close();
    });
  });
}
