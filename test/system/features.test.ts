import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { RestClient } from '../helpers/rest.js';

let t: TestApp;
let anonymous: RestClient;
beforeAll(async () => {
  t = await buildTestApp({
    MULTI_TENANT: 'true',
    SESSION_TIMEOUT: '900',
    BASE_URL: 'https://terms.example.org',
    BUILD_DATETIME: '1700000000000',
  });
  anonymous = new RestClient(t.app);
});
afterAll(() => t.close());

describe('GET /system/features', () => {
  it('answers every member without a token, from configuration and package.json', async () => {
    const response = await anonymous.get<Record<string, unknown>>('/system/features');
    expect(response.status).toBe(200);
    // The guests suite may switch automatic guest login on for the shared default client meanwhile.
    const { GUEST_TOKEN, GUEST_AUTO_DISABLED, ...rest } = response.body;
    expect(GUEST_AUTO_DISABLED).toBe(GUEST_TOKEN === undefined);
    expect(rest).toEqual({
      DEVELOPMENT: false,
      SESSION_TIMEOUT: 900,
      MULTIPLE_CLIENT: true,
      MULTIVALUED_SEPARATOR: '|',
      ALWAYS_WILDCARD: false,
      MAX_FILE_SIZE: t.config.MAX_FILE_SIZE,
      FEEDBACK_MAX_FILE_SIZE: t.config.FEEDBACK_MAX_FILE_SIZE,
      VERSION: pkg.version,
      BUILD_DATETIME: 1700000000000,
    });
  });

  it('answers for an existing client and 404 with a JSON body for an unknown one', async () => {
    expect((await anonymous.get('/system/features/client/admin')).status).toBe(200);
    const unknown = await anonymous.get<{ code: string; message: string }>(
      '/system/features/client/nosuchclient',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });

  it('URL-decodes the path parameter', async () => {
    // %61dmin is "admin": without decoding the lookup would miss and answer 404.
    expect((await anonymous.get('/system/features/client/%61dmin')).status).toBe(200);
  });

  it('serves the features script, taking the client from a /client/{login} referer', async () => {
    const script = await anonymous.call('GET', '/system/features.js', {
      headers: { referer: 'https://terms.example.org/client/admin/search' },
    });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=UTF-8');
    expect(script.text).toMatch(/^window\.serviceFeatures = \{.*"VERSION":"/);
    const unknown = await anonymous.call('GET', '/system/features.js', {
      headers: { referer: 'https://terms.example.org/client/nosuchclient' },
    });
    expect(unknown.status).toBe(404);
  });
});
