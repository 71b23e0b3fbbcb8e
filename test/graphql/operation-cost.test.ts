/**
 * The cost of a GraphQL operation (docs/clients.md, "GraphQL: paging and limits"; issue 37): a page or
 * list counts its page size, nested lists multiply, each alias counts in full, and an operation over
 * the maximum is refused with one 400 BAD_REQUEST before anything runs. 16 documents of 499 aliases of
 * `dictionaries` were each within the 1,000-field limit and took the database pool from everyone.
 */

import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_LIMITS } from '../../src/graphql/cost.js';
import { operationCost } from '../../src/graphql/cost-limit.js';
import { schema } from '../../src/graphql/schema.js';
import { DICTIONARY_SELECTION, sqlCounter } from '../e2e/structure-graphql-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { newTenant } from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;
let other: RestClient;
beforeAll(async () => {
  // The product's pool bounds (test/helpers/app.ts raises them for the other suites).
  t = await buildTestApp({ DATABASE_ACQUIRE_TIMEOUT_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' });
  sysadmin = await loginSysadmin(t.app);
  other = (await newTenant(t, sysadmin)).admin;
});
afterAll(() => t.close());

const config = { MAX_PAGE_SIZE: 500 };
const costOf = (query: string, variableValues: Record<string, unknown> = {}) =>
  operationCost({ document: parse(query), variableValues, schema, contextValue: { request: { config } } })!
    .complexity;

const post = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    payload: JSON.stringify({ query, variables }),
  });

const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('the cost of an operation', () => {
  it('counts a list field by its page size, each alias in full, nested lists multiplied', () => {
    // A page loads 20 dictionaries by default: 2 each, and what is selected of each, once per item.
    expect(costOf('{ dictionaries { totalElements } }')).toBe(20 * 2 + 20);
    expect(costOf('{ dictionaries(size: 100) { totalElements } }')).toBe(100 * 2 + 100);
    expect(costOf('{ a: dictionaries { totalElements } b: dictionaries { totalElements } }')).toBe(2 * 60);
    // Members of a dictionary in memory count what they select, once per dictionary of the page.
    expect(
      costOf('query ($n: Int) { dictionaries(size: $n) { content { languages { code } } } }', { n: 50 }),
    ).toBe(50 * 2 + 50 * (1 + 1 + 1));
    // Other lists within the page's items count their selection twice, per item: nested lists multiply.
    expect(costOf('{ groups(size: 10) { content { groupMembers { id } } } }')).toBe(
      10 * 2 + 10 * (1 + 1 + 2 * 1),
    );
    // Pages of users, clients and groups, search results and unsized lists alike.
    expect(costOf('{ users { totalElements } }')).toBe(60);
    expect(costOf('{ clients(size: 5) { totalElements } }')).toBe(15);
    expect(costOf('{ groups(size: 1000) { totalElements } }')).toBe(500 * 3);
    expect(costOf('{ workflows { id } }')).toBe(60);
    expect(costOf('{ dictionaryPermissions(dictionaryIds: [1, 2, 3]) { dictionaryId } }')).toBe(9);
    expect(
      costOf(
        '{ searchTerms(input: { dictionaryIds: [1], langCode: "eng", sectionOids: [], pageSize: 50 }) { results { name } } }',
      ),
    ).toBe(50 * 2 + 50 * (1 + 1));
    // Whole dictionaries with their domain trees (docs/clients.md): 100 a page fit, 500 do not.
    const whole = (size: number) =>
      `{ dictionaries(size: ${size}) { totalElements content { ${DICTIONARY_SELECTION} } } }`;
    expect(costOf(whole(100))).toBeLessThanOrEqual(QUERY_LIMITS.complexity);
    expect(costOf(whole(500))).toBeGreaterThan(QUERY_LIMITS.complexity);
    // The 16 × 499 document of issue 37.
    expect(costOf(aliases(499, 'dictionaries { totalElements }'))).toBe(499 * 60);
    expect(499 * 60).toBeGreaterThan(QUERY_LIMITS.complexity);
  });

  it('every root field that answers a list or a page counts its items', () => {
    // By the printed type ([Role!]!, DictionaryPage!): graphql may be loaded twice, so no instanceof.
    const lists = Object.values(schema.getQueryType()!.getFields()).filter((field) =>
      /^\[|(Page|Connection|SearchResult)!?$/.test(String(field.type)),
    );
    expect(lists.map((field) => field.name)).toEqual(
      expect.arrayContaining(['dictionaries', 'users', 'concepts', 'searchTerms', 'roles', 'workflows']),
    );
    const uncounted = lists
      .filter((field) => typeof field.extensions.complexity !== 'function')
      .map((field) => field.name);
    expect(uncounted).toEqual([]);
  });

  it('refuses an operation over the maximum with one 400 BAD_REQUEST and no statement', async () => {
    const sql = sqlCounter(t);
    try {
      let reply: Awaited<ReturnType<typeof post>> | undefined;
      const statements = await sql.during(async () => {
        reply = await post(sysadmin.token!, aliases(499, 'dictionaries { totalElements }'));
      });
      expect(reply!.statusCode).toBe(400);
      expect(reply!.json()).toEqual({
        errors: [
          {
            message: `Query too complex: its estimated cost is ${499 * 60}, at most ${QUERY_LIMITS.complexity} is allowed (ask for fewer items, fewer aliases, a smaller depth or fewer nested lists)`,
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      expect(statements, 'neither authentication nor a resolver ran').toEqual([]);
    } finally {
      sql.restore();
    }
  });

  it('measures the variables of each request, not of the first one with that document', async () => {
    // Whole dictionaries: 5 are within the limit, 500 are not.
    const query = `query ($n: Int) { dictionaries(size: $n) { content { ${DICTIONARY_SELECTION} } } }`;
    const small = await post(sysadmin.token!, query, { n: 5 });
    expect(small.statusCode).toBe(200);
    expect(small.json().errors).toBeUndefined();
    const large = await post(sysadmin.token!, query, { n: 500 });
    expect(large.statusCode).toBe(400);
    expect(large.json().errors[0].message).toMatch(/^Query too complex/);
    expect((await post(sysadmin.token!, query, { n: 5 })).statusCode).toBe(200);
  });

  it('16 parallel documents of 499 aliases, of 16 callers, are refused while another caller is served', async () => {
    // One after another: parallel logins are throttled.
    const callers: RestClient[] = [];
    for (let i = 0; i < 16; i++) callers.push(await loginSysadmin(t.app));
    const document = aliases(499, 'dictionaries { totalElements }');
    const burst = Promise.all(callers.map((caller) => post(caller.token!, document)));
    const started = performance.now();
    const meanwhile = await other.get('/dictionaries');
    const ms = performance.now() - started;
    const answers = await burst;

    expect(meanwhile.status).toBe(200);
    expect(ms).toBeLessThan(2000);
    expect(
      answers.map((answer) => `${answer.statusCode} ${answer.json().errors?.[0]?.extensions.code}`),
    ).toEqual(answers.map(() => '400 BAD_REQUEST'));
  });
});
