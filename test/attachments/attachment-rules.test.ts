/**
 * The refusals and rules of docs/attachments.md not covered by attachments.test.ts: an upload streamed
 * without a Content-Length that grows beyond MAX_FILE_SIZE, and one whose declared length is beyond it;
 * executables and decompression bombs; another client's key as a field value; a file in a section the
 * reader cannot read and on a term in an unpublished workflow state; a TBX zip whose file is larger than
 * MAX_FILE_SIZE (413, nothing imported).
 */
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { systemGroups } from '../access/access-helpers.js';
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
  uniqueSuffix,
} from '../helpers/structure.js';

const MAX = 100_000;
let t: TestApp;
let sysadmin: RestClient;
let admin: RestClient;
let tenant: Awaited<ReturnType<typeof newTenant>>['tenant'];
let dictionary: DictionaryBody;
let conceptField: string;
let termField: string;

const png = (size: number) =>
  sharp({ create: { width: size, height: size, channels: 3, background: '#a72' } })
    .png()
    .toBuffer();

async function uploadedTo(caller: RestClient, dictionaryId: number, content: Buffer, name: string) {
  return caller.upload<{ key: string }>(`/attachments?dictionary-id=${dictionaryId}`, {
    content,
    filename: name,
    contentType: 'application/octet-stream',
  });
}

const blobCount = async () =>
  (await rows<{ n: number }>(t, 'select count(*)::int as n from storage_blobs'))[0]!.n;

beforeAll(async () => {
  t = await buildTestApp({ MAX_FILE_SIZE: String(MAX) });
  sysadmin = await loginSysadmin(t.app);
  ({ admin, tenant } = await newTenant(t, sysadmin));
  dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
    termFields: [{ name: 'Term image', fieldType: 'ATTACHMENT' }],
  });
  conceptField = dictionary.conceptFields[0]!.oid!;
  termField = dictionary.termFields[0]!.oid!;
});
afterAll(() => t?.close());

/** A multipart body streamed in pieces, so that the request carries no Content-Length. */
function streamedUpload(size: number) {
  const boundary = `----rules-${uniqueSuffix()}`;
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'content-type: application/octet-stream\r\n\r\n',
    );
    for (let sent = 0; sent < size; sent += 16_384) yield Buffer.alloc(Math.min(16_384, size - sent), 1);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return t.app.inject({
    method: 'POST',
    url: `/api/v4/attachments?dictionary-id=${dictionary.id}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-auth-token': admin.token!,
    },
    payload: Readable.from(body()),
  });
}

describe('oversized and refused files', () => {
  it('cuts a stream without Content-Length at MAX_FILE_SIZE, and refuses a declared length beyond it', async () => {
    const before = await blobCount();
    const streamed = await streamedUpload(MAX * 3);
    const sent = (streamed as unknown as { raw: { req: { headers: Record<string, string> } } }).raw.req;
    expect(sent.headers['content-length']).toBeUndefined();
    expect(streamed.statusCode, streamed.body).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const declared = await uploadedTo(admin, dictionary.id, Buffer.alloc(MAX + 80_000, 2), 'huge.bin');
    expect(declared.status).toBe(413);
    expect(await blobCount()).toBe(before);
  });

  it('refuses executables and images that decode to more than 40 megapixels', async () => {
    const before = await blobCount();
    const elf = Buffer.concat([
      Buffer.from('7f454c46020101000000000000000000', 'hex'),
      Buffer.from('02003e00010000000000000000000000', 'hex'),
      Buffer.alloc(512),
    ]);
    const executable = await uploadedTo(admin, dictionary.id, elf, 'tool');
    expect(executable.status, executable.text).toBe(400);
    // 8000 × 6000 one-bit pixels: a few kilobytes on the wire, 48 million pixels once decoded.
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .png({ palette: true, colours: 2, compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX);
    const refused = await uploadedTo(admin, dictionary.id, bomb, 'bomb.png');
    expect(refused.status, refused.text).toBe(400);
    expect(await blobCount()).toBe(before);
  });
});

describe('tenant and read rules', () => {
  it("refuses another client's key as a field value, as if it did not exist", async () => {
    const image = await uploadedTo(admin, dictionary.id, await png(6), 'ours.png');
    expect(image.status, image.text).toBe(201);
    const other = await newTenant(t, sysadmin);
    const theirs = await createDictionary(other.admin, {
      languages: [{ code: 'eng' }],
      conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
    });
    const response = await other.admin.post('/concepts', {
      dictionaryId: theirs.id,
      sectionOid: theirs.sections[0]!.oid,
      fieldMap: { [theirs.conceptFields[0]!.oid!]: [image.body.key] },
      terms: [{ name: 'stolen', languageCode: 'eng' }],
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('is not an uploaded attachment');
  });

  it('hides files in a section the reader cannot read, and on terms in an unpublished state', async () => {
    const groups = await systemGroups(admin);
    const reader = await loggedInUser(t, tenant);
    const reviewer = await loggedInUser(t, tenant);
    const reviewers = await groupWith(admin, [reviewer.id]);
    const everyone = await createScheme(admin, [
      grant(groups.ALL_USERS.id, ['DICT_READ']),
      grant(reviewers.id, ['DICT_READ'], ['CONCEPT_UPDATE']),
    ]);
    const nobody = await createScheme(admin, [grant((await groupWith(admin, [])).id, ['DICT_READ'])]);
    const shared = await createDictionary(admin, {
      languages: [{ code: 'eng' }, { code: 'deu' }],
      conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
      termFields: [{ name: 'Term image', fieldType: 'ATTACHMENT' }],
      permissionSchemeId: everyone.id,
    });
    const secret = await admin.post<{ id: number; oid: string }>('/sections', {
      name: `Secret ${uniqueSuffix()}`,
      dictionaryId: shared.id,
      permissionSchemeId: nobody.id,
    });
    expect(secret.status, secret.text).toBe(201);
    const [fieldOfConcept, fieldOfTerm] = [shared.conceptFields[0]!.oid!, shared.termFields[0]!.oid!];
    const key = async (name: string) => {
      const response = await uploadedTo(admin, shared.id, await png(7), name);
      expect(response.status, response.text).toBe(201);
      return response.body.key;
    };
    const [secretKey, draftKey, shownKey] = [
      await key('secret.png'),
      await key('draft.png'),
      await key('shown.png'),
    ];
    const inSecret = await admin.post<{ id: number }>('/concepts', {
      dictionaryId: shared.id,
      sectionOid: secret.body.oid,
      fieldMap: { [fieldOfConcept]: [secretKey] },
      terms: [{ name: 'hidden', languageCode: 'eng' }],
    });
    expect(inSecret.status, inSecret.text).toBe(201);
    expect((await reader.rest.get(`/concepts/${inSecret.body.id}/attachments`)).status).toBe(404);
    expect((await reader.rest.get(`/concepts/${inSecret.body.id}/attachments/${secretKey}`)).status).toBe(
      404,
    );

    const workflow = await admin.post('/workflows', {
      name: `Review ${uniqueSuffix()}`,
      dictionaryId: shared.id,
      enabled: true,
      definition: {
        initialState: 'draft',
        states: [
          { key: 'draft', name: 'Draft', category: 'DRAFT', unpublished: true },
          { key: 'review', name: 'Review', category: 'REVIEW', unpublished: true },
          { key: 'ok', name: 'Approved', category: 'APPROVED' },
        ],
        transitions: [
          { key: 'submit', name: 'Submit', from: ['draft'], to: 'review', groupIds: [reviewers.id] },
          { key: 'approve', name: 'Approve', from: ['review'], to: 'ok', groupIds: [reviewers.id] },
        ],
      },
    });
    expect(workflow.status, workflow.text).toBe(201);
    const concept = await admin.post<{ id: number }>('/concepts', {
      dictionaryId: shared.id,
      sectionOid: shared.sections[0]!.oid,
      terms: [
        { name: 'valve', languageCode: 'eng', fieldMap: { [fieldOfTerm]: [shownKey] } },
        { name: 'Ventil', languageCode: 'deu', fieldMap: { [fieldOfTerm]: [draftKey] } },
      ],
    });
    expect(concept.status, concept.text).toBe(201);
    for (const [version, transition] of ['submit', 'approve'].entries()) {
      const fired = await reviewer.rest.post('/workflows/transitions', {
        conceptId: concept.body.id,
        languageCode: 'eng',
        transition,
        version,
      });
      expect(fired.status, fired.text).toBe(200);
    }
    // The reader sees the approved English term's file; the German draft and its file do not exist for them.
    const listed = await reader.rest.get<{ key: string }[]>(`/concepts/${concept.body.id}/attachments`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((entry) => entry.key)).toEqual([shownKey]);
    expect((await reader.rest.get(`/concepts/${concept.body.id}/attachments/${draftKey}`)).status).toBe(404);
    expect(
      (await reader.rest.get(`/concepts/${concept.body.id}/attachments/${draftKey}/thumbnail`)).status,
    ).toBe(404);
    // The reviewer sees both.
    const reviewed = await reviewer.rest.get<{ key: string }[]>(`/concepts/${concept.body.id}/attachments`);
    expect(reviewed.body.map((entry) => entry.key).sort()).toEqual([draftKey, shownKey].sort());
    expect((await reviewer.rest.get(`/concepts/${concept.body.id}/attachments/${draftKey}`)).status).toBe(
      200,
    );
  });
});

describe('TBX with files', () => {
  it('refuses a bundle whose file is larger than MAX_FILE_SIZE with 413, keeping nothing', async () => {
    const image = await uploadedTo(admin, dictionary.id, await png(9), 'small.png');
    expect(image.status, image.text).toBe(201);
    const created = await admin.post('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid: dictionary.sections[0]!.oid,
      fieldMap: { [conceptField]: [image.body.key] },
      terms: [{ name: `bundled ${uniqueSuffix()}`, languageCode: 'eng', fieldMap: { [termField]: [] } }],
    });
    expect(created.status, created.text).toBe(201);
    const exported = await t.app.inject({
      url: `/api/v4/dictionaries/export-tbx/${dictionary.id}?with-files=true&format=TBX_V3_FULL`,
      headers: { 'x-auth-token': admin.token! },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    // The same bundle with that file swapped for one past the limit (its header says so honestly).
    const entries = await zipEntries(exported.rawPayload);
    const zip = new yazl.ZipFile();
    for (const [name, content] of entries) {
      zip.addBuffer(name.includes(image.body.key) ? Buffer.alloc(MAX + 1_000, 3) : content, name);
    }
    zip.end();
    const bundle = Buffer.concat(await Readable.from(zip.outputStream).toArray());
    const name = `Oversized ${uniqueSuffix()}`;
    const before = await blobCount();
    const imported = await admin.upload(`/dictionaries/import-tbx?name=${encodeURIComponent(name)}`, {
      content: bundle,
      filename: 'bundle.zip',
      contentType: 'application/zip',
    });
    expect(imported.status, imported.text).toBe(413);
    expect(imported.body).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining(`files/${image.body.key}/small.png`),
    });
    expect(await rows(t, 'select id from dictionaries where name = ?', [name])).toEqual([]);
    expect(await blobCount()).toBe(before);
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
