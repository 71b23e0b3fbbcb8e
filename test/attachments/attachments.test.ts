/**
 * Attachments over REST (docs/attachments.md): streamed upload within MAX_FILE_SIZE, types sniffed from
 * the bytes, safe download headers, and files following their concept: permissions, tenant, soft
 * deletion, history undo and dictionary copy.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  rows,
  updateDictionary,
} from '../helpers/structure.js';

const MAX = 100_000;
let t: TestApp;
let admin: RestClient;
let dictionary: DictionaryBody;
let imageField: string;
let termImageField: string;
let stranger: RestClient;
let tenant: Awaited<ReturnType<typeof newTenant>>['tenant'];

const png = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer();
const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(document.cookie)</script>' +
  '<rect width="40" height="20" fill="red"/></svg>';

interface AttachmentBody {
  key: string;
  contentType: string;
  fileName: string;
  width: number | null;
  hasThumbnail: boolean;
  url: string;
  thumbnailUrl: string | null;
  termId: number | null;
}

const upload = (caller: RestClient, content: Buffer | string, filename: string, contentType?: string) =>
  caller.upload<AttachmentBody>(`/attachments?dictionary-id=${dictionary.id}`, {
    content,
    filename,
    contentType: contentType ?? 'application/octet-stream',
  });

async function uploaded(content: Buffer | string, filename: string): Promise<AttachmentBody> {
  const response = await upload(admin, content, filename);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function conceptWith(keys: string[], termKeys: string[] = []) {
  const response = await admin.post<{ id: number; version: number; terms: { id: number }[] }>('/concepts', {
    dictionaryId: dictionary.id,
    sectionOid: dictionary.sections[0]!.oid,
    fieldMap: { [imageField]: keys },
    terms: [{ name: `term ${Math.random()}`, languageCode: 'eng', fieldMap: { [termImageField]: termKeys } }],
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const blobCount = async () =>
  (await rows<{ n: number }>(t, 'select count(*)::int as n from storage_blobs'))[0]!.n;

beforeAll(async () => {
  t = await buildTestApp({ MAX_FILE_SIZE: String(MAX) });
  const sysadmin = await loginSysadmin(t.app);
  const world = await newTenant(t, sysadmin);
  tenant = world.tenant;
  admin = world.admin;
  dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
    termFields: [{ name: 'Term image', fieldType: 'ATTACHMENT' }],
  });
  imageField = dictionary.conceptFields[0]!.oid!;
  termImageField = dictionary.termFields[0]!.oid!;
  stranger = (await newTenant(t, sysadmin)).admin;
});
afterAll(() => t?.close());

describe('upload', () => {
  it('stores an image with its sniffed type, size and a thumbnail, and shows it on the concept', async () => {
    const image = await uploaded(await png(), 'photo.PNG');
    expect(image).toMatchObject({ contentType: 'image/png', width: 640, hasThumbnail: true });
    const concept = await conceptWith([image.key]);
    const list = await admin.get<AttachmentBody[]>(`/concepts/${concept.id}/attachments`);
    expect(list.body).toEqual([expect.objectContaining({ key: image.key, termId: null })]);
    const file = await admin.get(list.body[0]!.url.replace('/api/v4', ''));
    expect(file.status).toBe(200);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': expect.stringMatching(/^inline; filename="photo.PNG"/),
      'content-security-policy': expect.stringContaining('sandbox'),
    });
    const thumbnail = await t.app.inject({
      url: list.body[0]!.thumbnailUrl!,
      headers: { 'x-auth-token': admin.token! },
    });
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect([thumbnail.headers['content-type'], meta.width, meta.height]).toEqual(['image/png', 256, 192]);
  });

  it('refuses a file beyond MAX_FILE_SIZE with 413 and keeps nothing', async () => {
    const before = await blobCount();
    const response = await upload(admin, Buffer.alloc(MAX + 1, 7), 'big.bin');
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await blobCount()).toBe(before);
  });

  it('refuses a mislabelled file: the bytes decide, not the name or the Content-Type', async () => {
    const before = await blobCount();
    const html = await upload(admin, '<!doctype html><script>alert(1)</script>', 'innocent.png', 'image/png');
    expect(html.status).toBe(400);
    expect(html.body).toMatchObject({ message: expect.stringContaining('text/html') });
    const svgAsPng = await upload(admin, SVG_WITH_SCRIPT, 'logo.svg', 'image/png');
    expect(svgAsPng.status).toBe(400);
    expect(await blobCount()).toBe(before);
  });

  it('serves an SVG with script only as an attachment under a sandbox, and its thumbnail rasterised', async () => {
    const svg = await uploaded(SVG_WITH_SCRIPT, 'logo.svg');
    expect(svg).toMatchObject({ contentType: 'image/svg+xml', hasThumbnail: true, width: 40 });
    const concept = await conceptWith([svg.key]);
    const file = await admin.get(`/concepts/${concept.id}/attachments/${svg.key}`);
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const thumbnail = await t.app.inject({
      url: `/api/v4/concepts/${concept.id}/attachments/${svg.key}/thumbnail`,
      headers: { 'x-auth-token': admin.token! },
    });
    expect(thumbnail.headers['content-type']).toBe('image/png');
    expect(thumbnail.rawPayload.includes('script')).toBe(false);
  });
});

describe('access', () => {
  it('follows the concept: readers download, only editors upload, other tenants see nothing', async () => {
    const image = await uploaded(await png(20, 20), 'a.png');
    const concept = await conceptWith([], [image.key]);
    const reader = await loggedInUser(t, tenant);
    const scheme = await createScheme(admin, [
      grant((await groupWith(admin, [reader.id])).id, ['DICT_READ']),
    ]);
    const put = await updateDictionary(admin, dictionary, { permissionSchemeId: scheme.id });
    expect(put.status, put.text).toBe(200);
    dictionary = put.body;
    const list = await reader.rest.get<AttachmentBody[]>(`/concepts/${concept.id}/attachments`);
    expect(list.body).toEqual([expect.objectContaining({ key: image.key, termId: concept.terms[0]!.id })]);
    expect((await reader.rest.get(`/concepts/${concept.id}/attachments/${image.key}`)).status).toBe(200);
    expect((await upload(reader.rest, await png(4, 4), 'b.png')).status).toBe(403);
    // Another tenant: neither the concept, nor the file, nor the key in its own concepts.
    expect((await stranger.get(`/concepts/${concept.id}/attachments/${image.key}`)).status).toBe(404);
    expect((await upload(stranger, await png(4, 4), 'c.png')).status).toBe(404);
    // A key the concept does not name is not served through it.
    const other = await uploaded(await png(4, 4), 'd.png');
    expect((await admin.get(`/concepts/${concept.id}/attachments/${other.key}`)).status).toBe(404);
  });

  it('lists the same files over GraphQL, and nothing for another tenant', async () => {
    const image = await uploaded(await png(5, 5), 'graph.png');
    const concept = await conceptWith([image.key]);
    const query = async (token: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', 'x-auth-token': token },
          payload: JSON.stringify({
            query: `{ conceptAttachments(conceptId: ${concept.id}) { key fileName contentType thumbnailUrl } }`,
          }),
        })
      ).json() as { data?: { conceptAttachments: unknown[] }; errors?: { extensions?: { code?: string } }[] };
    expect((await query(admin.token!)).data?.conceptAttachments).toEqual([
      expect.objectContaining({ key: image.key, fileName: 'graph.png', contentType: 'image/png' }),
    ]);
    expect((await query(stranger.token!)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses unknown and foreign keys as field values', async () => {
    const response = await admin.post('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid: dictionary.sections[0]!.oid,
      fieldMap: { [imageField]: ['00000000-0000-4000-8000-000000000000'] },
      terms: [{ name: 'x', languageCode: 'eng' }],
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('is not an uploaded attachment');
  });

  it('hides the files of a deleted concept', async () => {
    const image = await uploaded(await png(8, 8), 'gone.png');
    const concept = await conceptWith([image.key]);
    expect((await admin.delete(`/concepts/${concept.id}`)).status).toBe(204);
    expect((await admin.get(`/concepts/${concept.id}/attachments/${image.key}`)).status).toBe(404);
  });
});

describe('history and copy', () => {
  it('undo brings the replaced file back', async () => {
    const first = await uploaded(await png(10, 10), 'first.png');
    const second = await uploaded(await png(12, 12), 'second.png');
    const concept = await conceptWith([first.key]);
    const patched = await admin.put<{ version: number }>(`/concepts/${concept.id}/patch`, {
      id: concept.id,
      version: concept.version,
      fieldMap: { [imageField]: [second.key] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await admin.get(`/concepts/${concept.id}/attachments/${first.key}`)).status).toBe(404);
    const history = await admin.get<{ content: { id: number; revision: number }[] }>(
      `/history/concept/${concept.id}`,
    );
    const created = history.body.content.find((item) => item.revision === concept.version)!;
    const undone = await admin.post('/history/concept-undo', { 'history-item-id': created.id });
    expect(undone.status, undone.text).toBe(200);
    const list = await admin.get<AttachmentBody[]>(`/concepts/${concept.id}/attachments`);
    expect(list.body.map((entry) => entry.fileName)).toEqual(['first.png']);
    expect((await admin.get(`/concepts/${concept.id}/attachments/${first.key}`)).status).toBe(200);
  });

  it('a copied dictionary shows the same files on its copies', async () => {
    const image = await uploaded(await png(6, 6), 'copied.png');
    await conceptWith([image.key]);
    const copy = await admin.post<{ result: number }>(`/dictionaries/copy/${dictionary.id}`, {
      'copy-data': true,
    });
    expect(copy.status, copy.text).toBe(200);
    const [copied] = await rows<{ id: number }>(
      t,
      `select id from concepts where dictionary_id = ? and field_map::text like ?`,
      [copy.body.result, `%${image.key}%`],
    );
    const file = await admin.get(`/concepts/${copied!.id}/attachments/${image.key}`);
    expect(file.status).toBe(200);
  });
});

describe('TBX with files', () => {
  it('exports xGraphic references and the files in one zip, which the import reads back', async () => {
    const source = await createDictionary(admin, {
      languages: [{ code: 'eng' }, { code: 'deu' }],
      conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
      termFields: [{ name: 'Term image', fieldType: 'ATTACHMENT' }],
    });
    const [conceptField, termField] = [source.conceptFields[0]!.oid!, source.termFields[0]!.oid!];
    const images = [await png(30, 20), await png(20, 30), await png(8, 8)];
    const keys: string[] = [];
    for (const [index, image] of images.entries()) {
      const response = await admin.upload<AttachmentBody>(`/attachments?dictionary-id=${source.id}`, {
        content: image,
        filename: `bild ${index}.png`,
        contentType: 'image/png',
      });
      keys.push(response.body.key);
    }
    const created = await admin.post('/concepts', {
      dictionaryId: source.id,
      sectionOid: source.sections[0]!.oid,
      fieldMap: { [conceptField]: [keys[0], keys[1]] },
      terms: [
        { name: 'gear', languageCode: 'eng', fieldMap: { [termField]: [keys[2]] } },
        { name: 'Zahnrad', languageCode: 'deu' },
      ],
    });
    expect(created.status, created.text).toBe(201);

    // TBX-Basic has xGraphic on concepts and languages only: the full dialect carries term images too.
    const exported = await t.app.inject({
      url: `/api/v4/dictionaries/export-tbx/${source.id}?with-files=true&format=TBX_V3_FULL`,
      headers: { 'x-auth-token': admin.token! },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toBe('application/zip');
    const entries = await zipEntries(exported.rawPayload);
    const documentName = [...entries.keys()].find((name) => name.endsWith('.tbx'))!;
    const tbx = entries.get(documentName)!.toString('utf8');
    expect(tbx).toContain(`type="xGraphic" target="files/${keys[0]}/bild 0.png"`);
    expect(entries.get(`files/${keys[2]}/bild 2.png`)?.equals(images[2]!)).toBe(true);

    const imported = await admin.upload<{ result: { dictionaryId: number } }>(
      `/dictionaries/import-tbx?name=${encodeURIComponent(`Round trip ${Date.now()}`)}`,
      { content: exported.rawPayload, filename: 'bundle.zip', contentType: 'application/zip' },
    );
    expect(imported.status, imported.text).toBe(200);
    const dictionaryId = imported.body.result.dictionaryId;
    const [concept] = await rows<{ id: number }>(t, 'select id from concepts where dictionary_id = ?', [
      dictionaryId,
    ]);
    const list = await admin.get<(AttachmentBody & { sha256: string })[]>(
      `/concepts/${concept!.id}/attachments`,
    );
    expect(list.body.map((entry) => [entry.fileName, entry.termId === null])).toEqual([
      ['bild 0.png', true],
      ['bild 1.png', true],
      ['bild 2.png', false],
    ]);
    const file = await t.app.inject({ url: list.body[2]!.url, headers: { 'x-auth-token': admin.token! } });
    expect(file.rawPayload.equals(images[2]!)).toBe(true);
  });
});

/** The entries of a zip, read with yauzl. */
async function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  const yauzl = (await import('yauzl')).default;
  const file = await new Promise<import('yauzl').ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  const found = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: import('yauzl').Entry) => {
      file.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        found.set(entry.fileName, Buffer.concat(await stream.toArray()));
        file.readEntry();
      });
    });
    file.on('end', () => resolve());
    file.on('error', reject);
    file.readEntry();
  });
  return found;
}
