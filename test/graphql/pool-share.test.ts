/**
 * One GraphQL caller's burst cannot take the database pool from everyone else (docs/reliability.md,
 * "One caller's share of the pool"): 16 documents of 499 aliases each (within the cost limit) sent at
 * once get data or a clean 429, never 503, while another caller's REST request answers 200 quickly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { newTenant } from '../helpers/structure.js';

let t: TestApp;
let burster: RestClient;
let other: RestClient;
beforeAll(async () => {
  // The product's pool bounds (test/helpers/app.ts raises them for the other suites).
  t = await buildTestApp({ DATABASE_ACQUIRE_TIMEOUT_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' });
  burster = await loginSysadmin(t.app);
  other = (await newTenant(t, burster)).admin;
});
afterAll(() => t.close());

const ALIASES = 499;
const DOCUMENTS = 16;
// Pages of one dictionary, so that the document is within the cost limit (test/graphql/operation-cost.test.ts
// refuses the same burst with pages of 20) and runs: 499 procedure calls each.
const document = `{ ${Array.from({ length: ALIASES }, (_, i) => `a${i}: dictionaries(size: 1) { totalElements }`).join(' ')} }`;

describe('a GraphQL burst of one caller', () => {
  it('answers data or 429, never 503, while another caller is served', async () => {
    const burst = Promise.all(
      Array.from({ length: DOCUMENTS }, () =>
        t.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', 'x-auth-token': burster.token! },
          payload: JSON.stringify({ query: document }),
        }),
      ),
    );
    // Another caller's request while the burst runs.
    const started = performance.now();
    const meanwhile = await other.get('/dictionaries');
    const ms = performance.now() - started;
    const answers = await burst;

    expect(meanwhile.status).toBe(200);
    expect(ms).toBeLessThan(2000);
    const codes = answers.map((answer) => {
      const body = answer.json() as { data?: unknown; errors?: { extensions: { code: string } }[] };
      return body.errors
        ? `${answer.statusCode} ${body.errors[0]!.extensions.code}`
        : `${answer.statusCode} data`;
    });
    expect(codes.filter((code) => code !== '200 data' && code !== '429 TOO_MANY_REQUESTS')).toEqual([]);
    expect(codes).toContain('200 data');
    const limited = answers.filter((answer) => answer.statusCode === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers['retry-after']).toBe('1');
  });
});
