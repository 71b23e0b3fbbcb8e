/**
 * The storage sweeper (docs/attachments.md "Unreferenced files") on real rows: after the grace period
 * it deletes uploads no field value or history record names (with their thumbnails), blobs no row names
 * and incomplete blobs; it keeps files on live and soft-deleted concepts, files only history names (undo
 * brings them back afterwards), feedback files, and everything younger than the grace period.
 */
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBlobStore } from '../../src/modules/storage/pg-blob-store.js';
import { sweepUnreferencedFiles } from '../../src/modules/storage/storage-sweeper.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, type DictionaryBody, newTenant, rows } from '../helpers/structure.js';

const DAY = 24 * 3_600_000;
let t: TestApp;
let admin: RestClient;
let dictionary: DictionaryBody;
let field: string;

const png = (size: number) =>
  sharp({ create: { width: size, height: size, channels: 3, background: '#27a' } })
    .png()
    .toBuffer();

async function uploaded(name: string, size: number) {
  const response = await admin.upload<{ key: string }>(`/attachments?dictionary-id=${dictionary.id}`, {
    content: await png(size),
    filename: name,
  });
  expect(response.status, response.text).toBe(201);
  const [row] = await rows<{ thumbnail_key: string }>(
    t,
    'select thumbnail_key from attachments where key = ?',
    [response.body.key],
  );
  return { key: response.body.key, thumbnail: row!.thumbnail_key };
}

async function conceptWith(keys: string[]) {
  const response = await admin.post<{ id: number; version: number }>('/concepts', {
    dictionaryId: dictionary.id,
    sectionOid: dictionary.sections[0]!.oid,
    fieldMap: { [field]: keys },
    terms: [{ name: `term ${Math.random()}`, languageCode: 'eng' }],
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const blobExists = async (key: string) =>
  (await rows(t, 'select 1 from storage_blobs where key = ?', [key])).length === 1;
const attachmentExists = async (key: string) =>
  (await rows(t, 'select 1 from attachments where key = ?', [key])).length === 1;

/** Makes every file and attachment row look older than the grace period, except `young`. */
async function ageAllBut(young: string[]) {
  await rows(
    t,
    `update storage_blobs set created_at = now() - interval '2 days' where key::text not in (?)`,
    [young],
  );
  await rows(t, `update attachments set created_at = now() - interval '2 days' where key::text not in (?)`, [
    young,
  ]);
}

beforeAll(async () => {
  t = await buildTestApp();
  const sysadmin = await loginSysadmin(t.app);
  admin = (await newTenant(t, sysadmin)).admin;
  dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
  });
  field = dictionary.conceptFields[0]!.oid!;
});
afterAll(() => t?.close());

describe('the storage sweeper', () => {
  it('deletes what nothing names after the grace period, and never what undo can bring back', async () => {
    const live = await uploaded('live.png', 8);
    const replaced = await uploaded('replaced.png', 9);
    const replacement = await uploaded('replacement.png', 10);
    const onDeleted = await uploaded('on-deleted.png', 11);
    const never = await uploaded('never-used.png', 12);
    const young = await uploaded('just-uploaded.png', 13);

    await conceptWith([live.key]);
    const concept = await conceptWith([replaced.key]);
    const patched = await admin.put(`/concepts/${concept.id}/patch`, {
      id: concept.id,
      version: concept.version,
      fieldMap: { [field]: [replacement.key] },
    });
    expect(patched.status, patched.text).toBe(200);
    const gone = await conceptWith([onDeleted.key]);
    expect((await admin.delete(`/concepts/${gone.id}`)).status).toBe(204);

    // A feedback file, a blob no row names (an upload whose row never came), an interrupted upload.
    const sent = await admin.post<{ id: number }>('/feedback', {
      dictionaryId: dictionary.id,
      text: 'see file',
    });
    expect(sent.status, sent.text).toBe(201);
    const attached = await admin.upload(`/feedback/${sent.body.id}/attachment`, {
      content: await png(5),
      filename: 'shot.png',
    });
    expect(attached.status, attached.text).toBe(200);
    const [{ attachment_key: feedbackKey }] = (await rows<{ attachment_key: string }>(
      t,
      'select attachment_key from feedback where id = ?',
      [sent.body.id],
    )) as [{ attachment_key: string }];
    const store = new PgBlobStore(t.orm.em.fork());
    const loose = await store.put(Readable.from([Buffer.from('nobody names me')]), { maxBytes: 1000 });
    const [{ key: incomplete }] = (await rows<{ key: string }>(
      t,
      `insert into storage_blobs (key, size, sha256, content_type, complete)
       values (gen_random_uuid(), 0, '', 'application/octet-stream', false) returning key`,
    )) as [{ key: string }];

    // Before the grace period nothing goes.
    const early = await sweepUnreferencedFiles(t.orm.em.fork(), DAY);
    expect(early.attachments).toBe(0);
    expect(await attachmentExists(never.key)).toBe(true);

    await ageAllBut([young.key, young.thumbnail]);
    const swept = await sweepUnreferencedFiles(t.orm.em.fork(), DAY);
    expect(swept.attachments).toBeGreaterThanOrEqual(1);
    // The unused upload goes with its thumbnail; so do the loose and the incomplete blob.
    expect(await attachmentExists(never.key)).toBe(false);
    for (const key of [never.key, never.thumbnail, loose.key, incomplete])
      expect(await blobExists(key)).toBe(false);
    // Everything some value, history record or feedback names stays, and the young upload too.
    for (const file of [live, replaced, replacement, onDeleted, young]) {
      expect(await attachmentExists(file.key), file.key).toBe(true);
      expect(await blobExists(file.key)).toBe(true);
      expect(await blobExists(file.thumbnail)).toBe(true);
    }
    expect(await blobExists(feedbackKey)).toBe(true);

    // Undo brings the replaced file back, whole.
    const history = await admin.get<{ content: { id: number; revision: number }[] }>(
      `/history/concept/${concept.id}`,
    );
    const created = history.body.content.find((item) => item.revision === concept.version)!;
    const undone = await admin.post('/history/concept-undo', { 'history-item-id': created.id });
    expect(undone.status, undone.text).toBe(200);
    const file = await admin.get(`/concepts/${concept.id}/attachments/${replaced.key}`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');

    // A key swept away can no longer be set on a concept.
    const refused = await admin.post('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid: dictionary.sections[0]!.oid,
      fieldMap: { [field]: [never.key] },
      terms: [{ name: 'late', languageCode: 'eng' }],
    });
    expect(refused.status).toBe(400);
    // A second round finds nothing more to do.
    expect(await sweepUnreferencedFiles(t.orm.em.fork(), DAY)).toEqual({ attachments: 0, blobs: 0 });
  });
});
