import { TRPCError } from '@trpc/server';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authenticate } from '../../src/modules/auth/auth.service.js';
import { restAdapter } from '../../src/rest/rest-adapter.js';
import { buildRouteTable, findRoute } from '../../src/rest/route-table.js';
import { queryBoolean } from '../../src/shared/query.js';
import type { Context } from '../../src/trpc/context.js';
import { publicProcedure, router } from '../../src/trpc/trpc.js';
import { createTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, RestClient } from '../helpers/rest.js';

/**
 * Each gap of trpc-to-openapi that the REST adapter closes (design.md) has a test here. Most run on the
 * real API; route order and query parameters on PUT run on a small router built for the purpose.
 */

// Declared in the order that would break without the adapter: the parameter route first. Open
// (`protect: false`), so the adapter's token gate lets them through.
const probeRouter = router({
  byId: publicProcedure
    .meta({ openapi: { protect: false, method: 'GET', path: '/things/{id}' } })
    .input(z.object({ id: z.string() }))
    .output(z.object({ route: z.string(), id: z.string() }))
    .query(({ input }) => ({ route: 'byId', id: input.id })),
  export: publicProcedure
    .meta({ openapi: { protect: false, method: 'GET', path: '/things/export' } })
    .input(z.void())
    .output(z.object({ route: z.string() }))
    .query(() => ({ route: 'export' })),
  flag: publicProcedure
    .meta({ openapi: { protect: false, method: 'GET', path: '/flag' } })
    .input(z.object({ on: queryBoolean().default(false) }))
    .output(z.object({ on: z.boolean() }))
    .query(({ input }) => ({ on: input.on })),
  echo: publicProcedure
    .meta({ openapi: { protect: false, method: 'PUT', path: '/echo/{thingId}' } })
    .input(z.object({ thingId: z.number(), note: z.string(), 'entry-id': z.number() }))
    .output(z.object({ thingId: z.number(), note: z.string(), entryId: z.number() }))
    .mutation(({ input }) => ({ thingId: input.thingId, note: input.note, entryId: input['entry-id'] })),
  // The URL the procedure sees tells the paths apart: trpc-to-openapi gets it relative to /api/v4.
  direct: publicProcedure
    .meta({ openapi: { protect: false, method: 'POST', path: '/direct' }, directRest: true })
    .input(z.object({ count: z.number().int().min(1), 'entry-id': z.number().optional() }))
    .output(z.object({ count: z.number(), entryId: z.number().nullable(), url: z.string() }))
    .query(({ ctx, input }) => {
      if (input.count === 13) throw new TRPCError({ code: 'NOT_FOUND', message: 'Thing 13 not found' });
      if (input.count === 99) throw new Error('boom');
      return { count: input.count, entryId: input['entry-id'] ?? null, url: ctx.req.url };
    }),
});

let probe: FastifyInstance;
let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  probe = Fastify();
  await probe.register(restAdapter, {
    prefix: '/api/v4',
    router: probeRouter,
    createContext: (req, reply) =>
      ({ transport: 'rest', req, reply, config: t.config, em: t.orm.em.fork(), response: {} }) as Context,
    rawRoutes: [],
    maxBodySize: 1024 * 1024,
    authenticate: (token) => authenticate(t.orm.em.fork(), token),
  });
  await probe.ready();
});
afterAll(async () => {
  await probe.close();
  await t.close();
});

describe('REST adapter', () => {
  it('accepts a form-urlencoded body (login)', async () => {
    const response = await new RestClient(t.app).call<{ token: unknown }>('POST', '/login', {
      form: { username: 'admin', password: 'test-admin-password' },
    });
    expect(response.status).toBe(200);
    expect(response.body.token).toBeTruthy();
  });

  it('accepts a POST without Content-Type and without body (extend-session)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/extend-session',
      headers: { 'x-auth-token': sysadmin.token! },
    });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).expires).toBeGreaterThan(Date.now());
  });

  it('merges query parameters into the input of POST (format on create)', async () => {
    const name = `Query ${Date.now()}`;
    const response = await sysadmin.post(`/clients?format=ID`, { name, loginName: `q${Date.now()}` });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number) });
  });

  it('merges query parameters into the input of PUT, the path winning', async () => {
    const response = await probe.inject({
      method: 'PUT',
      url: '/api/v4/echo/7?entry-id=42',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ note: 'hi' }),
    });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ thingId: 7, note: 'hi', entryId: 42 });
  });

  it('serves camelCase path parameters (generate-new-api-key/{clientId})', async () => {
    const tenant = await createTenant(sysadmin);
    const response = await sysadmin.post<{ id: number }>(`/clients/generate-new-api-key/${tenant.id}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(tenant.id);
  });

  it('URL-decodes path parameters', async () => {
    const response = await probe.inject({ method: 'GET', url: '/api/v4/things/a%20b%C3%A9' });
    expect(JSON.parse(response.body)).toEqual({ route: 'byId', id: 'a bé' });
  });

  it('prefers a static path segment over a parameter, whatever the declaration order', async () => {
    const response = await probe.inject({ method: 'GET', url: '/api/v4/things/export' });
    expect(JSON.parse(response.body)).toEqual({ route: 'export' });
    const routes = buildRouteTable(probeRouter);
    expect(findRoute(routes, 'GET', '/things/export')?.procedurePath).toBe('export');
    expect(findRoute(routes, 'GET', '/things/12')?.procedurePath).toBe('byId');
  });

  it('reads "false" in a boolean query parameter as false', async () => {
    const off = await probe.inject({ method: 'GET', url: '/api/v4/flag?on=false' });
    const on = await probe.inject({ method: 'GET', url: '/api/v4/flag?on=true' });
    const bad = await probe.inject({ method: 'GET', url: '/api/v4/flag?on=maybe' });
    expect(JSON.parse(off.body)).toEqual({ on: false });
    expect(JSON.parse(on.body)).toEqual({ on: true });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 201 on create and 204 text/plain with an empty body on delete', async () => {
    const tenant = await createTenant(sysadmin);
    const deleted = await sysadmin.delete(`/clients/${tenant.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['content-type']).toMatch(/^text\/plain/);
    expect(deleted.text).toBe('');
  });

  it('answers 405 with an Allow header and JSON body for a wrong method on a known path', async () => {
    const response = await sysadmin.call<{ code: string; message: string }>('PATCH', '/clients/1');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toContain('GET');
    expect(response.body).toMatchObject({ code: 'METHOD_NOT_SUPPORTED', message: expect.any(String) });
  });

  it('answers 404 with a JSON body for an unknown path', async () => {
    const response = await sysadmin.get<{ code: string }>('/no-such-resource');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });

  it('answers our error body {code, message, issues} for invalid input, never a 500', async () => {
    const cases = [
      sysadmin.get('/clients/abc'),
      sysadmin.get('/clients?size=-1'),
      sysadmin.get('/clients?format=HUGE'),
      sysadmin.get('/clients?include-deleted=perhaps'),
      sysadmin.post('/clients', { name: 42 }),
      sysadmin.call('POST', '/clients', { headers: { 'content-type': 'application/json' } }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/\S/) });
    }
  });

  it('answers 400 with a JSON body for malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/clients',
      headers: { 'x-auth-token': sysadmin.token!, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers 401, not 400, to malformed JSON sent with a token that is not valid', async () => {
    for (const token of ['not-a-token', `${sysadmin.token!.slice(0, -4)}0000`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v4/clients',
        headers: { 'x-auth-token': token, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.body)).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Token unknown or expired',
      });
    }
  });

  it('answers 401 to an upload with a token that is not valid, on every REST-only upload route', async () => {
    // The token gate authenticates before the body is read; the upload routes rely on it alone.
    const boundary = 'gate-check';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xml"\r\nContent-Type: text/xml\r\n\r\n<x/>\r\n--${boundary}--\r\n`;
    for (const url of [
      '/users/import',
      '/dictionaries/import-definition/start',
      '/dictionaries/import-tbx',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v4${url}`,
        headers: {
          'x-auth-token': 'not-a-token',
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      expect(response.statusCode, url).toBe(401);
      expect(JSON.parse(response.body), url).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Token unknown or expired',
      });
    }
  });

  it('serves a directRest procedure by a direct call, with the answers of the general path', async () => {
    const post = (url: string, payload: string) =>
      probe.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    const direct = await post('/api/v4/direct', '{"count": 2}');
    // A query string sends the same request through trpc-to-openapi.
    const general = await post('/api/v4/direct?entry-id=5', '{"count": 2}');
    expect(direct.statusCode).toBe(200);
    expect(direct.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(direct.body)).toEqual({ count: 2, entryId: null, url: '/api/v4/direct' });
    expect(general.statusCode).toBe(200);
    expect(JSON.parse(general.body)).toEqual({ count: 2, entryId: 5, url: '/direct?entry-id=5' });

    // Refusals: invalid input, a domain error, an array body (general path), an internal error.
    for (const [payload, status] of [
      ['{"count": 0}', 400],
      ['{"count": "x", "extra": 1}', 400],
      ['{"count": 13}', 404],
      ['[1]', 400],
      ['{"count": 99}', 500],
    ] as const) {
      const viaCaller = await post('/api/v4/direct', payload);
      const viaAdapter = await post('/api/v4/direct?entry-id=1', payload);
      expect(viaCaller.statusCode, payload).toBe(status);
      expect(viaCaller.headers['content-type']).toBe('application/json; charset=utf-8');
      if (payload.includes('"x"')) {
        // trpc-to-openapi coerces strings (path and query values are strings): "x" is NaN there. Its
        // coercion stays inside its calls (rest-coercion.ts): the direct path reads the JSON as it is.
        expect(viaAdapter.statusCode).toBe(status);
        expect(JSON.parse(viaCaller.body).message).toContain('expected number, received string');
        expect(JSON.parse(viaAdapter.body).message).toContain('expected number, received NaN');
        continue;
      }
      expect(JSON.parse(viaCaller.body), payload).toEqual(JSON.parse(viaAdapter.body));
    }
    const internal = JSON.parse((await post('/api/v4/direct', '{"count": 99}')).body);
    expect(internal).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  });

  it('answers the term search through the direct path as through the general one', async () => {
    const body = { dictionaryIds: [987_654], langCode: 'eng', sectionOids: [], name: 'x' };
    const direct = await sysadmin.post<{ code: string }>('/terms/search', body);
    const general = await sysadmin.post<{ code: string }>('/terms/search?unused=1', body);
    expect(direct.status).toBe(404);
    expect(direct.body).toEqual(general.body);
    const missingToken = await new RestClient(t.app).post<{ code: string }>('/terms/search', body);
    expect(missingToken.status).toBe(401);
    expect(missingToken.body.code).toBe('UNAUTHORIZED');
  });

  it('answers 415 with a JSON body for an unsupported content type', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/clients',
      headers: { 'x-auth-token': sysadmin.token!, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers 415 for a JSON body sent as text/plain, not 400 with every member missing', async () => {
    for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v4/clients',
        headers: { 'x-auth-token': sysadmin.token!, 'content-type': contentType },
        payload: JSON.stringify({ name: 'Plain', loginName: 'plain' }),
      });
      expect(response.statusCode, contentType).toBe(415);
      expect(JSON.parse(response.body), contentType).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.stringContaining(contentType.split(';')[0]!),
      });
    }
  });
});
