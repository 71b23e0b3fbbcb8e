import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';

/** The server on a real socket, driven the way each kind of caller drives it. */
let t: TestApp;
let base: string;
let token: string;

async function graphql<T>(query: string, variables: Record<string, unknown> = {}, auth = token) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': auth },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data: T | null;
    errors?: Array<{ message: string; extensions: { code: string } }>;
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  const login = await fetch(`${base}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
  });
  expect(login.headers.get('set-cookie')).toMatch(/JSESSIONID=[^;]+; Path=\/; HttpOnly/);
  token = ((await login.json()) as { token: { token: string } }).token.token;
});
afterAll(() => t.close());

describe('REST over HTTP', () => {
  it('creates a client and reads it back', async () => {
    const suffix = uniqueSuffix();
    const created = await fetch(`${base}/api/v4/clients/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ name: `Rest ${suffix}`, loginName: `rest${suffix}` }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { id } = (await created.json()) as { id: number };
    const read = await fetch(`${base}/api/v4/clients/${id}?format=SHORT`, {
      headers: { 'x-auth-token': token },
    });
    expect(await read.json()).toEqual({
      id,
      name: `Rest ${suffix}`,
      loginName: `rest${suffix}`,
      active: true,
    });
  });

  it('serves the OpenAPI document, the docs page, health, readiness and metrics', async () => {
    const document = (await (await fetch(`${base}/api/v4/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.components.securitySchemes.XAuthToken).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Auth-Token',
    });
    expect(Object.keys(document.paths['/clients']!.post!.responses)).toContain('201');
    expect(Object.keys(document.paths['/clients/{id}']!.delete!.responses)).toContain('204');
    expect(document.paths['/system/features.js']).toBeDefined();

    const docs = await fetch(`${base}/api/docs/`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn)/);

    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${base}/ready`)).json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      search: { status: 'ok' },
    });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('http_request_duration_seconds');
  });

  it('counts REST requests in metrics under their path template, unmatched paths under the catch-all', async () => {
    const features = await fetch(`${base}/api/v4/system/features/client/no-such-client-${uniqueSuffix()}`);
    const unknown = await fetch(`${base}/api/v4/no-such-endpoint-${uniqueSuffix()}`);
    expect(unknown.status).toBe(404);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const counted = (route: string, status: number) =>
      metrics.includes(
        `http_request_duration_seconds_count{method="GET",route="${route}",status="${status}"}`,
      );
    expect(counted('/api/v4/system/features/client/{clientLogin}', features.status)).toBe(true);
    expect(counted('/api/v4/*', 404)).toBe(true);
    expect(metrics).not.toContain('no-such');
  });

  it('counts tRPC calls in metrics per procedure, batches and unknown procedures apart', async () => {
    const headers = { 'x-auth-token': token };
    const one = { id: 987654321, format: 'ID', 'include-deleted': false };
    const input = encodeURIComponent(JSON.stringify(one));
    const single = await fetch(`${base}/trpc/clients.get?input=${input}`, { headers });
    const batchInput = encodeURIComponent(JSON.stringify({ 0: one, 1: one }));
    const batch = await fetch(`${base}/trpc/clients.get,clients.get?batch=1&input=${batchInput}`, {
      headers,
    });
    const unknown = await fetch(`${base}/trpc/no-such-procedure-${uniqueSuffix()}`, { headers });
    expect([single.status, batch.status, unknown.status]).toEqual([404, 404, 404]);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const counted = (route: string, status: number) =>
      metrics.includes(
        `http_request_duration_seconds_count{method="GET",route="${route}",status="${status}"}`,
      );
    expect(counted('/trpc/clients.get', 404)).toBe(true);
    expect(counted('/trpc/(batch)', batch.status)).toBe(true);
    expect(counted('/trpc/:path', 404)).toBe(true);
    expect(metrics).not.toContain('no-such');
  });
});

describe('tRPC client', () => {
  const trpc = () =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token } })],
    });

  it('logs in, creates and reads a client with full types', async () => {
    const anonymous = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${base}/trpc` })] });
    const login = await anonymous.auth.login.mutate({ username: 'admin', password: TEST_ADMIN_PASSWORD });
    expect(login.token?.token).toMatch(/^[\w-]{43}$/);

    const suffix = uniqueSuffix();
    const created = await trpc().clients.create.mutate({
      format: 'FULL',
      name: `Trpc ${suffix}`,
      loginName: `trpc${suffix}`,
      active: true,
      maxUsers: 10,
    });
    const read = await trpc().clients.get.query({ id: created.id, format: 'FULL', 'include-deleted': false });
    expect(read).toMatchObject({ name: `Trpc ${suffix}`, maxUsers: 10, version: 1 });
    const page = await trpc().clients.list.query({
      name: `Trpc ${suffix}`,
      page: 0,
      format: 'ID',
      'include-deleted': false,
    });
    expect(page.content).toEqual([{ id: created.id }]);
  });

  it('reports domain errors with their code', async () => {
    const error = await trpc()
      .clients.get.query({ id: 987654321, format: 'FULL', 'include-deleted': false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('NOT_FOUND');
    const unauthorized = await createTRPCClient<AppRouter>({ links: [httpLink({ url: `${base}/trpc` })] })
      .clients.list.query({ page: 0, format: 'FULL', 'include-deleted': false })
      .catch((e: unknown) => e);
    expect((unauthorized as TRPCClientError<AppRouter>).data?.httpStatus).toBe(401);
  });
});

describe('GraphQL', () => {
  it('creates a client and reads it back with its creator', async () => {
    const suffix = uniqueSuffix();
    const created = await graphql<{ createClient: { id: number; apiKey: string } }>(
      `mutation ($input: ClientInput!) { createClient(input: $input) { id apiKey } }`,
      { input: { name: `Gql ${suffix}`, loginName: `gql${suffix}`, maxGuests: 3 } },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createClient.id;
    const read = await graphql<{ client: Record<string, unknown> }>(
      `query ($id: Int!) { client(id: $id) { name loginName maxGuests version createdBy { username fullName } created { name time } } }`,
      { id },
    );
    expect(read.data!.client).toMatchObject({
      name: `Gql ${suffix}`,
      loginName: `gql${suffix}`,
      maxGuests: 3,
      version: 1,
      createdBy: { username: 'admin', fullName: 'Administrator' },
      created: { name: 'admin', time: expect.any(Number) },
    });
  });

  it('lists clients with paging and updates with optimistic locking', async () => {
    const suffix = uniqueSuffix();
    const created = await graphql<{ createClient: { id: number } }>(
      `mutation { createClient(input: { name: "Gpage ${suffix}", loginName: "gpage${suffix}" }) { id } }`,
    );
    const id = created.data!.createClient.id;
    const page = await graphql<{ clients: { totalElements: number; content: Array<{ id: number }> } }>(
      `{ clients(name: "Gpage ${suffix}", size: 5) { totalElements content { id } } }`,
    );
    expect(page.data!.clients).toEqual({ totalElements: 1, content: [{ id }] });

    const stale = await graphql(
      `mutation { updateClient(id: ${id}, version: 99, input: { maxUsers: 4 }) { id } }`,
    );
    expect(stale.errors?.[0]?.extensions.code).toBe('CONFLICT');
    const updated = await graphql<{ updateClient: { maxUsers: number; version: number } }>(
      `mutation { updateClient(id: ${id}, version: 1, input: { maxUsers: 4 }) { maxUsers version } }`,
    );
    expect(updated.data!.updateClient).toEqual({ maxUsers: 4, version: 2 });
  });

  it('answers error codes without internals: unauthenticated, validation, duplicates', async () => {
    const anonymous = await graphql(`{ clients { totalElements } }`, {}, '');
    expect(anonymous.errors?.[0]?.extensions.code).toBe('UNAUTHORIZED');
    const invalid = await graphql(
      `mutation { createClient(input: { name: "x", loginName: "not valid!" }) { id } }`,
    );
    expect(invalid.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(invalid.errors?.[0]?.message).toContain('loginName');
    const duplicate = await graphql(
      `mutation { createClient(input: { name: "Default", loginName: "other${uniqueSuffix()}" }) { id } }`,
    );
    expect(duplicate.errors?.[0]?.extensions.code).toBe('UNPROCESSABLE');
  });

  it('opens GraphiQL, bundled, in a browser', async () => {
    const response = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('GraphiQL');
    expect(html).not.toContain('unpkg.com');
  });
});
