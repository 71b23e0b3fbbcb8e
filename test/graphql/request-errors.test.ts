/**
 * Errors of the GraphQL document itself carry the documented code BAD_REQUEST (docs/api-conventions.md,
 * Input limits), whether the parser, the validation or the variables refused it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin } from '../helpers/rest.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp();
  token = (await loginSysadmin(t.app)).token!;
});
afterAll(() => t.close());

const post = (query: string, variables: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    payload: JSON.stringify({ query, variables }),
  });

describe('GraphQL request errors', () => {
  it('answers BAD_REQUEST to syntax, validation and variable errors alike', async () => {
    const documents: [string, Record<string, unknown>?][] = [
      ['{ dictionaries('],
      ['{ noSuchField }'],
      ['{ dictionaries { content { noSuchField } } }'],
      ['query($id: Int!) { dictionary(id: $id) { id } }', { id: 'not a number' }],
    ];
    for (const [query, variables] of documents) {
      const reply = await post(query, variables);
      const errors = reply.json().errors as { extensions: { code: string } }[];
      expect(errors.length, query).toBeGreaterThan(0);
      expect(
        errors.map((error) => error.extensions.code),
        query,
      ).toEqual(errors.map(() => 'BAD_REQUEST'));
    }
  });
});
