/**
 * The smaller input rules of issue 38: XLIFF attributes must be quoted, HTML script and style content
 * is not text, unknown language codes are 400 (decoration's targetLangs, the analyze endpoint), a
 * dictionary id given as a string is 400, and another tenant's dictionary is 404 to a system
 * administrator in stemming settings as in decoration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { startEngineServer } from '../search/search-helpers.js';
import { concept, decorate, type Termbase, termbase } from './decoration-helpers.js';

describe('decoration input rules', () => {
  let server: Server;
  let base: Termbase;
  const post = (path: string, body: Record<string, unknown>) =>
    base.admin.post<{ code: string; message: string }>(path, body);

  beforeAll(async () => {
    server = await startEngineServer('postgresql');
    base = await termbase(server, ['eng', 'deu']);
    await concept(base, [{ name: 'pump', lang: 'eng' }]);
  }, 120_000);
  afterAll(() => server?.close());

  it('refuses XLIFF with an unquoted attribute value, and takes quoted values with = in them', async () => {
    const bad = await post('/term-decoration', {
      sourceLang: 'eng',
      segments: [{ text: '<pc id=1>pump</pc>', format: 'xliff' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    const good = await decorate(base.admin, {
      sourceLang: 'eng',
      segments: [{ text: '<pc id="a=1">pump</pc>', format: 'xliff' }],
    });
    expect(good.segments[0]!.matches.map((m) => m.text)).toEqual(['pump']);
  });

  it('does not decorate the content of HTML script and style elements', async () => {
    const answer = await decorate(base.admin, {
      sourceLang: 'eng',
      segments: [
        { text: '<script>var pump = 1;</script><STYLE>.pump {}</STYLE><p>pump</p>', format: 'html' },
      ],
    });
    expect(answer.segments[0]!.matches.map((m) => [m.start, m.text])).toEqual([[56, 'pump']]);
  });

  it('answers 400 for unknown language codes', async () => {
    const target = await post('/term-decoration', {
      sourceLang: 'eng',
      targetLangs: ['xx'],
      segments: [{ text: 'pump' }],
    });
    expect([target.status, target.body.code]).toEqual([400, 'BAD_REQUEST']);
    expect(target.body.message).toContain('xx');
    const analyze = await post('/stemming/analyze', { langCode: 'xx', text: 'pumps' });
    expect([analyze.status, analyze.body.code]).toEqual([400, 'BAD_REQUEST']);
    // 639-1 and 639-2 codes stay valid.
    expect((await post('/stemming/analyze', { langCode: 'en', text: 'pumps' })).status).toBe(200);
    expect(
      (
        await post('/term-decoration', {
          sourceLang: 'eng',
          targetLangs: ['deu'],
          segments: [{ text: 'pump' }],
        })
      ).status,
    ).toBe(200);
  });

  // The openapi fuzz found it (seed 25): the language tables were object literals, so "__proto__"
  // found Object.prototype and the tokenizer failed with 500.
  it('answers 400 for language codes that name object members (__proto__, constructor)', async () => {
    for (const code of ['__proto__', 'constructor', 'toString']) {
      const answer = await post('/term-decoration', {
        sourceLang: code,
        targetLangs: ['eng'],
        segments: [{ text: 'pump' }],
      });
      expect([answer.status, answer.body.code], code).toEqual([400, 'BAD_REQUEST']);
      const analyze = await post('/stemming/analyze', { langCode: code, text: 'pumps' });
      expect([analyze.status, analyze.body.code], code).toEqual([400, 'BAD_REQUEST']);
    }
  });

  it('answers 400 for a dictionary id given as a string', async () => {
    const answer = await post('/term-decoration', {
      sourceLang: 'eng',
      dictionaryIds: [String(base.dictionary.id)],
      segments: [{ text: 'pump' }],
    });
    expect(answer.status).toBe(400);
    const analyze = await post('/stemming/analyze', {
      langCode: 'eng',
      text: 'pumps',
      dictionaryId: String(base.dictionary.id),
    });
    expect(analyze.status).toBe(400);
  });

  it("answers 404 for another tenant's dictionary to a system administrator, in stemming as in decoration", async () => {
    const sysadmin = server.api(server.sysadmin);
    const id = base.dictionary.id;
    const put = await sysadmin.call('PUT', `/dictionaries/${id}/stemming`, {
      langCode: 'eng',
      algorithm: 'none',
    });
    expect(put.status).toBe(404);
    expect((await sysadmin.call('GET', `/dictionaries/${id}/stemming`)).status).toBe(404);
    expect((await sysadmin.call('POST', `/dictionaries/${id}/stemming/rebuild`)).status).toBe(404);
    const decoration = await sysadmin.post('/term-decoration', {
      sourceLang: 'eng',
      dictionaryIds: [id],
      segments: [{ text: 'pump' }],
    });
    expect(decoration.status).toBe(404);
    // The tenant's own administrator still may.
    expect((await base.admin.call('GET', `/dictionaries/${id}/stemming`)).status).toBe(200);
  });
});
