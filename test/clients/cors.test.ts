import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../e2e/structure-graphql-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';

/**
 * CORS over a real socket, as a browser sends it: a preflight (OPTIONS with Origin and
 * Access-Control-Request-*) and then the request with Origin, on each of the three surfaces.
 */
const ALLOWED = 'https://app.example.org';
const FOREIGN = 'https://evil.example.net';
let t: TestApp;
let base: string;
let token: string;

beforeAll(async () => {
  t = await buildTestApp({ CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
  base = await listen(t);
  const login = await fetch(`${base}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
  });
  token = ((await login.json()) as { token: { token: string } }).token.token;
});
afterAll(() => t?.close());

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type,x-auth-token',
    },
  });

const surfaces = [
  { name: 'REST', path: '/api/v4/dictionaries', method: 'GET', body: undefined },
  { name: 'tRPC', path: '/trpc/auth.validate', method: 'GET', body: undefined },
  {
    name: 'GraphQL',
    path: '/graphql',
    method: 'POST',
    body: JSON.stringify({ query: '{ dictionaries { totalElements } }' }),
  },
] as const;

describe('CORS', () => {
  for (const surface of surfaces) {
    it(`grants an allowed origin on ${surface.name}: preflight, then the request`, async () => {
      const answer = await preflight(surface.path, ALLOWED, surface.method);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(answer.headers.get('access-control-allow-methods')).toContain(surface.method);
      expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-auth-token');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();

      const response = await fetch(`${base}${surface.path}`, {
        method: surface.method,
        headers: { origin: ALLOWED, 'x-auth-token': token, 'content-type': 'application/json' },
        ...(surface.body ? { body: surface.body } : {}),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(response.headers.get('vary')).toMatch(/Origin/i);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it(`grants nothing to another origin on ${surface.name}`, async () => {
      const answer = await preflight(surface.path, FOREIGN, surface.method);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-allow-methods')).toBeNull();
      const response = await fetch(`${base}${surface.path}`, {
        method: surface.method,
        headers: { origin: FOREIGN, 'x-auth-token': token, 'content-type': 'application/json' },
        ...(surface.body ? { body: surface.body } : {}),
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });
  }

  it('lets an allowed page read the error body and Retry-After of a refusal', async () => {
    const response = await fetch(`${base}/api/v4/dictionaries`, { headers: { origin: ALLOWED } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('grants no origin by default', async () => {
    const closed = await buildTestApp();
    try {
      const answer = await closed.app.inject({
        method: 'OPTIONS',
        url: '/graphql',
        headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
      });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      const request = await closed.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { origin: ALLOWED, 'content-type': 'application/json' },
        payload: { query: '{ __typename }' },
      });
      expect(request.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await closed.close();
    }
  });

  it('refuses a CORS_ORIGINS entry that is no origin', async () => {
    await expect(buildTestApp({ CORS_ORIGINS: 'https://app.example.org/path' })).rejects.toThrow(/no origin/);
  });
});
