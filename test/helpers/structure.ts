// Over 500 lines by design: the builders of one dictionary structure that every structure suite shares.
/**
 * Shared setup for the dictionary-structure suites (structure, structure operations, definition
 * import/export, sync settings, the GraphQL structure e2e suite): tenants, users, groups, permission
 * schemes, dictionaries, sections, domains and views over REST, and concept/term/view rows written
 * straight through the ORM (concepts and terms have no API yet).
 */
import { expect } from 'vitest';
import { Client } from '../../src/modules/client/client.entity.js';
import { Concept, ConceptDomain, Term } from '../../src/modules/concept/concept.entity.js';
import { Dictionary } from '../../src/modules/dictionary/dictionary.entity.js';
import { Domain } from '../../src/modules/domain/domain.entity.js';
import { Section } from '../../src/modules/section/section.entity.js';
import { View } from '../../src/modules/view/view.entity.js';
import { createGroup, type ErrorBody, tenantWithAdmin } from '../access/access-helpers.js';
import { createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import type { TestApp } from './app.js';
import { loginRest, type RestClient, type RestResponse } from './rest.js';

export type { ErrorBody };
export { uniqueSuffix };

export interface Audit {
  id: number | null;
  name: string | null;
  fullName: string | null;
  time: number;
  oid: string | null;
}

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

/** The members every versioned row of a tenant answers with. */
export interface EntityBody {
  id: number;
  oid: string | null;
  version: number;
  clientId: number;
  deleted: boolean;
}

/** A versioned row that also tells who created and last changed it. */
export interface AuditedBody extends EntityBody {
  created: Audit;
  changed: Audit;
}

export interface SectionBody extends AuditedBody {
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
  oid: string | null;
  deleted: boolean;
  name: string;
  type: number;
  variantType: number;
  code: string;
  variantCode: string;
  predefined: boolean;
  languageId: number;
  sortIndex: number;
}

export interface LanguageBody {
  id: number;
  oid: string | null;
  deleted: boolean;
  name: string;
  dictionaryId: number;
  clientId: number;
  code: string;
  code2: string | null;
  code3: string | null;
  isIso: boolean;
  iso: boolean;
  custom: boolean;
  idStr: string;
  rtl: boolean;
  sortIndex: number;
  variants: VariantBody[];
}

/** A picklist item; proposals (generate-picklist) have neither id nor oid yet. */
export interface PicklistItemBody {
  id: number | null;
  oid: string | null;
  name: string | null;
  tbxName: string | null;
  sortIndex: number;
  fieldOid: string;
}

export interface FieldBody extends EntityBody {
  name: string;
  specifiedName: string | null;
  dictionaryId: number;
  dataCategory: string;
  fieldType: string;
  level: 'CONCEPT' | 'TERM';
  sortIndex: number;
  model: {
    id: number;
    oid: string | null;
    required: boolean;
    minLen: number;
    maxLen: number;
    regExp: string | null;
    number: boolean;
    unicode: boolean;
    picklistItems: PicklistItemBody[];
  };
}

export interface DictionaryBody extends AuditedBody {
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
  layoutId: null;
  permissionSchemeId: number | null;
}

export interface DomainBody extends EntityBody {
  name: string;
  dictionaryId: number;
  parentDomainId: number | null;
  numberOfConcepts: number;
  children: number[];
  sortIndex: number;
}

export interface ViewBody extends AuditedBody {
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

export interface SchemeBody {
  id: number;
  name: string;
  version: number;
}

/** A query string of the defined parameters ('' when none is). */
export const query = (params: Record<string, string | number | boolean | undefined>): string => {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined);
  return entries.length
    ? `?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()}`
    : '';
};

/** A fresh tenant with its administrator logged in. */
export const newTenant = (t: TestApp, sysadmin: RestClient) => tenantWithAdmin(t, sysadmin);

/** A named user of the tenant (ORM) with optional roles, logged in over REST. */
export async function loggedInUser(
  t: TestApp,
  tenant: TestTenant,
  options: { roles?: string[] } = {},
): Promise<{ id: number; username: string; rest: RestClient }> {
  const user = await createUser(t.orm, tenant.id, { roles: options.roles ?? [] });
  const rest = await loginRest(t.app, user.username, user.password, tenant.loginName);
  return { id: user.id, username: user.username, rest };
}

/** A NORMAL group whose explicit members are `memberIds` (named at random unless `name` is given). */
export const groupWith = (admin: RestClient, memberIds: number[], name = `Group ${uniqueSuffix()}`) =>
  createGroup(admin, { name, groupMembers: memberIds });

/** A grant of a permission scheme: dictionary and concept permissions of a group. */
export const grant = (
  groupId: number,
  dictionaryPermissions: string[],
  conceptPermissions: string[] = [],
) => ({
  groupId,
  dictionaryPermissions,
  conceptPermissions,
  termPermissions: [],
  languages: [],
});

/** POST /permissionschemes, expecting 201. */
export async function createScheme(
  admin: RestClient,
  grants: ReturnType<typeof grant>[],
): Promise<SchemeBody> {
  const response = await admin.post<SchemeBody>('/permissionschemes', {
    name: `Scheme ${uniqueSuffix()}`,
    grants,
  });
  if (response.status !== 201) throw new Error(`createScheme failed: ${response.status} ${response.text}`);
  return response.body;
}

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

/** GET /dictionaries/{id}, expecting 200. */
export async function getDictionary(caller: RestClient, id: number): Promise<DictionaryBody> {
  const response = await caller.get<DictionaryBody>(`/dictionaries/${id}`);
  if (response.status !== 200) throw new Error(`get dictionary ${id}: ${response.status} ${response.text}`);
  return response.body;
}

/** The input form of a language as read (ids kept, so the language and its variants stay the same rows). */
export const languageInput = (language: LanguageBody) => ({
  id: language.id,
  code: language.code,
  name: language.name,
  custom: language.custom,
  rtl: language.rtl,
  sortIndex: language.sortIndex,
  variants: language.variants.map((variant) => ({
    id: variant.id,
    type: variant.type,
    code: variant.code,
    name: variant.name,
    sortIndex: variant.sortIndex,
  })),
});

/** The input form of a field as read (ids kept). */
export const fieldInput = (field: FieldBody) => ({
  id: field.id,
  name: field.name,
  specifiedName: field.specifiedName,
  dataCategory: field.dataCategory,
  fieldType: field.fieldType,
  sortIndex: field.sortIndex,
  model: {
    required: field.model.required,
    minLen: field.model.minLen,
    maxLen: field.model.maxLen,
    regExp: field.model.regExp,
    number: field.model.number,
    unicode: field.model.unicode,
    picklistItems: field.model.picklistItems.map((item) => ({
      id: item.id,
      name: item.name,
      tbxName: item.tbxName,
      sortIndex: item.sortIndex,
    })),
  },
});

/** The full-update body of a dictionary as read: PUT with it changes nothing but the version. */
export const dictionaryInput = (dictionary: DictionaryBody) => ({
  name: dictionary.name,
  description: dictionary.description,
  languages: dictionary.languages.map(languageInput),
  conceptFields: dictionary.conceptFields.map(fieldInput),
  termFields: dictionary.termFields.map(fieldInput),
  emailRecipientId: dictionary.emailRecipientId,
  sortIndex: dictionary.sortIndex,
  domainPresentation: dictionary.domainPresentation,
  permissionSchemeId: dictionary.permissionSchemeId,
  version: dictionary.version,
});

/** PUT /dictionaries/{id} with the current state and `changes` on top (version of the current state). */
export async function updateDictionary(
  caller: RestClient,
  current: DictionaryBody,
  changes: Record<string, unknown>,
): Promise<RestResponse<DictionaryBody & ErrorBody>> {
  return caller.put<DictionaryBody & ErrorBody>(`/dictionaries/${current.id}`, {
    ...dictionaryInput(current),
    ...changes,
  });
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

/** Rows read straight from the database (for "nothing changed" checks). */
export async function rows<T = Record<string, unknown>>(t: TestApp, sql: string, params: unknown[] = []) {
  return t.orm.em.fork().getConnection().execute<T[]>(sql, params);
}

/** Where inserted concepts go. */
export interface ConceptTarget {
  clientId: number;
  dictionaryId: number;
  sectionId: number;
}

/** Inserts concepts (ORM; no API yet) into a section, each with an optional field map and deleted flag. */
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

/** `count` live concepts without field values. */
export const insertBareConcepts = (t: TestApp, target: ConceptTarget, count: number) =>
  insertConcepts(
    t,
    target,
    Array.from({ length: count }, () => ({})),
  );

let tidCounter = 1;

/** Inserts a term (ORM) of a concept, optionally soft-deleted. */
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

/** A view of a dictionary written through the ORM (for suites that must not depend on the views API). */
export async function insertView(t: TestApp, clientId: number, dictionaryId: number): Promise<number> {
  const em = t.orm.em.fork();
  const view = em.create(View, {
    client: em.getReference(Client, clientId),
    dictionary: em.getReference(Dictionary, dictionaryId),
    name: `View ${uniqueSuffix()}`,
    fields: [],
  });
  await em.flush();
  return view.id;
}

/** Asserts an error answer: status, error code (the status's usual one unless given), a message. */
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
