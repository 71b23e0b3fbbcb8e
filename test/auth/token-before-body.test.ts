import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Operation = { security?: unknown[] };
const document = JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** The operations the contract and docs/api-conventions.md ("Open endpoints") leave open. */
const OPEN = new Set([
  'POST /login',
  'POST /reset-password',
  'POST /reset-password/confirm',
  'GET /system/features',
  'GET /system/features/client/{clientLogin}',
  'GET /system/features.js',
]);

const operations = Object.entries(document.paths).flatMap(([template, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({
    name: `${method.toUpperCase()} ${template}`,
    method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
    template,
    operation,
  })),
);

/** Bodies and parameters that each operation would refuse with 400 (or 415), were the token checked later. */
const BAD_REQUESTS: {
  what: string;
  headers: Record<string, string>;
  payload?: string;
  bad?: 'query' | 'path';
}[] = [
  {
    what: 'a JSON body of the wrong shape',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ id: 'x', name: [1], version: 'x', text: 5, dictionaryIds: 'x', ids: {} }),
  },
  { what: 'a JSON array', headers: { 'content-type': 'application/json' }, payload: '[1,"x",null]' },
  { what: 'malformed JSON', headers: { 'content-type': 'application/json' }, payload: '{"name":' },
  {
    what: 'JSON nested too deep',
    headers: { 'content-type': 'application/json' },
    payload: `${'['.repeat(500)}${']'.repeat(500)}`,
  },
  {
    what: 'a broken multipart body',
    headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    payload: 'no parts here',
  },
  { what: 'a text body', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
  { what: 'an unknown content type', headers: { 'content-type': 'application/x-unknown' }, payload: '?' },
  { what: 'bad query parameters', headers: {}, bad: 'query' },
  { what: 'bad path parameters', headers: {}, bad: 'path' },
];

const BAD_QUERY =
  '?size=x&page=-5&format=BOGUS&entry-id=x&field-level=X&dictionary-id=x&client_id=x&user-id=x&setting=nope';

function urlOf(template: string, bad?: 'query' | 'path'): string {
  const path = template.replace(/\{[^}]+\}/g, bad === 'path' ? 'not%20a%20number' : '1');
  return `/api/v4${path}${bad === 'query' ? BAD_QUERY : ''}`;
}

describe('without X-Auth-Token every operation but the open ones answers 401, whatever the request', () => {
  it('the open operations are exactly those the OpenAPI document marks as needing no token', () => {
    const documentedOpen = operations
      .filter(({ operation }) => !operation.security || operation.security.length === 0)
      .map(({ name }) => name);
    expect(new Set(documentedOpen)).toEqual(OPEN);
  });

  it('every other operation answers 401 with the error body, with any body or parameters', async () => {
    const protectedOperations = operations.filter(({ name }) => !OPEN.has(name));
    expect(protectedOperations.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const { name, method, template } of protectedOperations) {
      for (const request of BAD_REQUESTS) {
        const withBody = request.payload !== undefined && method !== 'GET' && method !== 'DELETE';
        if (request.payload !== undefined && !withBody) continue;
        const response = await t.app.inject({
          method,
          url: urlOf(template, request.bad),
          headers: request.headers,
          ...(withBody ? { payload: request.payload } : {}),
        });
        const body = response.headers['content-type']?.toString().includes('json') ? response.json() : {};
        if (response.statusCode !== 401 || body.code !== 'UNAUTHORIZED') {
          wrong.push(`${name} with ${request.what}: ${response.statusCode} ${response.body.slice(0, 100)}`);
        }
      }
      // GET and DELETE with a body as well: no body is read before the token is checked.
      if (method === 'GET' || method === 'DELETE') {
        const response = await t.app.inject({
          method,
          url: urlOf(template),
          headers: { 'content-type': 'application/json' },
          payload: '{"broken":',
        });
        if (response.statusCode !== 401) wrong.push(`${name} with a malformed body: ${response.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an unknown path stays 404 and a wrong method 405 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v4/no-such-thing' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/v4/dictionaries' })).statusCode).toBe(405);
  });
});

describe('tRPC checks the token before the input', () => {
  it('auth.validate and auth.extendSession without a token answer 401, whatever input they get', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: `/trpc/auth.validate?input=${encodeURIComponent('{"x":1}')}` }),
      t.app.inject({
        method: 'POST',
        url: '/trpc/auth.extendSession',
        headers: { 'content-type': 'application/json' },
        payload: '{"x":1}',
      }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.json().error.data.code).toBe('UNAUTHORIZED');
    }
  });
});
