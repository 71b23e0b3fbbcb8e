// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  type AuditedBody,
  createDictionary,
  createDomain,
  createScheme,
  createSection,
  type DictionaryBody,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  patchAtCurrentVersion,
} from '../helpers/structure.js';
import { gql, gqlOk, listen, sqlCounter } from './structure-graphql-helpers.js';

/**
 * Issue 5 over GraphQL on a real socket: concepts and terms with their nested parts as REST shows them,
 * relations walked both ways, tenants and section permissions, writes through the concept procedures,
 * query limits, and SQL statement counts that do not grow with the number of concepts.
 */

let t: TestApp;
let base: string;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

// ---------------------------------------------------------------- REST bodies and their GraphQL form

interface Audit {
  id: number | null;
  name: string | null;
  fullName: string | null;
  time: number;
  oid?: string | null;
}

interface RelationBody {
  id: number;
  oid: string | null;
  dictionaryId: number;
  relationId: number;
  sourceConceptId: number;
  targetConceptId: number;
  type: number;
  attribute: number;
  text: string | null;
}

interface TermBody extends AuditedBody {
  clientId: number;
  name: string;
  tid: number;
  conceptId: number;
  languageCode: string;
  regionCode: string | null;
  fieldMap: Record<string, string[]>;
  comments: { id: number; text: string }[];
  [key: string]: unknown;
}

interface ConceptBody extends AuditedBody {
  clientId: number;
  cid: string;
  dictionaryId: number;
  sectionId: number;
  sectionOid: string;
  domainList: string[];
  terms: TermBody[];
  conceptRelations: RelationBody[];
  fieldMap: Record<string, string[]>;
  comments: { id: number; text: string }[];
  [key: string]: unknown;
}

const AUDIT = 'id name fullName time';
const COMMENT = 'id oid text authorName userId dictionaryId fieldLevel entryId date';
const REF_LINK = `id oid sourceConceptId sourceTermId sourceFieldOid type text dynamicText position url conceptId
  termId languageCode dictionaryId invalid`;
const TERM = `id oid version clientId dictionaryId conceptId conceptOid tid name languageCode regionCode scriptCode
  deleted permissions fieldMap refLinks { ${REF_LINK} } comments { ${COMMENT} }
  created { ${AUDIT} } changed { ${AUDIT} }`;
const RELATION = 'id oid dictionaryId relationId sourceConceptId targetConceptId type attribute text';
/** Every member REST also answers (conceptRelations is `relations` here). */
const CONCEPT = `id oid version clientId dictionaryId cid deleted sectionId sectionOid domainList fieldMap permissions
  languageCodesEditable lock { userId name fullName mine expirationTime }
  created { ${AUDIT} } changed { ${AUDIT} }
  terms { ${TERM} } relations { ${RELATION} } refLinks { ${REF_LINK} } comments { ${COMMENT} }
  languageFields { languageCode regionCode scriptCode fieldMap }`;

const audit = (value: Audit) => ({
  id: value.id,
  name: value.name,
  fullName: value.fullName,
  time: value.time,
});

/** The REST concept as the CONCEPT selection shows it. */
function asGraphQL(rest: ConceptBody) {
  const { conceptRelations, created, changed, terms, ...rest0 } = rest;
  return {
    ...rest0,
    created: audit(created as Audit),
    changed: audit(changed as Audit),
    terms: terms.map((term) => ({
      ...term,
      created: audit(term.created as Audit),
      changed: audit(term.changed as Audit),
    })),
    relations: conceptRelations,
  };
}

// ---------------------------------------------------------------- world

interface World {
  admin: RestClient;
  tenant: TestTenant;
  dictionary: DictionaryBody;
  sectionOid: string;
  cf: Record<'Definition' | 'Note', string>;
  tf: Record<'Usage', string>;
  domain: { id: number; oid: string; name: string };
}

async function world(): Promise<World> {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng', variants: [{ type: 0, code: 'US' }] }, { code: 'deu' }],
    conceptFields: [
      { name: 'Definition', fieldType: 'MULTILINE' },
      { name: 'Note', fieldType: 'SINGLELINE' },
    ],
    termFields: [{ name: 'Usage', fieldType: 'SINGLELINE' }],
  });
  const oid = (fields: DictionaryBody['conceptFields'], name: string) =>
    fields.find((field) => field.name === name)!.oid!;
  const domain = await createDomain(admin, dictionary.id, 'Physics');
  return {
    admin,
    tenant,
    dictionary,
    sectionOid: dictionary.sections[0]!.oid!,
    cf: {
      Definition: oid(dictionary.conceptFields, 'Definition'),
      Note: oid(dictionary.conceptFields, 'Note'),
    },
    tf: { Usage: oid(dictionary.termFields, 'Usage') },
    domain: { id: domain.id, oid: domain.oid!, name: domain.name },
  };
}

let counter = 0;
const termsOf = (label: string) => [
  { name: `${label} en`, languageCode: 'eng' },
  { name: `${label} de`, languageCode: 'deu' },
];

/** POST /concepts, expecting 201. */
async function restConcept(
  w: World,
  body: Record<string, unknown> = {},
  caller = w.admin,
): Promise<ConceptBody> {
  counter += 1;
  const response = await caller.post<ConceptBody>('/concepts', {
    dictionaryId: w.dictionary.id,
    sectionOid: w.sectionOid,
    terms: termsOf(`concept ${counter}`),
    ...body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function restRead(caller: RestClient, id: number): Promise<ConceptBody> {
  const response = await caller.get<ConceptBody>(`/concepts/${id}?with-comments=true`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function comment(caller: RestClient, entryId: number, level: 'CONCEPT' | 'TERM', text: string) {
  const response = await caller.post(`/comments?entry-id=${entryId}&field-level=${level}`, { text });
  expect(response.status, response.text).toBe(201);
}

const related = (targetConceptId: number, attribute = 0) => ({ targetConceptId, type: 0, attribute });

const CONCEPT_QUERY = `query ($id: Int!) { concept(id: $id) { ${CONCEPT} } }`;

const readConcept = async (token: string, id: number) =>
  (await gqlOk<{ concept: ReturnType<typeof asGraphQL> }>(base, token, CONCEPT_QUERY, { id })).concept;

/** An operation over a limit: HTTP 400 and its errors, before anything executes (no data member). */
async function overLimit(token: string, query: string, variables: Record<string, unknown> = {}) {
  const result = await gql(base, token, query, variables);
  expect(result.status, JSON.stringify(result)).toBe(400);
  expect(result.data).toBeUndefined();
  return result.errors!.map((error) => ({
    path: error.path,
    code: error.extensions.code,
    message: error.message,
  }));
}

/** The codes and paths of a failed call; data must be null (every field here is non-null at the top). */
async function failure(token: string, query: string, variables: Record<string, unknown> = {}) {
  const result = await gql(base, token, query, variables);
  expect(result.status).toBe(200);
  expect(result.data, JSON.stringify(result)).toBeNull();
  return result.errors!.map((error) => ({
    path: error.path,
    code: error.extensions.code,
    message: error.message,
  }));
}

// ---------------------------------------------------------------- reads

describe('concept(id) and friends', () => {
  it('a concept with terms, fields, domains, relations both ways and comments equals GET /concepts/{id}?with-comments=true', async () => {
    const w = await world();
    const target = await restConcept(w);
    const concept = await restConcept(w, {
      domainList: [w.domain.oid],
      fieldMap: { [w.cf.Note]: 'a note', [w.cf.Definition]: 'first line\r\nsecond line' },
      terms: [
        { name: 'gravity', languageCode: 'eng', regionCode: 'US', fieldMap: { [w.tf.Usage]: 'common' } },
        { name: 'Schwerkraft', languageCode: 'deu' },
      ],
      conceptRelations: [related(target.id, 1)],
    });
    const source = await restConcept(w, { conceptRelations: [related(concept.id)] });
    await comment(w.admin, concept.id, 'CONCEPT', 'Check the definition');
    await comment(w.admin, concept.id, 'CONCEPT', 'Looks fine now');
    await comment(w.admin, concept.terms[0]!.id, 'TERM', 'US spelling');

    const token = w.admin.token!;
    const rest = await restRead(w.admin, concept.id);
    const graph = await readConcept(token, concept.id);
    expect(graph).toEqual(asGraphQL(rest));
    // What the test set up is really there (the comparison above is not between two empty answers).
    expect(graph.relations.map((r) => [r.sourceConceptId, r.targetConceptId])).toEqual([
      [concept.id, target.id],
      [source.id, concept.id],
    ]);
    expect((graph.comments as { text: string }[]).map((c) => c.text)).toEqual([
      'Looks fine now',
      'Check the definition',
    ]);
    expect((graph.terms[0]!.comments as { text: string }[]).map((c) => c.text)).toEqual(['US spelling']);
    expect(graph.terms.map((term) => [term.name, term.languageCode, term.regionCode])).toEqual([
      ['gravity', 'eng', 'US'],
      ['Schwerkraft', 'deu', null],
    ]);

    // The members only GraphQL has: both ends of each relation, the two directions, fields with their
    // definitions in the dictionary's order, domain and section names.
    const extras = await gqlOk<{
      concept: {
        relations: {
          typeName: string;
          attributeName: string;
          source: { id: number; terms: { name: string }[] };
          target: { id: number };
        }[];
        outgoing: { targetConceptId: number; target: { cid: string } }[];
        incoming: { sourceConceptId: number; source: { cid: string } }[];
        fields: {
          fieldOid: string;
          field: { oid: string; name: string; fieldType: string };
          values: string[];
        }[];
        domains: { id: number; oid: string; name: string }[];
        section: { id: number; oid: string; name: string };
        terms: { fields: { field: { name: string; fieldType: string }; values: string[] }[] }[];
      };
    }>(
      base,
      token,
      `query ($id: Int!) { concept(id: $id) {
         relations { typeName attributeName source { id terms { name } } target { id } }
         outgoing { targetConceptId target { cid } } incoming { sourceConceptId source { cid } }
         fields { fieldOid field { oid name fieldType } values }
         domains { id oid name } section { id oid name }
         terms { fields { field { name fieldType } values } } } }`,
      { id: concept.id },
    );
    const c = extras.concept;
    expect(c.relations).toEqual([
      {
        typeName: 'GENERIC',
        attributeName: 'GENERIC_SUBORDINATE',
        source: { id: concept.id, terms: [{ name: 'gravity' }, { name: 'Schwerkraft' }] },
        target: { id: target.id },
      },
      {
        typeName: 'GENERIC',
        attributeName: 'GENERIC_SUPERORDINATE',
        source: { id: source.id, terms: source.terms.map((term) => ({ name: term.name })) },
        target: { id: concept.id },
      },
    ]);
    expect(c.outgoing).toEqual([{ targetConceptId: target.id, target: { cid: target.cid } }]);
    expect(c.incoming).toEqual([{ sourceConceptId: source.id, source: { cid: source.cid } }]);
    expect(c.fields).toEqual([
      {
        fieldOid: w.cf.Definition,
        field: { oid: w.cf.Definition, name: 'Definition', fieldType: 'MULTILINE' },
        values: ['first line\r\nsecond line'],
      },
      {
        fieldOid: w.cf.Note,
        field: { oid: w.cf.Note, name: 'Note', fieldType: 'SINGLELINE' },
        values: ['a note'],
      },
    ]);
    expect(c.domains).toEqual([w.domain]);
    expect(c.section).toEqual({
      id: rest.sectionId,
      oid: w.sectionOid,
      name: w.dictionary.sections[0]!.name,
    });
    expect(c.terms[0]!.fields).toEqual([
      { field: { name: 'Usage', fieldType: 'SINGLELINE' }, values: ['common'] },
    ]);
    expect(c.terms[1]!.fields).toEqual([]);

    // The same concept by a term, and a term with its concept.
    const byTerm = await gqlOk<{ conceptByTerm: unknown }>(
      base,
      token,
      `query ($term: Int!) { conceptByTerm(termId: $term) { ${CONCEPT} } }`,
      { term: rest.terms[1]!.id },
    );
    expect(byTerm.conceptByTerm).toEqual(asGraphQL(rest));
    const term = await gqlOk<{
      term: { id: number; name: string; concept: { id: number; terms: { id: number }[] } };
    }>(base, token, 'query ($id: Int!) { term(id: $id) { id name concept { id terms { id } } } }', {
      id: rest.terms[1]!.id,
    });
    expect(term.term).toEqual({
      id: rest.terms[1]!.id,
      name: 'Schwerkraft',
      concept: { id: concept.id, terms: rest.terms.map((entry) => ({ id: entry.id })) },
    });
  });

  it('concepts(dictionaryId) pages the readable concepts by id with a cursor, each as concept(id) shows it', async () => {
    const w = await world();
    const second = await createSection(w.admin, w.dictionary.id, 'Second');
    const made: ConceptBody[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await restConcept(w, i === 3 ? { sectionOid: second.oid } : {}));
    }
    const token = w.admin.token!;
    type Page = {
      totalCount: number;
      nodes: { id: number }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
    const connection = async (args: string, variables: Record<string, unknown> = {}) =>
      (
        await gqlOk<{ concepts: Page }>(
          base,
          token,
          `query ($d: Int!${args.includes('$after') ? ', $after: String' : ''}) { concepts(dictionaryId: $d${args}) {
             totalCount nodes { id } pageInfo { hasNextPage endCursor } } }`,
          { d: w.dictionary.id, ...variables },
        )
      ).concepts;
    const page = async (args: string) => (await connection(args)).nodes.map((entry) => entry.id);
    const ids = made.map((concept) => concept.id);
    expect(await page('')).toEqual(ids);
    const firstTwo = await connection(', first: 2');
    expect(firstTwo.nodes.map((entry) => entry.id)).toEqual(ids.slice(0, 2));
    expect(firstTwo.totalCount).toBe(5);
    expect(firstTwo.pageInfo.hasNextPage).toBe(true);
    const nextTwo = await connection(', first: 2, after: $after', { after: firstTwo.pageInfo.endCursor });
    expect(nextTwo.nodes.map((entry) => entry.id)).toEqual(ids.slice(2, 4));
    const last = await connection(', first: 2, after: $after', { after: nextTwo.pageInfo.endCursor });
    expect(last.nodes.map((entry) => entry.id)).toEqual(ids.slice(4));
    expect(last.pageInfo.hasNextPage).toBe(false);
    const beyond = await connection(', after: $after', { after: last.pageInfo.endCursor });
    expect(beyond).toEqual({ totalCount: 5, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
    expect(await page(`, sectionOid: "${second.oid}"`)).toEqual([made[3]!.id]);

    const listed = await gqlOk<{ concepts: { nodes: unknown[] } }>(
      base,
      token,
      `query ($d: Int!) { concepts(dictionaryId: $d, first: 1) { nodes { ${CONCEPT} } } }`,
      { d: w.dictionary.id },
    );
    expect(listed.concepts.nodes).toEqual([asGraphQL(await restRead(w.admin, made[0]!.id))]);

    // A deleted concept leaves the list.
    expect((await w.admin.delete(`/concepts/${made[1]!.id}`)).status).toBe(204);
    expect(await page('')).toEqual(ids.filter((id) => id !== made[1]!.id));

    // Bad paging and unknown sections are refused with the member named.
    const codes = async (args: string) =>
      (
        await failure(token, `query ($d: Int!) { concepts(dictionaryId: $d${args}) { nodes { id } } }`, {
          d: w.dictionary.id,
        })
      ).map((error) => [error.code, error.message]);
    expect(await codes(', first: 201')).toEqual([['BAD_REQUEST', 'first must be between 1 and 200']]);
    expect(await codes(', first: 0')).toEqual([['BAD_REQUEST', 'first must be between 1 and 200']]);
    expect(await codes(', after: "bm90LWEtY3Vyc29y"')).toEqual([
      ['BAD_REQUEST', 'after is not a cursor of this connection'],
    ]);
    expect(await codes(', sectionOid: "nope"')).toEqual([['NOT_FOUND', 'Section nope not found']]);
  });

  it('related(depth) walks relations both ways breadth first, each concept once, and refuses a depth over 3', async () => {
    const w = await world();
    // a -> b -> c -> d -> e, and e -> b closes a loop; f stands alone.
    const e = await restConcept(w);
    const d = await restConcept(w, { conceptRelations: [related(e.id)] });
    const c = await restConcept(w, { conceptRelations: [related(d.id)] });
    const b = await restConcept(w, { conceptRelations: [related(c.id)] });
    const a = await restConcept(w, { conceptRelations: [related(b.id)] });
    await restConcept(w);
    // E's relations include the incoming D -> E: the patch keeps it and adds E -> B.
    const current = await restRead(w.admin, e.id);
    const loop = await w.admin.put(`/concepts/${e.id}/patch`, {
      version: current.version,
      conceptRelations: [...current.conceptRelations, related(b.id)],
    });
    expect(loop.status, loop.text).toBe(200);
    const token = w.admin.token!;
    const walk = async (id: number, depth: number) =>
      (
        await gqlOk<{ concept: { related: { id: number }[] } }>(
          base,
          token,
          'query ($id: Int!, $depth: Int!) { concept(id: $id) { related(depth: $depth) { id } } }',
          { id, depth },
        )
      ).concept.related.map((entry) => entry.id);
    expect(await walk(a.id, 1)).toEqual([b.id]);
    expect(await walk(a.id, 2)).toEqual([b.id, c.id, e.id]);
    expect(await walk(a.id, 3)).toEqual([b.id, c.id, e.id, d.id]);
    // The default depth is 1; incoming relations count as well.
    const fromD = await gqlOk<{ concept: { related: { id: number }[] } }>(
      base,
      token,
      'query ($id: Int!) { concept(id: $id) { related { id } } }',
      { id: d.id },
    );
    expect(fromD.concept.related.map((entry) => entry.id).sort()).toEqual([c.id, e.id].sort());

    const refused = await gql(
      base,
      token,
      'query ($id: Int!) { concept(id: $id) { id related(depth: 4) { id } } }',
      {
        id: a.id,
      },
    );
    expect(refused.errors!.map((error) => [error.path, error.extensions.code, error.message])).toEqual([
      [['concept', 'related'], 'BAD_REQUEST', 'depth must be between 1 and 3'],
    ]);
  });
});

// ---------------------------------------------------------------- who sees what

describe('tenants and sections', () => {
  it("another tenant's concept, term and dictionary are NOT_FOUND", async () => {
    const a = await world();
    const b = await world();
    const concept = await restConcept(a);
    const token = b.admin.token!;
    expect(await failure(token, CONCEPT_QUERY, { id: concept.id })).toEqual([
      { path: ['concept'], code: 'NOT_FOUND', message: `Concept ${concept.id} not found` },
    ]);
    expect(
      (await failure(token, 'query ($id: Int!) { term(id: $id) { id } }', { id: concept.terms[0]!.id })).map(
        (error) => error.code,
      ),
    ).toEqual(['NOT_FOUND']);
    expect(
      (
        await failure(token, 'query ($id: Int!) { conceptByTerm(termId: $id) { id } }', {
          id: concept.terms[0]!.id,
        })
      ).map((error) => error.code),
    ).toEqual(['NOT_FOUND']);
    expect(
      (
        await failure(token, 'query ($d: Int!) { concepts(dictionaryId: $d) { nodes { id } } }', {
          d: a.dictionary.id,
        })
      ).map((error) => error.code),
    ).toEqual(['NOT_FOUND']);
    // The owner still reads it.
    expect((await readConcept(a.admin.token!, concept.id)).id).toBe(concept.id);
  });

  it('a concept in an unreadable section is NOT_FOUND, unlisted, a null relation end and not walked', async () => {
    const w = await world();
    const user = await loggedInUser(t, w.tenant);
    const readers = await groupWith(w.admin, [user.id]);
    const outsiders = await groupWith(w.admin, []);
    const readable = await createScheme(w.admin, [
      grant(readers.id, ['DICT_READ'], ['CONCEPT_VIEW_HISTORY']),
    ]);
    const closedScheme = await createScheme(w.admin, [grant(outsiders.id, ['DICT_READ'])]);
    const closed = await createSection(w.admin, w.dictionary.id, 'Closed');
    const openId = w.dictionary.sections[0]!.id;
    for (const [id, schemeId] of [
      [openId, readable.id],
      [closed.id, closedScheme.id],
    ] as const) {
      const response = await patchAtCurrentVersion(w.admin, 'sections', id, { permissionSchemeId: schemeId });
      expect(response.status, response.text).toBe(200);
    }
    const hidden = await restConcept(w, { sectionOid: closed.oid });
    const seen = await restConcept(w, { conceptRelations: [related(hidden.id)] });
    const token = user.rest.token!;

    expect(await failure(token, CONCEPT_QUERY, { id: hidden.id })).toEqual([
      { path: ['concept'], code: 'NOT_FOUND', message: `Concept ${hidden.id} not found` },
    ]);
    expect(
      (await failure(token, 'query ($id: Int!) { term(id: $id) { id } }', { id: hidden.terms[0]!.id })).map(
        (error) => error.code,
      ),
    ).toEqual(['NOT_FOUND']);
    const visible = await gqlOk<{
      concept: {
        relations: { targetConceptId: number; target: null | { id: number } }[];
        related: unknown[];
      };
      concepts: { nodes: { id: number }[] };
    }>(
      base,
      token,
      `query ($id: Int!, $d: Int!) {
         concept(id: $id) { relations { targetConceptId target { id } } related(depth: 3) { id } }
         concepts(dictionaryId: $d) { nodes { id } } }`,
      { id: seen.id, d: w.dictionary.id },
    );
    expect(visible.concept.relations).toEqual([{ targetConceptId: hidden.id, target: null }]);
    expect(visible.concept.related).toEqual([]);
    expect(visible.concepts.nodes).toEqual([{ id: seen.id }]);
    expect(
      await failure(
        token,
        `query ($d: Int!) { concepts(dictionaryId: $d, sectionOid: "${closed.oid}") { nodes { id } } }`,
        {
          d: w.dictionary.id,
        },
      ),
    ).toEqual([{ path: ['concepts'], code: 'NOT_FOUND', message: `Section ${closed.oid} not found` }]);
    // The GraphQL view is the REST view of this user.
    expect((await user.rest.get(`/concepts/${hidden.id}`)).status).toBe(404);
    expect(await readConcept(token, seen.id)).toEqual(asGraphQL(await restRead(user.rest, seen.id)));

    // The administrator sees both, and the relation's end.
    const asAdmin = await gqlOk<{ concept: { relations: { target: { id: number } }[] } }>(
      base,
      w.admin.token!,
      'query ($id: Int!) { concept(id: $id) { relations { target { id } } } }',
      { id: seen.id },
    );
    expect(asAdmin.concept.relations).toEqual([{ target: { id: hidden.id } }]);
  });

  it('history(first) needs CONCEPT_VIEW_HISTORY and lists the changes newest first', async () => {
    const w = await world();
    const user = await loggedInUser(t, w.tenant);
    const readers = await groupWith(w.admin, [user.id]);
    const scheme = await createScheme(w.admin, [grant(readers.id, ['DICT_READ'])]);
    const response = await patchAtCurrentVersion(w.admin, 'sections', w.dictionary.sections[0]!.id, {
      permissionSchemeId: scheme.id,
    });
    expect(response.status, response.text).toBe(200);
    const concept = await restConcept(w);
    const patched = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: concept.version,
      fieldMap: { [w.cf.Note]: 'noted' },
    });
    expect(patched.status, patched.text).toBe(200);

    const query =
      'query ($id: Int!) { concept(id: $id) { id history(first: 5) { revision action userId changes } } }';
    const asAdmin = await gqlOk<{
      concept: {
        history: { revision: number; action: string; userId: number; changes: { subject: string }[] }[];
      };
    }>(base, w.admin.token!, query, { id: concept.id });
    expect(asAdmin.concept.history.map((item) => [item.revision, item.action])).toEqual([
      [2, 'UPDATE'],
      [1, 'CREATE'],
    ]);
    expect(asAdmin.concept.history[0]!.changes).toEqual([
      expect.objectContaining({ kind: 'ADDED', subject: 'FIELD', fieldOid: w.cf.Note, after: ['noted'] }),
    ]);
    const one = await gqlOk<{ concept: { history: unknown[] } }>(
      base,
      w.admin.token!,
      'query ($id: Int!) { concept(id: $id) { history(first: 1) { revision } } }',
      { id: concept.id },
    );
    expect(one.concept.history).toEqual([{ revision: 2 }]);

    // A reader without the grant reads the concept, but not its history.
    const asReader = await gql<{ concept: { id: number; history: null } }>(base, user.rest.token!, query, {
      id: concept.id,
    });
    expect(asReader.data).toEqual({ concept: { id: concept.id, history: null } });
    expect(asReader.errors!.map((error) => [error.path, error.extensions.code])).toEqual([
      [['concept', 'history'], 'FORBIDDEN'],
    ]);
  });
  it('history(first) on a page of concepts is one batch: 50 cost the statements 5 cost, and only withheld sections fail', async () => {
    /** n concepts in the first section, each changed once after its creation. */
    async function historied(n: number) {
      const w = await world();
      const made: ConceptBody[] = [];
      for (let i = 0; i < n; i++) {
        const concept = await restConcept(w);
        const patched = await w.admin.put(`/concepts/${concept.id}/patch`, {
          version: concept.version,
          fieldMap: { [w.cf.Note]: `note ${i}` },
        });
        expect(patched.status, patched.text).toBe(200);
        made.push(concept);
      }
      return { w, made };
    }
    const page = `query ($d: Int!, $n: Int!) { concepts(dictionaryId: $d, first: 50) { nodes {
      id history(first: $n) { revision action } } } }`;
    const small = await historied(5);
    const large = await historied(50);

    for (const { w, made } of [small, large]) {
      const answer = await gqlOk<{
        concepts: { nodes: { id: number; history: { revision: number; action: string }[] }[] };
      }>(base, w.admin.token!, page, { d: w.dictionary.id, n: 5 });
      expect(answer.concepts.nodes.map((concept) => concept.id)).toEqual(made.map((concept) => concept.id));
      for (const concept of answer.concepts.nodes) {
        expect(concept.history).toEqual([
          { revision: 2, action: 'UPDATE' },
          { revision: 1, action: 'CREATE' },
        ]);
      }
      // first cuts each concept's list on its own; REST's first page is the same.
      const one = await gqlOk<{
        concepts: { nodes: { history: { revision: number; action: string }[] }[] };
      }>(base, w.admin.token!, page, { d: w.dictionary.id, n: 1 });
      expect(one.concepts.nodes.every((concept) => concept.history.length === 1)).toBe(true);
      const rest = await w.admin.get<{ content: { revision: number; action: string }[] }>(
        `/history/concept/${made[0]!.id}?size=1&page=0&format=SHORT`,
      );
      expect(rest.status, rest.text).toBe(200);
      const { revision, action } = rest.body.content[0]!;
      expect(one.concepts.nodes[0]!.history).toEqual([{ revision, action }]);
    }
    const smallCost = await statementsOf(small.w.admin.token!, page, { d: small.w.dictionary.id, n: 5 });
    const largeCost = await statementsOf(large.w.admin.token!, page, { d: large.w.dictionary.id, n: 5 });
    expect(largeCost.length, `${smallCost.join('\n')}\n----\n${largeCost.join('\n')}`).toBe(smallCost.length);
    expect(largeCost.filter((sql) => /concept_history/.test(sql))).toHaveLength(2);

    // A reader with the grant in a second section only: histories there, FORBIDDEN for the first section's.
    const { w, made } = small;
    const user = await loggedInUser(t, w.tenant);
    const readers = await groupWith(w.admin, [user.id]);
    const readOnly = await createScheme(w.admin, [grant(readers.id, ['DICT_READ'])]);
    const withHistory = await createScheme(w.admin, [
      grant(readers.id, ['DICT_READ'], ['CONCEPT_VIEW_HISTORY']),
    ]);
    const first = w.dictionary.sections[0]!;
    expect(
      (await patchAtCurrentVersion(w.admin, 'sections', first.id, { permissionSchemeId: readOnly.id }))
        .status,
    ).toBe(200);
    const second = await createSection(w.admin, w.dictionary.id);
    expect(
      (await patchAtCurrentVersion(w.admin, 'sections', second.id, { permissionSchemeId: withHistory.id }))
        .status,
    ).toBe(200);
    const open = await restConcept({ ...w, sectionOid: second.oid! });
    const asReader = await gql<{
      concepts: { nodes: { id: number; history: { revision: number; action: string }[] | null }[] };
    }>(base, user.rest.token!, page, { d: w.dictionary.id, n: 5 });
    expect(asReader.data!.concepts.nodes.map((concept) => [concept.id, concept.history])).toEqual([
      ...made.map((concept) => [concept.id, null]),
      [open.id, [{ revision: 1, action: 'CREATE' }]],
    ]);
    expect(asReader.errors!.map((error) => [error.path?.join('.'), error.extensions.code])).toEqual(
      made.map((_, index) => [`concepts.nodes.${index}.history`, 'FORBIDDEN']),
    );
  });
});

// ---------------------------------------------------------------- writes

describe('mutations', () => {
  const CREATE = `mutation ($input: ConceptInput!) { createConcept(input: $input) { ${CONCEPT} } }`;
  const UPDATE = `mutation ($id: Int!, $version: Int!, $input: ConceptInput!) {
    updateConcept(id: $id, version: $version, input: $input) { ${CONCEPT} } }`;
  const PATCH = `mutation ($id: Int!, $version: Int!, $input: ConceptInput!) {
    patchConcept(id: $id, version: $version, input: $input) { ${CONCEPT} } }`;

  it('create, update, patch, lock and delete go through the concept procedures, with their checks', async () => {
    const w = await world();
    const token = w.admin.token!;
    const target = await restConcept(w);

    const { createConcept: created } = await gqlOk<{ createConcept: ReturnType<typeof asGraphQL> }>(
      base,
      token,
      CREATE,
      {
        input: {
          dictionaryId: w.dictionary.id,
          sectionOid: w.sectionOid,
          domainList: [w.domain.oid],
          fieldMap: { [w.cf.Note]: 'from GraphQL', [w.cf.Definition]: ['defined'] },
          terms: [
            { name: 'lever', languageCode: 'eng', regionCode: 'US', fieldMap: { [w.tf.Usage]: 'technical' } },
            { name: 'Hebel', languageCode: 'deu', id: null },
          ],
          conceptRelations: [{ targetConceptId: target.id, type: 4, attribute: 11, text: 'see also' }],
        },
      },
    );
    expect(created).toEqual(asGraphQL(await restRead(w.admin, created.id)));
    expect(created).toMatchObject({
      version: 1,
      domainList: [w.domain.oid],
      fieldMap: { [w.cf.Note]: ['from GraphQL'], [w.cf.Definition]: ['defined'] },
      relations: [
        { sourceConceptId: created.id, targetConceptId: target.id, type: 4, attribute: 11, text: 'see also' },
      ],
    });
    expect(created.terms.map((term) => [term.name, term.regionCode, term.fieldMap])).toEqual([
      ['lever', 'US', { [w.tf.Usage]: ['technical'] }],
      ['Hebel', null, {}],
    ]);

    // Input the domain code refuses is a BAD_REQUEST naming the member.
    const invalid = await failure(token, CREATE, {
      input: {
        dictionaryId: w.dictionary.id,
        sectionOid: w.sectionOid,
        terms: [{ name: 'x', languageCode: 'xxx' }],
      },
    });
    expect(invalid.map((error) => error.code)).toEqual(['BAD_REQUEST']);
    expect(invalid[0]!.message).toContain('xxx');
    const noDictionary = await failure(token, CREATE, { input: { sectionOid: w.sectionOid } });
    expect(noDictionary.map((error) => [error.code, error.message])).toEqual([
      ['BAD_REQUEST', 'dictionaryId is required'],
    ]);

    // Full update: what is left out is erased; terms keep their ids.
    const terms = created.terms.map((term) => ({
      id: term.id,
      name: term.name,
      languageCode: term.languageCode,
    }));
    const { updateConcept: updated } = await gqlOk<{ updateConcept: ReturnType<typeof asGraphQL> }>(
      base,
      token,
      UPDATE,
      {
        id: created.id,
        version: created.version,
        input: { sectionOid: w.sectionOid, fieldMap: { [w.cf.Note]: 'replaced' }, terms },
      },
    );
    expect(updated).toMatchObject({
      version: 2,
      domainList: [],
      fieldMap: { [w.cf.Note]: ['replaced'] },
      relations: [],
    });
    expect(updated.terms.map((term) => [term.id, term.name, term.regionCode])).toEqual([
      [created.terms[0]!.id, 'lever', null],
      [created.terms[1]!.id, 'Hebel', null],
    ]);
    expect(updated).toEqual(asGraphQL(await restRead(w.admin, created.id)));

    // A stale version is a CONFLICT and changes nothing.
    const stale = await failure(token, UPDATE, {
      id: created.id,
      version: created.version,
      input: { sectionOid: w.sectionOid, terms: [] },
    });
    expect(stale.map((error) => [error.path, error.code])).toEqual([[['updateConcept'], 'CONFLICT']]);
    const stalePatch = await failure(token, PATCH, { id: created.id, version: 1, input: { terms: [] } });
    expect(stalePatch.map((error) => error.code)).toEqual(['CONFLICT']);
    expect((await restRead(w.admin, created.id)).version).toBe(2);
    expect((await restRead(w.admin, created.id)).terms).toHaveLength(2);

    // Patch: what is left out stays.
    const { patchConcept: patched } = await gqlOk<{ patchConcept: ReturnType<typeof asGraphQL> }>(
      base,
      token,
      PATCH,
      { id: created.id, version: 2, input: { fieldMap: { [w.cf.Definition]: 'patched' } } },
    );
    expect(patched).toMatchObject({
      version: 3,
      fieldMap: { [w.cf.Note]: ['replaced'], [w.cf.Definition]: ['patched'] },
    });
    expect(patched.terms).toHaveLength(2);

    // Locks: held by the caller, refusing another user's change, released.
    const lockQuery = 'query ($id: Int!) { concept(id: $id) { lock { userId mine } } }';
    const acquired = await gqlOk<{ acquireConceptLock: boolean; concept: unknown }>(
      base,
      token,
      'mutation ($id: Int!) { acquireConceptLock(id: $id) }',
      { id: created.id },
    );
    expect(acquired.acquireConceptLock).toBe(true);
    const locked = await gqlOk<{ concept: { lock: { userId: number; mine: boolean } } }>(
      base,
      token,
      lockQuery,
      {
        id: created.id,
      },
    );
    expect(locked.concept.lock.mine).toBe(true);
    const other = await loggedInUser(t, w.tenant, { roles: ['ADMIN'] });
    expect(
      (await failure(other.rest.token!, PATCH, { id: created.id, version: 3, input: { fieldMap: {} } })).map(
        (error) => error.code,
      ),
    ).toEqual(['CONFLICT']);
    expect(
      (
        await gqlOk<{ releaseConceptLock: boolean }>(
          base,
          token,
          'mutation ($id: Int!) { releaseConceptLock(id: $id) }',
          { id: created.id },
        )
      ).releaseConceptLock,
    ).toBe(true);
    expect(
      (await gqlOk<{ concept: { lock: null } }>(base, token, lockQuery, { id: created.id })).concept.lock,
    ).toBeNull();

    // Delete: gone for GraphQL and REST; deleting again is NOT_FOUND.
    const deleted = await gqlOk<{ deleteConcept: boolean }>(
      base,
      token,
      'mutation ($id: Int!) { deleteConcept(id: $id) }',
      {
        id: created.id,
      },
    );
    expect(deleted.deleteConcept).toBe(true);
    expect((await failure(token, CONCEPT_QUERY, { id: created.id })).map((error) => error.code)).toEqual([
      'NOT_FOUND',
    ]);
    expect((await w.admin.get(`/concepts/${created.id}`)).status).toBe(404);
    expect(
      (await failure(token, 'mutation ($id: Int!) { deleteConcept(id: $id) }', { id: created.id })).map(
        (error) => error.code,
      ),
    ).toEqual(['NOT_FOUND']);
  });

  it('writes need their permission and a token', async () => {
    const w = await world();
    const user = await loggedInUser(t, w.tenant);
    const readers = await groupWith(w.admin, [user.id]);
    const scheme = await createScheme(w.admin, [grant(readers.id, ['DICT_READ'])]);
    const response = await patchAtCurrentVersion(w.admin, 'sections', w.dictionary.sections[0]!.id, {
      permissionSchemeId: scheme.id,
    });
    expect(response.status, response.text).toBe(200);
    const concept = await restConcept(w);
    const input = { dictionaryId: w.dictionary.id, sectionOid: w.sectionOid, terms: termsOf('refused') };
    expect((await failure(user.rest.token!, CREATE, { input })).map((error) => error.code)).toEqual([
      'FORBIDDEN',
    ]);
    expect(
      (
        await failure(user.rest.token!, 'mutation ($id: Int!) { deleteConcept(id: $id) }', { id: concept.id })
      ).map((error) => error.code),
    ).toEqual(['FORBIDDEN']);
    for (const token of ['', 'not-a-token']) {
      const anonymous = await gql(base, token, CONCEPT_QUERY, { id: concept.id });
      expect(anonymous.errors!.map((error) => error.extensions.code)).toEqual(['UNAUTHORIZED']);
      const listing = await gql(
        base,
        token,
        'query ($d: Int!) { concepts(dictionaryId: $d) { nodes { id } } }',
        {
          d: w.dictionary.id,
        },
      );
      expect(listing.errors!.map((error) => error.extensions.code)).toEqual(['UNAUTHORIZED']);
    }
    expect((await restRead(w.admin, concept.id)).version).toBe(1);
  });
});

// ---------------------------------------------------------------- limits and statement counts

/** Statements of one GraphQL request, after a first run that warms up the session. */
async function statementsOf(token: string, query: string, variables: Record<string, unknown> = {}) {
  const sql = sqlCounter(t);
  try {
    await gqlOk(base, token, query, variables);
    const first = await sql.during(() => gqlOk(base, token, query, variables));
    const second = await sql.during(() => gqlOk(base, token, query, variables));
    expect(second.length, second.join('\n')).toBe(first.length);
    return first;
  } finally {
    sql.restore();
  }
}

describe('limits', () => {
  it('a too deep or too complex query is refused with a clear message before any resolver runs', async () => {
    const w = await world();
    const a = await restConcept(w);
    const b = await restConcept(w, { conceptRelations: [related(a.id)] });
    const token = w.admin.token!;
    const hops = (n: number): string => (n === 0 ? 'id' : `relations { target { ${hops(n - 1)} } }`);
    const sql = sqlCounter(t);
    try {
      // Five hops nest 12 levels: allowed.
      const five = `query ($id: Int!) { concept(id: $id) { ${hops(5)} } }`;
      const allowed = await gqlOk<{ concept: unknown }>(base, token, five, { id: b.id });
      expect(JSON.stringify(allowed.concept)).toContain(`"id":${a.id}`);

      const six = `query ($id: Int!) { concept(id: $id) { ${hops(6)} } }`;
      let refused: Awaited<ReturnType<typeof overLimit>> = [];
      const deep = await sql.during(async () => {
        refused = await overLimit(token, six, { id: b.id });
      });
      expect(refused).toEqual([
        {
          path: undefined,
          code: 'BAD_REQUEST',
          message: 'Query too deep: it nests 14 levels, at most 12 are allowed',
        },
      ]);
      expect(deep, `no statement: neither authentication nor a resolver ran: ${deep.join('\n')}`).toEqual([]);

      const heavy = `query ($d: Int!) { concepts(dictionaryId: $d, first: 50) { nodes { related(depth: 3) { id terms { name } } } } }`;
      const complex = await sql.during(async () => {
        refused = await overLimit(token, heavy, { d: w.dictionary.id });
      });
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ path: undefined, code: 'BAD_REQUEST' });
      expect(refused[0]!.message).toMatch(
        /^Query too complex: its estimated cost is \d+, at most 20000 is allowed/,
      );
      expect(complex).toEqual([]);
      // The same walk from one concept, or a shallower one over the page, is fine.
      await gqlOk(
        base,
        token,
        `query ($id: Int!) { concept(id: $id) { related(depth: 3) { id terms { name } } } }`,
        {
          id: b.id,
        },
      );
      await gqlOk(
        base,
        token,
        `query ($d: Int!) { concepts(dictionaryId: $d, first: 50) { nodes { related(depth: 2) { id } } } }`,
        {
          d: w.dictionary.id,
        },
      );

      // A mutation over the limit changes nothing.
      const before = (await restRead(w.admin, a.id)).version;
      const deepMutation = `mutation ($id: Int!, $v: Int!) { patchConcept(id: $id, version: $v, input: {}) { ${hops(6)} } }`;
      const writes = await sql.during(async () => {
        refused = await overLimit(token, deepMutation, { id: a.id, v: before });
      });
      expect(refused.map((error) => error.code)).toEqual(['BAD_REQUEST']);
      expect(writes).toEqual([]);
      expect((await restRead(w.admin, a.id)).version).toBe(before);
    } finally {
      sql.restore();
    }
  });

  it('SQL statements do not grow with the number of concepts: a page of 50 with terms and relation targets costs what 5 cost', async () => {
    /** n concepts with two terms each, each related to the next one (made last to first). */
    async function chain(n: number) {
      const w = await world();
      const made: ConceptBody[] = [];
      for (let i = n; i >= 1; i--) {
        const next = made[0];
        made.unshift(
          await restConcept(w, {
            terms: termsOf(`c${i}`),
            conceptRelations: next ? [related(next.id)] : [],
          }),
        );
      }
      return { w, made };
    }
    const page = `query ($d: Int!) { concepts(dictionaryId: $d, first: 50) { nodes {
      terms { name } relations { target { terms { name } } } } } }`;
    /** A hub related to every concept of the chain: its neighbours are loaded, not primed by a page. */
    const star = `query ($id: Int!) { concept(id: $id) { related {
      terms { name } relations { target { terms { name } } } } } }`;

    const small = await chain(5);
    const large = await chain(50);

    for (const { w, made } of [small, large]) {
      const answer = await gqlOk<{
        concepts: {
          nodes: { terms: { name: string }[]; relations: { target: { terms: { name: string }[] } }[] }[];
        };
      }>(base, w.admin.token!, page, { d: w.dictionary.id });
      expect(answer.concepts.nodes).toHaveLength(made.length);
      // Made last to first, so the page (by id) starts with c{n}.
      answer.concepts.nodes.forEach((concept, index) => {
        const i = made.length - index;
        expect(concept.terms.map((term) => term.name)).toEqual([`c${i} en`, `c${i} de`]);
        // The relation from the previous concept ends here; the one to the next concept ends there.
        const targets = concept.relations.map((relation) => relation.target.terms[0]!.name);
        const expected = [...(i > 1 ? [`c${i} en`] : []), ...(i < made.length ? [`c${i + 1} en`] : [])];
        expect(targets.sort()).toEqual(expected.sort());
      });
    }

    const smallPage = await statementsOf(small.w.admin.token!, page, { d: small.w.dictionary.id });
    const largePage = await statementsOf(large.w.admin.token!, page, { d: large.w.dictionary.id });
    expect(smallPage.length).toBeGreaterThan(0);
    expect(largePage.length, `${smallPage.join('\n')}\n----\n${largePage.join('\n')}`).toBe(smallPage.length);
    expect(largePage.filter((sql) => /from "terms"/.test(sql))).toHaveLength(1);

    const hubs = [];
    for (const { w, made } of [small, large]) {
      hubs.push(await restConcept(w, { conceptRelations: made.map((concept) => related(concept.id)) }));
    }
    const answer = await gqlOk<{ concept: { related: { terms: { name: string }[] }[] } }>(
      base,
      large.w.admin.token!,
      star,
      { id: hubs[1]!.id },
    );
    expect(answer.concept.related.map((concept) => concept.terms[0]!.name)).toEqual(
      large.made.map((_, index) => `c${index + 1} en`),
    );
    const smallStar = await statementsOf(small.w.admin.token!, star, { id: hubs[0]!.id });
    const largeStar = await statementsOf(large.w.admin.token!, star, { id: hubs[1]!.id });
    expect(largeStar.length, `${smallStar.join('\n')}\n----\n${largeStar.join('\n')}`).toBe(smallStar.length);
    // The hub's own read and one batch of its 50 neighbours: two term queries in all.
    expect(largeStar.filter((sql) => /from "terms"/.test(sql))).toHaveLength(2);

    // The same for a reader who is no administrator (permissions resolved once per request).
    const readerSmall = await loggedInUser(t, small.w.tenant);
    const readerLarge = await loggedInUser(t, large.w.tenant);
    const readSmall = await statementsOf(readerSmall.rest.token!, page, { d: small.w.dictionary.id });
    const readLarge = await statementsOf(readerLarge.rest.token!, page, { d: large.w.dictionary.id });
    expect(readLarge.length, `${readSmall.join('\n')}\n----\n${readLarge.join('\n')}`).toBe(readSmall.length);
  });
});
