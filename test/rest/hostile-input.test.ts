/**
 * Input a careless or hostile client sends: each case once answered 5xx (or a 503 that invites retrying
 * forever) and now answers a clear 4xx with the error body before any procedure walks the input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/modules/client/client.entity.js';
import { createDictionary } from '../factories/dictionary.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';

let t: TestApp;
let sysadmin: RestClient;
let dictionaryId: number;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  const defaultClient = await t.orm.em
    .fork()
    .findOneOrFail(Client, { loginName: 'admin' }, { filters: false });
  dictionaryId = (await createDictionary(t.orm, defaultClient.id)).id;
});
afterAll(() => t.close());

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

async function raw(method: 'GET' | 'POST' | 'PUT', url: string, payload?: string, token?: string) {
  const response = await t.app.inject({
    method,
    url,
    payload,
    headers: {
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'x-auth-token': token } : {}),
    },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json() as Record<string, unknown>,
  };
}

/** A dictionary name over tRPC and a GraphQL filter variable holding `value`: both refused as bad input. */
async function expectTrpcAndGraphqlRefuse(trpcName: string, graphqlName: string) {
  const trpc = await raw(
    'POST',
    '/trpc/dictionaries.create',
    JSON.stringify({ name: trpcName }),
    sysadmin.token,
  );
  expect(trpc.status).toBe(400);
  const graphql = await raw(
    'POST',
    '/graphql',
    JSON.stringify({
      query: 'query($n: String) { dictionaries(name: $n) { totalElements } }',
      variables: { n: graphqlName },
    }),
    sysadmin.token,
  );
  expect(graphql.body.errors).toEqual([
    expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) }),
  ]);
}

function expectBadRequest(response: { status: number; body: Record<string, unknown> }, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.body.code).toBe('BAD_REQUEST');
  expect(String(response.body.message)).toMatch(message);
}

describe('deeply nested JSON', () => {
  it('is refused with 400 on the open login, on REST, tRPC and GraphQL', async () => {
    const body = `{"username":"admin","password":${nestedArrays(5000)}}`;
    expectBadRequest(await raw('POST', '/api/v4/login', body), /nested/);
    expectBadRequest(await raw('POST', '/api/v4/terms/search', body, sysadmin.token), /nested/);
    expectBadRequest(await raw('POST', '/api/v4/dictionaries', body, sysadmin.token), /nested/);
    const trpc = await raw('POST', '/trpc/dictionaries.create', body, sysadmin.token);
    expect(trpc.status).toBe(400);
    const graphql = await raw(
      'POST',
      '/graphql',
      `{"query":"{ __typename }","variables":${nestedArrays(5000)}}`,
    );
    expect(graphql.status).toBe(400);
  });

  it('still takes ordinary nesting', async () => {
    const response = await raw(
      'POST',
      '/api/v4/dictionaries',
      JSON.stringify({ name: [[[['x']]]] }),
      sysadmin.token,
    );
    expect(response.status).toBe(400);
    expect(String(response.body.message)).not.toMatch(/nested/);
  });
});

describe('a NUL character in a string', () => {
  it('answers 400 naming the input, never 503 or 500', async () => {
    const create = await raw(
      'POST',
      '/api/v4/dictionaries',
      JSON.stringify({ name: 'a\u0000b' }),
      sysadmin.token,
    );
    expectBadRequest(create, /NUL/);
    expect(create.headers['retry-after']).toBeUndefined();
    const search = await raw(
      'POST',
      '/api/v4/terms/search',
      JSON.stringify({ query: 'x\u0000', langCode: 'eng', sectionOids: [], dictionaryIds: [dictionaryId] }),
      sysadmin.token,
    );
    expectBadRequest(search, /NUL/);
    const query = await raw('GET', `/api/v4/dictionaries?name=a%00b`, undefined, sysadmin.token);
    expectBadRequest(query, /NUL/);
    const path = await raw('GET', '/api/v4/system/features/client/a%00b');
    expectBadRequest(path, /NUL/);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v4/login',
      payload: 'username=ad%00min&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.statusCode).toBe(400);
  });

  it('answers 400 on tRPC and GraphQL too', async () => {
    await expectTrpcAndGraphqlRefuse('a\u0000b', 'a\u0000');
  });
});

describe('half of a surrogate pair alone in a string', () => {
  it('answers 400 naming the input on REST, tRPC and GraphQL, never 500', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a hostile client would.
    const create = await raw(
      'POST',
      '/api/v4/dictionaries',
      JSON.stringify({ name: 'a\ud800b', description: 'ok' }),
      sysadmin.token,
    );
    expectBadRequest(create, /name contains half of a surrogate pair \(U\+D800\)/);
    const member = await raw(
      'POST',
      '/api/v4/terms/search',
      JSON.stringify({
        query: 'x',
        langCode: 'eng',
        sectionOids: [],
        dictionaryIds: [dictionaryId],
        '\udc00': 1,
      }),
      sysadmin.token,
    );
    expectBadRequest(member, /surrogate/);
    // A whole pair is an ordinary character.
    const emoji = await raw(
      'GET',
      `/api/v4/dictionaries?name=${encodeURIComponent('\u{1F600}')}`,
      undefined,
      sysadmin.token,
    );
    expect(emoji.status).toBe(200);
    await expectTrpcAndGraphqlRefuse('b\udfff', '\ud800');
  });
});

describe('a repeated query parameter', () => {
  it('answers 400 where one value is expected, on the TBX and definition exports', async () => {
    const tbx = await raw(
      'GET',
      `/api/v4/dictionaries/export-tbx/${dictionaryId}?format=TBX&format=TBX2`,
      undefined,
      sysadmin.token,
    );
    expectBadRequest(tbx, /format/);
    const definition = await raw(
      'POST',
      `/api/v4/dictionaries/export-definition/${dictionaryId}?format=XML&format=XML`,
      undefined,
      sysadmin.token,
    );
    expectBadRequest(definition, /format/);
  });

  it('takes a list parameter repeated or comma-separated alike', async () => {
    const repeated = await t.app.inject({
      method: 'GET',
      url: `/api/v4/dictionaries/export-tbx/${dictionaryId}?languages=a&languages=b`,
      headers: { 'x-auth-token': sysadmin.token! },
    });
    const joined = await t.app.inject({
      method: 'GET',
      url: `/api/v4/dictionaries/export-tbx/${dictionaryId}?languages=a,b`,
      headers: { 'x-auth-token': sysadmin.token! },
    });
    expect(repeated.statusCode).toBeLessThan(500);
    expect(repeated.statusCode).toBe(joined.statusCode);
  });
});

describe('deeply nested XML', () => {
  const deepXml = `<?xml version="1.0"?>\n${'<a>'.repeat(20000)}${'</a>'.repeat(20000)}`;

  it('answers 400 with the line on the users import and the definition import', async () => {
    for (const path of ['/users/import', '/dictionaries/import-definition/start']) {
      const response = await sysadmin.upload<{ code: string; message: string }>(path, { content: deepXml });
      expect(response.status, path).toBe(400);
      expect(response.body.message, path).toMatch(/nest.*line 2/i);
    }
  });
});

describe('GraphQL', () => {
  async function graphql(query: string, variables?: unknown) {
    return raw('POST', '/graphql', JSON.stringify({ query, variables }), sysadmin.token);
  }
  const codes = (response: { body: Record<string, unknown> }) =>
    (response.body.errors as { extensions?: { code?: string } }[] | undefined)?.map(
      (e) => e.extensions?.code,
    );

  it('a variable of the wrong type is BAD_REQUEST', async () => {
    const response = await graphql('query($id: Int!) { dictionary(id: $id) { id } }', { id: 'abc' });
    expect(codes(response)).toEqual(['BAD_REQUEST']);
  });

  it('a query of 20,000 nested braces is BAD_REQUEST', async () => {
    const response = await graphql(`{ ${'a { '.repeat(20000)}b${' }'.repeat(20000)} }`);
    expect(codes(response)).toEqual(['BAD_REQUEST']);
  });

  it('a string argument over the REST limit is BAD_REQUEST', async () => {
    const response = await graphql('query($n: String) { users(login: $n) { totalElements } }', {
      n: 'x'.repeat(1_000_000),
    });
    expect(codes(response)).toEqual(['BAD_REQUEST']);
    const inline = await graphql(`{ dictionaries(name: "${'y'.repeat(100_000)}") { totalElements } }`);
    expect(codes(inline)).toEqual(['BAD_REQUEST']);
  });
});

describe('a number beyond a PostgreSQL integer', () => {
  const tooBig = 2 ** 31;

  it('in a stored integer or a filter is 400, never 500', async () => {
    const section = await raw(
      'GET',
      `/api/v4/dictionaries/${dictionaryId}?format=FULL`,
      undefined,
      sysadmin.token,
    );
    const sections = section.body.sections as Array<Record<string, unknown>>;
    const sectionId = sections[0]?.id as number;
    const sectionNow = await raw('GET', `/api/v4/sections/${sectionId}`, undefined, sysadmin.token);
    const update = await raw(
      'PUT',
      `/api/v4/sections/${sectionId}`,
      JSON.stringify({ ...sectionNow.body, sortIndex: tooBig }),
      sysadmin.token,
    );
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('BAD_REQUEST');
    const duplicates = await raw(
      'GET',
      `/api/v4/terms/duplicates?term=x&dictionary-id=${tooBig}&lang-code=eng`,
      undefined,
      sysadmin.token,
    );
    expect(duplicates.status).toBe(400);
    const search = await raw(
      'POST',
      '/api/v4/terms/search',
      JSON.stringify({ filterText: 'x', dictionaryIds: [tooBig] }),
      sysadmin.token,
    );
    expect(search.status).toBe(400);
    expect(search.body.code).toBe('BAD_REQUEST');
  });

  it('as an id in a path is 400', async () => {
    expectBadRequest(await raw('GET', `/api/v4/dictionaries/${tooBig}`, undefined, sysadmin.token), /./);
  });
});

describe('a dictionary reference of 0', () => {
  it('is a reference that does not exist (400), not a missing one stored as 0 (500)', async () => {
    const now = await raw(
      'GET',
      `/api/v4/dictionaries/${dictionaryId}?format=EDIT`,
      undefined,
      sysadmin.token,
    );
    for (const member of ['permissionSchemeId', 'emailRecipientId']) {
      const update = await raw(
        'PUT',
        `/api/v4/dictionaries/${dictionaryId}`,
        JSON.stringify({ ...now.body, [member]: 0 }),
        sysadmin.token,
      );
      expectBadRequest(update, /does not exist/);
    }
    const after = await raw(
      'GET',
      `/api/v4/dictionaries/${dictionaryId}?format=EDIT`,
      undefined,
      sysadmin.token,
    );
    expect(after.body.version).toBe(now.body.version);
  });
});
