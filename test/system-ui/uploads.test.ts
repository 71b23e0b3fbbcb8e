/**
 * Multipart uploads: MAX_FILE_SIZE enforced before the body is buffered, with 413 and our JSON error
 * body; the shared readSingleFile helper behind POST /users/import.
 */
import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSingleFile, registerUploads } from '../../src/rest/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { type ErrorBody, newWorld, sql, type World } from './system-ui-helpers.js';

const MAX = 2048;
const BOUNDARY = '----system-ui-upload-boundary';

let t: TestApp;
let sysadmin: RestClient;
let world: World;

beforeAll(async () => {
  t = await buildTestApp({ MAX_FILE_SIZE: String(MAX) });
  sysadmin = await loginSysadmin(t.app);
  world = await newWorld(t, sysadmin);
});
afterAll(() => t.close());

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
    );
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

async function postImport(parts: Part[] | { payload: string; contentType: string }, query = '') {
  const multipart = Array.isArray(parts);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v4/users/import${query}`,
    headers: {
      'x-auth-token': world.admin.token!,
      'content-type': multipart ? `multipart/form-data; boundary=${BOUNDARY}` : parts.contentType,
    },
    payload: multipart ? multipartBody(parts) : parts.payload,
  });
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type']),
    body: JSON.parse(response.body) as ErrorBody & { userCount: number; groupCount: number },
  };
}

const userCount = async (clientId: number) =>
  (
    await sql<{ count: number }>(t, 'select count(*)::int as count from users where client_id = ?', [
      clientId,
    ])
  )[0]!.count;

/** An export of another tenant: a small valid users file. */
async function smallUsersFile(): Promise<string> {
  const source = await newWorld(t, sysadmin);
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/v4/users/export',
    headers: { 'x-auth-token': source.admin.token! },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(Buffer.byteLength(response.body)).toBeLessThan(MAX);
  return response.body;
}

describe('POST /users/import through readSingleFile', () => {
  it('a file within MAX_FILE_SIZE is imported; form members and query parameters reach the procedure', async () => {
    const xml = await smallUsersFile();
    const before = await userCount(world.tenant.id);
    const response = await postImport([
      { name: 'fileName', value: 'users.xml' },
      { name: 'file', value: xml, filename: 'users.xml', contentType: 'application/xml' },
      { name: 'overwrite-user', value: 'false' },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.userCount).toBe(1);
    // Without overwrite the clashing "admin" got a suffix: one more user.
    expect(await userCount(world.tenant.id)).toBe(before + 1);
    const overwrite = await postImport(
      [{ name: 'file', value: xml, filename: 'users.xml' }],
      '?overwrite-user=true',
    );
    expect(overwrite.status, JSON.stringify(overwrite.body)).toBe(200);
    expect(await userCount(world.tenant.id)).toBe(before + 1);
  });

  it('a file one byte over MAX_FILE_SIZE: 413 with {code, message}, nothing imported', async () => {
    const before = await userCount(world.tenant.id);
    const response = await postImport([
      {
        name: 'file',
        value: Buffer.alloc(MAX + 1, 'x'),
        filename: 'users.xml',
        contentType: 'application/xml',
      },
    ]);
    expect(response.status).toBe(413);
    expect(response.contentType).toContain('application/json');
    expect(response.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('MAX_FILE_SIZE'),
    });
    expect(await userCount(world.tenant.id)).toBe(before);
    // Exactly at the limit the file is read (and judged by the import: not XML, 400).
    const atLimit = await postImport([
      { name: 'file', value: Buffer.alloc(MAX, 'x'), filename: 'users.xml' },
    ]);
    expect(atLimit.status).toBe(400);
  });

  it('a second file: 413; no member "file": 400; not multipart: 400 asking for multipart', async () => {
    const xml = await smallUsersFile();
    const two = await postImport([
      { name: 'file', value: xml, filename: 'a.xml' },
      { name: 'file', value: xml, filename: 'b.xml' },
    ]);
    expect(two.status).toBe(413);
    expect(two.body.code).toBe('PAYLOAD_TOO_LARGE');
    const missing = await postImport([{ name: 'document', value: xml, filename: 'a.xml' }]);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('"file"') });
    const json = await postImport({
      payload: JSON.stringify({ file: xml }),
      contentType: 'application/json',
    });
    expect(json.status).toBe(400);
    expect(json.body.message).toMatch(/multipart/);
  });

  it('a malformed multipart body: 400 saying so (no boundary, another boundary, cut off)', async () => {
    const xml = await smallUsersFile();
    const body = multipartBody([{ name: 'file', value: xml, filename: 'users.xml' }]).toString();
    const malformed = [
      { payload: body, contentType: 'multipart/form-data' },
      { payload: body, contentType: 'multipart/form-data; boundary=another' },
      { payload: body.slice(0, body.length / 2), contentType: `multipart/form-data; boundary=${BOUNDARY}` },
    ];
    for (const request of malformed) {
      const response = await postImport(request);
      expect(response.status, request.contentType).toBe(400);
      expect(response.body).toEqual({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/multipart body/),
      });
    }
  });

  it('a declared Content-Length beyond the limit is refused before the body is sent', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
          if (received.includes('\r\n\r\n') && received.includes('}')) resolve(received);
        });
        socket.on('error', reject);
        setTimeout(() => reject(new Error(`no answer; got: ${received}`)), 5000);
        // Headers announce 10 MB; only the first bytes of the body are ever sent.
        socket.write(
          [
            'POST /api/v4/users/import HTTP/1.1',
            'Host: localhost',
            `X-Auth-Token: ${world.admin.token}`,
            `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
            `Content-Length: ${10 * 1024 * 1024}`,
            '',
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.xml"\r\n\r\nxxxx`,
          ].join('\r\n'),
        );
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    } finally {
      socket.destroy();
    }
  });
});

describe('readSingleFile in another route', () => {
  it('reads the named member with its file name, type and the other fields; limits per route', async () => {
    const app = Fastify();
    await app.register(async (scope) => {
      await registerUploads(scope);
      scope.post('/definition', async (request) => {
        const upload = await readSingleFile(request, { maxBytes: 10, field: 'definition' });
        return {
          text: upload.buffer.toString(),
          filename: upload.filename,
          mimetype: upload.mimetype,
          fields: upload.fields,
        };
      });
    });
    try {
      const send = (parts: Part[]) =>
        app.inject({
          method: 'POST',
          url: '/definition?dictionary-id=7',
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          payload: multipartBody(parts),
        });
      const ok = await send([
        { name: 'note', value: 'hello' },
        { name: 'definition', value: '0123456789', filename: 'd.xml', contentType: 'application/xml' },
      ]);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({
        text: '0123456789',
        filename: 'd.xml',
        mimetype: 'application/xml',
        fields: { 'dictionary-id': '7', note: 'hello' },
      });
      const large = await send([{ name: 'definition', value: '01234567890', filename: 'd.xml' }]);
      expect(large.statusCode).toBe(413);
    } finally {
      await app.close();
    }
  });
});
