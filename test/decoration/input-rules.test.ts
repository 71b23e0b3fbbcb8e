/**
 * The smaller input rules of issue 38: XLIFF attributes must be quoted, HTML script and style content
 * is not text, unknown language codes are 400 (decoration's targetLangs, the analyze endpoint), a
 * dictionary id given as a string is 400, and another tenant's dictionary is 404 to a system
 * administrator in stemming settings as in decoration.
 */
import { createTRPCClient, httpLink, type TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
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

  // trpc-to-openapi set `coerce` on the procedure's own zod schemas on every call it served, so after
  // one such call a long-running server took "12" for 12 on tRPC and on the direct REST path too.
  it('answers 400 for a string dictionary id after a REST call that coerces, in the same server', async () => {
    const id = base.dictionary.id;
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${server.base}/trpc`, headers: { 'x-auth-token': base.tenantAdmin.token ?? '' } }),
      ],
    });
    const trpcStatus = (call: Promise<unknown>) =>
      call.then(
        () => 200,
        (error: unknown) => (error as TRPCClientError<AppRouter>).data?.httpStatus,
      );
    // A query string takes these off the direct path, through trpc-to-openapi and its coercion.
    for (const path of ['/term-decoration?via=openapi', '/term-check?via=openapi']) {
      const coerced = await post(path, {
        sourceLang: 'eng',
        targetLang: 'deu',
        source: 'pump',
        target: 'Pumpe',
        dictionaryIds: [id],
        segments: [{ text: 'pump' }],
      });
      expect(coerced.status, path).toBe(200);
    }
    // Path parameters are strings: REST still coerces them.
    expect((await base.admin.call('GET', `/dictionaries/${id}/stemming`)).status).toBe(200);

    const decoration = { sourceLang: 'eng', dictionaryIds: [String(id)], segments: [{ text: 'pump' }] };
    const check = {
      sourceLang: 'eng',
      targetLang: 'deu',
      source: 'pump',
      target: 'Pumpe',
      dictionaryIds: [String(id)],
    };
    expect((await post('/term-decoration', decoration)).status).toBe(400);
    expect((await post('/term-check', check)).status).toBe(400);
    expect(await trpcStatus(trpc.termDecoration.decorate.mutate(decoration as never))).toBe(400);
    expect(await trpcStatus(trpc.termDecoration.check.mutate(check as never))).toBe(400);
    const analyze = { langCode: 'eng', text: 'pumps', dictionaryId: String(id) };
    expect(await trpcStatus(trpc.stemming.analyze.mutate(analyze as never))).toBe(400);
    // The same calls with numbers still answer.
    expect(
      await trpcStatus(trpc.termDecoration.decorate.mutate({ ...decoration, dictionaryIds: [id] })),
    ).toBe(200);
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
