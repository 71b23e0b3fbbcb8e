import { randomInt } from 'node:crypto';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { listen } from '../e2e/structure-graphql-helpers.js';
import { createTenant, createUser, type TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';

/** Signing in on each surface: tRPC and GraphQL fail as errors carrying what REST's 401/403 body says. */
let t: TestApp;
let base: string;
let sysadmin: RestClient;
let tenant: TestTenant;
let apiKey: string;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  sysadmin = await loginSysadmin(t.app);
  tenant = await createTenant(sysadmin);
  const key = await sysadmin.post<{ apiKey: string }>(
    `/clients/generate-new-api-key/${tenant.id}?format=FULL`,
  );
  apiKey = key.body.apiKey;
});
afterAll(() => t?.close());

/** An address of its own per call site, so the throttling counters of other suites are never met. */
const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const restLogin = (payload: Record<string, string>, address: string) =>
  t.app.inject({ method: 'POST', url: '/api/v4/login', remoteAddress: address, payload });
const trpcLogin = (payload: Record<string, string>, address: string) =>
  t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: address, payload });

describe('tRPC sign-in', () => {
  it('answers bad credentials with UNAUTHORIZED and the members of the REST body', async () => {
    const user = await createUser(t.orm, tenant.id);
    const credentials = { client: tenant.loginName, username: user.username, password: 'wrong-password' };
    const address = newAddress();
    const rest = await restLogin(credentials, address);
    const trpc = await trpcLogin(credentials, address);

    expect(rest.statusCode).toBe(401);
    const restBody = rest.json() as { token: null; errorMessage: string; code: string; message: string };
    expect(restBody).toEqual({
      token: null,
      errorMessage: 'Invalid client, username or password',
      code: 'UNAUTHORIZED',
      message: 'Invalid client, username or password',
    });
    expect(trpc.statusCode).toBe(401);
    const { error } = trpc.json() as { error: { message: string; data: Record<string, unknown> } };
    expect(error.message).toBe(restBody.message);
    expect(error.data).toMatchObject({
      code: restBody.code,
      httpStatus: 401,
      token: null,
      errorMessage: restBody.errorMessage,
    });
  });

  it('answers right credentials refused by an API-access rule with FORBIDDEN, as REST answers 403', async () => {
    const user = await createUser(t.orm, tenant.id);
    const credentials = {
      client: tenant.loginName,
      username: user.username,
      password: user.password,
      apiKey,
    };
    const rest = await restLogin(credentials, newAddress());
    expect(rest.statusCode).toBe(403);
    const trpc = await trpcLogin(credentials, newAddress());
    expect(trpc.statusCode).toBe(403);
    const { error } = trpc.json() as { error: { message: string; data: Record<string, unknown> } };
    expect(error.message).toBe((rest.json() as { message: string }).message);
    expect(error.data).toMatchObject({ code: 'FORBIDDEN', token: null });
  });

  it('signs in with a typed client, sends the token, and rejects with a TRPCClientError', async () => {
    const anonymous = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${base}/trpc` })] });
    const failure = await anonymous.auth.login
      .mutate({ client: tenant.loginName, username: 'admin', password: 'not-it' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect((failure as TRPCClientError<AppRouter>).data?.code).toBe('UNAUTHORIZED');

    const { token } = await anonymous.auth.login.mutate({
      client: tenant.loginName,
      username: 'admin',
      password: tenant.adminPassword,
    });
    const signedIn = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token?.token ?? '' } })],
    });
    expect(await signedIn.auth.validate.query()).toEqual({ tokenValid: true });
  });
});

describe('an empty apiKey', () => {
  it('counts as absent on POST /login, as Swagger UI sends it from the form', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/login',
      remoteAddress: newAddress(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=admin&password=${TEST_ADMIN_PASSWORD}&apiKey=&client=&language=`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { token: { token: string } }).token.token).toMatch(/^[\w-]{43}$/);
  });
});

describe('GraphQL sign-in', () => {
  const graphql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data: Record<string, { token: string } | boolean | null> | null;
      errors?: Array<{ message: string; extensions: { code: string } }>;
    };
  };
  const LOGIN = `mutation ($client: String, $username: String!, $password: String!) {
    login(client: $client, username: $username, password: $password) { token expirationTime }
  }`;

  it('signs in, uses the token, signs out', async () => {
    const signedIn = await graphql(LOGIN, {
      client: tenant.loginName,
      username: 'admin',
      password: tenant.adminPassword,
    });
    expect(signedIn.errors).toBeUndefined();
    const token = (signedIn.data?.login as { token: string } | undefined)?.token ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    const me = await graphql('{ dictionaries { totalElements } }', {}, token);
    expect(me.errors).toBeUndefined();
    expect(await graphql('mutation { logout }', {}, token)).toEqual({ data: { logout: true } });
    const after = await graphql('{ dictionaries { totalElements } }', {}, token);
    expect(after.errors?.[0]?.extensions.code).toBe('UNAUTHORIZED');
  });

  it('fails bad credentials with UNAUTHORIZED and the REST message', async () => {
    const user = await createUser(t.orm, tenant.id);
    const failed = await graphql(LOGIN, {
      client: tenant.loginName,
      username: user.username,
      password: 'nope',
    });
    expect(failed.data).toBeNull();
    expect(failed.errors?.[0]).toMatchObject({
      message: 'Invalid client, username or password',
      extensions: { code: 'UNAUTHORIZED' },
    });
  });
});
