/**
 * Shared setup for the structure-operation suites (views, filters, export settings, dictionary jobs,
 * job tasks): tenants, users, dictionaries over REST, and concept/term rows straight through the ORM
 * (concepts and terms have no API yet).
 */
import { expect } from 'vitest';
import { Client } from '../../src/modules/client/client.entity.js';
import { Concept, ConceptDomain, Term } from '../../src/modules/concept/concept.entity.js';
import { Dictionary } from '../../src/modules/dictionary/dictionary.entity.js';
import { Domain } from '../../src/modules/domain/domain.entity.js';
import { Section } from '../../src/modules/section/section.entity.js';
import { createGroup, type ErrorBody, tenantWithAdmin } from '../access/access-helpers.js';
import { createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import type { TestApp } from '../helpers/app.js';
import { loginRest, type RestClient, type RestResponse } from '../helpers/rest.js';

export type { ErrorBody };
export { uniqueSuffix };

export interface PageBody<T> {
  content: T[];
  last: boolean;
  first: boolean;
  totalElements: number;
  totalPages: number;
  sort: string | null;
  numberOfElements: number;
  size: number;
  number: number;
}

export interface Audit {
  id: number | null;
  name: string | null;
  fullName: string | null;
  time: number;
  oid: string | null;
}

export interface SectionBody {
  id: number;
  oid: string | null;
  version: number;
  name: string;
  viewId: number | null;
  numberOfConcepts: number;
  deletable: boolean;
  sortIndex: number;
  dictionaryId: number;
  permissionSchemeId: number | null;
}

export interface VariantBody {
  id: number;
  name: string;
  type: number;
  code: string;
  predefined: boolean;
  languageId: number;
  sortIndex: number;
}

export interface LanguageBody {
  id: number;
  name: string;
  dictionaryId: number;
  code: string;
  code2: string | null;
  code3: string | null;
  isIso: boolean;
  custom: boolean;
  rtl: boolean;
  sortIndex: number;
  variants: VariantBody[];
}

export interface PicklistItemBody {
  id: number;
  oid: string;
  name: string | null;
  tbxName: string | null;
  sortIndex: number;
  fieldOid: string;
}

export interface FieldBody {
  id: number;
  oid: string | null;
  name: string;
  specifiedName: string | null;
  dictionaryId: number;
  dataCategory: string;
  fieldType: string;
  level: 'CONCEPT' | 'TERM';
  sortIndex: number;
  model: {
    required: boolean;
    minLen: number;
    maxLen: number;
    regExp: string | null;
    number: boolean;
    unicode: boolean;
    picklistItems: PicklistItemBody[];
  };
}

export interface DictionaryBody {
  id: number;
  oid: string | null;
  version: number;
  clientId: number;
  name: string;
  description: string | null;
  sections: SectionBody[];
  allSections: SectionBody[];
  languages: LanguageBody[];
  conceptFields: FieldBody[];
  termFields: FieldBody[];
  emailRecipientId: number | null;
  sortIndex: number;
  concepts: number;
  hasDomains: boolean;
  domainPresentation: 'FLAT' | 'HIERARCHICAL' | 'HORIZONTAL';
  permissionSchemeId: number | null;
}

export interface DomainBody {
  id: number;
  oid: string | null;
  version: number;
  name: string;
  dictionaryId: number;
  parentDomainId: number | null;
  numberOfConcepts: number;
  children: number[];
  sortIndex: number;
}

export interface ViewBody {
  id: number;
  oid: string | null;
  version: number;
  clientId: number;
  deleted: boolean;
  created: Audit;
  changed: Audit;
  name: string;
  fields: string[];
  inUse: boolean;
  inUseMessage: string | null;
  dictionaryId: number;
}

export interface InvocationResultBody {
  result?: Record<string, boolean> | number | boolean;
  jobTaskId?: number;
}

export interface JobBody {
  id: number;
  type: string;
  status: 'RUNNING' | 'DONE' | 'FAILED';
  processed: number;
  total: number | null;
  result: Record<string, boolean> | number | boolean | null;
  message: string | null;
  userId: number | null;
  clientId: number;
  created: number;
  finished: number | null;
}

export const query = (params: Record<string, string | number | boolean | undefined>): string => {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined);
  return entries.length
    ? `?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()}`
    : '';
};

/** A fresh tenant with its administrator logged in. */
export const newTenant = (t: TestApp, sysadmin: RestClient) => tenantWithAdmin(t, sysadmin);

/** A named user of the tenant (ORM), logged in over REST. */
export async function loggedInUser(
  t: TestApp,
  tenant: TestTenant,
  options: { roles?: string[] } = {},
): Promise<{ id: number; username: string; rest: RestClient }> {
  const user = await createUser(t.orm, tenant.id, { roles: options.roles ?? [] });
  const rest = await loginRest(t.app, user.username, user.password, tenant.loginName);
  return { id: user.id, username: user.username, rest };
}

/** A NORMAL group whose explicit members are `memberIds`. */
export const groupWith = (admin: RestClient, memberIds: number[], name = `Group ${uniqueSuffix()}`) =>
  createGroup(admin, { name, groupMembers: memberIds });

/** POST /dictionaries, expecting 201. */
export async function createDictionary(
  admin: RestClient,
  body: Record<string, unknown> = {},
): Promise<DictionaryBody> {
  const response = await admin.post<DictionaryBody>('/dictionaries', {
    name: `Dictionary ${uniqueSuffix()}`,
    ...body,
  });
  if (response.status !== 201) {
    throw new Error(`createDictionary failed: ${response.status} ${response.text}`);
  }
  return response.body;
}

export async function getDictionary(caller: RestClient, id: number): Promise<DictionaryBody> {
  const response = await caller.get<DictionaryBody>(`/dictionaries/${id}`);
  if (response.status !== 200) throw new Error(`get dictionary ${id}: ${response.status} ${response.text}`);
  return response.body;
}

/** POST /sections, expecting 201. */
export async function createSection(
  admin: RestClient,
  dictionaryId: number,
  name = `Section ${uniqueSuffix()}`,
): Promise<SectionBody> {
  const response = await admin.post<SectionBody>('/sections', { name, dictionaryId });
  if (response.status !== 201) throw new Error(`createSection failed: ${response.status} ${response.text}`);
  return response.body;
}

/** POST /domains, expecting 201. */
export async function createDomain(
  admin: RestClient,
  dictionaryId: number,
  name: string,
  parentDomainId: number | null = null,
): Promise<DomainBody> {
  const response = await admin.post<DomainBody>('/domains', { name, dictionaryId, parentDomainId });
  if (response.status !== 201) throw new Error(`createDomain failed: ${response.status} ${response.text}`);
  return response.body;
}

/** POST /views, expecting 201. */
export async function createView(
  admin: RestClient,
  dictionaryId: number,
  fields: string[] = [],
  name = `View ${uniqueSuffix()}`,
): Promise<ViewBody> {
  const response = await admin.post<ViewBody>('/views', { name, dictionaryId, fields });
  if (response.status !== 201) throw new Error(`createView failed: ${response.status} ${response.text}`);
  return response.body;
}

/** Partial update at the current version (read first). */
export async function patchAtCurrentVersion<T>(
  caller: RestClient,
  resource: string,
  id: number,
  body: Record<string, unknown>,
): Promise<RestResponse<T & ErrorBody>> {
  const current = await caller.get<{ version: number }>(`/${resource}/${id}`);
  if (current.status !== 200) throw new Error(`reading ${resource}/${id}: ${current.status} ${current.text}`);
  return caller.put<T & ErrorBody>(`/${resource}/partial/${id}`, { ...body, version: current.body.version });
}

/** Rows read straight from the database. */
export async function rows<T = Record<string, unknown>>(t: TestApp, sql: string, params: unknown[] = []) {
  return t.orm.em.fork().getConnection().execute<T[]>(sql, params);
}

export interface ConceptTarget {
  clientId: number;
  dictionaryId: number;
  sectionId: number;
}

/** Inserts concepts (ORM), each with a field map and optionally soft-deleted. */
export async function insertConcepts(
  t: TestApp,
  target: ConceptTarget,
  concepts: { fieldMap?: Record<string, string[]>; deleted?: boolean }[],
): Promise<number[]> {
  const em = t.orm.em.fork();
  const client = em.getReference(Client, target.clientId);
  const dictionary = em.getReference(Dictionary, target.dictionaryId);
  const section = em.getReference(Section, target.sectionId);
  const created = concepts.map((concept) =>
    em.create(Concept, {
      client,
      dictionary,
      section,
      cid: `c-${uniqueSuffix()}`,
      fieldMap: concept.fieldMap ?? {},
      deleted: concept.deleted ?? false,
    }),
  );
  await em.flush();
  return created.map((concept) => concept.id);
}

let tidCounter = 1;

/** Inserts a term (ORM) of a concept. */
export async function insertTerm(
  t: TestApp,
  target: { clientId: number; dictionaryId: number; conceptId: number },
  term: {
    name?: string;
    languageCode: string;
    regionCode?: string | null;
    scriptCode?: string | null;
    fieldMap?: Record<string, string[]>;
    deleted?: boolean;
  },
): Promise<number> {
  const em = t.orm.em.fork();
  const row = em.create(Term, {
    client: em.getReference(Client, target.clientId),
    dictionary: em.getReference(Dictionary, target.dictionaryId),
    concept: em.getReference(Concept, target.conceptId),
    name: term.name ?? `term ${uniqueSuffix()}`,
    languageCode: term.languageCode,
    regionCode: term.regionCode ?? null,
    scriptCode: term.scriptCode ?? null,
    tid: tidCounter++,
    fieldMap: term.fieldMap ?? {},
    deleted: term.deleted ?? false,
  });
  await em.flush();
  return row.id;
}

/** Links concepts to a domain (concept_domains rows). */
export async function linkConceptsToDomain(t: TestApp, conceptIds: number[], domainId: number) {
  const em = t.orm.em.fork();
  for (const conceptId of conceptIds) {
    em.create(ConceptDomain, {
      concept: em.getReference(Concept, conceptId),
      domain: em.getReference(Domain, domainId),
    });
  }
  await em.flush();
}

/** Asserts an error answer: status and our error body's code. */
export function expectError(response: RestResponse<unknown>, status: number, code?: string) {
  expect(response.status, response.text).toBe(status);
  const body = response.body as ErrorBody;
  expect(body.code, response.text).toBe(
    code ??
      {
        400: 'BAD_REQUEST',
        401: 'UNAUTHORIZED',
        403: 'FORBIDDEN',
        404: 'NOT_FOUND',
        405: 'METHOD_NOT_SUPPORTED',
        409: 'CONFLICT',
        422: 'UNPROCESSABLE',
      }[status],
  );
  expect(typeof body.message).toBe('string');
}

/** Polls GET /jobs/{id} until the job leaves RUNNING (or the deadline passes). */
export async function waitForJob(caller: RestClient, id: number, timeoutMs = 60_000): Promise<JobBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await caller.get<JobBody>(`/jobs/${id}`);
    if (response.status !== 200) throw new Error(`GET /jobs/${id}: ${response.status} ${response.text}`);
    if (response.body.status !== 'RUNNING') return response.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still RUNNING after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
