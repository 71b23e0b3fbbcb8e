import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, listen, sqlCounter } from '../e2e/structure-graphql-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant } from '../helpers/structure.js';

/**
 * GraphQL's concepts connection as a frontend uses it: ordinary pages with terms, fields and comments pass
 * the complexity limit, and what is loaded follows what is selected.
 */
let t: TestApp;
let base: string;
let admin: RestClient;
let dictionaryId: number;
let ids: number[];

const PAGE = `query ($d: Int!, $first: Int!) { concepts(dictionaryId: $d, first: $first) {
  totalCount pageInfo { hasNextPage endCursor }
  nodes {
    id cid version sectionOid domainList fieldMap permissions
    fields { fieldOid values }
    comments { id text }
    created { name time } changed { name time }
    terms { id name languageCode fieldMap fields { fieldOid values } comments { id text } refLinks { id text } }
    relations { targetConceptId sourceConceptId }
  } } }`;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  ({ admin } = await newTenant(t, await loginSysadmin(t.app)));
  const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
  dictionaryId = dictionary.id;
  ids = [];
  for (let i = 0; i < 60; i++) {
    const concept = await admin.post<{ id: number }>('/concepts', {
      dictionaryId,
      sectionOid: dictionary.sections[0]!.oid,
      terms: [
        { name: `term ${i}`, languageCode: 'eng' },
        { name: `Begriff ${i}`, languageCode: 'deu' },
      ],
    });
    expect(concept.status, concept.text).toBe(201);
    ids.push(concept.body.id);
  }
}, 180_000);
afterAll(() => t?.close());

describe('the concepts connection', () => {
  it('answers an ordinary page of 50 concepts with terms, fields and comments, and the next page by cursor', async () => {
    const first = await gqlOk<{
      concepts: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string };
        nodes: { id: number; terms: { name: string }[] }[];
      };
    }>(base, admin.token!, PAGE, { d: dictionaryId, first: 50 });
    expect(first.concepts.totalCount).toBe(60);
    expect(first.concepts.nodes.map((node) => node.id)).toEqual(ids.slice(0, 50));
    expect(first.concepts.nodes[0]!.terms.map((term) => term.name)).toEqual(['term 0', 'Begriff 0']);
    expect(first.concepts.pageInfo.hasNextPage).toBe(true);

    const next = await gqlOk<{ concepts: { nodes: { id: number }[]; pageInfo: { hasNextPage: boolean } } }>(
      base,
      admin.token!,
      `query ($d: Int!, $after: String) { concepts(dictionaryId: $d, after: $after) {
        nodes { id } pageInfo { hasNextPage } } }`,
      { d: dictionaryId, after: first.concepts.pageInfo.endCursor },
    );
    expect(next.concepts.nodes.map((node) => node.id)).toEqual(ids.slice(50));
    expect(next.concepts.pageInfo.hasNextPage).toBe(false);
  });

  it('takes the largest page (200) with the same selection within the limits', async () => {
    const page = await gqlOk<{ concepts: { nodes: unknown[] } }>(base, admin.token!, PAGE, {
      d: dictionaryId,
      first: 200,
    });
    expect(page.concepts.nodes).toHaveLength(60);
  });

  it('loads no concept when only ids are selected, and counts only when totalCount is selected', async () => {
    const sql = sqlCounter(t);
    try {
      const query = (selection: string) =>
        `query ($d: Int!) { concepts(dictionaryId: $d, first: 50) { ${selection} } }`;
      const idsOnly = await sql.during(() =>
        gqlOk(base, admin.token!, query('nodes { id }'), { d: dictionaryId }),
      );
      const withTerms = await sql.during(() =>
        gqlOk(base, admin.token!, query('nodes { id terms { name } }'), { d: dictionaryId }),
      );
      const counted = await sql.during(() =>
        gqlOk(base, admin.token!, query('totalCount nodes { id }'), { d: dictionaryId }),
      );
      const fromTable = (statements: string[], table: string) =>
        statements.filter((statement) => new RegExp(`from "${table}"`).test(statement));
      // Authentication, the dictionary, its sections and their access, and the page of ids: no concept loaded.
      expect(fromTable(idsOnly, 'terms'), idsOnly.join('\n')).toEqual([]);
      expect(idsOnly.filter((statement) => /count\(/.test(statement))).toEqual([]);
      expect(idsOnly.length).toBeLessThan(withTerms.length);
      expect(fromTable(withTerms, 'terms')).toHaveLength(1);
      expect(counted.filter((statement) => /count\(/.test(statement))).toHaveLength(1);
      expect(counted.length).toBe(idsOnly.length + 1);
    } finally {
      sql.restore();
    }
  });
});
