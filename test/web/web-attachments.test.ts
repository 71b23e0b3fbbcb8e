/**
 * Attachments in the web application (docs/attachments.md), in Debian's Chromium: the concept view shows
 * an image field's thumbnails; the editor adds, replaces and removes files and the save keeps the keys
 * (read back over tRPC). axe-core on the view and the editor at desktop size and at 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSuffix } from '../factories/tenant.js';
import { closeWebSuite, expectAccessible, screenshot, startWebSuite, type WebServer } from './browser.js';
import { type Api, apiSession, openPage, signIn } from './session.js';

let web: WebServer;
let browser: Browser;
let api: Api;
let token = '';
let conceptId = 0;
let field = '';

const png = (color: string) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background: color } })
    .png()
    .toBuffer();

beforeAll(async () => {
  ({ web, browser } = await startWebSuite());
  ({ api, token } = await apiSession(web.base));
  const dictionary = await api.dictionaries.create.mutate({
    format: 'FULL',
    name: `Illustrated ${uniqueSuffix()}`,
    languages: [{ code: 'eng' }],
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
  } as Parameters<typeof api.dictionaries.create.mutate>[0]);
  field = dictionary.conceptFields![0]!.oid!;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await png('#c33'))], { type: 'image/png' }), 'gear.png');
  const uploaded = await fetch(`${web.base}/api/v4/attachments?dictionary-id=${dictionary.id}`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  const { key } = (await uploaded.json()) as { key: string };
  const created = await api.concepts.create.mutate({
    format: 'ID',
    dictionaryId: dictionary.id!,
    sectionOid: dictionary.sections![0]!.oid!,
    fieldMap: { [field]: [key] },
    terms: [{ name: 'gear', languageCode: 'eng' }],
  } as Parameters<typeof api.concepts.create.mutate>[0]);
  conceptId = created.id!;
}, 240_000);

afterAll(() => closeWebSuite(browser, web));

const keysOf = async () =>
  (
    await api.concepts.get.query({
      id: conceptId,
      format: 'FULL',
      'with-comments': false,
      'include-deleted': false,
    })
  ).fieldMap?.[field] ?? [];

async function openConcept(page: Page) {
  await page.goto(`${web.base}/concepts/${conceptId}?langs=eng`);
  await signIn(page);
  const image = page.getByRole('region', { name: 'Files' }).getByRole('img', { name: 'gear.png' });
  await image.waitFor();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
}

describe('attachments', { timeout: 120_000 }, () => {
  it('shows images and lets an editor add, replace and remove files', async () => {
    const page = await openPage(browser);
    await openConcept(page);
    await expectAccessible(page, 'concept with an image');
    await screenshot(page, 'attachments');

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Replace gear.png in Illustration').waitFor();
    await page
      .getByLabel('Add a file to Illustration')
      .setInputFiles({ name: 'wheel.png', mimeType: 'image/png', buffer: await png('#3c3') });
    await page.getByLabel('Replace wheel.png in Illustration').waitFor();
    await page
      .getByLabel('Replace gear.png in Illustration')
      .setInputFiles({ name: 'cog.png', mimeType: 'image/png', buffer: await png('#33c') });
    await page.getByLabel('Replace cog.png in Illustration').waitFor();
    await page.getByRole('button', { name: 'Remove wheel.png from Illustration' }).click();
    await expectAccessible(page, 'editor with a file field');
    await page.getByLabel('Replace cog.png in Illustration').scrollIntoViewIfNeeded();
    await screenshot(page, 'attachments-editor');
    // A file whose bytes are not what its name says is refused beside the field.
    await page
      .getByLabel('Add a file to Illustration')
      .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('<!doctype html><p>x') });
    await page
      .getByRole('alert')
      .getByText(/text\/html/)
      .waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page.getByRole('region', { name: 'Files' }).getByRole('img', { name: 'cog.png' }).waitFor();
    const keys = await keysOf();
    expect(keys).toHaveLength(1);
    await page.context().close();
  });

  it('fits a phone', async () => {
    const page = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${web.base}/concepts/${conceptId}?langs=eng`);
    await signIn(page);
    await page.getByRole('region', { name: 'Files' }).getByRole('img').waitFor();
    await expectAccessible(page, 'concept with an image at 390 px');
    await screenshot(page, 'attachments-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.context().close();
  });
});
