/**
 * More defects of issue 36 ("Other defects"), in Debian's Chromium, each failing on the code before:
 * an import's problems are listed (line and message), not only counted; match marks cover the letters
 * the server folded (ð as d); a refused save shows its problem beside the button or the control, focused;
 * history shows the field values of a term added in the same save; import offers only where the caller
 * may import. Issue 39: a spreadsheet's mapping step (preview, roles, import, problems by row) and CSV/XLSX
 * exports.
 * One server and one browser for the file.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueSuffix } from '../factories/tenant.js';
import { unzip } from '../multiterm/zip-files.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, poll, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let page: Page;
let api: Api;
let dictionaryId = 0;
let sectionOid = '';
let usageNote = '';
let dictionaryName = '';

const faulty = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>web test</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="e1"><langSec xml:lang="en"><termSec><term>kept term</term></termSec></langSec></conceptEntry>
<conceptEntry id="e2"><langSec xml:lang="en"><termSec><term></term></termSec></langSec></conceptEntry>
</body></text></tbx>`;

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api } = await apiSession(web.base));
  dictionaryName = `Defects two ${uniqueSuffix()}`;
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: dictionaryName,
    languages: [{ code: 'eng' }, { code: 'isl' }],
    termFields: [{ name: 'Usage note', fieldType: 'SINGLELINE' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  dictionaryId = dictionary.id!;
  sectionOid = dictionary.sections![0]!.oid!;
  usageNote = dictionary.termFields!.find((field) => field.name === 'Usage note')!.oid!;
  await api.concepts.create.mutate({
    format: 'FULL',
    dictionaryId,
    sectionOid,
    terms: [
      { name: 'dictionary', languageCode: 'eng' },
      { name: 'Orðabók þýðinga', languageCode: 'isl' },
    ],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  page = await openPage(browser);
  await page.goto(`${web.base}/tbx`);
  await signIn(page);
  await page.getByRole('heading', { name: 'Import and export' }).waitFor();
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

describe('other defects, second part', { timeout: 120_000 }, () => {
  it("lists an import's problems with their lines, not only their count", async () => {
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'faulty.tbx', mimeType: 'application/xml', buffer: Buffer.from(faulty) });
    await page.getByLabel('Name of the new dictionary').fill(`Faulty ${uniqueSuffix()}`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    // The job's outcome is a status line; dictionaries other suites imported ("Imported …") are options.
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toMatch(/^Imported: 2 concepts, .* 1 errors?\.$/);
    const problems = page.getByRole('table', { name: 'Problems in the file' });
    await problems.waitFor();
    const rows = await problems.getByRole('row').allInnerTexts();
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^6\s+A term without text is skipped$/)]);
    await expectAccessible(page, 'import with problems');
  });

  it('imports a MultiTerm XML file and exports a dictionary as MultiTerm XML (issue 39)', async () => {
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    const sample = await readFile(new URL('../multiterm/fixtures/multiterm-sample.xml', import.meta.url));
    const name = `From MultiTerm ${uniqueSuffix()}`;
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'termbase.xml', mimeType: 'application/xml', buffer: sample });
    await page.getByLabel('Name of the new dictionary').fill(name);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toMatch(/^Imported: 2 concepts, 6 terms/);
    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption({ label: name });
    await page.getByRole('combobox', { name: 'Format' }).selectOption('MULTITERM_XML');
    await page.getByRole('button', { name: 'Prepare the export' }).click();
    const link = page.getByRole('link', { name: /^Download / });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`${name}.xml`);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toContain('<mtf>');
    expect(text).toContain('<term>tölva</term>');
    expect(text).toContain('<descrip type="Status">preferred</descrip>');
    await expectAccessible(page, 'MultiTerm XML import and export');
    // With the termbase definition: one zip of the XML and the .xdt.
    await page.getByLabel('With the termbase definition (.xdt), both in a zip').check();
    await page.getByRole('button', { name: 'Prepare the export' }).click();
    const zipLink = page.getByRole('link', { name: `Download ${name}.zip` });
    const [packaged] = await Promise.all([page.waitForEvent('download'), zipLink.click()]);
    const files = await unzip(await readFile((await packaged.path())!));
    expect([...files.keys()]).toEqual([`${name}.xml`, `${name}.xdt`]);
    expect(files.get(`${name}.xdt`)!.toString()).toContain('<Name>Status</Name><Type>Picklist</Type>');
  });

  it("maps a MultiTerm termbase's fields with its .xdt before the import, at 1440 and 390 px (issue 39)", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    const fixture = (name: string) => readFile(new URL(`../multiterm/fixtures/${name}`, import.meta.url));
    await page.getByLabel('TBX file', { exact: true }).setInputFiles({
      name: 'maschinenbau.xml',
      mimeType: 'application/xml',
      buffer: await fixture('maschinenbau.xml'),
    });
    await page.getByLabel('Termbase definition (.xdt), if you have it').setInputFiles({
      name: 'maschinenbau.xdt',
      mimeType: 'application/xml',
      buffer: await fixture('maschinenbau.xdt'),
    });
    const step = page.getByRole('group', { name: 'Where the MultiTerm fields go' });
    await step.getByText(/termbase definition “Maschinenbau”/).waitFor();
    const indexes = await step
      .getByRole('table', { name: 'Indexes (languages) of the termbase' })
      .getByRole('row')
      .allInnerTexts();
    expect(indexes.slice(1).map((row) => row.split(/\s+/)[0])).toEqual(['English', 'German', 'French']);
    const kunde = step.getByRole('group', { name: 'Field “Kunde” (entry)' });
    expect(await kunde.getByRole('combobox', { name: 'Imported as' }).inputValue()).toBe('+');
    await kunde.getByRole('combobox', { name: 'Imported as' }).selectOption({ label: 'Not imported' });
    const register = step.getByRole('group', { name: 'Field “Register” (term)' });
    await register.getByLabel('Name of the field').fill('Stil');
    await expectAccessible(page, 'MultiTerm mapping at 1440 px');
    await step.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'multiterm-mapping');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'MultiTerm mapping at 390 px');
    await step.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'multiterm-mapping-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    const name = `Maschinenbau ${uniqueSuffix()}`;
    await page.getByLabel('Name of the new dictionary').fill(name);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toMatch(/^Imported: 2 concepts, 6 terms, .* 0 errors\.$/);
    const href = await page
      .getByRole('link', { name: 'Search the imported dictionary' })
      .getAttribute('href');
    const id = Number(new URL(href!, web.base).searchParams.get('d'));
    const dictionary = (await api.dictionaries.get.query({
      id,
      format: 'FULL',
      'include-deleted': false,
    })) as unknown as {
      languages: { code: string }[];
      conceptFields: { name: string }[];
      termFields: { name: string }[];
    };
    expect(dictionary.languages.map((language) => language.code).sort()).toEqual(['deu', 'eng', 'fra']);
    expect(dictionary.conceptFields.map((field) => field.name)).not.toContain('Kunde');
    expect(dictionary.termFields.map((field) => field.name)).toContain('Stil');
  });

  it('imports a CSV through the mapping step and exports it as CSV and XLSX (issue 39)', async () => {
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    const csv =
      'English;Icelandic;Definition\r\ncomputer;tölva;A machine that computes\r\nscreen | monitor;skjár;A surface that shows\r\n';
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'glossary.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const step = page.getByRole('group', { name: "How the spreadsheet's columns are read" });
    await step.getByText('CSV file, read as UTF-8 with the separator Semicolon (;).').waitFor();
    expect(await step.getByRole('table').getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Column 1: English\s+Column 2: Icelandic\s+Column 3: Definition$/),
      expect.stringMatching(/^computer\s+tölva\s+A machine that computes$/),
      expect.stringMatching(/^screen \| monitor\s+skjár\s+A surface that shows$/),
    ]);
    const column = (name: string) => step.getByRole('group', { name });
    const english = column('Column 1: English');
    // The proposal: languages by the headers, the bar as the synonyms' separator, Definition a field.
    expect(await english.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('term');
    expect(await english.getByRole('textbox', { name: 'Language' }).inputValue()).toBe('en');
    expect(await english.getByLabel('Separator of synonyms').inputValue()).toBe('|');
    expect(await column('Column 2: Icelandic').getByRole('textbox', { name: 'Language' }).inputValue()).toBe(
      'is',
    );
    const definition = column('Column 3: Definition');
    expect(await definition.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('conceptField');
    expect(await definition.getByRole('textbox', { name: 'Field' }).inputValue()).toBe('Definition');
    expect(await step.getByLabel('The first row is a header (not imported)').isChecked()).toBe(true);
    await expectAccessible(page, 'spreadsheet mapping at 1440 px');
    await screenshot(page, 'spreadsheet-mapping');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'spreadsheet mapping at 390 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    // Read with another separator, the file is previewed again: one column.
    const separator = step.getByRole('combobox', { name: 'Separator', exact: true });
    await separator.selectOption(',');
    await step.getByText('CSV file, read as UTF-8 with the separator Comma (,).').waitFor();
    // No header names a language then: the proposal takes no header row and ignores the column.
    const only = step.getByRole('group', { name: 'Column 1', exact: true });
    await only.waitFor();
    expect(await only.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('ignore');
    expect(await step.getByRole('group', { name: /^Column 2/ }).count()).toBe(0);
    expect(await step.getByRole('cell', { name: 'English;Icelandic;Definition' }).count()).toBe(1);
    await separator.selectOption(';');
    await column('Column 3: Definition').waitFor();
    expect(await step.getByLabel('The first row is a header (not imported)').isChecked()).toBe(true);
    // Into an existing dictionary, a language is one of its own (the proposed en is its eng).
    await page.getByLabel('Into').selectOption({ label: dictionaryName });
    expect(await english.getByRole('combobox', { name: 'Language' }).inputValue()).toBe('eng');
    await page.getByLabel('Into').selectOption('new');
    // Changed by hand: the definitions become the English language's.
    await definition.getByRole('combobox', { name: 'Role' }).selectOption('languageField');
    await definition.getByRole('textbox', { name: 'Language' }).fill('en');
    const name = `From a sheet ${uniqueSuffix()}`;
    await page.getByLabel('Name of the new dictionary').fill(name);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toBe('Imported: 2 concepts, 5 terms, 0 updated, 0 skipped, 0 errors.');
    const link = await page
      .getByRole('link', { name: 'Search the imported dictionary' })
      .getAttribute('href');
    const imported = await api.dictionaries.get.query({
      id: Number(new URL(link!, web.base).searchParams.get('d')),
      format: 'FULL',
      'include-deleted': false,
    } as Parameters<typeof api.dictionaries.get.query>[0]);
    expect(imported.name).toBe(name);
    // The languages from the headers; the definitions are the language's (term-level fields hold them),
    // not the concept field the proposal named.
    expect(imported.languages!.map((language) => language.code)).toEqual(['eng', 'isl']);
    expect(imported.conceptFields).toEqual([]);
    expect(imported.termFields!.map((field) => field.dataCategory)).toEqual(['DEFINITION']);

    await page.getByRole('combobox', { name: 'Dictionary' }).selectOption({ label: name });
    const exported = async (format: string) => {
      await page.getByRole('combobox', { name: 'Format' }).selectOption(format);
      await page.getByRole('button', { name: 'Prepare the export' }).click();
      const ready = page.getByRole('link', { name: `Download ${name}.${format.toLowerCase()}` });
      const [download] = await Promise.all([page.waitForEvent('download'), ready.click()]);
      expect(download.suggestedFilename()).toBe(`${name}.${format.toLowerCase()}`);
      return readFile((await download.path())!);
    };
    const rows = parse(await exported('CSV'), { bom: true }) as string[][];
    const computerRow = ['computer', '', 'A machine that computes', 'tölva', '', ''];
    const screenRow = ['screen; monitor', '', 'A surface that shows', 'skjár', '', ''];
    expect(rows[0]!.slice(1)).toEqual([
      'Domain',
      'English',
      'English: Definition',
      'English (language): Definition',
      'Icelandic',
      'Icelandic: Definition',
      'Icelandic (language): Definition',
    ]);
    expect(rows.slice(1).map((row) => row.slice(2))).toEqual([computerRow, screenRow]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exported('XLSX')) as never);
    const sheet = workbook.worksheets[0]!;
    const cells = (at: number) => [3, 4, 5, 6, 7, 8].map((column) => sheet.getRow(at).getCell(column).text);
    expect(cells(1)).toEqual(rows[0]!.slice(2));
    expect([cells(2), cells(3)]).toEqual([computerRow, screenRow]);

    // A saved search as the selection: only the concepts it finds are written.
    await api.savedQueries.save.mutate({
      name: `Screens ${name}`,
      query: `q=screen&d=${imported.id}&lang=eng&mode=PREFIX`,
    });
    await page.goto(`${web.base}/tbx?d=${imported.id}`);
    const saved = page.getByRole('combobox', { name: 'Saved search' });
    await saved.selectOption({ label: `Screens ${name}` });
    const selected = parse(await exported('CSV'), { bom: true }) as string[][];
    expect(selected.slice(1).map((row) => row.slice(2))).toEqual([screenRow]);
  });

  it("names a spreadsheet's refused values by their row, importing into an existing dictionary (issue 39)", async () => {
    const name = `Short notes ${uniqueSuffix()}`;
    await api.dictionaries.create.mutate({
      format: 'FULL',
      name,
      languages: [{ code: 'eng' }],
      termFields: [{ name: 'Note', fieldType: 'SINGLELINE', model: { maxLen: 5 } }],
    } as Parameters<typeof api.dictionaries.create.mutate>[0]);
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    await page.getByLabel('Into').selectOption({ label: name });
    const csv = 'English,English: Note\nshort,fine\nlong,far too long a note\n';
    await page
      .getByLabel('TBX file', { exact: true })
      .setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const step = page.getByRole('group', { name: "How the spreadsheet's columns are read" });
    const note = step.getByRole('group', { name: 'Column 2: English: Note' });
    // The dictionary's languages as a select: the proposed en is its eng.
    expect(await note.getByRole('combobox', { name: 'Language' }).inputValue()).toBe('eng');
    expect(await note.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('termField');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.getByRole('status').filter({ hasText: /^(Imported|The import failed)/ });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.innerText()).toMatch(/^Imported: 2 concepts, .* 1 errors?\.$/);
    const problems = page.getByRole('table', { name: 'Problems in the file' });
    await problems.waitFor();
    expect(await problems.getByRole('columnheader').allInnerTexts()).toEqual(['Row', 'Problem']);
    const rows = await problems.getByRole('row').allInnerTexts();
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^3\s+.*Note/)]);
  });

  it("previews an XLSX workbook's chosen sheet (issue 39)", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['nothing here']);
    const terms = workbook.addWorksheet('Terms');
    terms.addRow(['English', 'German']);
    terms.addRow(['river', { formula: '"Fl"&"uss"', result: 'Fluss' }]);
    await page.goto(`${web.base}/tbx`);
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    await page.getByLabel('TBX file', { exact: true }).setInputFiles({
      name: 'terms.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
    });
    const step = page.getByRole('group', { name: "How the spreadsheet's columns are read" });
    await step.getByText('XLSX workbook, sheet “Notes”.').waitFor();
    await step.getByRole('combobox', { name: 'Sheet' }).selectOption('Terms');
    await step.getByText('XLSX workbook, sheet “Terms”.').waitFor();
    const german = step.getByRole('group', { name: 'Column 2: German' });
    expect(await german.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('term');
    expect(await step.getByRole('table').getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Column 1: English\s+Column 2: German$/),
      expect.stringMatching(/^river\s+Fluss$/),
    ]);
  });

  it('marks the letters the server folded to find a term (ð as d, þ as th)', async () => {
    const mark = page.locator('table.results tbody tr').first().locator('mark');
    await page.goto(`${web.base}/search?q=ordabok&d=${dictionaryId}&lang=isl`);
    await poll(() => mark.allTextContents()).toEqual(['Orðabók']);
    await page.goto(`${web.base}/search?q=thyd&d=${dictionaryId}&lang=isl&mode=SUBSTRING`);
    await poll(() => mark.allTextContents()).toEqual(['þýð']);
  });

  it("shows a refused save's problem beside the button or the control, and moves focus to it", async () => {
    const gone = await api.sections.create.mutate({ format: 'FULL', name: 'Soon gone', dictionaryId });
    await page.goto(`${web.base}/concepts/new?d=${dictionaryId}`);
    const create = page.getByRole('button', { name: 'Create concept' });
    await page.getByLabel('Term', { exact: true }).fill('orphan');
    await page.getByLabel('Section').selectOption({ label: 'Soon gone' });
    // The section goes while the form is open: the server's message names no control of the form, so
    // it stands beside the button.
    await api.sections.delete.mutate({ id: gone.id });
    await create.click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await poll(() => alert.evaluate((element) => element === document.activeElement)).toBe(true);
    const button = (await create.boundingBox())!;
    const message = (await alert.boundingBox())!;
    expect(Math.abs(message.y - (button.y + button.height))).toBeLessThan(100);
    // A term the server refuses: its message beside it, and focus on the term.
    await page.getByLabel('Section').selectOption({ index: 1 });
    const term = page.getByLabel('Term', { exact: true });
    await term.fill('x'.repeat(2000));
    await create.click();
    await poll(() => term.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await term.getAttribute('aria-invalid')).toBe('true');
    const described = await term.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).innerText()).toMatch(/1024 characters/);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'new concept refused');
  });

  it('shows in history the field values of a term added in the same save', async () => {
    const created = await api.concepts.create.mutate({
      format: 'FULL',
      dictionaryId,
      sectionOid,
      terms: [{ name: 'pump', languageCode: 'eng' }],
    } as Parameters<typeof api.concepts.create.mutate>[0]);
    await api.concepts.patch.mutate({
      id: created.id!,
      version: created.version!,
      format: 'ID',
      'with-comments': false,
      terms: [
        { id: created.terms![0]!.id, name: 'pump', languageCode: 'eng' },
        { name: 'dæla', languageCode: 'isl', fieldMap: { [usageNote]: ['in the engine room'] } },
      ],
    } as Parameters<typeof api.concepts.patch.mutate>[0]);
    await page.goto(`${web.base}/concepts/${created.id}`);
    await page.getByRole('tab', { name: 'History' }).click();
    const added = page.locator('ins', { hasText: 'in the engine room' });
    await added.waitFor();
    expect(await added.count()).toBe(1);
  });

  it('offers import only where the caller may import (no new dictionary, no read-only one)', async () => {
    const me = await api.ui.sessionData.query();
    const user = await createUser(web.server.orm, me.user.clientId!, {});
    const group = await api.groups.create.mutate({
      format: 'FULL',
      name: `Importers ${uniqueSuffix()}`,
      groupMembers: [user.id],
    } as Parameters<typeof api.groups.create.mutate>[0]);
    const guarded = async (name: string, more: string[]) => {
      const scheme = await api.permissionSchemes.create.mutate({
        format: 'FULL',
        name: `${name} scheme`,
        grants: [
          {
            groupId: group.id!,
            dictionaryPermissions: ['DICT_READ', ...more],
            conceptPermissions: [],
            languages: [],
          },
        ],
      } as Parameters<typeof api.permissionSchemes.create.mutate>[0]);
      await api.dictionaries.create.mutate({
        format: 'FULL',
        name,
        languages: [{ code: 'eng' }],
        permissionSchemeId: scheme.id!,
      } as Parameters<typeof api.dictionaries.create.mutate>[0]);
    };
    const readOnly = `Read only ${uniqueSuffix()}`;
    const writable = `Importable ${uniqueSuffix()}`;
    await guarded(readOnly, []);
    await guarded(writable, ['CONCEPT_IMPORT']);
    const other = await openPage(browser);
    await other.goto(`${web.base}/tbx`);
    await signIn(other, user.username, user.password);
    // The import form offers only where they may import; the export form only where they may export
    // (CONCEPT_EXPORT: neither of the two).
    const into = other.getByLabel('Into');
    await poll(() => into.locator('option').allTextContents()).toEqual([writable]);
    expect(await other.getByRole('option', { name: readOnly }).count()).toBe(0);
    await expectAccessible(other, 'import for a user who may import into one dictionary');
    await other.context().close();
  });
});
