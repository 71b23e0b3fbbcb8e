/**
 * Hostile input to stemming, term decoration and term check: never a 5xx, always {code, message}.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { type Termbase, termbase } from './decoration-helpers.js';

describe('hostile input to decoration and stemming', () => {
  let server: Server;
  let base: Termbase;

  beforeAll(async () => {
    server = await startServer();
    base = await termbase(server);
  }, 120_000);
  afterAll(() => server?.close());

  it.each([
    ['/term-decoration', { sourceLang: 'eng', dictionaryIds: [2_147_483_648], segments: [{ text: 'x' }] }],
    ['/term-decoration', { sourceLang: 'eng', dictionaryIds: [-5], segments: [{ text: 'x' }] }],
    ['/term-decoration', { sourceLang: "x'); drop table terms; --", segments: [{ text: 'x' }] }],
    ['/term-decoration', { sourceLang: 'eng', segments: [{ text: 'a &#0; b &#xD800; c', format: 'xliff' }] }],
    [
      '/term-decoration',
      { sourceLang: 'eng', segments: [{ text: '</b> <b <<>> &amp', format: 'html' }], output: 'html' },
    ],
    ['/term-decoration', { sourceLang: 'eng', targetLangs: ['"{}\\'], segments: [{ text: 'x "{}\\ y' }] }],
    ['/term-decoration', { sourceLang: 'eng', segments: [{ text: 'x', format: 'pdf' }] }],
    ['/term-check', { sourceLang: 'eng', targetLang: 'zz"z', source: 'a', target: 'b' }],
    ['/stemming/analyze', { langCode: 'eng', text: 'x', dictionaryId: 99_999_999_999 }],
    ['/stemming/analyze', { langCode: '\\"{,}', text: '"{a,b}" \\ \'' }],
  ])('POST %s %j answers 2xx or 4xx with {code, message}', async (path, body) => {
    const response = await base.admin.post(path, body);
    expect(response.status, response.text).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('PUT /dictionaries/{id}/stemming refuses odd settings without 5xx', async () => {
    for (const body of [
      { langCode: 'eng', algorithm: "english'; --" },
      { langCode: 'eng', overrides: { '': 'x' } },
      { langCode: 'x'.repeat(65) },
      { langCode: 'eng', protectedWords: ['"{}\\', "'"], overrides: { '"a"': '{b}' } },
    ]) {
      const response = await base.admin.put(`/dictionaries/${base.dictionary.id}/stemming`, body);
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBeLessThan(500);
    }
    expect((await base.admin.put('/dictionaries/2147483648/stemming', { langCode: 'eng' })).status).toBe(400);
  });
});
