/**
 * Setup for the concept suites: the server listening on a real socket, a REST caller over it, and a
 * tenant with a dictionary whose languages, variants, fields, sections and domains cover every rule of
 * the concept writes. Concepts are made through the API under test.
 */
import { expect } from 'vitest';
import type { TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient, type RestResponse } from '../helpers/rest.js';
import {
  type AuditedBody,
  createDictionary,
  createDomain,
  createSection,
  type DictionaryBody,
  type DomainBody,
  type ErrorBody,
  type FieldBody,
  loggedInUser,
  newTenant,
  rows,
  type SectionBody,
} from '../helpers/structure.js';

export type { ErrorBody };
export type Answer<T> = RestResponse<T & ErrorBody>;

/** A REST caller of /api/v4 over the listening socket (requests really run side by side). */
export class Api {
  constructor(
    readonly base: string,
    readonly token?: string,
  ) {}

  async call<T>(
    method: string,
    path: string,
    json?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.token) headers['x-auth-token'] = this.token;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}/api/v4${path}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: (isJson ? JSON.parse(text) : text) as T & ErrorBody,
      text,
    };
  }

  get<T = unknown>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = unknown>(path: string, json?: unknown) {
    return this.call<T>('POST', path, json);
  }
  put<T = unknown>(path: string, json?: unknown) {
    return this.call<T>('PUT', path, json);
  }
  delete<T = unknown>(path: string) {
    return this.call<T>('DELETE', path);
  }
}

export interface Server {
  t: TestApp;
  sysadmin: RestClient;
  base: string;
  /** The socket caller carrying a RestClient's token. */
  api(rest: RestClient): Api;
  close(): Promise<void>;
}

/** The whole server listening on a free loopback port. */
export async function startServer(
  overrides: Record<string, string> = {},
  ormOverrides: Parameters<typeof buildTestApp>[1] = {},
): Promise<Server> {
  const t = await buildTestApp(overrides, ormOverrides);
  const sysadmin = await loginSysadmin(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;
  return { t, sysadmin, base, api: (rest) => new Api(base, rest.token), close: () => t.close() };
}

// ---------------------------------------------------------------- bodies

export interface RefLinkBody {
  id: number;
  oid: string | null;
  sourceConceptId: number;
  sourceTermId: number | null;
  sourceFieldOid: string;
  type: 'CONCEPT' | 'TERM' | 'URL';
  text: string;
  dynamicText: string | null;
  position: number;
  url: string | null;
  conceptId: number | null;
  termId: number | null;
  languageCode: string | null;
  dictionaryId: number;
  invalid: boolean;
}

export interface RelationBody {
  id: number;
  oid: string | null;
  dictionaryId: number;
  sourceConceptId: number;
  targetConceptId: number;
  type: number;
  attribute: number;
  text: string | null;
  relationId: number;
}

export interface TermBody extends AuditedBody {
  name: string;
  tid: number;
  conceptId: number;
  conceptOid: string | null;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  permissions: Record<string, boolean>;
  fieldMap: Record<string, string[]>;
  refLinks: RefLinkBody[];
  comments: unknown[];
  dictionaryId: number;
}

export interface LockBody {
  userId: number;
  name: string | null;
  fullName: string | null;
  mine: boolean;
  expirationTime: number;
}

/** A concept's values in one language tag (docs/concepts.md, Language fields). */
export interface LanguageFieldsBody {
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
}

export interface ConceptBody extends AuditedBody {
  cid: string;
  sectionOid: string | null;
  sectionId: number;
  domainList: string[];
  terms: TermBody[];
  conceptRelations: RelationBody[];
  languageCodesEditable: string[];
  permissions: Record<string, boolean>;
  fieldMap: Record<string, string[]>;
  languageFields: LanguageFieldsBody[];
  refLinks: RefLinkBody[];
  comments: unknown[];
  dictionaryId: number;
  lock: LockBody | null;
}

// ---------------------------------------------------------------- world

/** English with two regions and a script, German, French. */
export const LANGUAGES = [
  {
    code: 'eng',
    variants: [
      { type: 0, code: 'US' },
      { type: 0, code: 'GB' },
      { type: 1, code: 'Latn' },
    ],
  },
  { code: 'deu' },
  { code: 'fra' },
];

const CONCEPT_FIELDS: { name: ConceptFieldName; [key: string]: unknown }[] = [
  { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
  { name: 'Note', fieldType: 'SINGLELINE' },
  { name: 'Code', fieldType: 'SINGLELINE', model: { regExp: '[A-Z]{3}' } },
  { name: 'Short', fieldType: 'SINGLELINE', model: { minLen: 3, maxLen: 5 } },
  {
    name: 'Status',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ name: 'new' }, { name: 'Approved', tbxName: 'approved' }] },
  },
  { name: 'Due', fieldType: 'DATE' },
  { name: 'Amount', fieldType: 'NUMBER' },
  { name: 'Serial', fieldType: 'INCREMENTAL' },
  {
    name: 'Tags',
    fieldType: 'MULTISELECT',
    model: { picklistItems: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
  },
];

const TERM_FIELDS: { name: TermFieldName; [key: string]: unknown }[] = [
  {
    name: 'Gender',
    dataCategory: 'GRAMMATICAL_GENDER',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ tbxName: 'masculine' }, { tbxName: 'feminine' }] },
  },
  { name: 'Usage', fieldType: 'MULTILINE' },
  { name: 'Labels', fieldType: 'MULTISELECT', model: { picklistItems: [{ name: 'x' }, { name: 'y' }] } },
  { name: 'TermSerial', fieldType: 'INCREMENTAL' },
];

export type ConceptFieldName =
  | 'Definition'
  | 'Note'
  | 'Code'
  | 'Short'
  | 'Status'
  | 'Due'
  | 'Amount'
  | 'Serial'
  | 'Tags';
export type TermFieldName = 'Gender' | 'Usage' | 'Labels' | 'TermSerial';

const oidsByName = (fields: readonly FieldBody[]): Record<string, string> =>
  Object.fromEntries(
    fields.map((field) => {
      if (!field.oid) throw new Error(`field ${field.name} has no oid`);
      return [field.name, field.oid];
    }),
  );

export interface World {
  tenant: TestTenant;
  /** The client administrator, over the socket. */
  admin: Api;
  adminRest: RestClient;
  dictionary: DictionaryBody;
  /** The dictionary's first section (made with it). */
  section: SectionBody & { oid: string };
  /** A second section of the dictionary. */
  section2: SectionBody & { oid: string };
  domain: DomainBody & { oid: string };
  /** Concept field oids by name. */
  cf: Record<ConceptFieldName, string>;
  /** Term field oids by name. */
  tf: Record<TermFieldName, string>;
  /** Another dictionary of the same tenant (French only), with its section, domain and fields. */
  other: {
    dictionary: DictionaryBody;
    sectionOid: string;
    domainOid: string;
    cf: Record<string, string>;
  };
}

const withOid = <T extends { oid: string | null }>(row: T, what: string): T & { oid: string } => {
  if (!row.oid) throw new Error(`${what} has no oid`);
  return row as T & { oid: string };
};

/** A fresh tenant with the world above. */
export async function conceptWorld(server: Server): Promise<World> {
  const { tenant, admin: adminRest } = await newTenant(server.t, server.sysadmin);
  const dictionary = await createDictionary(adminRest, {
    languages: LANGUAGES,
    conceptFields: CONCEPT_FIELDS,
    termFields: TERM_FIELDS,
  });
  const section = withOid(dictionary.sections[0]!, 'first section');
  const section2 = withOid(await createSection(adminRest, dictionary.id), 'second section');
  const domain = withOid(await createDomain(adminRest, dictionary.id, 'Physics'), 'domain');
  const other = await createDictionary(adminRest, {
    languages: [{ code: 'fra' }],
    conceptFields: [{ name: 'Definition', fieldType: 'MULTILINE' }],
  });
  const otherDomain = await createDomain(adminRest, other.id, 'Elsewhere');
  return {
    tenant,
    admin: server.api(adminRest),
    adminRest,
    dictionary,
    section,
    section2,
    domain,
    cf: oidsByName(dictionary.conceptFields) as Record<ConceptFieldName, string>,
    tf: oidsByName(dictionary.termFields) as Record<TermFieldName, string>,
    other: {
      dictionary: other,
      sectionOid: withOid(other.sections[0]!, 'other section').oid,
      domainOid: withOid(otherDomain, 'other domain').oid,
      cf: oidsByName(other.conceptFields),
    },
  };
}

/** A user of the world's tenant (optionally with roles), logged in, over the socket. */
export async function userOf(server: Server, world: World, roles: string[] = []) {
  const user = await loggedInUser(server.t, world.tenant, { roles });
  return { id: user.id, username: user.username, rest: user.rest, api: server.api(user.rest) };
}

// ---------------------------------------------------------------- concepts

export interface TermInput {
  id?: number;
  name: string;
  languageCode: string;
  regionCode?: string | null;
  scriptCode?: string | null;
  fieldMap?: Record<string, string | string[] | null>;
  refLinks?: unknown[];
}

/** A create body in the world's first section with one English term (unless terms are given). */
export const conceptBody = (world: World, body: Record<string, unknown> = {}) => ({
  dictionaryId: world.dictionary.id,
  sectionOid: world.section.oid,
  terms: [{ name: `term ${Math.random().toString(36).slice(2, 8)}`, languageCode: 'eng' }],
  ...body,
});

/** POST /concepts, expecting 201. */
export async function createConcept(
  caller: Api,
  world: World,
  body: Record<string, unknown> = {},
): Promise<ConceptBody> {
  const response = await caller.post<ConceptBody>('/concepts', conceptBody(world, body));
  if (response.status !== 201) throw new Error(`createConcept failed: ${response.status} ${response.text}`);
  return response.body;
}

/** GET /concepts/{id}, expecting 200. */
export async function getConcept(caller: Api, id: number, params = ''): Promise<ConceptBody> {
  const response = await caller.get<ConceptBody>(`/concepts/${id}${params}`);
  if (response.status !== 200) throw new Error(`GET concept ${id}: ${response.status} ${response.text}`);
  return response.body;
}

/** The input form of a term as read (id kept, so PUT changes nothing). */
export const termInput = (term: TermBody): TermInput => ({
  id: term.id,
  name: term.name,
  languageCode: term.languageCode,
  regionCode: term.regionCode,
  scriptCode: term.scriptCode,
  fieldMap: term.fieldMap,
  refLinks: term.refLinks.map(refLinkInput),
});

const refLinkInput = (link: RefLinkBody) => ({
  sourceFieldOid: link.sourceFieldOid,
  type: link.type,
  text: link.text,
  dynamicText: link.dynamicText,
  position: link.position,
  url: link.url,
  conceptId: link.conceptId,
  termId: link.termId,
  languageCode: link.languageCode,
});

/** The full-update body of a concept as read: PUT with it changes nothing. */
export const conceptInput = (concept: ConceptBody) => ({
  version: concept.version,
  dictionaryId: concept.dictionaryId,
  sectionOid: concept.sectionOid,
  domainList: concept.domainList,
  fieldMap: concept.fieldMap,
  terms: concept.terms.map(termInput),
  conceptRelations: concept.conceptRelations.map((relation) => ({
    id: relation.id,
    sourceConceptId: relation.sourceConceptId,
    targetConceptId: relation.targetConceptId,
    type: relation.type,
    attribute: relation.attribute,
    text: relation.text,
  })),
  refLinks: concept.refLinks.map(refLinkInput),
});

/** PUT /concepts/{id} with the current state and `changes` on top. */
export const putConcept = (caller: Api, current: ConceptBody, changes: Record<string, unknown> = {}) =>
  caller.put<ConceptBody>(`/concepts/${current.id}`, { ...conceptInput(current), ...changes });

/** PUT /concepts/{id}/patch at the given concept's version. */
export const patchConcept = (caller: Api, current: ConceptBody, body: Record<string, unknown>) =>
  caller.put<ConceptBody>(`/concepts/${current.id}/patch`, { version: current.version, ...body });

/** Sets oids straight in the database (concepts made over the API have none). */
export async function setOid(t: TestApp, table: 'concepts' | 'terms', id: number, oid: string) {
  await rows(t, `update ${table} set oid = ? where id = ?`, [oid, id]);
}

/** Asserts a 400 whose message names every one of `words`. */
export function expectBadRequest(response: Answer<unknown>, ...words: string[]) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.code).toBe('BAD_REQUEST');
  for (const word of words) expect(response.body.message, response.text).toContain(word);
}

/** Counts of a tenant's concept rows (for "nothing was stored" checks). */
export async function countRows(t: TestApp, dictionaryId: number) {
  const [row] = await rows<{ concepts: number; terms: number; relations: number }>(
    t,
    `select (select count(*)::int from concepts where dictionary_id = ?) as concepts,
            (select count(*)::int from terms where dictionary_id = ?) as terms,
            (select count(*)::int from concept_relations where dictionary_id = ?) as relations`,
    [dictionaryId, dictionaryId, dictionaryId],
  );
  return row!;
}

export { rows };
